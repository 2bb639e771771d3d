#!/bin/bash
# Sourced by the one-boot runners (shared_boot.sh, timed_boot.sh): several
# tests' VM parts run one after the other in one VM, each leaving its output
# and exit status in OUTDIR/NAME.log and OUTDIR/NAME.rc and its files under
# OUTDIR/NAME/; the named tests (shared_result.sh) print those and pass or
# fail each on its own.
#
# parts_boot RUNNER OUTDIR TIMEOUT PARTS -- ARG...: on the host, boot the VM
#   (vm-run.sh, with the caller's VM_SMP) to run `RUNNER --inside ARG...`;
#   OUTDIR/boot.log and boot.rc say how the VM went.  Exit 0 when the VM ran
#   (each part's status in its NAME.rc), 77 when it cannot start here (every
#   NAME.rc says 77), 1 when the VM failed (a part without a result says so).
# part NAME LIMIT COMMAND...: inside, one part, bounded at LIMIT seconds;
#   $dir is OUTDIR there.

parts_boot() {
	local runner=$1 out=$2 limit=$3 parts=$4 rc p
	shift 5
	rm -rf "$out" && mkdir -p "$out" || return 1
	out=$(cd "$out" && pwd -P)
	"$(dirname "${BASH_SOURCE[0]}")/vm-run.sh" --outdir "$out" --timeout "$limit" -- \
		"$runner" --inside "$@" >"$out/boot.log" 2>&1
	rc=$?
	cat "$out/boot.log"
	echo "$rc" >"$out/boot.rc"
	if [ $rc -eq 77 ]; then
		for p in $parts; do echo 77 >"$out/$p.rc"; done
		return 77
	fi
	for p in $parts; do
		[ -s "$out/$p.rc" ] || echo "the VM stopped before this part ended (vm-run exit $rc)" >>"$out/$p.log"
	done
	[ $rc -eq 0 ] || return 1
	return 0
}

# shellcheck disable=SC2154  # dir: the caller sets it, inside the VM
part() {
	local name=$1 limit=$2 rc t0
	shift 2
	mkdir -p "$dir/$name"
	t0=$SECONDS
	timeout -k 5 "$limit" "$@" >"$dir/$name.log" 2>&1
	rc=$?
	echo "$name: exit $rc after $((SECONDS - t0)) s"
	echo "$rc" >"$dir/$name.rc"
}
