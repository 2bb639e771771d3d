#!/bin/sh
# The EINVAL memory seen from outside: unit_einval_memo's runs of the
# reader traced with strace.  Run 2 reads /sys/class/net/lo/speed (the
# kernel answers EINVAL) and remembers it; run 3, in the same boot, must
# not open it at all; run 4 (a state file of another boot) and run 5 (a
# malformed one) read it again; where the machine has been up longer than
# the retry's hour, run 6 (refused more than an hour ago) asks it again and
# run 7 does not.  Skipped (77) without strace or where the
# kernel gives lo a speed.
set -u
bin=$1
command -v strace >/dev/null 2>&1 || { echo "skip: no strace"; exit 77; }
cat /sys/class/net/lo/speed >/dev/null 2>&1 && { echo "skip: lo has a speed here"; exit 77; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# LeakSanitizer cannot run under ptrace; the ASan tree's unit test checks leaks
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -e trace=%file -o "$out" "$bin" >/dev/null 2>&1 || {
	echo "FAIL: $bin under strace"; exit 1; }
# opens of lo's speed between one run's marker and the next
opens() {
	awk -v want="run-$1\"" -v next_="run-$(($1 + 1))\"" '
		index($0, "rdmadoctor-einval-" want) { on = 1; next }
		index($0, "rdmadoctor-einval-" next_) { on = 0 }
		on && /open/ && /net\/lo\/speed"/ { n++ }
		END { print n + 0 }' "$out"
}
fail=0
runs="2 3 4 5"
up=$(cut -d. -f1 /proc/uptime)
[ "$up" -gt 3700 ] && runs="$runs 6 7"
for run in $runs; do
	n=$(opens $run)
	want=1
	{ [ $run = 3 ] || [ $run = 7 ]; } && want=0
	if [ "$n" != "$want" ]; then
		echo "FAIL: run $run opened lo/speed $n times, expected $want"
		fail=1
	fi
done
grep -q 'rdmadoctor-einval-run-5"' "$out" || { echo "FAIL: no markers in the trace"; fail=1; }
[ $fail = 0 ] && echo "einval strace: ok"
exit $fail
