#!/bin/bash
# `ok` always succeeds, so `test && ok || bad` is an if-then-else here.
# shellcheck disable=SC2015
# The Debian package, tested as a user installs it: build it from a copy of
# the tree with dpkg-buildpackage, check what it holds, run lintian, unpack
# it and run the packaged binary on a packaged example, render every man
# page, complete `rdmadoctor ch` with the packaged completion, and verify
# the exporter unit with systemd-analyze.
#   test_package.sh SOURCE_DIR [KEEP_DIR]
# KEEP_DIR: where the .deb is left for the tests that use it (the container
# image, tests/k8s/test_image.py), the one there before replaced.
set -u
src=$1
keep=${2:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/rdpkg-XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$(dirname "$0")/../lib/tally.sh"

for tool in dpkg-buildpackage dh lintian man; do
	command -v "$tool" >/dev/null || { echo "FAIL: $tool missing (tests/debian-packages.txt)"; exit 1; }
done

# the tree as git has it (plus files not yet committed), never a build dir
mkdir "$work/src"
(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -cf - -T -) |
	tar -C "$work/src" -xf - || { echo "FAIL: could not copy the tree"; exit 1; }
t0=$(date +%s)
# the compile on every core, as a packager would
if ! (cd "$work/src" && DEB_BUILD_OPTIONS="parallel=$(nproc)" dpkg-buildpackage -us -uc -b \
	>"$work/build.log" 2>&1); then
	tail -n 40 "$work/build.log"
	echo "FAIL: dpkg-buildpackage"; exit 1
fi
deb=$(find "$work" -maxdepth 1 -name "rdmadoctor_*_*.deb" | head -n 1)
[ -n "$deb" ] && ok "built $(basename "$deb") in $(($(date +%s) - t0)) s" || { echo "FAIL: no .deb"; exit 1; }
if [ -n "$keep" ]; then
	mkdir -p "$keep" && rm -f "$keep"/rdmadoctor_*.deb && cp "$deb" "$keep/" ||
		{ echo "FAIL: could not leave the .deb in $keep"; exit 1; }
fi

# what it holds
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$work/files"
for f in /usr/bin/rdmadoctor /usr/share/man/man8/rdmadoctor.8.gz \
	/usr/share/bash-completion/completions/rdmadoctor \
	/lib/systemd/system/rdmadoctor-exporter.service /etc/rdmadoctor/rdmadoctor.conf \
	/usr/libexec/rdmadoctor/rdmadoctor-healthcheck \
	/usr/share/rdmadoctor/examples/dgx-h100/sys/class/infiniband/mlx5_0; do
	grep -qxF "$f" "$work/files" && ok "has $f" || bad "missing $f"
done
dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles 2>/dev/null |
	grep -qx /etc/rdmadoctor/rdmadoctor.conf && ok "site file is a conffile" ||
	bad "site file is not a conffile"
# every example the tree has, as a real tree (not a link back into tests/)
for ex in "$src"/examples/*; do
	name=$(basename "$ex")
	grep -q "^/usr/share/rdmadoctor/examples/$name/sys/" "$work/files" &&
		ok "example $name" || bad "example $name not packaged as a tree"
done
# Depends from the shared libraries, not written by hand
dpkg-deb -f "$deb" Depends | grep -q 'libibverbs1' && ok "Depends from shlibs" ||
	bad "Depends lacks libibverbs1: $(dpkg-deb -f "$deb" Depends)"

# lintian: no error or warning (pedantic and info tags are printed)
t0=$(date +%s)
lintian --allow-root --pedantic --display-info "$deb" >"$work/lintian" 2>&1
cat "$work/lintian"
echo "lintian took $(($(date +%s) - t0)) s"
grep -qE '^[EW]: ' "$work/lintian" && bad "lintian errors or warnings" || ok "lintian clean"

# unpacked, the packaged binary on a packaged example
root="$work/root"
dpkg-deb -x "$deb" "$root" || { echo "FAIL: dpkg-deb -x"; exit 1; }
bin=$root/usr/bin/rdmadoctor
ex=$root/usr/share/rdmadoctor/examples
out=$("$bin" --root "$ex/dgx-h100" check 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q PASS <<<"$out" && ok "packaged check on dgx-h100: PASS" ||
	bad "packaged check on dgx-h100 (exit $rc): $out"
"$bin" --root "$ex/broken" check >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] && ok "packaged check on broken: exit 1" || bad "packaged check on broken: exit $rc"

# man pages: one per command the program lists, each renders without a warning
cmds=$("$bin" --help | awk '/^commands:$/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ -n "$cmds" ] || bad "no command list in --help"
# shellcheck disable=SC2086  # one page per word
for page in rdmadoctor $(printf 'rdmadoctor-%s ' $cmds); do
	f=$root/usr/share/man/man8/$page.8.gz
	[ -f "$f" ] || { bad "no man page $page(8)"; continue; }
	warn=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$f" 2>&1 >"$work/page")
	if [ -n "$warn" ]; then
		bad "$page(8) warns: $warn"
	elif ! grep -q '^NAME' "$work/page" || ! grep -q '^SYNOPSIS' "$work/page"; then
		bad "$page(8) renders without NAME/SYNOPSIS"
	else
		ok "$page(8) renders"
	fi
done
# the check page names the options check --help names
for o in $("$bin" check --help | grep -oE '^  +--[a-z-]+' | tr -d ' '); do
	MANWIDTH=200 man -l "$root/usr/share/man/man8/rdmadoctor-check.8.gz" 2>/dev/null |
		grep -q -- "$o" || bad "rdmadoctor-check(8) lacks $o"
done

# completion: registered, and `rdmadoctor ch` completes to check
comp=$root/usr/share/bash-completion/completions/rdmadoctor
reg=$(bash -c "source '$comp'; complete -p rdmadoctor" 2>&1)
[ "$reg" = "complete -F _rdmadoctor rdmadoctor" ] && ok "completion registered" ||
	bad "complete -p: $reg"
got=$(PATH="$root/usr/bin:$PATH" bash -c "source '$comp'
	COMP_WORDS=(rdmadoctor ch); COMP_CWORD=1; _rdmadoctor; echo \"\${COMPREPLY[*]}\"")
[ "$got" = check ] && ok "'rdmadoctor ch' completes to check" || bad "'rdmadoctor ch' -> '$got'"
got=$(PATH="$root/usr/bin:$PATH" bash -c "source '$comp'
	COMP_WORDS=(rdmadoctor check --prof); COMP_CWORD=2; _rdmadoctor; echo \"\${COMPREPLY[*]}\"")
[ "$got" = --profile ] && ok "'check --prof' completes to --profile" || bad "'check --prof' -> '$got'"
got=$(PATH="$root/usr/bin:$PATH" bash -c "source '$comp'
	COMP_WORDS=(rdmadoctor profiles show dgx-h); COMP_CWORD=3; _rdmadoctor; echo \"\${COMPREPLY[*]}\"")
[ "$got" = dgx-h100 ] && ok "profile names complete" || bad "'profiles show dgx-h' -> '$got'"
got=$(PATH="$root/usr/bin:$PATH" bash -c "source '$comp'
	COMP_WORDS=(rdmadoctor --root '$ex/dgx-h100' bw client h --device mlx5_1); COMP_CWORD=7
	_rdmadoctor; echo \"\${COMPREPLY[*]}\"")
[ "$got" = "mlx5_1 mlx5_10 mlx5_11" ] && ok "RDMA devices complete from --root" ||
	bad "'--device mlx5_1' -> '$got'"

# the exporter unit
unit=$root/lib/systemd/system/rdmadoctor-exporter.service
if command -v systemd-analyze >/dev/null; then
	# verify wants the binary where the unit says: point it at the unpacked one
	sed "s|^ExecStart=/usr/bin/rdmadoctor|ExecStart=$bin|" "$unit" >"$work/rdmadoctor-exporter.service"
	v=$(systemd-analyze verify --man=no "$work/rdmadoctor-exporter.service" 2>&1)
	[ -z "$v" ] && ok "systemd-analyze verify" || bad "systemd-analyze verify: $v"
	score=$(systemd-analyze security --offline=true "$work/rdmadoctor-exporter.service" 2>&1 |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	echo "systemd-analyze security: exposure $score"
	awk -v s="${score:-99}" 'BEGIN { exit !(s <= 3.0) }' && ok "exposure $score (at most 3.0)" ||
		bad "exposure ${score:-unknown}, more than 3.0"
	grep -q '^ExecStart=/usr/bin/rdmadoctor serve' "$unit" && ok "unit runs the installed binary" ||
		bad "ExecStart: $(grep ExecStart "$unit")"
else
	bad "systemd-analyze missing (tests/debian-packages.txt has systemd)"
fi

tally_done package
