#!/bin/bash
# What a bw verdict rests on, over tcp on loopback (no root; ports
# 21320-21324): with no floor (tcp has no line rate; no --expect-gbps) the
# verdict is "no floor" with the reason, text and JSON, exit 0 -- never
# "pass", since nothing was judged; the client's --expect-gbps travels to the
# server, which judges by it: `bw server --once` exits 1 when its client fell
# below it (as the client does) and says why on stderr; the server's own
# --expect-gbps wins over the client's.  Every run is bounded (timeout, a
# sub-second window).  usage: test_bw_floor.sh path/to/rdmadoctor
set -u
bin=${1:?usage: $0 path/to/rdmadoctor}
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
# shellcheck source=tests/lib/bw_loopback.sh
. "$(dirname "$0")/../lib/bw_loopback.sh"
base=21320
run=(--transport tcp --duration 0.3 --warmup 0 --timeout 10)


# server PORT NAME [server options...]: a --once server in the background
server() {
	local port=$1 name=$2
	shift 2
	timeout 60 "$bin" "$@" --bind 127.0.0.1 --port "$port" --once >"$tmp/$name.out" 2>"$tmp/$name.err" &
	srv=$!
	pids+=("$srv")
	wait_port "$port"
}

# 1. tcp, no floor: text says "no floor" and why, exit 0 on both ends
server $base s1 bw server --transport tcp || exit 1
timeout 60 "$bin" bw client 127.0.0.1 --port $base "${run[@]}" >"$tmp/c1.out" 2>"$tmp/c1.err"
rc=$?
[ $rc = 0 ] || { echo "FAIL: no floor: client exited $rc, want 0"; cat "$tmp/c1.err"; fail=1; }
wait "$srv"
rc=$?
[ $rc = 0 ] || { echo "FAIL: no floor: server --once exited $rc, want 0"; cat "$tmp/s1.err"; fail=1; }
for f in c1 s1; do
	if grep -q 'verdict: pass' "$tmp/$f.out" ||
	   ! grep -q '^ verdict: no floor: nothing judged: tcp has no line rate' "$tmp/$f.out"; then
		echo "FAIL: no floor: $f's text"; cat "$tmp/$f.out"; fail=1
	else
		echo "ok: no floor: $f: $(grep 'verdict:' "$tmp/$f.out")"
	fi
done
grep -q 'expected:' "$tmp/c1.out" && { echo "FAIL: an expectation line with no floor"; fail=1; }

# 2. the same in JSON, both ends
server $((base + 1)) s2 --json bw server --transport tcp || exit 1
timeout 60 "$bin" --json bw client 127.0.0.1 --port $((base + 1)) "${run[@]}" \
	>"$tmp/c2.json" 2>"$tmp/c2.err" || { echo "FAIL: no floor --json: client"; fail=1; }
wait "$srv" || { echo "FAIL: no floor --json: server --once exited $?"; fail=1; }
python3 - "$tmp/c2.json" "$tmp/s2.out" <<'PY' || fail=1
import json, sys
c = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
for d in (c, s):
    assert d["verdict"] == "no floor", d["verdict"]
    assert d["expect_gbps"] is None, d["expect_gbps"]
    assert d["reason"].startswith("nothing judged"), d["reason"]
    assert d["results"][0]["rails"][0]["gbps"]["avg"] > 0
print("ok: no floor in JSON, client and server")
PY

# 3. the client's --expect-gbps it cannot meet: both ends exit 1, both say why
server $((base + 2)) s3 bw server --transport tcp || exit 1
timeout 60 "$bin" bw client 127.0.0.1 --port $((base + 2)) "${run[@]}" --expect-gbps 100000 \
	>"$tmp/c3.out" 2>"$tmp/c3.err"
rc=$?
[ $rc = 1 ] || { echo "FAIL: below: client exited $rc, want 1"; fail=1; }
wait "$srv"
rc=$?
if [ $rc = 1 ] && grep -q "client 127.0.0.1: below expectation: .*below the expected 100000.00 Gb/s" \
	"$tmp/s3.err" && grep -q "^ expected: 100000.00 Gb/s per rail (the client's --expect-gbps)" \
	"$tmp/s3.out" && grep -q '^ verdict: fail: ' "$tmp/s3.out"; then
	echo "ok: server --once below the client's floor: exit 1: $(grep below "$tmp/s3.err")"
else
	echo "FAIL: server --once below the client's floor exited $rc, want 1 with the reason"
	cat "$tmp/s3.out" "$tmp/s3.err"; fail=1
fi

# 4. the same in JSON: the server's document holds the client's floor
server $((base + 3)) s4 --json bw server --transport tcp || exit 1
timeout 60 "$bin" --json bw client 127.0.0.1 --port $((base + 3)) "${run[@]}" \
	--expect-gbps 100000 >"$tmp/c4.json" 2>"$tmp/c4.err"
wait "$srv"
rc=$?
[ $rc = 1 ] || { echo "FAIL: below --json: server --once exited $rc, want 1"; fail=1; }
grep -q "below expectation" "$tmp/s4.err" || { echo "FAIL: below --json: server said nothing"; fail=1; }
python3 - "$tmp/s4.out" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["role"] == "server" and d["verdict"] == "fail", d["verdict"]
assert d["expect_gbps"] == 100000 and "below the expected" in d["reason"], d
print("ok: server --json below the client's floor")
PY

# 5. the server's own --expect-gbps wins: a floor any loopback meets, the
# client asking the impossible: the server passes, the client fails
server $((base + 4)) s5 bw server --transport tcp --expect-gbps 0.001 || exit 1
timeout 60 "$bin" bw client 127.0.0.1 --port $((base + 4)) "${run[@]}" --expect-gbps 100000 \
	>"$tmp/c5.out" 2>"$tmp/c5.err"
rc=$?
[ $rc = 1 ] || { echo "FAIL: own floor: client exited $rc, want 1"; fail=1; }
wait "$srv"
rc=$?
if [ $rc = 0 ] && grep -q '^ expected: 0.00 Gb/s per rail (--expect-gbps)' "$tmp/s5.out" &&
	grep -q '^ verdict: pass$' "$tmp/s5.out"; then
	echo "ok: the server's own floor wins"
else
	echo "FAIL: own floor: server exited $rc"; cat "$tmp/s5.out" "$tmp/s5.err"; fail=1
fi

[ $fail = 0 ] && echo "bw floor: all passed"
exit $fail
