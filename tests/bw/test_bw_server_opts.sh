#!/bin/bash
# bw/lat server with the client's test options (the same command line on
# both ends, as with perftest): the same options run; an option whose value
# differs is refused with the option named and the server goes on serving;
# --transport tcp on the server serves tcp.  Loopback only, no root; ports
# 21300-21309.  usage: test_bw_server_opts.sh path/to/rdmadoctor
set -u
bin=${1:?usage: $0 path/to/rdmadoctor}
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
# shellcheck source=tests/lib/bw_loopback.sh
. "$(dirname "$0")/../lib/bw_loopback.sh"
base=21300


# 1. the same test options on both ends: it runs, both print it
opts=(--transport tcp --size 4K --duration 0.5 --warmup 0 --interval 0.25 --streams 2)
timeout 60 "$bin" --json bw server --bind 127.0.0.1 --port $base --once "${opts[@]}" >"$tmp/s1.json" 2>"$tmp/s1.err" &
s1=$!
pids+=("$s1")
wait_port $base || exit 1
timeout 60 "$bin" --json bw client 127.0.0.1 --port $base "${opts[@]}" >"$tmp/c1.json" 2>"$tmp/c1.err"
rc=$?
[ $rc = 0 ] || { echo "FAIL: same options: client exited $rc"; cat "$tmp/c1.err"; fail=1; }
wait "$s1"
rc=$?
[ $rc = 0 ] || { echo "FAIL: same options: server --once exited $rc"; cat "$tmp/s1.err"; fail=1; }
python3 - "$tmp/c1.json" "$tmp/s1.json" <<'PY' || fail=1
import json, sys
c, s = (json.load(open(f)) for f in sys.argv[1:3])
for d, role in ((c, "client"), (s, "server")):
    assert d["role"] == role and d["transport"] == "tcp", d
    assert d["results"][0]["size_bytes"] == 4096, d["results"]
    assert d["results"][0]["rails"][0]["gbps"]["avg"] > 0, d["results"]
print("ok: same test options on both ends")
PY

# 2. a server with test options as checks: mismatches are refused, naming
# the option; a matching request after them still runs
port=$((base + 1))
timeout 120 "$bin" bw server --bind 127.0.0.1 --port $port --transport tcp --op write --sizes 2K..8K --duration 0.5 \
	--warmup 0 --timeout 5 >"$tmp/s2.out" 2>"$tmp/s2.err" &
s2=$!
pids+=("$s2")
wait_port $port || exit 1
refused() {	# refused WANT-TEXT CLIENT-ARGS...
	local want=$1 rc
	shift
	timeout 30 "$bin" bw client 127.0.0.1 --port $port --transport tcp "$@" >"$tmp/c.out" 2>"$tmp/c.err"
	rc=$?
	if [ $rc != 3 ] || ! grep -q -- "$want" "$tmp/c.err"; then
		echo "FAIL: client $* exited $rc, want 3 and '$want':"; cat "$tmp/c.err"; fail=1
		return
	fi
	echo "ok: refused: $want"
}
refused "only --op write" --op read --size 4K --duration 0.5 --warmup 0
refused "sizes of its --size/--sizes" --size 64K --duration 0.5 --warmup 0
refused "only --duration (ms) 500" --size 4K --duration 1 --warmup 0
timeout 30 "$bin" bw client 127.0.0.1 --port $port --transport tcp --sizes 2K..8K --duration 0.5 --warmup 0 \
	>"$tmp/c2.out" 2>"$tmp/c2.err" ||
	{ echo "FAIL: a matching sweep after refusals"; cat "$tmp/c2.err"; fail=1; }
kill -0 "$s2" 2>/dev/null || { echo "FAIL: the server died"; cat "$tmp/s2.err"; fail=1; }

# 3. lat server with the client's options
port=$((base + 2))
lopts=(--transport tcp --size 64 --iters 200)
timeout 60 "$bin" lat server --bind 127.0.0.1 --port $port --once "${lopts[@]}" >"$tmp/s3.out" 2>"$tmp/s3.err" &
s3=$!
pids+=("$s3")
wait_port $port || exit 1
timeout 60 "$bin" --json lat client 127.0.0.1 --port $port "${lopts[@]}" >"$tmp/c3.json" 2>"$tmp/c3.err" ||
	{ echo "FAIL: lat with the same options"; cat "$tmp/c3.err"; fail=1; }
wait "$s3" || { echo "FAIL: lat server --once"; cat "$tmp/s3.err"; fail=1; }
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["latency_usec"]["samples"] >= 200 if "latency_usec" in d else d["results"][0]["latency_usec"]["samples"] >= 200, d
print("ok: lat server with the client options")' "$tmp/c3.json" || { echo "FAIL: lat json"; cat "$tmp/c3.json"; fail=1; }

[ $fail = 0 ] && echo "bw server options: all passed"
exit $fail
