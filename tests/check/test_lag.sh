#!/bin/bash
# RoCE LAG: mlx5_bond_0's netdev is bond0, which has no DCB and no
# transceiver; rdmadoctor asks the slaves (the physical functions).  The
# committed hgx-roce-lag fixture copied and one slave broken at a time:
# its module's RX power, its PFC; and a later copy for watch's pause sums.
# usage: test_lag.sh BINARY SRCDIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$(dirname "$0")/../lib/tally.sh"
expect() {
	want=$1; shift
	timeout 30 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	if [ "$got" -eq "$want" ]; then ok; else bad "$* exited $got, wanted $want"; cat "$tmp/err"; fi
}
py() {
	if python3 - "$tmp/out" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def bond():
    if "nics" in d:
        return next(n for n in d["nics"] if n["name"] == "mlx5_bond_0")["ports"][0]
    return next(p for p in d["ports"] if p["nic"] == "mlx5_bond_0")
def fs(id, subject=None):
    return [f for f in d["findings"] if f["id"] == id and (subject is None or subject in f["subject"])]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
	then ok; else bad "$2"; head -c 2000 "$tmp/out"; echo; fi
}
gen() {	# ROOT python-statements (gen_fixtures imported; r = ROOT/.rdmadoctor)
	python3 - "$src/tests/fixtures" "$1" "$2" <<'PY' || { echo "cannot edit $1"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
from gen_fixtures import dcb_reply, sff8636_module
r = sys.argv[2] + "/.rdmadoctor"
def put(path, data):
    open(r + "/" + path, "wb").write(data)
exec(sys.argv[3])
PY
}

fx=$src/tests/fixtures/hgx-roce-lag/root

# the healthy fixture: the bond's QoS is its slaves'
expect 0 "$bin" --root "$fx" --json inventory
py '[m["netdev"] for m in bond()["bond_members"]] == ["ens9f0np0", "ens9f1np1"]' "both slaves asked"
py 'bond()["qos"]["trust"] == "dscp" and bond()["qos"]["pfc_enabled"] == [3] and bond()["qos"]["dcb"] == "supported"' "bond qos from the slaves' DCB"
py 'bond()["qos"]["pfc_pause_tx"][3] == sum(m["qos"]["pfc_pause_tx"][3] for m in bond()["bond_members"]) == 98' "pause frames summed over the slaves"
py 'all(m["module"]["type"] == "QSFP28" and len(m["module"]["rx_power_mw"]) == 4 for m in bond()["bond_members"])' "each slave's QSFP28"
py 'bond()["module"] is None' "the bond itself has no module"
expect 0 "$bin" --root "$fx" --json check
# (the eight rails' DCB replies are in the fixture; the bond, read through
# its slaves, has no roce.pfc of its own: nothing unchecked, PASS)
py 'not fs("module.dom") and not fs("roce.pfc") and not fs("roce.pfc", "mlx5_bond_0") and d["verdict"] == "pass" and d["unchecked"] == 0' "healthy LAG: no finding, nothing unchecked (issue 43)"

# PF1's lane 3 RX power below its module's low alarm
cp -a "$fx" "$tmp/a" || exit 1
gen "$tmp/a" 'for k, v in sff8636_module("t", rx_mw=(0.8, 0.75, 0.1, 0.82)).items(): put("module/ens9f1np1/" + k, v)'
expect 1 "$bin" --root "$tmp/a" --json check
py 'len(fs("module.dom", "mlx5_bond_0 port 1 (ens9f1np1) lane 3")) == 1 and fs("module.dom", "mlx5_bond_0")[0]["severity"] == "error"' "module.dom names the slave and lane"
py 'not fs("module.dom", "ens9f0np0")' "the healthy slave: nothing"

# PF1 without PFC: the bond is only as lossless as its weakest slave
cp -a "$fx" "$tmp/b" || exit 1
gen "$tmp/b" 'put("dcb/ens9f1np1", dcb_reply("ens9f1np1", pfc_en=0, dscp2prio=lambda d: d >> 3))'
# (judged as a lossless RoCE fabric: tests/check/roce-qos.ini)
expect 1 "$bin" --root "$tmp/b" -v --json check --profile "$src/tests/check/roce-qos.ini"
grep -q "bond slaves ens9f0np0 and ens9f1np1 differ" "$tmp/err" && ok || bad "no note on slaves that differ"
py 'len(fs("roce.pfc", "mlx5_bond_0 port 1")) == 1' "roce.pfc on the bond when one slave lacks PFC"
# one cause, one finding: the map onto a priority without PFC is the same
# fault, with the same command, so roce.qos_mismatch does not say it again
py 'not fs("roce.qos_mismatch", "mlx5_bond_0 port 1")' "no second finding for the same PFC fault on the bond"
expect 0 "$bin" --root "$fx" --json check --profile "$src/tests/check/roce-qos.ini"
py 'not fs("roce.pfc", "mlx5_bond_0") and not fs("roce.qos_mismatch", "mlx5_bond_0")' "both slaves with PFC: nothing on the bond"

# watch: the slaves' pause counters summed over the window
cp -a "$fx" "$tmp/c" || exit 1
gen "$tmp/c" '
put("dcb/ens9f0np0", dcb_reply("ens9f0np0", dscp2prio=lambda d: d >> 3, pause_tx=49 + 100, pause_rx=70 + 5))
put("dcb/ens9f1np1", dcb_reply("ens9f1np1", dscp2prio=lambda d: d >> 3, pause_tx=49 + 20, pause_rx=70))'
expect 0 "$bin" --root "$fx" watch --until "$tmp/c" --duration 10 --json
py 'bond()["pfc"][0]["priority"] == 3 and bond()["pfc"][0]["pause_tx"]["delta"] == 120 and bond()["pfc"][0]["pause_rx"]["delta"] == 5' "watch: pause deltas summed over the slaves"

tally_done lag
