#!/bin/bash
# The floor a verbs bw test is held to comes from the profile check would
# judge the machine by: the site file's (/etc/rdmadoctor/rdmadoctor.conf
# under --root, naming a built-in or a profile file), else the one the
# machine is; --expect-gbps still wins; a broken site file stops bw as it
# stops check (exit 2, FILE:LINE).  The machine is a fixture tree (DGX
# H100); the client reaches no server (a port of ours nobody listens on),
# so its --json report is the error document, which still carries the
# expectation.  No root, no RDMA device, loopback only.
# usage: test_bw_site_profile.sh path/to/rdmadoctor
set -u
bin=${1:?usage: $0 path/to/rdmadoctor}
src=$(cd "$(dirname "$0")/../.." && pwd)
port=21441
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bwpar-site.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/tests/fixtures/dgx-h100/root" "$tmp/root" || exit 1
etc=$tmp/root/etc/rdmadoctor
conf=$etc/rdmadoctor.conf
mkdir -p "$etc"

# the rail floor a built-in profile states (profiles show prints the file format)
floor_of() {
	"$bin" profiles show "$1" | awk '/^\[/ { sec = $0 } sec == "[rail]" && $1 == "bw_floor_gbps" { print $3 }'
}
# expect_gbps of the client's JSON report, extra arguments appended
expected() {
	timeout 30 "$bin" --root "$tmp/root" --json bw client 127.0.0.1 --port $port --transport verbs \
		--timeout 2 "$@" 2>"$tmp/err" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["expect_gbps"])' 2>/dev/null
}
is() {	# NAME GOT WANT
	if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a != "" && b != "" && a + 0 == b + 0) }'; then
		echo "ok   $1: $2 Gb/s"
	else
		echo "FAIL $1: expect_gbps '$2', want '$3' ($(head -c 300 "$tmp/err"))"
		fail=1
	fi
}

own=$(floor_of dgx-h100) other=$(floor_of dgx-a100)
if [ -z "$own" ] || [ -z "$other" ] || [ "$own" = "$other" ]; then
	echo "FAIL: the dgx-h100 and dgx-a100 rail floors ('$own', '$other') must be known and differ"
	exit 1
fi
is "no site file: the machine's own profile (dgx-h100)" "$(expected)" "$own"
printf '[site]\nprofile = dgx-a100\n' >"$conf"
is "site file names dgx-a100" "$(expected)" "$other"
printf '[profile]\nname = site-floor\nbased_on = dgx-h100\n[rail]\nbw_floor_gbps = 123\n' >"$etc/floor.ini"
printf '[site]\nprofile = /etc/rdmadoctor/floor.ini\n' >"$conf"
is "site file names a profile file" "$(expected)" 123
is "--expect-gbps wins over the site file" "$(expected --expect-gbps 7)" 7

# a site file that names what does not exist: bw stops, as check does
printf '[site]\nprofile = nosuch\n' >"$conf"
timeout 30 "$bin" --root "$tmp/root" --json bw client 127.0.0.1 --port $port --timeout 2 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && ! [ -s "$tmp/out" ] && grep -q "$conf:2: profile: no built-in profile 'nosuch'" "$tmp/err"; then
	echo "ok   a broken site file stops bw: exit 2, $conf:2"
else
	echo "FAIL broken site file: exit $rc, stdout $(head -c 200 "$tmp/out"), stderr $(head -c 300 "$tmp/err")"
	fail=1
fi
exit $fail
