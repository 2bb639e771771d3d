#!/bin/bash
# Counters over time: two snapshots of one machine a minute apart (a
# committed fixture copied twice, counters edited in the second), fed to
# `watch --until` and `check --window --until`; usage errors; a live run.
# Usage: test_watch.sh BINARY SRCDIR
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
# py 'python expression over d (the JSON document on stdout)' 'what it checks'
py() {
	if python3 - "$tmp/out" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def port(nic, num=1):
    return next(p for p in d["ports"] if p["nic"] == nic and p["port"] == num)
def fs(id, subject=None):
    return [f for f in d["findings"] if f["id"] == id and (subject is None or f["subject"] == subject)]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
	then ok; else bad "$2"; head -c 3000 "$tmp/out"; echo; fi
}

# --- two snapshots, a minute apart ------------------------------------------
fx=$src/tests/fixtures/dgx-h100/root
a=$tmp/a
b=$tmp/b
cp -a "$fx" "$a" && cp -a "$fx" "$b" || { echo "cannot copy $fx"; exit 1; }
ib=sys/class/infiniband
set_counter() {	# ROOT NIC FILE VALUE (port 1's PMA counters)
	printf '%s\n' "$4" >"$1/$ib/$2/ports/1/counters/$3"
}
add_counter() {	# ROOT NIC FILE DELTA
	local f=$1/$ib/$2/ports/1/counters/$3
	printf '%s\n' $(( $(cat "$f") + $4 )) >"$f"
}
add_counter "$b" mlx5_0 symbol_error 12
add_counter "$b" mlx5_0 port_xmit_data 250000000	# 4-byte words: 1e9 bytes
set_counter "$b" mlx5_1 symbol_error 65535		# saturated
add_counter "$b" mlx5_3 link_downed 1			# an IB flap
add_counter "$b" mlx5_3 port_xmit_data 250000000	# ... while it sent
net=sys/class/net/enp41s0f1np1				# mlx5_2, RoCE: a carrier flap
echo 3 >"$a/$net/carrier_changes"
echo 5 >"$b/$net/carrier_changes"
set_counter "$a" mlx5_4 symbol_error 5			# old errors, not growing
set_counter "$b" mlx5_4 symbol_error 5
set_counter "$a" mlx5_5 port_rcv_errors 7		# cleared in between
set_counter "$b" mlx5_5 port_rcv_errors 2

expect 1 "$bin" --root "$a" watch --until "$b" --duration 60 --json
py 'd["schema"] == 1 and d["samples"] == 2 and d["duration_s"] == 60 and d["interval_s"] == 60' "document header"
py 'len(d["ports"]) == 12 and all(set(p) >= {"nic", "port", "counters"} for p in d["ports"])' "every port listed"
py 'port("mlx5_0")["counters"]["symbol_error"] == {"start": 0, "end": 12, "delta": 12, "per_s": 0.2, "reset": False}' "mlx5_0 symbol_error +12"
py 'port("mlx5_0")["counters"]["port_xmit_data"]["delta"] == 1000000000' "port_xmit_data delta in bytes"
# 1e9 bytes in 60 s: 8e9 bits / 60 s = 0.1333 Gb/s; nothing received
py 'abs(port("mlx5_0")["tx_gbps"] - 8 / 60) < 1e-9 and port("mlx5_0")["rx_gbps"] == 0' "tx_gbps, rx_gbps from port_xmit_data / port_rcv_data"
py 'port("mlx5_5")["rx_gbps"] == 0' "an idle port: 0 Gb/s, known"
py 'abs(port("mlx5_0")["phy_error_ratio"] - 12 / (400e9 * 60)) < 1e-20' "12 errors in 60 s at 400 Gb/s"
py 'abs(port("mlx5_1")["phy_error_ratio"] - 65535 / (400e9 * 60)) < 1e-20' "an idle port has an error ratio"
py 'port("mlx5_3")["phy_error_ratio"] == 0' "a flap is no bit error"
py 'all("errors_per_xmit_bit" not in p for p in d["ports"])' "the old key is gone"
py 'port("mlx5_2")["carrier_changes"]["delta"] == 2' "carrier_changes delta"
py 'port("mlx5_5")["counters"]["symbol_error"]["delta"] == 0' "unchanged counter"
py 'len(fs("counters.errors", "mlx5_0 port 1")) == 1 and fs("counters.errors", "mlx5_0 port 1")[0]["severity"] == "error"' "counters.errors error on mlx5_0 port 1"
py '"symbol_error grew by 12" in fs("counters.errors", "mlx5_0 port 1")[0]["observed"] and "in 60 s" in fs("counters.errors", "mlx5_0 port 1")[0]["observed"]' "counters.errors says the delta and the window"
py 'len(fs("counters.saturated", "mlx5_1 port 1")) == 1' "counters.saturated on mlx5_1 port 1"
py '"(saturated)" in fs("counters.errors", "mlx5_1 port 1")[0]["observed"]' "saturated counter that grew"
py 'fs("link.flaps", "mlx5_3 port 1")[0]["severity"] == "error" and "link_downed grew by 1" in fs("link.flaps", "mlx5_3 port 1")[0]["observed"]' "link.flaps from link_downed"
py '"enp41s0f1np1 carrier_changes grew by 2" in fs("link.flaps", "mlx5_2 port 1")[0]["observed"]' "link.flaps from carrier_changes"
py 'not fs("counters.errors", "mlx5_3 port 1")' "link_downed is a flap, not counters.errors"
py 'not fs("counters.errors", "mlx5_4 port 1")' "old errors that do not grow: nothing"
py 'port("mlx5_5")["counters"]["port_rcv_errors"] == {"start": 7, "end": 2, "delta": None, "per_s": None, "reset": True}' "a cleared counter: no delta"
py 'not fs("counters.errors", "mlx5_5 port 1")' "a cleared counter: no finding"
# link.ber: a saturated symbol_error counted less than happened
py 'fs("link.ber", "mlx5_1 port 1")[0]["severity"] == "info" and "symbol_error is saturated" in fs("link.ber", "mlx5_1 port 1")[0]["observed"]' "link.ber: saturated counter not checked"
# 12 symbol errors in 60 s on 400G NDR: 5e-13 of the 2.4e13 bits, under 1e-12
py 'not [f for f in fs("link.ber") if f["severity"] != "info"]' "link.ber: 12 symbol errors in a minute at NDR are within 1e-12"
py 'len(d["findings"]) == 6 and d["verdict"] == "fail"' "exactly these findings"
py 'all(set(f) - {"unchecked"} == {"id", "severity", "subject", "observed", "expected", "why", "fix"} for f in d["findings"])' "findings shaped as check's"

# the physical-layer error ratio's worked example (docs/json/watch.md):
# 120 symbol errors in 60 s on an idle 400 Gb/s port are 5e-12 of the
# 400e9 x 60 bits the link carried, whatever it sent
c=$tmp/c
cp -a "$a" "$c" || { echo "cannot copy $a"; exit 1; }
add_counter "$c" mlx5_6 symbol_error 120
expect 1 "$bin" --root "$a" watch --until "$c" --duration 60 --json
py 'port("mlx5_6")["counters"]["port_xmit_data"]["delta"] == 0 and abs(port("mlx5_6")["phy_error_ratio"] - 5e-12) < 1e-24' "120 errors in 60 s at 400 Gb/s: 5e-12"
expect 1 "$bin" --root "$a" watch --until "$c" --duration 60
stdout_has "physical-layer errors per line bit: 5e-12"

# text: a row per moving counter, the findings
expect 1 "$bin" --root "$a" watch --until "$b" --duration 60
stdout_has "mlx5_0 port 1"
stdout_has "symbol_error .* 12 .* 0.2"
stdout_has "counters.errors"
stdout_has "link.flaps"
stdout_has "no counter changed"
# rates with units: data in Gb/s (the 4-byte words made bytes), the rest /s
stdout_has "^    tx 0.13 Gb/s, rx 0 Gb/s$"
stdout_has "port_xmit_data .* 1000000000 .* 0.13 Gb/s$"
stdout_has "symbol_error .* 12 .* 0.2/s$"
# (an error ratio is written as a bit error rate is, 5e-12: not a rate)
raw='[0-9]e[+-][0-9]|[0-9]\.[0-9]{5,}'
# (the table only: the findings below it write link.ber's ratios, 1e-12, so)
table() { sed '/^[0-9]* errors*, [0-9]* warnings*$/q' "$tmp/out" | grep -v "errors per line bit"; }
if table | grep -Eq "$raw"; then
	bad "a raw float in watch text"; table | grep -E "$raw"
else ok; fi

# colour when asked: the findings' severities and the tally, red
esc=$(printf '\033')
expect 1 "$bin" --root "$a" --color=always watch --until "$b" --duration 60
if grep -q "${esc}\[1;31mERROR${esc}\[0m" "$tmp/out" && grep -q "${esc}\[1;31m[0-9]* errors" "$tmp/out"; then ok
else bad "watch --color=always: findings not coloured"; tail -20 "$tmp/out" | cat -v; fi
expect 1 "$bin" --root "$a" watch --until "$b" --duration 60
if grep -q "$esc" "$tmp/out"; then bad "watch: colour in a pipe"; else ok; fi

# nothing grew: exit 0, no findings
expect 0 "$bin" --root "$a" watch --until "$a" --duration 60 --json
py 'd["findings"] == [] and d["verdict"] == "pass"' "no findings when nothing grew"

# check --window: growth is an error; without it a lifetime count a warning
expect 1 "$bin" --root "$a" check --window 60 --until "$b" --json
py 'fs("counters.errors", "mlx5_0 port 1")[0]["severity"] == "error" and "grew by 12 in 60 s" in fs("counters.errors", "mlx5_0 port 1")[0]["observed"]' "check --window: counters.errors error"
py 'len(fs("link.flaps", "mlx5_3 port 1")) == 1 and len(fs("link.flaps", "mlx5_2 port 1")) == 1' "check --window: link.flaps"
py 'len(fs("counters.saturated", "mlx5_1 port 1")) == 1' "check --window: counters.saturated"
py 'not fs("counters.errors", "mlx5_4 port 1")' "check --window: no finding for old errors"
expect 0 "$bin" --root "$a" check --window 60 --until "$a" --json
py 'not fs("counters.errors") and not fs("link.flaps")' "check --window, nothing grew: no counter findings"
py 'not fs("link.ber")' "check --window, nothing grew: every link judged, none past its limit"
# link.ber's per-hour ceilings from a profile: 12 symbol errors in a minute
# are 720 an hour; a ceiling of one recovery an hour needs an hour's window
printf '[profile]\nname = ceilings\nbased_on = dgx-h100\nib_symbol_errors_per_hour = 100\nib_link_recoveries_per_hour = 1\n' >"$tmp/ceilings.ini"
expect 1 "$bin" --root "$a" check --profile "$tmp/ceilings.ini" --window 60 --until "$b" --json
py 'fs("link.ber", "mlx5_0 port 1")[0]["severity"] == "error" and "symbol errors 720 per hour" in fs("link.ber", "mlx5_0 port 1")[0]["observed"] and "symbol errors at most 100 per hour" in fs("link.ber", "mlx5_0 port 1")[0]["expected"]' "link.ber: symbol errors per hour past the profile's ceiling"
py '"a window shorter than 3600 s cannot tell link error recoveries per hour from 1" in fs("link.ber", "mlx5_4 port 1")[0]["observed"]' "link.ber: a window too short for the hourly ceiling"
expect 0 "$bin" --root "$b" check --json
py 'fs("counters.errors", "mlx5_0 port 1")[0]["severity"] == "warn"' "one-shot check: lifetime counts a warning"
py 'not fs("link.flaps")' "one-shot check: no link.flaps"
expect 1 "$bin" --root "$a" check --window=60 --until="$b" --nhc
# the drain reason ranks link flaps before counter growth
stdout_has "ERROR: rdmadoctor: Health check failed: link.flaps mlx5_2 port 1"

# --- RoCE: ethtool statistics, PFC pause per priority, CNPs ------------------
# roce-broken twice; in the later copy mlx5_0 (enp24s0np0) has sent and
# received PFC pause frames on priority 3 (DCB counters and mlx5's ethtool
# ones), FCS errors, and CNP traffic in hw_counters.
fx=$src/tests/fixtures/roce-broken/root
ra=$tmp/ra
rb=$tmp/rb
cp -a "$fx" "$ra" && cp -a "$fx" "$rb" || { echo "cannot copy $fx"; exit 1; }
hw=$rb/sys/class/infiniband/mlx5_0/ports/1/hw_counters
for c in np_cnp_sent:40 rp_cnp_handled:25 np_ecn_marked_roce_packets:90; do
	f=$hw/${c%%:*}
	printf '%s\n' $(( $(cat "$f") + ${c#*:} )) >"$f"
done
python3 - "$src/tests/fixtures" "$rb" <<'PY' || { echo "cannot edit $rb"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
from gen_fixtures import dcb_reply, ethtool_stats
root = sys.argv[2] + "/.rdmadoctor"
open(root + "/dcb/enp24s0np0", "wb").write(
    dcb_reply("enp24s0np0", dscp2prio=lambda d: d >> 3, pause_tx=1234 + 300,
              pause_rx=5678 + 600))
s, v = ethtool_stats([
    ("rx_crc_errors_phy", 1532 + 10), ("rx_symbol_err_phy", 88),
    ("link_down_events_phy", 4), ("rx_prio3_pause", 5678 + 600),
    ("tx_prio3_pause", 1234 + 300), ("rx_discards_phy", 17)])
open(root + "/ethtool/enp24s0np0/strings", "wb").write(s)
open(root + "/ethtool/enp24s0np0/stats", "wb").write(v)
PY
expect 1 "$bin" --root "$ra" watch --until "$rb" --duration 60 --json
py 'dict(port("mlx5_0")["ethtool_stats"]["rx_crc_errors_phy"], per_s=0) == {"start": 1532, "end": 1542, "delta": 10, "per_s": 0, "reset": False} and abs(port("mlx5_0")["ethtool_stats"]["rx_crc_errors_phy"]["per_s"] - 10 / 60) < 1e-9' "ethtool rx_crc_errors_phy +10"
py 'port("mlx5_0")["ethtool_stats"]["rx_symbol_err_phy"]["delta"] == 0' "ethtool counter that did not move"
py '[p["priority"] for p in port("mlx5_0")["pfc"]] == [3]' "pfc: priority 3 only (PFC on 3)"
py 'port("mlx5_0")["pfc"][0]["pause_tx"]["delta"] == 300 and port("mlx5_0")["pfc"][0]["pause_rx"]["delta"] == 600' "pfc: DCB pause frames per priority"
py 'port("mlx5_0")["pfc"][0]["ethtool_tx_pause"]["delta"] == 300 and port("mlx5_0")["pfc"][0]["ethtool_rx_pause"]["per_s"] == 10' "pfc: mlx5 rx/tx_prio3_pause"
py 'port("mlx5_0")["cnp"]["np_cnp_sent"]["delta"] == 40 and port("mlx5_0")["cnp"]["rp_cnp_handled"]["delta"] == 25 and port("mlx5_0")["cnp"]["np_ecn_marked_roce_packets"]["delta"] == 90' "cnp deltas"
py 'port("mlx5_1")["cnp"]["np_cnp_sent"]["delta"] == 0 and port("mlx5_1")["pfc"] == []' "no CNPs, no PFC on mlx5_1"
py 'port("mlx5_2")["pfc"][0]["priority"] == 3 and port("mlx5_2")["pfc"][0]["pause_tx"]["delta"] == 0 and port("mlx5_2")["pfc"][0]["ethtool_tx_pause"] is None' "pfc on 3 without ethtool counters"
py 'port("mlx5_1")["ethtool_stats"] is None and port("mlx5_0")["netdev_stats"] is None' "sets not in the snapshot: null"
# the PHY's FCS errors growing are an error counter growing
py 'fs("counters.errors", "mlx5_0 port 1")[0]["severity"] == "error" and "ethtool rx_crc_errors_phy grew by 10 in 60 s" in fs("counters.errors", "mlx5_0 port 1")[0]["observed"]' "counters.errors from ethtool rx_crc_errors_phy"
# and rail 3's FEC forced off: its bit errors cannot be counted by FEC
py '[f["id"] for f in d["findings"] if f["severity"] != "info"] == ["counters.errors"] and d["verdict"] == "fail"' "only that finding"
py 'fs("link.ber", "mlx5_3 port 1")[0]["observed"] == "not checked: FEC is off: there are no FEC statistics to count bit errors by"' "link.ber: FEC off not checked"
expect 1 "$bin" --root "$ra" check --window 60 --until "$rb" --json
py 'len(fs("counters.errors", "mlx5_0 port 1")) == 1' "check --window: ethtool errors too"
# a RoCE link that went down and up, seen by the PHY's own count
rc_=$tmp/rc
cp -a "$fx" "$rc_" || exit 1
python3 - "$src/tests/fixtures" "$rc_" <<'PY' || { echo "cannot edit $rc_"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
from gen_fixtures import ethtool_stats
root = sys.argv[2] + "/.rdmadoctor/ethtool/enp24s0np0/"
s, v = ethtool_stats([
    ("rx_crc_errors_phy", 1532), ("rx_symbol_err_phy", 88),
    ("link_down_events_phy", 4 + 2), ("rx_prio3_pause", 5678),
    ("tx_prio3_pause", 1234), ("rx_discards_phy", 17)])
open(root + "strings", "wb").write(s)
open(root + "stats", "wb").write(v)
PY
expect 1 "$bin" --root "$ra" watch --until "$rc_" --duration 60 --json
py '"ethtool link_down_events_phy grew by 2" in fs("link.flaps", "mlx5_0 port 1")[0]["observed"] and not fs("counters.errors")' "link.flaps from ethtool link_down_events_phy"
# link.ber from FEC_GET's statistics (gen_fixtures' ethnl_fec: the reply
# as net/ethtool/fec.c lays it out, mlx5's RS totals; from source): in a
# later copy enp24s0np0 lost 2 codewords, enp57s0np0 corrected 3e9 bits
# in 60 s at 400G (1.25e-4, past half of RS(544,514)'s 2.4e-4),
# enp74s0np0's counters were cleared, enp152s0np0's reply is gone
rd=$tmp/rd
cp -a "$fx" "$rd" || exit 1
python3 - "$src/tests/fixtures" "$rd" <<'PY' || { echo "cannot edit $rd"; exit 1; }
import os, sys
sys.path.insert(0, sys.argv[1])
from gen_fixtures import ethnl_fec, link_params
nl = sys.argv[2] + "/.rdmadoctor/ethtool-nl/"
for ifn, stats in (("enp24s0np0", (812345 + 9, 2, 1034567 + 300)),
                   ("enp57s0np0", (812345 + 10**6, 0, 1034567 + 3 * 10**9)),
                   ("enp74s0np0", (5, 0, 7))):
    open(nl + ifn + "/fec", "wb").write(ethnl_fec(7, ifn, link_params(400000, fec_stats=stats)))
os.remove(nl + "enp152s0np0/fec")
PY
expect 1 "$bin" --root "$ra" watch --until "$rd" --duration 60 --json
py 'fs("link.ber", "mlx5_0 port 1")[0]["severity"] == "error" and fs("link.ber", "mlx5_0 port 1")[0]["observed"].startswith("2 uncorrectable blocks, post-FEC bit error ratio 1.33e-12")' "link.ber: uncorrectable blocks, post-FEC at least 16 bits each"
py 'fs("link.ber", "mlx5_1 port 1")[0]["severity"] == "warn" and "pre-FEC bit error ratio (RS(544,514)) 0.000125" in fs("link.ber", "mlx5_1 port 1")[0]["observed"] and "at most 0.00012" in fs("link.ber", "mlx5_1 port 1")[0]["expected"]' "link.ber: pre-FEC near the KP4 limit"
py '"cleared" in fs("link.ber", "mlx5_2 port 1")[0]["observed"] and fs("link.ber", "mlx5_2 port 1")[0]["severity"] == "info"' "link.ber: cleared FEC counters not checked"
py '"could not be read at the end" in fs("link.ber", "mlx5_4 port 1")[0]["observed"]' "link.ber: FEC reply gone at the end"
py 'not fs("link.ber", "mlx5_6 port 1")' "link.ber: a clean 400G link over a minute passes"
py 'port("mlx5_0")["fec"]["uncorrectable_blocks"]["delta"] == 2' "watch --json: FEC deltas"
# per lane at both ends (as mlx5 counts FC-FEC): the worst lane is named
python3 - "$src/tests/fixtures" "$ra" "$rd" <<'PY' || { echo "cannot edit $ra"; exit 1; }
import sys
sys.path.insert(0, sys.argv[1])
from gen_fixtures import ethnl_fec, link_params
for root, lanes in ((sys.argv[2], [10, 20, 30, 40]), (sys.argv[3], [10, 20, 3 * 10**9 + 30, 40])):
    bits = [sum(lanes)] + lanes
    open(root + "/.rdmadoctor/ethtool-nl/enp219s0np0/fec", "wb").write(
        ethnl_fec(7, "enp219s0np0", link_params(400000, fec_stats=(100, [0] * 5, bits))))
PY
expect 1 "$bin" --root "$ra" watch --until "$rd" --duration 60 --json
py 'fs("link.ber", "mlx5_6 port 1")[0]["severity"] == "warn" and "(lane 2 the worst: 0.0005)" in fs("link.ber", "mlx5_6 port 1")[0]["observed"]' "link.ber: the worst lane named"
# too short to tell 1e-12 at 400G (2.5 s needed)
expect 1 "$bin" --root "$ra" check --window 1 --until "$ra" --json
py '"a window of 3 s or more" in fs("link.ber", "mlx5_0 port 1")[0]["observed"]' "link.ber: a short window is not checked"
expect 1 "$bin" --root "$ra" watch --until "$rb" --duration 60
stdout_has "ethtool rx_crc_errors_phy .* 10 "
stdout_has "pfc prio 3: pause tx +300 (5/s) rx +600 (10/s)"
stdout_has "cnp: sent +40 (0.67/s), handled +25 (0.42/s), ecn-marked +90 (1.5/s)"

# --- usage and runtime errors -------------------------------------------------
expect 2 "$bin" watch --interval 0;			stderr_has "interval '0'"
expect 2 "$bin" watch --interval 0.05;			stderr_has "interval"
expect 2 "$bin" watch --duration 100000;		stderr_has "duration '100000'"
expect 2 "$bin" watch --duration abc;			stderr_has "duration 'abc'"
expect 2 "$bin" watch --duration nan;			stderr_has "duration"
expect 2 "$bin" watch --interval;			stderr_has "needs a value"
expect 2 "$bin" --root "$a" watch --until "$b";		stderr_has "needs --duration"
expect 2 "$bin" --root "$a" watch --duration 5;		stderr_has "do not change"
expect 2 "$bin" watch --frob;				stderr_has "unexpected argument"
expect 2 "$bin" watch --netdev ../etc;			stderr_has "netdev '../etc'"
expect 2 "$bin" watch --netdev "";			stderr_has "netdev ''"
expect 3 "$bin" --root "$a" watch --netdev nosuch0 --until "$b" --duration 60;	stderr_has "no netdev 'nosuch0'"
expect 3 "$bin" --root "$a" watch --netdev nosuch0 --until "$b" --duration 60 --json
py 'd["verdict"] == "error" and "no netdev '"'"'nosuch0'"'"'" in d["error"]' "no such netdev: a document with the reason"
expect 0 "$bin" watch --help;				stdout_has "usage: rdmadoctor"
expect 3 "$bin" --root "$a" watch --until "$tmp/nope" --duration 60;	stderr_has "cannot open root"
expect 2 "$bin" --root "$a" check --until "$b";		stderr_has "needs --window"
expect 2 "$bin" --root "$a" check --window 0 --until "$b";	stderr_has "window '0'"
expect 2 "$bin" --root "$a" check --window 60;		stderr_has "do not change"

# --- live: this machine -------------------------------------------------------
# with no RDMA device there is nothing to watch: exit 3, as check's "nothing
# to check", never an empty pass (it exited 0 before); --netdev lo gives it
# something (every machine has lo)
if [ ! -e /sys/class/infiniband ] || [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	expect 3 "$bin" watch --interval 0.2 --duration 1;	stderr_has "nothing to watch"
	expect 3 "$bin" watch --interval 0.2 --duration 1 --json
	py 'd["verdict"] == "error" and "nothing to watch" in d["error"]' "nothing to watch: a document with the reason"
fi
expect 0 "$bin" watch --netdev lo --interval 0.2 --duration 1 --json
py 'd["schema"] == 1 and d["samples"] >= 2 and 0.9 < d["duration_s"] < 5 and isinstance(d["ports"], list)' "live watch document"
py 'any(p["nic"] == "lo" and p["tx_gbps"] is not None for p in d["ports"])' "live watch of lo: its rate from statistics/"
# progress goes to a terminal only: none in the pipe
if [ ! -s "$tmp/err" ] || ! grep -q "counters growing" "$tmp/err"; then ok; else bad "progress on a non-terminal"; fi

# check --window, live: a machine with neither GPUs nor RDMA devices has
# nothing to check, and says so instead of passing (it passed before)
if [ ! -e /sys/class/infiniband ] || [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	if [ -z "$(grep -l 0x10de /sys/bus/pci/devices/*/vendor 2>/dev/null)" ]; then
		expect 3 "$bin" check --window 0.3 --json;	stderr_has "nothing to check"
		# exit 3 still writes one document, with the reason (issue 29)
		py 'd["verdict"] == "error" and "nothing to check" in d["error"]' "nothing to check: a document with the reason"
	fi
fi

# Ctrl-C finishes the report
"$bin" watch --netdev lo --interval 0.2 --duration 60 --json >"$tmp/out" 2>"$tmp/err" </dev/null &
pid=$!
# once it catches SIGINT (SigCgt bit 2), and a little into the window
for i in $(seq 100); do
	m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	[ -n "$m" ] && [ $(( 0x$m & 2 )) -ne 0 ] && break
	sleep 0.1
done
sleep 0.5
kill -INT "$pid"
wait "$pid"
got=$?
if [ "$got" -eq 0 ]; then ok; else bad "watch after SIGINT exited $got"; fi
py 'd["interrupted"] is True and d["duration_s"] < 10' "SIGINT: the report, interrupted"

tally_done watch
