#!/bin/sh
# The page writer under valgrind: the fixture fleet, an empty one, odd
# records and a full disk: no invalid access, no uninitialised read, no leak.
# usage: test_report_valgrind.sh RDMADOCTOR RENDER_FLEET SRCDIR
set -u
bin=$1
render=$2
src=$3
here=$src/tests/print
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdreport-vg.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
vg() {	# EXPECTED-EXIT ARGS...: render_fleet's own exit code must match
	want=$1
	shift
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect "$render" "$@" >/dev/null 2>"$tmp/vg"
	rc=$?
	if [ $rc -ne "$want" ]; then
		echo "FAIL: valgrind render_fleet $* exited $rc (want $want)"
		cat "$tmp/vg"
		fail=1
	fi
}
python3 "$here/make_fleet.py" "$bin" "$src" "$tmp/fleet" >/dev/null || { echo "FAIL: make_fleet.py"; exit 1; }
echo '[]' >"$tmp/empty.json"
vg 0 "$tmp/fleet/records.json" "$tmp/fleet/diff.json" "$tmp/out.html"
vg 0 "$tmp/empty.json" - "$tmp/out.html"
vg 0 "$here/odd-records.json" "$here/odd-diff.json" "$tmp/out.html"
[ -w /dev/full ] && vg 3 "$tmp/fleet/records.json" "$tmp/fleet/diff.json" /dev/full
[ $fail -eq 0 ] && echo "report_valgrind: clean on 4 pages"
exit $fail
