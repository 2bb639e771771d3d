#!/bin/bash
# driver.stale_module on a real kernel: in the Soft-RoCE VM (Debian's kernel,
# ib_core and ib_uverbs loaded by insmod from the very .ko files of the
# host's /lib/modules), the loaded modules are the files on disk: no
# driver.* finding, and the loaded build id (/sys/module/ib_core/notes, read
# as root) is readelf -n's of the file.  Then ib_core.ko is replaced on disk
# (the VM's overlay; the host's file is untouched) by other real bytes, as a
# kernel package upgrade does: driver.stale_module on ib_core names both ids.
#   tests/vm/vm-run.sh -- tests/vm/drv_stack_vm.sh RDMADOCTOR
# `ok` always succeeds, so `test && ok || bad` is an if-then-else here.
# shellcheck disable=SC2015
set -u
bin=$1
k=$(uname -r)
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$(dirname "$0")/../lib/tally.sh"
pathof() { grep -E "(^|/)$1\.ko:" "/lib/modules/$k/modules.dep" | cut -d: -f1; }
ibc=/lib/modules/$k/$(pathof ib_core) ibu=/lib/modules/$k/$(pathof ib_uverbs)
[ -f "$ibc" ] && [ -f /sys/module/ib_core/initstate ] || { echo "FAIL: no ib_core here"; exit 1; }
want=$(readelf -n "$ibc" | sed -n 's/.*Build ID: //p')

"$bin" --json inventory >/tmp/inv.json 2>/dev/null
python3 - /tmp/inv.json "$want" <<'PY' && ok || bad "inventory's ib_core"
import json, sys
d = json.load(open(sys.argv[1]))["host"]["driver_stack"]
m = {x["name"]: x for x in d["modules"]}["ib_core"]
ok = m["loaded"] and m["build_id"] == sys.argv[2] == m["file_build_id"] and m["source"] == "inbox"
print(("" if ok else "FAIL: ") + "ib_core loaded %s, file %s, readelf -n %s" %
      (m["build_id"], m["file_build_id"], sys.argv[2]))
sys.exit(0 if ok else 1)
PY
findings() {
	"$bin" --json check 2>/dev/null | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["id"].startswith("driver.") and f["id"] != "driver.userspace":
        print(f["id"], f["subject"], f["severity"], f["observed"])'
}
out=$(findings)
[ -z "$out" ] && ok "inbox stack as loaded: no driver.* finding" || bad "inbox stack: $out"

cp "$ibu" "$ibc"
new=$(readelf -n "$ibc" | sed -n 's/.*Build ID: //p')
out=$(findings)
echo "$out" | grep -q "^driver.stale_module ib_core warn loaded build id $want; .* has $new" &&
	ok "ib_core.ko replaced: $out" || bad "replaced ib_core.ko: '$out', want $want -> $new"
tally_done "vm driver stack"
