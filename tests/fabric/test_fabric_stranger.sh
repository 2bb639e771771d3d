#!/bin/bash
# rdmadoctor fabric with a stranger on the ranks' ports: 4 ranks under Open
# MPI's mpirun, every one on 127.0.0.1 (one address, so a listener cannot
# tell its partner from a stranger by where it comes from), in a network
# namespace made here (fabs<pid>), while stranger.py keeps connections
# queued on every rank's bw listener before and during every round, ahead
# of the partner: some send garbage, some a well-formed proof of a wrong
# secret, some nothing at all (holding the connection open).  Without the pairing secret a stranger took the partner's place
# and the real pair was named a suspect.  Now:
#
#   - the run pairs as planned and passes: every pair measured, no suspect,
#     exit 0 (--tolerance 0: only a pair that could not be tested fails,
#     whatever speed the shared loopback gives; --guard 1: a busy machine
#     is no reason either);
#   - in every pair the listening rank refused a stranger before its
#     partner came, and logged it with the stranger's address and port;
#   - no stranger got past the proof: nothing ever came back to one.
#
# usage: test_fabric_stranger.sh RDMADOCTOR-BINARY
# exit 77 (skip) when not root or mpirun/ip/tc/python3 are missing.
set -u

BIN=$(realpath "$1")
HERE=$(dirname "$(realpath "$0")")
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root (network namespaces need it)"
for tool in mpirun ip tc python3; do
	command -v "$tool" >/dev/null || skip "no '$tool' (Debian openmpi-bin, iproute2, python3)"
done

NS=fabs$$
T=$(mktemp -d /tmp/fabs-stranger.XXXXXX)
STRANGER=

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[ -n "$STRANGER" ] && kill "$STRANGER" 2>/dev/null
	fab_ranks_kill "$T"
	ip netns del "$NS" 2>/dev/null
	[ $rc -ne 0 ] && fab_dump "$T"/run/err.* "$T/stranger.out" "$T/run/mpirun.out"
	fab_keep_or_remove "$T"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ns() { ip netns exec "$NS" "$@"; }

fab_netns "$NS" || skip "cannot make a network namespace with a veth pair"
# the pairs share the loopback: a modest rate keeps the run's CPU down,
# and a short queue (tbf's latency) keeps the control messages behind the
# data from missing the round's end
ns tc qdisc add dev lo root tbf rate 2gbit burst 1mb latency 5ms || fail "tbf"

mkdir -p "$T/run"
# the stranger first: it watches for the ranks' listeners from their start
ns python3 "$HERE/stranger.py" "$T/run" 4 "$T/stranger.ready" >"$T/stranger.out" 2>&1 &
STRANGER=$!
for ((i = 0; i < 300; i++)); do
	[ -e "$T/stranger.ready" ] && break
	kill -0 "$STRANGER" 2>/dev/null || fail "the stranger did not start: $(tail -n 3 "$T/stranger.out")"
	sleep 0.1
done
[ -e "$T/stranger.ready" ] || fail "the stranger was not ready within 30 s"
export FAB_ADDR=127.0.0.1	# rank.sh: every rank's address
ns timeout 180 mpirun --allow-run-as-root --oversubscribe --enable-recovery -np 4 \
	"$HERE/rank.sh" "$T/run" "$BIN" --json fabric --transport tcp --duration 1.5 \
	--warmup 0.5 --guard 1 --tolerance 0 --timeout 60 >"$T/run/mpirun.out" 2>&1 &
MPIRUN=$!

wait "$MPIRUN" || fail "mpirun failed: $(tail -n 5 "$T/run/mpirun.out")"
wait "$STRANGER" || fail "the stranger failed: $(tail -n 5 "$T/stranger.out")"
STRANGER=
rc0=$(cat "$T/run/rc.0" 2>/dev/null || echo none)
[ "$rc0" = 0 ] || fail "rank 0 exit $rc0, expected 0 (no suspects)"
for i in 1 2 3; do
	[ -s "$T/run/out.$i" ] && fail "rank $i printed on stdout: $(head -c 200 "$T/run/out.$i")"
done
python3 "$HERE/check_report.py" "$T/run/out.0" "$T/run/err.0" || fail "report"

python3 - "$T/run" "$T/stranger.out" <<'EOF' || fail "the stranger was not refused as it should be"
import json, re, sys
run, stranger = sys.argv[1], sys.argv[2]
s = json.loads(open(stranger).read().splitlines()[-1])
doc = json.load(open(f"{run}/out.0"))
# 4 nodes, every pair once, each measured both ways
pairs = {(p["a"], p["b"]) for p in doc["pairs"] if p["verdict"] == "pass"}
assert len(pairs) == 6 and all(p["verdict"] == "pass" for p in doc["pairs"]), doc["pairs"]
assert len(s["ports"]) == 4, s
assert s["garbage"] >= 4 and s["forger"] >= 4 and s["silent"] >= 4 and s["closed"] >= 4, s
assert not s["let_in"], f"a stranger got past the proof: {s['let_in']}"
# in every pair the higher rank listened, and a stranger came before the
# partner: it was refused (address and port named) while the rank still
# waited for that partner
mine = set(s["source_ports"])
REASONS = ("no fabric proof", "not of this rank's secret", "no proof within a second",
           "partner came first")
refusals = []
for rd in doc["rounds"]:
    for pair in rd["pairs"]:
        client, server = sorted(int(n[len("fab"):]) for n in pair)
        lines = [l for l in open(f"{run}/err.{server}")
                 if re.search(r"rank %d: refused a connection from 127\.0\.0\.1 port \d+ "
                              r"while waiting for rank %d: " % (server, client), l)]
        assert lines, f"rank {server} logged no refusal while waiting for rank {client}"
        ports = {int(re.search(r"port (\d+)", l).group(1)) for l in lines}
        assert ports <= mine, f"rank {server} refused ports {ports - mine}, not the stranger's"
        for l in lines:
            assert any(w in l for w in REASONS), f"an unexpected refusal: {l}"
        refusals.extend(lines)
# each kind of stranger was refused for what it did
for w in ("no fabric proof", "not of this rank's secret"):
    assert any(w in l for l in refusals), f"no refusal says {w!r}"
assert any("no proof within a second" in l or "partner came first" in l for l in refusals), \
    "no silent stranger was refused"
print(f"ok: {s['garbage']} garbage, {s['forger']} forged and {s['silent']} silent "
      "connections, all refused")
EOF

echo "ok: fabric with a stranger on the ranks' ports"
