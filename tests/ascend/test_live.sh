#!/bin/bash
# The live path of the Ascend reader: stand-in hccn_tool and npu-smi on
# PATH (tests/ascend/standin.sh, printing the healthy Atlas 800 9000
# fixture's captures) and rdmadoctor on the live root "/".
#   - snapshot, then replay: the same NPUs as the live run;
#   - a call that hangs is cut at the limit and named, the rest of that
#     NPU is not run, the others are read; the hung child is gone;
#   - a call that fails is named with its exit status, replayed the same;
#   - hccn_tool missing is said, and check fails;
#   - without root, -v says the tools need it.
# usage: test_live.sh RDMADOCTOR SOURCE_DIR
# `A && ok || bad`: ok never fails, so bad runs exactly when A fails
# shellcheck disable=SC2015
set -u
bin=$(readlink -f "$1")
src=$2
cap=$src/tests/fixtures/atlas-800-9000/root/.rdmadoctor
tmp=$(mktemp -d /tmp/ascend-live-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$(dirname "$0")/../lib/tally.sh"

mkdir -p "$tmp/bin" "$tmp/smi-only"
cp "$src/tests/ascend/standin.sh" "$tmp/bin/hccn_tool"
cp "$src/tests/ascend/standin.sh" "$tmp/bin/npu-smi"
cp "$src/tests/ascend/standin.sh" "$tmp/smi-only/npu-smi"
export STANDIN_CAPTURE=$cap RDMADOCTOR_TOOL_TIMEOUT_MS=1500
base_path=$PATH

# npus of a JSON inventory, as one canonical line
npus() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(d.get("npus"), sort_keys=True))' "$1"; }
# a python expression over the npus object n must hold
holds() { python3 -c 'import json,sys
n = json.load(open(sys.argv[1])).get("npus")
dev = {d["id"]: d for d in (n or {}).get("devices", [])}
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"; }

live_and_replay() {	# label: live inventory, snapshot, replay; same npus
	label=$1
	"$bin" --root / --json inventory >"$tmp/$label-live.json" 2>/dev/null
	rm -rf "$tmp/$label-snap"
	if ! "$bin" --root / -q snapshot "$tmp/$label-snap" 2>"$tmp/err"; then
		bad "$label: snapshot failed: $(cat "$tmp/err")"
		return
	fi
	"$bin" --root "$tmp/$label-snap" --json inventory >"$tmp/$label-replay.json" 2>/dev/null
	if [ "$(npus "$tmp/$label-live.json")" = "$(npus "$tmp/$label-replay.json")" ]; then
		ok
	else
		bad "$label: replayed NPUs differ from the live ones"
		diff <(npus "$tmp/$label-live.json") <(npus "$tmp/$label-replay.json") | head -5
	fi
}

# 1. healthy: every NPU and port read, recorded in the snapshot layout
PATH=$tmp/bin:$base_path live_and_replay healthy
holds "$tmp/healthy-live.json" 'len(dev) == 8 and all(d["port"]["speed_mbps"] == 100000 and d["port"]["link"] == "UP" and not d["failures"] for d in dev.values()) and dev[5]["port"]["ipaddr"] == "192.168.101.102" and dev[0]["model"] == "Ascend 910"' \
	&& ok || bad "healthy: NPUs not read as captured"
s=$tmp/healthy-snap/.rdmadoctor
holds "$tmp/healthy-live.json" 'all(d["health"]["status"] == "OK" and d["temperature_c"] is not None and d["power_w"] is not None for d in dev.values()) and n["table_not_read"] is None' \
	&& ok || bad "healthy: npu-smi info's table and the health queries not read"
for f in npu-smi/info-m npu-smi/info npu-smi/health-0-0 npu-smi/health-7-0 npu-smi/board-0 npu-smi/board-7 hccn/0/link hccn/3/optical hccn/7/stat; do
	[ -f "$s/$f" ] || bad "healthy: snapshot lacks .rdmadoctor/$f"
done
cmp -s "$s/hccn/3/optical" "$cap/hccn/3/optical" && ok || bad "snapshot: hccn/3/optical is not the tool's exact stdout"
[ -z "$(find "$s/hccn" -name '*.rc' ! -name mtu.rc)" ] && ok || bad "healthy: an exit status file for a call that succeeded"
# -mtu is not in the captures: the stand-in fails it, and it is not named
holds "$tmp/healthy-live.json" 'dev[0]["port"]["mtu"] is None' && ok || bad "healthy: mtu invented"

# 1b. two-die NPUs (the Atlas A3 fixture): one NPU per die, the board of a
# die asked with NPU ID and Chip ID, recorded as board-<N>-<chip>
STANDIN_CAPTURE=$src/tests/fixtures/atlas-a3/root/.rdmadoctor PATH=$tmp/bin:$base_path live_and_replay a3
holds "$tmp/a3-live.json" 'len(dev) == 16 and all(not d["failures"] and d["port"]["link"] == "UP" for d in dev.values()) and dev[7]["die"] == {"npu": 3, "chip": 1} and dev[7]["bus_info"] == "0000:2f:00.0" and dev[7]["port"]["ipaddr"] == "10.21.0.13" and dev[7]["firmware"] == "7.7.0.6.236"' \
	&& ok || bad "a3: dies not read as captured"
for f in npu-smi/board-0-0 npu-smi/board-3-1 npu-smi/board-7-1 npu-smi/health-3-1 npu-smi/info hccn/15/link; do
	[ -f "$tmp/a3-snap/.rdmadoctor/$f" ] || bad "a3: snapshot lacks .rdmadoctor/$f"
done

# 2. a hung call: cut at the limit, named; the rest of that NPU not run
: >"$tmp/pids"
PATH=$tmp/bin:$base_path STANDIN_HANG="hccn/3/optical" STANDIN_PIDS=$tmp/pids \
	live_and_replay hang
holds "$tmp/hang-live.json" 'any(f["call"] == "hccn_tool -i 3 -optical -g" and "timed out" in f["why"] for f in dev[3]["failures"]) and any(f["call"] == "hccn_tool -i 3 -stat -g" and "not run" in f["why"] for f in dev[3]["failures"]) and dev[3]["port"]["link"] == "UP" and dev[4]["port"]["optical"] is not None and not dev[4]["failures"]' \
	&& ok || bad "hang: the hung call is not named, or it took other NPUs with it"
[ -f "$tmp/hang-snap/.rdmadoctor/hccn/3/optical.errno" ] && ok || bad "hang: no optical.errno in the snapshot"
while read -r pid; do
	# the state field of /proc/<pid>/stat ("sleep" has no blank in its name)
	state=$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)
	case $state in ""|Z*) ok ;; *) bad "hang: stand-in $pid still running ($state)"; kill -9 "$pid" ;; esac
done <"$tmp/pids"
[ -s "$tmp/pids" ] && ok || bad "hang: the stand-in never hung"

# 3. a failing call: named with its status, the status kept as <option>.rc
PATH=$tmp/bin:$base_path STANDIN_FAIL="hccn/2/speed" live_and_replay fail
holds "$tmp/fail-live.json" 'any(f["call"] == "hccn_tool -i 2 -speed -g" and f["why"].startswith("exit status 1: Get speed failed") for f in dev[2]["failures"]) and dev[2]["port"]["speed_mbps"] is None' \
	&& ok || bad "fail: the failed call is not named"
[ "$(cat "$tmp/fail-snap/.rdmadoctor/hccn/2/speed.rc" 2>/dev/null)" = 1 ] && ok || bad "fail: no speed.rc = 1"

# 4. hccn_tool not installed: said, and check fails
PATH=$tmp/smi-only:$base_path "$bin" --root / --json inventory >"$tmp/missing.json" 2>/dev/null
holds "$tmp/missing.json" 'len(dev) == 8 and all(any("not installed" in f["why"] and f["call"].startswith("hccn_tool -i") for f in d["failures"]) and not d["port_read"] for d in dev.values())' \
	&& ok || bad "missing hccn_tool: not said"
PATH=$tmp/smi-only:$base_path "$bin" --root / --json check >"$tmp/missing-check.json" 2>/dev/null
rc=$?
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["verdict"] == "fail" and any(f["id"] == "npu.unreadable" and f["subject"] == "NPUs" and f["severity"] == "error" for f in d["findings"]) else 1)' "$tmp/missing-check.json" \
	&& [ $rc -eq 1 ] && ok || bad "missing hccn_tool: check does not fail with npu.unreadable (exit $rc)"

# 5. no tool and no NPU: nothing asked, no NPUs section
PATH=/nonexistent "$bin" --root / --json inventory >"$tmp/none.json" 2>/dev/null
if [ ! -e /usr/local/bin/npu-smi ] && [ ! -e /usr/local/Ascend/driver/tools/npu-smi ]; then
	holds "$tmp/none.json" 'n is None' && ok || bad "no tool: an NPUs section appeared"
fi

# 6. not root: -v says what the tools need
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$tmp" "$tmp/bin"
	PATH=$tmp/bin:$base_path setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$bin" --root / -v inventory >/dev/null 2>"$tmp/nonroot.err"
	grep -q "not running as root" "$tmp/nonroot.err" && ok || bad "not root: -v does not say the tools need root"
fi

tally_done
