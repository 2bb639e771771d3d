#!/bin/bash
# rdmadoctor's verbs engine against perftest on Soft-RoCE, in the test VM
# (2 vCPUs).  Asserts nothing; prints ratios (aim: bw >= 1.0 at every size of
# the 2 B - 8 MiB sweep, latency p50 <= 1.0).
#
#   bench/bench_bw_vm.sh [BW_PAIR] [REPS] [BASE_BW_PAIR]
#                                  (default build/tests/bw_pair, 3, none)
#   BENCH_SIZES="2 4096"          only these sizes (default: the sweep;
#                                 "none": latency only)
#   LAT_REPS=N                    latency rounds (default REPS, at least 10)
#
# What the two tools are asked, and why it is the same measurement:
#   - RC write, one QP, unidirectional, gid 1 (RoCE v2 IPv4), the port's
#     active MTU (both take it), no inline (perftest turns inline off on a
#     device it does not know, as rxe; ours has none for bandwidth);
#   - tx depth 128 and perftest's CQ moderation rule (100 up to 8 KiB, 1
#     above) on both (ours queues at most 16 MiB: see below);
#   - the window: ib_write_bw -D 4 posts for 4 s and counts the completions
#     between 1 s and 3 s (its margin is duration / 4); ours warms up 1 s and
#     counts 2 s.  Only completions inside the window count on both sides;
#   - units: --report_gbits is bytes x 8 / 10^9 per second, as ours (the
#     MB/s perftest prints without it is 2^20 bytes); we read its "BW
#     average" column (or the message rate, where that is printed finer:
#     see perf_bw), not the peak (0 in duration mode).
# Runs interleave: at each size, REPS rounds of one run of each tool, the
# order alternating from round to round (the baseline's too), so that a
# burst of host load falls on all.  Per size it prints the median over rounds of the ratio
# within a round (the two runs of a round ran back to back), the spread of
# those ratios (min - max), the ratio of the best runs (host load only
# ever slows a run), each tool's runs, and the retransmissions per second
# of traffic each caused (rxe's completer_retry_err counter: go-back-N
# restarts after an ACK timeout, the VM's stalls showing).
#
# A perftest run that printed no result line counts as failed ("-"), its
# last lines go to stderr; so does one that printed 0 Gb/s for a window
# with completions in it (its clock failed, see perf_bw).  One whose
# window saw no completion counts as 0: that is what it measured.  At 1 MiB
# and up that happens to perftest on Soft-RoCE: rxe runs its requester in
# the caller's post system call, over every WR queued, and perftest keeps
# 128 WRs of any size queued (128 MiB at 1 MiB): one post call then runs
# for seconds under TCG, perftest polls only between them (16 completions
# at a time) and its alarm-driven window edges wait for the call to
# return.  Ours queues at most 16 MiB (verbs_engine.c).  ib_write_bw -t 16
# at 1 MiB counted 2-8x the completions of -t 128 in the same VM.
#
# Time: the VM boot, then per size and round about 16 s (perftest: 4 s of
# traffic, start-up, its CPU clock measurement and the connection; ours
# 3 s plus set-up and the drain), so REPS 3 is about 11 x 3 x 16 s = 9 min
# (520-550 s inside the VM at load 7-8), plus the latency pair; the VM is
# stopped after 20 min whatever happens.  A BASE_BW_PAIR adds a third.
#
# BASE_BW_PAIR: another build's bw_pair (e.g. before a change), run in the
# same interleaved rounds, its ratio to perftest printed next to ours.  The
# same bw_pair given twice is an A/A test: ours/baseline then shows how far
# apart two identical runs land in these rounds, the yardstick for a ratio
# to perftest.
#
# The engine is driven by tests/vm/bw_pair (both ends in one process, the
# endpoint bytes handed over directly), the same engine `rdmadoctor bw
# --transport verbs` runs.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" != --inside ]; then
	pair=$(realpath "${1:-$src/build/tests/bw_pair}") || exit 1
	base=
	[ -n "${3:-}" ] && { base=$(realpath "$3") || exit 1; }
	VM_SMP=${VM_SMP:-2} exec "$src/tests/vm/vm-run.sh" --timeout 1200 -e "BENCH_SIZES=${BENCH_SIZES:-}" \
		-e "LAT_REPS=${LAT_REPS:-}" -- \
		"$0" --inside "$pair" "${2:-3}" "$base"
fi
pair=$2 reps=$3 base=${4:-}
cli=${RDMADOCTOR:-$src/build/rdmadoctor}
dev=${VM_RDMA_DEV:-rxe0} ip=${VM_IP:-10.0.2.15}
hw=/sys/class/infiniband/$dev/ports/1/hw_counters
ulimit -l unlimited
t_start=$(date +%s)
log=$(mktemp -d /tmp/bwpar-bench.XXXXXX) || exit 1
trap 'rm -rf "$log"' EXIT

# perftest's server listens on TCP 18515 (ours on 18516): start the client
# only then (a client that comes too early fails, and its server would
# wait forever)
listening() {	# PORT
	local i
	for i in $(seq 50); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return
		sleep 0.1
	done
}
pt_listening() { listening 18515; }
# the server ends with its client; one still there 3 s later is stopped
pt_reap() {
	local i
	for i in $(seq 30); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
retries() { cat "$hw/completer_retry_err" 2>/dev/null || echo 0; }

# Each run prints "GBPS RETRIES" (GBPS empty when the run failed).
ours_bw() {	# SIZE [BW_PAIR]
	local r0 g
	r0=$(retries)
	g=$(timeout 60 "${2:-$pair}" --device "$dev" --peer "$ip" --op write --size "$1" --duration-ms 2000 \
		--warmup-ms 1000 --tx-depth 128 2>"$log/ours.err" |
		sed -n 's/^side=client gbps=\([0-9.]*\) .*/\1/p' | head -n 1)
	[ -n "$g" ] || { echo "bench: bw_pair at $1 B failed: $(tail -n 2 "$log/ours.err")" >&2; }
	echo "${g:-} $(($(retries) - r0))"
}
perf_bw() {	# SIZE
	local r0 g spid
	r0=$(retries)
	timeout 60 ib_write_bw -d "$dev" -x 1 -F --report_gbits -s "$1" -D 4 -t 128 >"$log/pt-srv" 2>&1 &
	spid=$!
	pt_listening
	timeout 60 ib_write_bw -d "$dev" -x 1 -F --report_gbits -s "$1" -D 4 -t 128 "$ip" >"$log/pt-cli" 2>&1
	pt_reap $spid
	# the result line: bytes, iterations, peak, average, message rate.
	# The average is printed to 0.01 Gb/s from 0.1 Gb/s up (perftest's
	# REPORT_FMT; six decimals only below 0.1): steps of 3-9% at the VM's
	# 0.1-0.4 Gb/s.  The message rate (Mpps, always six decimals) comes
	# from the same iterations and cycles, Gb/s = Mpps x size x 8e-3: of
	# the two, the one printed finer relative to its value is taken.
	g=$(awk -v s="$1" '
		function rel(x,   d) { d = index(x, ".") ? length(x) - index(x, ".") : 0; return x + 0 > 0 ? 0.5 * 10 ^ -d / x : 1e9 }
		$1 == s && NF >= 5 && $2 ~ /^[0-9]+$/ {
			if (rel($5) < rel($4)) printf "%.9g\n", $5 * s * 8 / 1000; else print $4
			exit
		}' "$log/pt-cli")
	[ -n "$g" ] || { echo "bench: ib_write_bw at $1 B printed no result: $(tail -n 3 "$log/pt-cli" | tr '\n' ' ')" >&2; }
	# A zero figure: with completions in the window (iterations > 0) it is
	# perftest's clock failing, not the link: -F lets a CPU MHz it could
	# not measure (r^2 < 0.9 under load) through as 0 instead of stopping,
	# and every figure is then 0; that run has no figure.  With no
	# completion in the window it is what perftest measured (0).
	if awk -v g="${g:-x}" 'BEGIN { exit !(g != "x" && g + 0 == 0) }'; then
		it=$(awk -v s="$1" '$1 == s && NF >= 5 { print $2; exit }' "$log/pt-cli")
		echo "bench: ib_write_bw at $1 B printed 0 Gb/s with $it iterations in its window" \
			"($(($(retries) - r0)) retransmissions)$(grep -iE 'correlation|conflicting' "$log/pt-cli" | head -n 1 | sed 's/^/: /')" >&2
		[ "${it:-0}" != 0 ] && g=
	fi
	echo "${g:-} $(($(retries) - r0))"
}
# Latency: 2 B, inline as perftest used it.  ib_write_lat -I 220 keeps
# inline only on devices it knows and says "Max inline data : 0[B]" on rxe;
# ours then runs with --inline 0 (none).
# the inline size ib_write_lat last used (empty before its first run)
pt_inline() { sed -n 's/.*Max inline data *: *\([0-9]*\).*/\1/p' "$log/pt-lat" 2>/dev/null | head -n 1; }
ours_lat() {	# [BW_PAIR]
	local inl
	inl=$(pt_inline)
	timeout 60 "${1:-$pair}" --device "$dev" --peer "$ip" --mode lat --op write --size 2 --iters 1000 \
		--inline "${inl:-220}" 2>/dev/null | sed -n 's/^side=client .*lat_p50=\([0-9.]*\).*/\1/p' | head -n 1
}
cli_lat() {	# the CLI, server and client as two processes, as ib_write_lat runs
	local inl spid
	inl=$(pt_inline)
	timeout 60 "$cli" lat server --once --open --bind "$ip" --inline "${inl:-220}" >/dev/null 2>&1 &
	spid=$!
	listening 18516
	timeout 60 "$cli" --json lat client "$ip" --inline "${inl:-220}" --iters 1000 --size 2 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["latency_usec"]["p50"])' 2>/dev/null
	pt_reap $spid
}
perf_lat() {
	timeout 60 ib_write_lat -d "$dev" -x 1 -F -s 2 -n 1000 -I 220 >/dev/null 2>&1 &
	local spid=$!
	pt_listening
	timeout 60 ib_write_lat -d "$dev" -x 1 -F -s 2 -n 1000 -I 220 "$ip" >"$log/pt-lat" 2>&1
	awk '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+/ { print $5 }' "$log/pt-lat"
	pt_reap $spid
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
med() { printf '%s\n' "$@" | grep -v '^-\?$' | median; }	# a failed run ("-") is left out
best() { printf '%s\n' "$@" | grep -v '^-\?$' | sort -g | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }
sum() { printf '%s\n' "$@" | awk '{ s += $1 } END { print s + 0 }'; }
# The geometric mean of ratios and a 95% interval for it: 2000 bootstrap
# resamples of the rounds (fixed seed, so a rerun on the same figures prints
# the same).  An interval that holds 1 means the two tools cannot be told
# apart on these rounds; the VM's noise (+-15% per run) needs many rounds
# to tell a few per cent.
geo_ci() {	# RATIO...
	local v n mean ci
	v=$(printf '%s\n' "$@" | grep -v '^inf$' | grep .)
	n=$(grep -c . <<<"$v")
	[ "$n" -ge 2 ] || { echo n/a; return; }
	mean=$(awk '{ s += log($1) } END { printf "%.3f", exp(s / NR) }' <<<"$v")
	# (no process substitution: the VM has no /dev/fd)
	ci=$(awk '{ v[NR] = log($1) }
		END {
			srand(12)
			for (b = 1; b <= 2000; b++) {
				s = 0
				for (i = 1; i <= NR; i++) s += v[int(rand() * NR) + 1]
				print exp(s / NR)
			}
		}' <<<"$v" | sort -g | awk 'NR == 51 { lo = $1 } NR == 1950 { hi = $1 } END { printf "%.3f-%.3f", lo, hi }')
	echo "$mean [$ci] over $n rounds"
}
# per-round ratios of A to B (lists of equal length; a failed run gives none)
# (a round where perftest measured 0 and ours did not gives "inf": it
# counts, on our side of 1, in the median)
round_ratios() {	# "A1 A2 ..." "B1 B2 ..."
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++)
			if (x[i] == "-" || y[i] == "-")
				continue
			else if (y[i] + 0 > 0)
				printf "%.4f\n", x[i] / y[i]
			else if (x[i] + 0 > 0)
				print "inf"
	}'
}
spread() { sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f-%.2f", v[1], v[NR]; else print "n/a" }'; }
# the median of a list of ratios, two decimals (of an even count: the mean
# of the middle two)
ratio_med() {
	printf '%s\n' "$@" | grep . | sort -g | awk '{ v[NR] = $1 }
		END { if (!NR) print "n/a"; else { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m } }'
}
# retransmissions per second of traffic: ours posts for 3 s (warm-up and
# window), perftest -D 4 for 4 s
per_s() { awk -v n="$1" -v s="$2" -v r="$3" 'BEGIN { printf "%.0f", r ? n / (s * r) : 0 }'; }
# run one tool, append its figure and retries to the named arrays
take() {	# GBPS-ARRAY RETRY-ARRAY CMD...
	local -n g_=$1 r_=$2
	local out
	shift 2
	out=$("$@")
	g_+=("${out% *}")
	[ -n "${g_[-1]}" ] || g_[-1]=-	# a failed run: "-", so rounds stay aligned
	r_+=("${out##* }")
}

echo "# Soft-RoCE ($dev) in the test VM under TCG: figures are tiny and noisy; compare ratios"
echo "# $reps interleaved rounds per size; clock source: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
echo "# ratio: median over rounds of ours/perftest within a round [min-max]; best: best run / best run"
echo "# retr/s: rxe retransmissions (go-back-N after an ACK timeout) per second of traffic, ours/perftest"
printf '%9s %10s %10s %6s %11s %5s %9s  %s\n' bytes ours perftest ratio spread best retr/s "runs (ours | perftest)"
all_rr=() small_rr=() base_rr=() aa_rr=()
sizes=${BENCH_SIZES:-2 8 64 512 4096 16384 65536 262144 1048576 4194304 8388608}
[ "$sizes" = none ] && sizes=
for s in $sizes; do
	o=() t=() b=() ro=() rt=() rb=()
	for ((i = 0; i < reps; i++)); do
		# even rounds: perftest, ours, baseline; odd: the reverse, so
		# that every two tools swap places from round to round
		if ((i % 2 == 0)); then
			take t rt perf_bw "$s"
			take o ro ours_bw "$s"
			[ -n "$base" ] && take b rb ours_bw "$s" "$base"
		else
			[ -n "$base" ] && take b rb ours_bw "$s" "$base"
			take o ro ours_bw "$s"
			take t rt perf_bw "$s"
		fi
	done
	mo=$(med "${o[@]}") mt=$(med "${t[@]}")
	rr=$(round_ratios "${o[*]}" "${t[*]}")
	all_rr+=($rr)
	((s <= 16384)) && small_rr+=($rr)
	printf '%9s %10s %10s %6s %11s %5s %4s/%-4s  (%s | %s)\n' "$s" "${mo:-fail}" "${mt:-fail}" \
		"$(ratio_med "$rr")" "$(spread <<<"$rr")" "$(ratio "$(best "${o[@]}")" "$(best "${t[@]}")")" \
		"$(per_s "$(sum "${ro[@]}")" 3 "$reps")" "$(per_s "$(sum "${rt[@]}")" 4 "$reps")" "${o[*]}" "${t[*]}"
	if [ -n "$base" ]; then
		rb_=$(round_ratios "${b[*]}" "${t[*]}")
		base_rr+=($rb_)
		aa_rr+=($(round_ratios "${o[*]}" "${b[*]}"))
		printf '%9s %10s %10s %6s %11s %5s %4s       (baseline: %s)\n' "" "$(med "${b[@]}")" "" \
			"$(ratio_med "$rb_")" "$(spread <<<"$rb_")" "$(ratio "$(best "${b[@]}")" "$(best "${t[@]}")")" \
			"$(per_s "$(sum "${rb[@]}")" 3 "$reps")" "${b[*]}"
	fi
done

# Up to 16 KiB the two loops do the same per message (verbs_bw.c) and queue
# the same (128 WRs); above, ours queues at most 16 MiB per QP.
echo "bandwidth ours/perftest, geometric mean [95% bootstrap interval]:"
echo "  2 B - 16 KiB: $(geo_ci "${small_rr[@]}")"
echo "  every size:   $(geo_ci "${all_rr[@]}")"
if [ -n "$base" ]; then
	# with BASE_BW_PAIR the same build as ours, this is the bench's own noise
	echo "  baseline/perftest, every size: $(geo_ci "${base_rr[@]}")"
	echo "  ours/baseline, every size:     $(geo_ci "${aa_rr[@]}")"
fi
# Latency: LAT_REPS rounds (a run takes about a second), the order turning
# from round to round like the bandwidth's.  bw_pair runs both ends as two
# threads of one process; the CLI (`rdmadoctor lat`, server and client as
# two processes) is what users run and is laid out as perftest is.
lat_reps=${LAT_REPS:-$((reps < 10 ? 10 : reps))}
lat_take() {	# ARRAY CMD...: a failed run is "-", so rounds stay aligned
	local -n l_=$1
	local v
	shift
	v=$("$@")
	l_+=("${v:--}")
}
o=() t=() b=() c=()
for ((i = 0; i < lat_reps; i++)); do
	if ((i % 2 == 0)); then
		lat_take t perf_lat
		lat_take o ours_lat
		lat_take c cli_lat
		[ -n "$base" ] && lat_take b ours_lat "$base"
	else
		[ -n "$base" ] && lat_take b ours_lat "$base"
		lat_take c cli_lat
		lat_take o ours_lat
		lat_take t perf_lat
	fi
done
mt=$(med "${t[@]}")
lat_line() {	# NAME "RUNS..." [REFERENCE-NAME "REFERENCE-RUNS..."]
	local rr
	rr=$(round_ratios "$2" "${4:-${t[*]}}")
	printf '  %-10s p50 %6s us; ratio to %s: median %s, geometric mean %s%s\n' "$1" \
		"$(awk -v v="$(med $2)" 'BEGIN { if (v == "") print "n/a"; else printf "%.2f", v }')" \
		"${3:-ib_write_lat}" "$(ratio_med "$rr")" "$(geo_ci $rr)" "${3:+ (A/B)}"
}
echo "write latency 2 B, p50 one-way, inline as perftest (Max inline data: $(pt_inline) B), $lat_reps rounds:"
echo "  ib_write_lat p50 $mt us over its runs (aim: every ratio to it <= 1.0)"
lat_line bw_pair "${o[*]}"
lat_line "CLI" "${c[*]}"
if [ -n "$base" ]; then
	lat_line baseline "${b[*]}"
	lat_line bw_pair "${o[*]}" baseline "${b[*]}"
fi
echo "# $(($(date +%s) - t_start)) s inside the VM"
exit 0
