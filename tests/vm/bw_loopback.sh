#!/bin/bash
# bw --loopback on a real RDMA kernel (the test VM, 2 vCPUs): two Soft-RoCE
# devices of the one host, rxe1 on v0 (10.9.0.1) and rxe2 on v1
# (10.9.0.2), the two ends of a veth pair (the "cable through the switch").
#
# (tests/vm/loopback_pair.sh sets them up and says why the routes).
# ib_write_bw between the same two devices is the oracle.
#
# Asserted: the JSON shape (and that every key of it is in
# docs/json/bw.md), that the bytes moved (the sender's count, and the
# receiving netdev's own RX counter grew by at least as much: the data went
# over the wire, each NIC on its own GID), the devices and addresses of each
# pair, the verdict against a floor (--expect-gbps high and low, and the
# default rule: pass exactly when every judged size reached 90% of the
# slower port's rate), default pairs (rail i with rail i + n/2), and the
# errors (--gpu without a GPU).  Printed, not asserted: the ratio of our
# Gb/s to ib_write_bw's on the same pair (medians of 3 interleaved runs).
#
# usage: bw_loopback.sh RDMADOCTOR     (exit 77: the VM cannot start)
set -u
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" != --inside ]; then
	[ $# -eq 1 ] || { echo "usage: $0 RDMADOCTOR" >&2; exit 2; }
	VM_SMP=${VM_SMP:-2} exec "$here/vm-run.sh" --timeout 420 -- "$here/bw_loopback.sh" --inside \
		"$(realpath "$1")" "$(cd "$here/../.." && pwd)"
fi
bin=$2 src=$3
ulimit -l unlimited
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$here/../lib/tally.sh"

# --- two NICs of one host, cabled to each other -----------------------------
. "$here/loopback_pair.sh"
loopback_pair || exit 1
echo "# rxe1 on v0 (10.9.0.1, gid $g1), rxe2 on v1 (10.9.0.2, gid $g2)"

# run NAME WANT-EXIT ARGS...: rdmadoctor --json bw --loopback ARGS, its
# document in $js (stderr in $err)
run() {
	local name=$1 want=$2
	shift 2
	js=$(timeout 120 "$bin" --json bw --loopback "$@" 2>/tmp/lb-err.$$)
	local rc=$?
	err=$(cat /tmp/lb-err.$$)
	[[ " $want " == *" $rc "* ]] && return 0	# want: one code, or several ("0 1")
	bad "$name: exit $rc, want $want: $(head -c 600 <<<"$err") / $(head -c 600 <<<"$js")"
	return 1
}
# jcheck NAME PYTHON-EXPR: the expression over d (the document), p its first pair
jcheck() {
	if python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); p = d["pairs"][0] if d.get("pairs") else None; sys.exit(0 if eval(sys.argv[1]) else 1)' "$2" <<<"$js"; then
		ok "$1"
	else
		bad "$1: $2 is false in: $(head -c 1500 <<<"$js")"
	fi
}
rx() { cat /sys/class/net/$1/statistics/rx_bytes; }

# 1. one pair, iterations: the sender counted exactly what it wrote, the
#    receiver's netdev saw at least that much, on the GIDs above
rx0=$(rx v1)
if run iters 0 --size 65536 --iters 300 --expect-gbps 0.0001 rxe1 rxe2; then
	rx1=$(rx v1)
	jcheck "iters: shape, devices, addresses, gids, 300 x 64 KiB, pass" \
		'sorted(d) == ["pairs", "reason", "role", "schema", "test", "verdict"] and d["role"] == "loopback" and d["test"] == "bw" and d["verdict"] == "pass" and d["reason"] is None and len(d["pairs"]) == 1 and p["role"] == "loopback" and p["pair"]["from"] == {"device": "rxe1", "port": 1, "address": "10.9.0.1", "rate_gbps": p["pair"]["from"]["rate_gbps"]} and p["pair"]["to"]["device"] == "rxe2" and p["pair"]["to"]["address"] == "10.9.0.2" and p["local"]["address"] == "10.9.0.1" and p["remote"]["address"] == "10.9.0.2" and p["results"][0]["rails"][0]["device"] == "rxe1" and p["results"][0]["rails"][0]["gid_index"] == '"$g1"' and p["results"][0]["rails"][0]["bytes"] == 300 * 65536 and p["results"][0]["rails"][0]["gbps"]["avg"] > 0 and p["expect_gbps"] == 0.0001 and p["verdict"] == "pass"'
	[ $((rx1 - rx0)) -ge $((300 * 65536)) ] &&
		ok "the data crossed the cable: v1 received $((rx1 - rx0)) bytes" ||
		bad "v1 received $((rx1 - rx0)) bytes, less than the $((300 * 65536)) written"
	# every key is in the contract (a pair's keys are a bw document's)
	k=$(python3 "$here/loopback_keys.py" "$src/docs/json/bw.md" <<<"$js" 2>&1) &&
		ok "every key is in docs/json/bw.md" || bad "$k"
fi

# 2. the verdict against a floor no link reaches: fail (exit 1), the pair named
if run floor-high 1 --size 65536 --iters 100 --expect-gbps 100000 rxe1 rxe2; then
	jcheck "a floor above the link: fail, the pair named in the reason" \
		'd["verdict"] == "fail" and p["verdict"] == "fail" and d["reason"].startswith("pair 1 rxe1 -> rxe2: ") and p["results"][0]["rails"][0]["bytes"] == 100 * 65536'
fi

# 3. the default floor (no --expect-gbps): the profile's bw_floor_gbps or
#    90% of the slower port; the verdict is pass exactly when every size of
#    64 KiB and up reached it (whatever TCG's speed)
if run default-floor-sweep "0 1" --sizes 4K..64K --duration 1 --warmup 0.3 rxe2 rxe1; then
	# (the VM's profile has no bw_floor_gbps: 90% of the slower port)
	jcheck "default floor: 90% of the slower port, pass iff every size of 64 KiB and up reached it; rxe2 sends" \
		'p["pair"]["from"]["device"] == "rxe2" and p["results"][0]["rails"][0]["device"] == "rxe2" and [r["size_bytes"] for r in p["results"]] == [4096, 8192, 16384, 32768, 65536] and abs(p["expect_gbps"] - 0.9 * min(p["pair"]["from"]["rate_gbps"], p["pair"]["to"]["rate_gbps"])) < 1e-9 and (p["verdict"] == "pass") == all(r["rails"][0]["gbps"]["avg"] >= p["expect_gbps"] for r in p["results"] if r["size_bytes"] >= 65536) and (p["verdict"] == "pass") == (d["verdict"] == "pass")'
	echo "# default floor: $(python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["pairs"][0]; print("expect", p["expect_gbps"], "Gb/s; port rates", p["pair"]["from"]["rate_gbps"], p["pair"]["to"]["rate_gbps"], "; 64 KiB", p["results"][-1]["rails"][0]["gbps"]["avg"], "Gb/s; verdict", p["verdict"])' <<<"$js")"
fi

# 4. two pairs named: both directions, one after the other
if run two-pairs 0 --size 16384 --iters 100 --expect-gbps 0.0001 rxe1 rxe2 rxe2 rxe1; then
	jcheck "two pairs, both ways, each 100 x 16 KiB" \
		'[(q["pair"]["from"]["device"], q["pair"]["to"]["device"]) for q in d["pairs"]] == [("rxe1", "rxe2"), ("rxe2", "rxe1")] and all(q["results"][0]["rails"][0]["bytes"] == 100 * 16384 for q in d["pairs"]) and d["pairs"][1]["results"][0]["rails"][0]["gid_index"] == '"$g2"
	[[ "$err" == *"pair 1 of 2: rxe1 port 1 (10.9.0.1) -> rxe2 port 1 (10.9.0.2)"* &&
		"$err" == *"pair 2 of 2: rxe2 port 1 (10.9.0.2) -> rxe1 port 1 (10.9.0.1)"* ]] &&
		ok "progress: one line per pair on stderr" || bad "stderr lacks the pair lines: $err"
fi

# 5. --gpu on a host without one: said before any traffic
if run no-gpu 3 --gpu auto --iters 10 rxe1 rxe2; then
	[[ "$err" == *"--gpu: this host has no GPU"*"run without --gpu"* && -z "$js" ]] &&
		ok "--gpu without a GPU: said, exit 3, nothing run" || bad "--gpu: $err / $js"
fi

# 6. a device that is not here
run unknown 2 rxe1 nosuch && [[ "$err" == *"no RDMA device 'nosuch' here"* ]] &&
	ok "an unknown device is named" || bad "unknown device: $err"

# --- against ib_write_bw on the same pair, interleaved -----------------------
# rxe1 sends to rxe2 on both: ib_write_bw's server on rxe2, its client on
# rxe1; the same GIDs, 64 KiB, one QP, tx depth 128, CQ moderation 1 (both
# tools' rule at 64 KiB), iterations mode.
ours=() theirs=()
for r in 1 2 3; do
	if run "ours-$r" 0 --size 65536 --iters 2000 --expect-gbps 0.0001 rxe1 rxe2; then
		ours+=("$(python3 -c 'import json,sys; print(json.load(sys.stdin)["pairs"][0]["results"][0]["rails"][0]["gbps"]["avg"])' <<<"$js")")
	fi
	timeout 60 ib_write_bw -d rxe2 -x "$g2" -s 65536 -n 2000 -F --report_gbits >/tmp/lb-pt.$$ 2>&1 &
	spid=$!
	sleep 1
	pt=$(timeout 60 ib_write_bw -d rxe1 -x "$g1" -s 65536 -n 2000 -F --report_gbits 10.9.0.2 2>&1)
	wait $spid
	v=$(awk '$1 == 65536 && NF >= 4 { print $4; exit }' <<<"$pt")
	[ -n "$v" ] && theirs+=("$v") || echo "# ib_write_bw run $r gave no figure: $(tail -n 3 <<<"$pt")"
done
if [ ${#ours[@]} -gt 0 ] && [ ${#theirs[@]} -gt 0 ]; then
	median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
	mo=$(median "${ours[@]}") mt=$(median "${theirs[@]}")
	echo "# ratio: rdmadoctor bw --loopback rxe1 rxe2 / ib_write_bw rxe1 -> rxe2, 64 KiB: $(awk -v a="$mo" -v b="$mt" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') (medians $mo / $mt Gb/s; runs: ours ${ours[*]}, ib_write_bw ${theirs[*]})"
	awk -v a="$mo" -v b="$mt" 'BEGIN { exit !(a > 0 && b > 0) }' && ok "both tools moved data on the pair" ||
		bad "a median of 0: ours $mo, ib_write_bw $mt"
else
	bad "no figures to compare: ours ${ours[*]:-none}, ib_write_bw ${theirs[*]:-none}"
fi

# 7. default pairs: with rxe0 gone, the rails are rxe1 and rxe2 (rail 0 with
#    rail 1), or the host says it has none to pair
rdma link delete rxe0 2>/dev/null
js=$(timeout 120 "$bin" --json bw --loopback --size 65536 --iters 50 --expect-gbps 0.0001 2>/tmp/lb-err.$$)
rc=$?
err=$(cat /tmp/lb-err.$$)
if [ $rc -eq 0 ]; then
	jcheck "default pairs: rail 0 (rxe1) with rail 1 (rxe2)" \
		'[(q["pair"]["from"]["device"], q["pair"]["to"]["device"]) for q in d["pairs"]] == [("rxe1", "rxe2")]'
elif [ $rc -eq 2 ] && [[ "$err" == *"no rails to pair"* ]]; then
	ok "default pairs: no rail role here, said: $err"
else
	bad "default pairs: exit $rc: $err / $(head -c 400 <<<"$js")"
fi
rm -f /tmp/lb-err.$$ /tmp/lb-pt.$$
tally_done "vm bw loopback"
