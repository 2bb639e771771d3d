#!/bin/bash
# A new user's first contact, for real: a minimal Debian 12 tree made by
# mmdebstrap (--variant=minbase: the essential packages and apt, less than
# a freshly installed machine has) from this machine's own apt sources, the
# tree as git has it copied in, and the README's first command, exactly as
# the README writes it, run inside it as root under chroot in new mount and
# PID namespaces.  It must install, build and run `check`; then the built
# binary judges a bundled example.  Nothing else is installed by the test:
# what the command does not install, the build does not get.
#
# usage: test_first_command.sh SOURCE_DIR
# Exit 0 pass, 1 fail, 77 skip (not root, no mmdebstrap/unshare, or the
# Debian archive cannot be reached: the reason is printed).
# About 5 minutes on 2 cores: ~1 min for the tree, ~1.5 min for apt, the build.
# `ok` always succeeds, so `test && ok || bad` is an if-then-else here.
# shellcheck disable=SC2015
set -u
src=$(cd "${1:?usage: $0 SOURCE_DIR}" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "not root (mmdebstrap's root mode and chroot need it)"
command -v mmdebstrap >/dev/null || skip "no mmdebstrap (apt-get install mmdebstrap)"
command -v unshare >/dev/null || skip "no unshare (util-linux)"

# The README's first command: the first line of the first sh block of its
# Quick start.  The test reads it from the README, so the two cannot drift.
cmd=$(awk '/^## Quick start/ { q = 1 } q && /^```sh$/ { getline; print; exit }' "$src/README.md")
[ -n "$cmd" ] || fail "no first command in README.md's Quick start"
echo "the README's first command: $cmd"

# This machine's own apt sources, as they are: one-line files, deb822
# files, each passed to mmdebstrap as a mirror argument
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -s "$f" ] && grep -qE '^[[:space:]]*(deb |Types:)' "$f" && sources+=("$f")
done
[ ${#sources[@]} -gt 0 ] || skip "this machine has no apt sources to build a tree from"
# shellcheck source=/dev/null
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")

work=$(mktemp -d "${TMPDIR:-/var/tmp}/rdfresh.XXXXXX") || fail "mktemp"
tree=$work/tree
trap 'rm -rf "$work"' EXIT

t0=$(date +%s)
if ! mmdebstrap --variant=minbase --quiet "$suite" "$tree" "${sources[@]}" >"$work/mmdebstrap.log" 2>&1; then
	tail -n 20 "$work/mmdebstrap.log"
	grep -qiE 'Temporary failure resolving|Could not resolve|Failed to fetch|Connection (failed|refused|timed out)|Network is unreachable' "$work/mmdebstrap.log" &&
		skip "the Debian archive cannot be reached from here (mmdebstrap could not download)"
	fail "mmdebstrap could not make a $suite tree"
fi
echo "ok: a minbase $suite tree in $(($(date +%s) - t0)) s ($(du -sh "$tree" | cut -f1))"
# what the user starts with: no compiler, no cmake
for tool in cc cmake pkg-config; do
	[ -z "$(chroot "$tree" /bin/sh -c "command -v $tool")" ] ||
		fail "the fresh tree already has $tool: it is not a fresh machine"
done

mkdir "$tree/src"
(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -cf - -T -) |
	tar -C "$tree/src" -xf - || fail "could not copy the source tree"

# The command as written, in /src, as root; /proc and /sys are the new
# namespaces' own (check reads /sys: this machine has no RDMA NIC)
t0=$(date +%s)
timeout -k 10 1500 unshare --mount --pid --fork --mount-proc="$tree/proc" \
	chroot "$tree" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 \
	/bin/sh -c "mount -t sysfs sysfs /sys && cd /src && $cmd" </dev/null >"$work/first.log" 2>&1
rc=$?
echo "the first command exited $rc after $(($(date +%s) - t0)) s; its last lines:"
tail -n 15 "$work/first.log" | sed 's/^/| /'
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$(dirname "$0")/../lib/tally.sh"

# check on a machine without RDMA NICs (this one) says so, exit 3 ("nothing
# to check", docs/exit-codes.md), and points at a bundled example
[ -x "$tree/src/build/rdmadoctor" ] && ok "the build made build/rdmadoctor" ||
	bad "no build/rdmadoctor: the build failed"
if [ $rc -le 3 ] && [ $rc -ne 2 ] && grep -q 'nothing to check' "$work/first.log" &&
	grep -q -- '--root examples/dgx-h100 check' "$work/first.log"; then
	ok "check ran on the fresh machine: nothing to check, and it points at a bundled example (exit $rc)"
elif [ $rc -le 1 ] && grep -qE 'PASS|WARN|FAIL' "$work/first.log"; then
	ok "check ran on the fresh machine and gave a verdict (exit $rc)"
else
	bad "the first command did not end in a check that ran (exit $rc)"
fi
grep -qi cmocka "$work/first.log" && bad "the first command's output speaks of cmocka (the tests' package)"
[ -e "$tree/src/build/tests" ] && bad "the first command built the tests, which it did not install the packages of"

# the binary it built judges a bundled example as the README says
out=$(chroot "$tree" /bin/sh -c 'cd /src && ./build/rdmadoctor --root examples/dgx-h100 check' 2>&1)
erc=$?
[ $erc -eq 0 ] && grep -q PASS <<<"$out" && ok "the built binary passes examples/dgx-h100" ||
	bad "--root examples/dgx-h100 check (exit $erc): $out"

if [ "$fail" -ne 0 ]; then
	echo "--- the first command's output:"
	tail -n 60 "$work/first.log"
fi
tally_done "fresh machine"
