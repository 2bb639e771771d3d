# shellcheck shell=sh
# The tally every shell test shares (sourced; POSIX sh and bash):
#   ok            one assertion held
#   bad WHY...    one failed: prints `FAIL: WHY`, then the caller may show more
#   tally_done [NAME]
#                 the closing line `[NAME: ]N passed, M failed`; its status is
#                 1 on any failure, so a script ends with it
# `A && ok || bad "why"`: ok never fails, so bad runs exactly when A fails.
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
tally_done() {
	for name; do printf '%s: ' "$name"; done
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
