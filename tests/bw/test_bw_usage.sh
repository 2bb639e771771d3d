#!/bin/bash
# bw/lat command line: usage errors exit 2 with a message, --help exits 0,
# a peer nobody listens on exits 3 and says so.  No root, loopback only.
# usage: test_bw_usage.sh path/to/rdmadoctor
set -u
bin=${1:?usage: $0 path/to/rdmadoctor}
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

expect() {	# expect RC ARGS...
	local want=$1 got
	shift
	timeout 30 "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: rdmadoctor $* exited $got, want $want"; cat "$tmp/err"; fail=1
		return 1
	fi
	if [ "$want" != 0 ] && ! [ -s "$tmp/err" ]; then
		echo "FAIL: rdmadoctor $* exited $got without a message"; fail=1
		return 1
	fi
	return 0
}

expect 0 bw --help && { grep -q -- '--expect-gbps' "$tmp/out" || { echo "FAIL: bw --help"; fail=1; }; }
grep -q '90%%' "$tmp/out" && { echo "FAIL: bw --help prints a literal 90%%"; fail=1; }
expect 0 lat --help && { grep -q 'p99.9' "$tmp/out" || { echo "FAIL: lat --help"; fail=1; }; }
expect 0 bw client h --help
expect 2 bw
expect 2 lat
expect 2 bw frob
expect 2 bw client
expect 2 bw client --size 64K
expect 2 bw client h --size 0
expect 2 bw client h --size abc
expect 2 bw client h --size 2G
expect 2 bw client h --sizes 3..8
expect 2 bw client h --sizes 8M..2
expect 2 bw client h --sizes 2..8M --size 4
expect 2 bw client h --iters 5 --duration 1
expect 2 bw client h --duration -1
expect 2 bw client h --duration
expect 2 bw client h --qps 0
expect 2 bw client h --cq-mod 200
expect 2 bw client h --op scatter
expect 2 bw client h --transport ud
expect 2 bw client h --frobnicate 1
expect 2 bw client h --gpu x
expect 2 bw client h --port 70000
expect 2 bw client h --device a --devices b
expect 2 bw client h --transport tcp --gpu 0
expect 2 bw client h --transport tcp --devices all
expect 2 lat client h --bidir
expect 2 lat client h --qps 2
expect 2 lat server --bidir
expect 2 bw server --transport ud
expect 2 bw server --transport tcp --gpu 0
expect 2 bw server --max-size huge
grep -q "unknown option '--frobnicate'" "$tmp/err" 2>/dev/null || true

# a port nobody listens on: could not run, and says what to do
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
if expect 3 bw client 127.0.0.1 --port "$port" --transport tcp; then
	grep -q "cannot connect to 127.0.0.1 port $port" "$tmp/err" ||
		{ echo "FAIL: unclear unreachable message:"; cat "$tmp/err"; fail=1; }
fi
# --json: always one complete document, here a minimal one: verdict error
expect 3 --json lat client 127.0.0.1 --port "$port" --transport tcp
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "error" and "cannot connect" in d["reason"] and d["results"] == [], d
' "$tmp/out" || { echo "FAIL: --json error document"; cat "$tmp/out"; fail=1; }
expect 3 bw client no-such-host.invalid --transport tcp
expect 3 bw client 127.0.0.1 --port "$port" --transport tcp --device no-such-if0
grep -q "no network interface 'no-such-if0'" "$tmp/err" || { echo "FAIL: unclear interface message"; cat "$tmp/err"; fail=1; }
# verbs: this build has no verbs transport, or no device, or no server: 3
expect 3 bw client 127.0.0.1 --port "$port" --transport verbs

[ $fail = 0 ] && echo "bw usage: all passed"
exit $fail
