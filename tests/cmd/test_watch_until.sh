#!/bin/bash
# watch --until DIR2 (and check --window --until) take the second reading
# only of the same machine in the same boot: another host name, another
# boot id or another card's node GUID is refused (exit 2, saying which),
# since their counters subtracted from the first's give rates no link
# carries (`tx 442188 Gb/s`) and hide the errors that grew.  A rate above
# the port's own is never printed as a rate: "impossible", and null in JSON.
# Usage: test_watch_until.sh BINARY SRCDIR
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
stderr_has() { if grep -q -- "$1" "$tmp/err"; then ok; else bad "stderr lacks '$1'"; cat "$tmp/err"; fi; }
stdout_has() { if grep -q -- "$1" "$tmp/out"; then ok; else bad "stdout lacks '$1'"; head -40 "$tmp/out"; fi; }
py() {
	if python3 - "$tmp/out" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def port(nic, num=1):
    return next(p for p in d["ports"] if p["nic"] == nic and p["port"] == num)
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
	then ok; else bad "$2"; head -c 3000 "$tmp/out"; echo; fi
}

fx=$src/tests/fixtures/dgx-h100/root
fresh() {	# a copy of the fixture at $1, with a boot id
	rm -rf "$1"
	cp -a "$fx" "$1" || { echo "cannot copy $fx"; exit 1; }
	mkdir -p "$1/proc/sys/kernel/random"
	echo 6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70 >"$1/proc/sys/kernel/random/boot_id"
}
a=$tmp/a
b=$tmp/b
fresh "$a"
ib=sys/class/infiniband/mlx5_0/ports/1/counters

# the same machine and boot: taken
fresh "$b"
expect 0 "$bin" --root "$a" watch --until "$b" --duration 60
stdout_has "tx 0 Gb/s"

# another host
fresh "$b"
echo other-host >"$b/proc/sys/kernel/hostname"
expect 2 "$bin" --root "$a" watch --until "$b" --duration 60
stderr_has "is not a later reading of '$a': the host name is '$(cat "$a/proc/sys/kernel/hostname")' in the first reading, 'other-host' in the second"
if [ -s "$tmp/out" ]; then bad "a refused window printed a report"; else ok; fi
expect 2 "$bin" --root "$a" check --window 60 --until "$b"
stderr_has "the host name is"

# another boot (a reboot between the readings: every counter began again)
fresh "$b"
echo 0b7d3c1e-5a2f-4e8d-8c6b-1a2b3c4d5e6f >"$b/proc/sys/kernel/random/boot_id"
expect 2 "$bin" --root "$a" watch --until "$b" --duration 60 --json
stderr_has "the boot id (a reboot between them) is '6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70' in the first reading, '0b7d3c1e-5a2f-4e8d-8c6b-1a2b3c4d5e6f' in the second"

# another card under the same name
fresh "$b"
guid=$b/sys/class/infiniband/mlx5_3/node_guid
guid=$(readlink -f "$guid")
echo 0000:1111:2222:3333 >"$guid"
expect 2 "$bin" --root "$a" watch --until "$b" --duration 60
stderr_has "mlx5_3's node GUID (another card) is"

# the first reading without a boot id: nothing to compare, taken
fresh "$b"
rm "$a/proc/sys/kernel/random/boot_id"
expect 0 "$bin" --root "$a" watch --until "$b" --duration 60
fresh "$a"

# a data counter that moved more than the port carries in the window
# (NDR: 400 Gb/s; 60 s carry 3e12 bytes; port_xmit_data counts 4-byte
# words): no rate, "impossible"
fresh "$b"
echo $(( $(cat "$a/$ib/port_xmit_data") + 3316410000000 )) >"$b/$ib/port_xmit_data"
expect 0 "$bin" --root "$a" watch --until "$b" --duration 60
stdout_has "tx impossible, rx 0 Gb/s (above the port's 400 Gb/s"
if grep -q "tx [0-9]\{4,\} Gb/s" "$tmp/out"; then bad "an impossible rate printed as a rate"; else ok; fi
expect 0 "$bin" --root "$a" watch --until "$b" --duration 60 --json
py 'port("mlx5_0")["tx_gbps"] is None and port("mlx5_0")["rx_gbps"] == 0 and port("mlx5_0")["rate_impossible"].startswith("tx 1769 Gb/s above the port\x27s 400 Gb/s: impossible")' "JSON: tx_gbps null, rate_impossible says why"
py 'port("mlx5_1")["rate_impossible"] is None' "JSON: rate_impossible null where the rate is possible"
# just under the port's rate: a rate
fresh "$b"
echo $(( $(cat "$a/$ib/port_xmit_data") + 700000000000 )) >"$b/$ib/port_xmit_data"
expect 0 "$bin" --root "$a" watch --until "$b" --duration 60
stdout_has "tx 373 Gb/s"

tally_done watch_until
