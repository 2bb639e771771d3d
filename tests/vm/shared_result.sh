#!/bin/bash
# The result of parts of the shared VM boot (tests/vm/shared_boot.sh, ctest
# fixture vm_shared): each part's output, then its status.
#   shared_result.sh DIR PART...
# Exit 0 when every part passed; 77 when the VM could not start here (the
# reason from the boot's log); 1 when a part failed or left no result (the
# boot did not run: `ctest -R NAME` runs it first, as NAME's fixture).
set -u
dir=${1:?usage: $0 DIR PART...}
shift
if [ "$(cat "$dir/boot.rc" 2>/dev/null)" = 77 ]; then
	echo "SKIP: the VM cannot start here: $(grep -v '^$' "$dir/boot.log" | tail -n 1)"
	exit 77
fi
fails=0
for p in "$@"; do
	echo "---- in the shared VM: $p"
	cat "$dir/$p.log" 2>/dev/null
	rc=$(cat "$dir/$p.rc" 2>/dev/null)
	if [ -z "$rc" ]; then
		echo "FAIL: $p left no result in $dir (did vm_boot run?)"
		fails=$((fails + 1))
	elif [ "$rc" != 0 ]; then
		echo "FAIL: $p exited $rc in the VM"
		fails=$((fails + 1))
	fi
done
[ $fails -eq 0 ]
