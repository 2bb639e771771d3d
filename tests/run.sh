#!/bin/bash
# The whole test suite, as CI runs it:
#   1. a -Werror build and every ctest test (unit, CLI, fixtures, the
#      Soft-RoCE VM, valgrind on the largest fixture);
#   2. the same tests again under AddressSanitizer + UndefinedBehaviorSanitizer;
#   3. every libFuzzer target for a short while (when clang is there):
#      FUZZ_SECONDS each, 20 by default, so that twenty targets fit CI.
# Build trees go to build-test/ and build-asan/ beside the sources.
set -u
cd "$(dirname "$0")/.." || exit 1

# What building needs (debian-packages.txt) and what the tests need
# (tests/debian-packages.txt): installed here when missing, so this one
# command works on a fresh Debian 12 machine as root.
want=$(cat debian-packages.txt tests/debian-packages.txt)
# shellcheck disable=SC2086
missing=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $want 2>/dev/null |
	awk '$1 == "ii" { print $2 }' | sort | comm -13 - <(printf '%s\n' $want | sort))
if [ -n "$missing" ]; then
	echo "== installing the test stack:" $missing
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	{ apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >/dev/null ||
		{ echo "could not install:" $missing; exit 1; }
fi
jobs=$(nproc 2>/dev/null || echo 2)
status=0
total_pass=0
total_fail=0

run_ctest() {	# build-dir label
	local out
	out=$(cd "$1" && ctest --output-on-failure -j "$jobs" 2>&1)
	echo "$out" | tail -n 40
	# what a failed test printed comes in ctest's log long before the tail:
	# show it here, each failure from its result line to the next result
	echo "$out" | awk '
		/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / { show = ($0 ~ /\*\*\*|Failed|Timeout|Exception/) }
		/^ +Start +[0-9]+: / { if (show) next }
		show { if (++n <= 400) print "| " $0 }'
	local line
	line=$(echo "$out" | grep -E "tests passed, [0-9]+ tests failed out of [0-9]+")
	local failed total
	failed=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/')
	total=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/')
	if [ -z "$line" ]; then
		echo "$2: ctest printed no summary"; status=1; total_fail=$((total_fail + 1)); return
	fi
	total_pass=$((total_pass + total - failed))
	total_fail=$((total_fail + failed))
	[ "$failed" -eq 0 ] || status=1
}

echo "== build with -Werror"
cmake -S . -B build-test -DRD_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
	cmake --build build-test -j "$jobs" >/dev/null || { echo "build failed"; cmake --build build-test 2>&1 | tail -30; exit 1; }
echo "== tests"
run_ctest build-test "tests"

echo "== build with ASan + UBSan"
cmake -S . -B build-asan -DRD_WERROR=ON -DRD_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null &&
	cmake --build build-asan -j "$jobs" >/dev/null || { echo "sanitizer build failed"; exit 1; }
echo "== tests under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp" \
	run_ctest build-asan "sanitizer tests"

if command -v clang >/dev/null; then
	CC=clang cmake -S . -B build-fuzz -DRD_FUZZ=ON >/dev/null &&
		cmake --build build-fuzz -j "$jobs" >/dev/null || { echo "fuzz build failed"; exit 1; }
	for src in tests/fuzz/fuzz_*.c; do
		t=$(basename "$src" .c)
		name=${t#fuzz_}
		echo "== fuzzing $name for ${FUZZ_SECONDS:-20} s"
		corpus=$(mktemp -d)
		cp tests/fuzz/corpus/"$name"/* "$corpus/"
		if ./build-fuzz/tests/"$t" "$corpus" -max_total_time="${FUZZ_SECONDS:-20}" \
			-print_final_stats=1 >build-fuzz/"$t".log 2>&1; then
			grep -E "stat::number_of_executed_units" build-fuzz/"$t".log
			total_pass=$((total_pass + 1))
		else
			tail -n 30 build-fuzz/"$t".log
			total_fail=$((total_fail + 1)); status=1
		fi
		rm -rf "$corpus"
	done
else
	echo "note: no clang, the fuzzer did not run (its corpus still ran as a test)"
fi

echo
echo "suite: $total_pass passed, $total_fail failed"
exit $status
