#!/bin/bash
# The whole test suite, as CI runs it (`.ci/run`):
#   1. a -Werror build and every ctest test: unit, CLI, fixtures, the
#      Soft-RoCE VM, namespaces, mpirun, Slurm, PostgreSQL, Chromium,
#      promtool, valgrind, the Debian package, and the README's first
#      command on a fresh Debian tree (tests/fresh);
#   2. an ASan + UBSan build (clang, where it is there: the same tree then
#      holds the libFuzzer targets, so the sources are compiled once for
#      both) and the same tests but for those labelled `vm`
#      (a second boot of each VM), `system` (the package, the fresh tree,
#      valgrind and shellcheck: they judge no memory of ours, or cannot run
#      under the sanitizers) and `outside` (how a launcher, Slurm, a browser,
#      Prometheus or a second database server takes ours, on code that
#      other tests run under the sanitizers); tests/README.md, "Stages and
#      time", names them and says why;
#   3. every libFuzzer target of that tree for FUZZ_SECONDS (6) each, two
#      at a time (when clang is there): 6 s keeps the stage short on 2
#      cores; longer runs are for a fuzzing machine (FUZZ_SECONDS=600);
#   4. aarch64 (Grace): a -Werror cross build with Debian's aarch64 gcc
#      against an arm64 sysroot (mmdebstrap --variant=extract, from the
#      Debian archive, kept in build-arm64/sysroot), and its unit, CLI and
#      fixture tests under qemu-user, on the same fixtures with the same
#      expected outputs (tests/README.md, "aarch64").
# It ends with the ten slowest tests, one line `suite: N passed, N failed,
# N skipped`, and the name and reason of every skipped test.  With CI=true
# a skip fails the run, unless tests/ci-allowed-skips names the test.
#
# usage: tests/run.sh [--quick] [-R REGEX]
#   --quick    for iteration, a few minutes: the -Werror build and the
#              tests labelled `quick` (unit, CLI, fixtures, the checks on
#              fixture trees, the fuzz corpora replayed); no VM, no
#              package, no daemon, no sanitizer stage, no fuzzing
#   -R REGEX   only the tests whose names match (as ctest -R), in both
#              builds, and the fuzz targets fuzz_NAME that match
# Build trees go to build-test/ and build-asan/ beside the sources.
set -u
cd "$(dirname "$0")/.." || exit 1

regex=
quick=0
usage() { echo "usage: $0 [--quick] [-R REGEX]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	-R) [ $# -ge 2 ] || usage; regex=$2; shift 2 ;;
	-R*) regex=${1#-R}; shift ;;
	--quick) quick=1; shift ;;
	-h | --help) sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//p}' "$0"; exit 0 ;;
	*) usage ;;
	esac
done

# What building needs (debian-packages.txt) and what the tests need
# (tests/debian-packages.txt): installed here when missing, so this one
# command works on a fresh Debian 12 machine as root.
want=$(cat debian-packages.txt tests/debian-packages.txt)
# shellcheck disable=SC2086
missing=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $want 2>/dev/null |
	awk '$1 == "ii" { print $2 }' | sort | comm -13 - <(printf '%s\n' $want | sort))
if [ -n "$missing" ]; then
	echo "== installing the test stack: $(echo "$missing" | tr '\n' ' ')"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	{ apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >/dev/null ||
		{ echo "could not install: $(echo "$missing" | tr '\n' ' ')"; exit 1; }
fi
jobs=$(nproc 2>/dev/null || echo 2)
# The tests' scratch (TMPDIR) on tmpfs when /dev/shm is one that allows
# devices and programs: the check tests copy fixture trees of ~4,700 files
# dozens of times, the package test builds and lintian reads ~28,000, the
# fresh-machine test unpacks a Debian tree; on this ext4 (mounted with
# discard) each copy and delete costs seconds.  check_verdict: 216 s in
# /tmp, 97 s here, on the same loaded machine.  Set TMPDIR yourself to
# keep it elsewhere.
if [ -z "${TMPDIR:-}" ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
	! findmnt -n -o OPTIONS /dev/shm 2>/dev/null | grep -qE '(^|,)(noexec|nodev)(,|$)'; then
	# mode 1777 as /tmp: PostgreSQL's initdb and the daemons of some tests
	# run as their own users and must reach their scratch in it
	TMPDIR=$(mktemp -d /dev/shm/rdtests.XXXXXX) && chmod 1777 "$TMPDIR" && export TMPDIR &&
		trap 'rm -rf "$TMPDIR"' EXIT
fi
t_start=$(date +%s)
ci=()
[ "${CI:-}" = true ] && ci=(--ci)
filter=()
[ -n "$regex" ] && filter=(-R "$regex")

# ctest STAGE BUILD-DIR [ctest options]: progress lines as they come, the
# results in BUILD-DIR/results.xml for the summary (a stage that -R left
# empty is no stage; one that wrote no results is a failure there)
stages=()
run_ctest() {
	local stage=$1 dir=$2
	shift 2
	rm -f "$dir/results.xml" "$dir/ctest.log"
	(cd "$dir" && ctest -j "$jobs" --output-junit results.xml ${filter[@]+"${filter[@]}"} "$@" 2>&1) |
		tee "$dir/ctest.log" | grep --line-buffered -E '^ *[0-9]+/[0-9]+ Test +#|tests passed'
	if [ ! -s "$dir/results.xml" ] && [ -n "$regex" ] && grep -q 'No tests were found' "$dir/ctest.log"; then
		echo "(no test of this stage matches '$regex')"
		return
	fi
	stages+=("$stage=$dir/results.xml")
}

elapsed() { echo "$(($(date +%s) - t_start)) s"; }

echo "== build with -Werror"
if ! { cmake -S . -B build-test -DRD_TESTS=ON -DRD_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
	cmake --build build-test -j "$jobs" >/dev/null; }; then
	echo "build failed"; cmake --build build-test 2>&1 | tail -30; exit 1
fi
if [ $quick = 1 ]; then
	echo "== quick tests ($(elapsed))"
	run_ctest quick build-test -L '^quick$'
	echo "== done in $(elapsed)"
	python3 tests/summary.py ${ci[@]+"${ci[@]}"} --allowed tests/ci-allowed-skips \
		${stages[@]+"${stages[@]}"}
	exit
fi
echo "== tests ($(elapsed))"
run_ctest tests build-test

# clang builds the sanitizer tree with the fuzzers in it (-DRD_FUZZ=ON:
# every source also instrumented for libFuzzer's coverage); without clang,
# the default compiler builds it, and nothing is fuzzed
san=(-DRD_FUZZ=OFF)
command -v clang >/dev/null && san=(-DCMAKE_C_COMPILER=clang -DRD_FUZZ=ON)
echo "== build with ASan + UBSan ($(elapsed))"
if ! { cmake -S . -B build-asan -DRD_TESTS=ON -DRD_WERROR=ON -DRD_SANITIZE=ON "${san[@]}" \
	-DCMAKE_BUILD_TYPE=Debug >/dev/null &&
	cmake --build build-asan -j "$jobs" >/dev/null; }; then
	echo "sanitizer build failed"; cmake --build build-asan 2>&1 | tail -30; exit 1
fi
echo "== tests under ASan + UBSan, but for the labels vm, system and outside ($(elapsed))"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp" \
	run_ctest sanitizer build-asan -LE '^(vm|system|outside)$'

# libFuzzer: each target from its seed corpus, two at a time (one a core)
fuzz_results=build-asan/fuzz-results.txt
rm -f "$fuzz_results"
targets=()
fuzz_one() {	# SOURCE: one line `NAME pass|fail SECONDS` on stdout
	local t name corpus t0 rc
	t=$(basename "$1" .c)
	name=${t#fuzz_}
	corpus=$(mktemp -d)
	cp tests/fuzz/corpus/"$name"/* "$corpus/"
	t0=$(date +%s)
	./build-asan/tests/"$t" "$corpus" -max_total_time="${FUZZ_SECONDS:-6}" \
		-print_final_stats=1 >build-asan/"$t".log 2>&1
	rc=$?
	rm -rf "$corpus"
	echo "$t $([ $rc -eq 0 ] && echo pass || echo fail) $(($(date +%s) - t0))"
}
if command -v clang >/dev/null; then
	for src in tests/fuzz/fuzz_*.c; do
		[ -z "$regex" ] || grep -qE -- "$regex" <<<"$(basename "$src" .c)" && targets+=("$src")
	done
	if [ ${#targets[@]} -gt 0 ]; then
		echo "== fuzzing ${#targets[@]} targets for ${FUZZ_SECONDS:-6} s each, $jobs at a time ($(elapsed))"
		export -f fuzz_one
		export FUZZ_SECONDS
		printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'fuzz_one {}' >"$fuzz_results"
		while read -r t state _; do
			if [ "$state" = pass ]; then
				echo "$t: $(grep -E "stat::number_of_executed_units" build-asan/"$t".log)"
			else
				echo "---- FAILED $t, its fuzzer's last lines:"
				tail -n 30 build-asan/"$t".log | sed 's/^/| /'
			fi
		done <"$fuzz_results"
	fi
else
	echo "note: no clang, the fuzzer did not run (its corpus still ran as a test)"
fi

# aarch64: the packages of debian-packages.txt that are libraries, for
# arm64, and cmocka; a sysroot is unpacked, not installed (no arm64 code
# runs to make it), so it takes seconds
arm_tests='^(unit_.*|cli|cli_.*|fixtures)$'
if [ -n "$regex" ]; then
	echo "(the aarch64 stage runs only without -R)"
else
	echo "== aarch64: sysroot, cross build with -Werror, unit, CLI and fixture tests under qemu-user ($(elapsed))"
	sysroot=$PWD/build-arm64/sysroot
	libs=$(grep -E -- '-dev$' debian-packages.txt | tr '\n' ',')libcmocka-dev,libc6-dev
	if [ ! -e "$sysroot/lib/ld-linux-aarch64.so.1" ]; then
		rm -rf "$sysroot"
		mkdir -p build-arm64
		if ! mmdebstrap --quiet --variant=extract --arch=arm64 --include="$libs" bookworm "$sysroot" \
			>build-arm64/sysroot.log 2>&1; then
			echo "could not make the arm64 sysroot:"; tail -20 build-arm64/sysroot.log; exit 1
		fi
	fi
	# only what its tests run: the program and the unit test programs (no
	# benches, fuzz replays or man pages, which the release stage covers)
	arm_targets=(rdmadoctor)
	for t in tests/*/test_*.c; do arm_targets+=("$(basename "$t" .c)"); done
	if ! { cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
		-DRD_SYSROOT="$sysroot" -DRD_TESTS=ON -DRD_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
		cmake --build build-arm64 -j "$jobs" --target "${arm_targets[@]}" >/dev/null; }; then
		echo "aarch64 build failed"; cmake --build build-arm64 2>&1 | tail -30; exit 1
	fi
	run_ctest aarch64 build-arm64 -R "$arm_tests"
fi

echo "== done in $(elapsed)"
fuzz=()
[ -f "$fuzz_results" ] && fuzz=(--fuzz "$fuzz_results")
python3 tests/summary.py ${ci[@]+"${ci[@]}"} --allowed tests/ci-allowed-skips \
	${fuzz[@]+"${fuzz[@]}"} ${stages[@]+"${stages[@]}"}
