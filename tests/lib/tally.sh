# shellcheck shell=sh
# The tally every shell test shares (sourced; POSIX sh and bash):
#   ok [WHAT]     one assertion held (WHAT, when given, is printed as `ok: WHAT`)
#   bad WHY...    one failed: prints `FAIL: WHY`, then the caller may show more
#   tally_done [NAME]
#                 the closing line `[NAME: ]N passed, M failed`; its status is
#                 1 on any failure, so a script ends with it
# `A && ok || bad "why"`: ok never fails, so bad runs exactly when A fails.
pass=0
fail=0
ok() {
	pass=$((pass + 1))
	[ $# -eq 0 ] || echo "ok: $*"
}
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
tally_done() {
	for name; do printf '%s: ' "$name"; done
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
