#!/bin/sh
# port.rate_low names its cause end to end: the hgx-roce-lag fixture's
# storage bond runs at 100 Gb/s on MCP1600-C003 cables, whose SFF-8636
# pages (read over ethtool netlink, kept in the fixture) say 100GBASE-CR4
# (byte 131 bit 7, 0Bh at 192).  A profile that asks 200 Gb/s of storage
# makes the port low, and the finding must name the module, with
# `ethtool -m` of the LAG slave (the bond has no module).  Without the
# profile the port is not low and there is no finding.
# usage: test_rate_cause.sh RDMADOCTOR SOURCE_DIR
set -eu
bin=$1
src=$2
root=$src/tests/fixtures/hgx-roce-lag/root
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" check --root "$root" --json >"$tmp/plain.json" || true
if grep -q '"port.rate_low"' "$tmp/plain.json"; then
	fail "port.rate_low without a profile that asks more"
fi

printf '[profile]\nname = lag-200g\nbased_on = hgx-8x400g\n\n[storage]\nrate_gbps = 200\n' \
	>"$tmp/p.conf"
"$bin" check --root "$root" --profile "$tmp/p.conf" --json >"$tmp/check.json" || true
python3 - "$tmp/check.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["id"] == "port.rate_low"]
assert len(f) == 1, f
f = f[0]
assert f["subject"] == "mlx5_bond_0 port 1", f
want = "100 Gb/s (4 x 25 Gb/s): MCP1600-C003 is a 100G module on a 200G port"
assert f["observed"] == want, f["observed"]
assert "`ethtool -m ens9f0np0`" in f["fix"], f["fix"]
assert "replace the module" in f["fix"], f["fix"]
print("ok: " + f["observed"])
PY
