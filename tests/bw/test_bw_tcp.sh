#!/bin/bash
# bw and lat over the tcp transport between two network namespaces joined
# by a veth pair, created here: one stream and four, bidirectional, RDMA-
# read direction, a size sweep, iterations mode, two rails, latency, a
# failed expectation, and a server that exits after one client (--once).
# Every --json document is parsed and its figures checked for consistency
# (bytes*8/seconds is the average; intervals exist; the device is the veth).
#
# Needs root and `ip netns`; exits 77 (skipped) otherwise.  The addresses
# (10.232.x.x/30) live only inside the two namespaces; everything is
# removed on exit.  usage: test_bw_tcp.sh path/to/rdmadoctor
set -u
bin=${1:?usage: $0 path/to/rdmadoctor}

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/veth_pair.sh"
command -v python3 >/dev/null || veth_skip "no python3"

tmp=$(mktemp -d) || exit 1
srv=
cleanup() {
	[ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
	veth_pair_remove
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
veth_pair rdbw 10.232 || exit 1

port=18516
n2 "$bin" bw server --open --port "$port" --timeout 5 >"$tmp/srv.out" 2>"$tmp/srv.err" &
srv=$!
n2 "$bin" lat server --open --port $((port + 1)) --timeout 5 >"$tmp/lsrv.out" 2>"$tmp/lsrv.err" &
lsrv=$!
# wait until a server in ns2 listens on PORT (bounded: 10 s)
wait_port() {
	for _ in $(seq 100); do
		# listening, seen without connecting (a probe would be a client)
		[ -n "$(n2 ss -ltnH "sport = :$1" 2>/dev/null)" ] && return 0
		sleep 0.1
	done
	echo "FAIL: no server on port $1"; return 1
}
wait_port $port && wait_port $((port + 1)) || exit 1
fail=0

# check NAME FILE [python assertions on d, the document]
check() {
	local name=$1 file=$2 extra=${3:-}
	python3 - "$file" "$va" "$a2" <<PY || { echo "FAIL: $name"; cat "$file"; fail=1; return 1; }
import json, math, sys
d = json.load(open(sys.argv[1]))
veth, server = sys.argv[2], sys.argv[3]
assert d["schema"] == 1 and d["role"] == "client" and d["transport"] == "tcp", d
assert d["remote"]["address"] == server, d["remote"]
# tcp has no line rate: bw is "no floor" unless --expect-gbps; lat passes
assert d["verdict"] in (("pass",) if d["test"] == "lat" else ("no floor", "fail")), d["verdict"]
for res in d["results"]:
    for r in res["rails"]:
        g = r["gbps"]
        assert r["bytes"] > 0 and r["seconds"] > 0 and g["avg"] > 0, r
        # the average is the bytes over the window, in decimal Gb/s
        assert math.isclose(g["avg"], r["bytes"] * 8 / r["seconds"] / 1e9, rel_tol=1e-9), r
        assert g["min"] <= g["avg"] * 1.0001 + 1e-9 and g["max"] >= g["min"], g
        assert len(r["intervals_gbps"]) >= 1, r
        assert r["device"] == veth, (r["device"], veth)
        assert r["cpu_user_s"] >= 0 and r["cpu_sys_s"] >= 0
        assert r["msg_rate_mpps"] > 0
    assert res["total"]["gbps"]["avg"] > 0
$extra
print("ok: $name")
PY
}

client() { n1 timeout 120 "$bin" --json "$@" --transport tcp --timeout 10; }

client bw client "$a2" --port $port --duration 1 --warmup 0.3 >"$tmp/one.json" &&
	check "one stream" "$tmp/one.json" '
r = d["results"][0]["rails"][0]
assert d["params"]["size_bytes"] == 65536 and d["params"]["qps"] == 1
assert 0.9 < r["seconds"] < 1.5, r["seconds"]
assert d["verdict"] == "no floor" and d["expect_gbps"] is None
assert d["reason"].startswith("nothing judged"), d["reason"]' ||
	{ echo "FAIL: one stream exited $?"; fail=1; }

client bw client "$a2" --port $port --streams 4 --duration 2 --warmup 0.3 --interval 0.5 \
	>"$tmp/four.json" && check "four streams" "$tmp/four.json" '
assert d["params"]["qps"] == 4
assert len(d["results"][0]["rails"][0]["intervals_gbps"]) >= 3' ||
	{ echo "FAIL: four streams"; fail=1; }

client bw client "$a2" --port $port --bidir --streams 2 --duration 1 --warmup 0.3 \
	>"$tmp/bidir.json" && check "bidirectional" "$tmp/bidir.json" '
assert d["bidir"] is True
assert d["results"][0]["remote_total"]["gbps"]["avg"] > 0' ||
	{ echo "FAIL: bidir"; fail=1; }

client bw client "$a2" --port $port --op read --duration 1 --warmup 0.3 \
	>"$tmp/read.json" && check "read direction (server sends)" "$tmp/read.json" '
assert d["op"] == "read"' || { echo "FAIL: read"; fail=1; }

client bw client "$a2" --port $port --sizes 1K..64K --duration 0.3 --warmup 0.1 \
	>"$tmp/sweep.json" && check "size sweep" "$tmp/sweep.json" '
assert [x["size_bytes"] for x in d["results"]] == [1024 << i for i in range(7)], d["results"]
assert d["params"]["sizes_bytes"] == [1024 << i for i in range(7)]' ||
	{ echo "FAIL: sweep"; fail=1; }

# iterations mode: exactly the bytes asked for
client bw client "$a2" --port $port --iters 2000 --size 32K --streams 2 >"$tmp/iters.json" &&
	check "iterations" "$tmp/iters.json" '
r = d["results"][0]["rails"][0]
assert r["bytes"] == 2000 * 32768 * 2, r["bytes"]
assert r["msgs"] == 4000, r["msgs"]' || { echo "FAIL: iters"; fail=1; }

# two rails, each bound to the veth: per-rail and total
client bw client "$a2" --port $port --devices "$va,$va" --duration 1 --warmup 0.3 \
	>"$tmp/rails.json" && check "two rails" "$tmp/rails.json" '
res = d["results"][0]
assert len(res["rails"]) == 2
s = sum(r["gbps"]["avg"] for r in res["rails"])
assert math.isclose(res["total"]["gbps"]["avg"], s, rel_tol=1e-9)' ||
	{ echo "FAIL: two rails"; fail=1; }

# an expectation it cannot meet: exit 1 with the reason
client bw client "$a2" --port $port --duration 0.5 --warmup 0.1 --expect-gbps 100000 \
	>"$tmp/exp.json" 2>"$tmp/exp.err"
rc=$?
if [ $rc = 1 ]; then
	check "expectation missed" "$tmp/exp.json" '
assert d["verdict"] == "fail" and d["expect_gbps"] == 100000
assert "below the expected 100000.00 Gb/s" in d["reason"], d["reason"]'
	grep -q "below" "$tmp/exp.err" || { echo "FAIL: no reason on stderr"; fail=1; }
else
	echo "FAIL: --expect-gbps 100000 exited $rc, want 1"; fail=1
fi

# latency: ordered percentiles over real samples
client lat client "$a2" --port $((port + 1)) --duration 1 --warmup 0.2 >"$tmp/lat.json" &&
	check "latency" "$tmp/lat.json" '
l = d["latency_usec"]
assert d["test"] == "lat" and l["samples"] > 100, l
assert d["params"]["inline_bytes"] == 220, d["params"]	# perftest'"'"'s latency default
assert 0 < l["min"] <= l["p50"] <= l["p99"] <= l["p99_9"] <= l["max"], l
assert d["results"][0]["latency_usec"] == l' || { echo "FAIL: lat"; fail=1; }
client lat client "$a2" --port $((port + 1)) --iters 500 --size 4K --inline 0 >"$tmp/lat2.json" &&
	check "latency iterations, no inline" "$tmp/lat2.json" '
assert d["latency_usec"]["samples"] == 500, d["latency_usec"]
assert d["params"]["inline_bytes"] == 0, d["params"]' || { echo "FAIL: lat iters"; fail=1; }

# text output like perftest's table
n1 timeout 60 "$bin" bw client "$a2" --port $port --transport tcp --duration 0.5 --warmup 0.1 \
	>"$tmp/text.out" 2>&1 || { echo "FAIL: text run"; fail=1; }
grep -q 'avg\[Gb/s\]' "$tmp/text.out" && grep -q 'verdict: no floor' "$tmp/text.out" ||
	{ echo "FAIL: text output"; cat "$tmp/text.out"; fail=1; }

# the servers lived through it all and printed each test
kill -0 "$srv" 2>/dev/null || { echo "FAIL: bw server died"; cat "$tmp/srv.err"; fail=1; }
kill -0 "$lsrv" 2>/dev/null || { echo "FAIL: lat server died"; fail=1; }
[ "$(grep -c 'verdict:' "$tmp/srv.out")" -ge 9 ] ||
	{ echo "FAIL: the server did not report every test"; cat "$tmp/srv.out" "$tmp/srv.err"; fail=1; }
kill "$lsrv" 2>/dev/null; wait "$lsrv" 2>/dev/null

# --once --json: one document for everything the client ran (a sweep of
# two sizes), then the server exits with the verdict
n2 timeout 60 "$bin" --json bw server --open --port $((port + 2)) --once >"$tmp/once.json" 2>"$tmp/once.err" &
once=$!
wait_port $((port + 2)) || fail=1
client bw client "$a2" --port $((port + 2)) --sizes 4K..8K --duration 0.5 --warmup 0.1 >/dev/null ||
	{ echo "FAIL: client against --once"; fail=1; }
wait $once || { echo "FAIL: server --once exited $?"; cat "$tmp/once.err"; fail=1; }
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["role"] == "server" and d["results"][0]["rails"][0]["gbps"]["avg"] > 0
assert [x["size_bytes"] for x in d["results"]] == [4096, 8192], d["results"]
print("ok: server --once --json")' "$tmp/once.json" || { echo "FAIL: server json"; fail=1; }

# the peer vanishes without a word (the link goes down mid-test): the
# client still ends, bounded (no byte for 10 s is a dead peer), exit 3
t0=$(date +%s)
n1 timeout 60 "$bin" bw client "$a2" --port $port --transport tcp --duration 30 --warmup 0.1 \
	>/dev/null 2>"$tmp/cut.err" &
cut=$!
sleep 2
n2 ip link set "$vb" down
wait $cut
rc=$? t1=$(date +%s)
[ $rc = 3 ] && [ $((t1 - t0)) -lt 25 ] && [ -s "$tmp/cut.err" ] &&
	echo "ok: link cut: client ended in $((t1 - t0)) s: $(cat "$tmp/cut.err")" ||
	{ echo "FAIL: link cut: client exited $rc after $((t1 - t0)) s"; cat "$tmp/cut.err"; fail=1; }
n2 ip link set "$vb" up
# the server gives up on that client too, within its bounds (--timeout 5):
# its connections from the cut client close (waited for, at most 20 s)
for _ in $(seq 200); do
	[ -z "$(n2 ss -tnH state established "( sport = :$port )" 2>/dev/null)" ] && break
	sleep 0.1
done
[ -z "$(n2 ss -tnH state established "( sport = :$port )" 2>/dev/null)" ] ||
	{ echo "FAIL: the server kept the cut client's connection past 20 s"; fail=1; }
kill -0 "$srv" 2>/dev/null || { echo "FAIL: bw server died after the cut"; fail=1; }
client bw client "$a2" --port $port --duration 0.5 --warmup 0.1 >"$tmp/after.json" &&
	check "a test after the cut" "$tmp/after.json" || { echo "FAIL: after the cut"; fail=1; }

[ $fail = 0 ] && echo "bw tcp netns: all passed"
exit $fail
