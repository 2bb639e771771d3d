#!/bin/sh
# need.sh TOOL PACKAGE -- COMMAND [ARG...]
# Runs COMMAND when TOOL is on the PATH; otherwise says which Debian
# package brings it and exits 77, which ctest counts as a skip (and
# tests/run.sh names, and fails on in CI).  A test that needs a tool is
# registered whether or not the tool is there, so that it never vanishes.
tool=$1 pkg=$2
shift 2
[ "${1:-}" = -- ] && shift
if ! command -v "$tool" >/dev/null 2>&1; then
	echo "SKIP: no $tool (apt-get install $pkg)"
	exit 77
fi
exec "$@"
