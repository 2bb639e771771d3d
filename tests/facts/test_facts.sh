#!/bin/bash
# Facts that must agree with outside references: trees copied from the
# bundled fixtures, changed the way a real machine differs, and the value
# the tool gives asserted.  Usage: test_facts.sh BINARY SRCDIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# run CMD...: stdout to $tmp/out, stderr to $tmp/err
run() { timeout 30 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; }
# py 'python expression over d (the JSON on stdout) and root' 'what it checks'
py() {
	if python3 - "$tmp/out" "$1" "${root:-}" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
root = sys.argv[3]
def nic(name):
    return next(n for n in d["nics"] if n["name"] == name)
def above(link):
    # the bridges above a device in its sysfs path, nearest first
    parts = os.path.realpath(os.path.join(root, link)).split("/")
    top = next(i for i, c in enumerate(parts) if c.startswith("pci"))
    return list(reversed(parts[top + 1:-1]))
def port(name, num=1):
    return next(p for p in nic(name)["ports"] if p["port"] == num)
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
	then ok; else bad "$2"; head -c 2000 "$tmp/out"; echo; fi
}
err_has() { if grep -q -- "$1" "$tmp/err"; then ok; else bad "stderr lacks '$1'"; head -40 "$tmp/err"; fi; }
has() { if grep -q -- "$1" "$tmp/out"; then ok; else bad "output lacks '$1'"; head -40 "$tmp/out"; fi; }
# fresh NAME FIXTURE: a copy of a bundled fixture's tree in $root
fresh() {
	root=$tmp/$1
	cp -a "$src/tests/fixtures/$2/root" "$root" || { echo "cannot copy $2"; exit 1; }
}
ib=sys/class/infiniband

# --- bridges in the JSON: nearest first (docs/json/inventory.md) --------------
# the oracle is the sysfs path itself: the device's parent directory is the
# bridge just above it, the first one under pci0000:xx the root port
fresh bridges dgx-h100
run "$bin" --root "$root" inventory --json
py 'all([b["bdf"] for b in n["pci"]["upstream"]] == above("sys/class/infiniband/" + n["name"] + "/device") for n in d["nics"])' "a NIC's bridges: nearest first, root port last"
py 'all([b["bdf"] for b in g["upstream"]] == above("sys/bus/pci/devices/" + g["bdf"]) for g in d["gpus"])' "a GPU's bridges: nearest first, root port last"
py 'len(nic("mlx5_0")["pci"]["upstream"]) >= 2' "the fixture has more than one bridge above mlx5_0"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
