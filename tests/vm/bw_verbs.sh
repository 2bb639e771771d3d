#!/bin/bash
# The verbs transport over Soft-RoCE, for real: boots the test VM (2 vCPUs,
# so a busy-polling server and client do not starve each other; perftest
# runs under the same VM) and, inside it, runs bw_pair (server and client
# engines in one process, both on rxe0 through 10.0.2.15) for write, read,
# send, several QPs, bidirectional, a size sweep and both latency
# ping-pongs, checking what each side counted; then ib_write_bw /
# ib_write_lat on the same device with the same parameters, interleaved with
# ours, and compares the medians.
#
# usage: bw_verbs.sh RDMADOCTOR BW_PAIR     (exit 77: the VM cannot start)
# (inside the VM: bw_verbs.sh --inside RDMADOCTOR BW_PAIR)
set -u
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" != --inside ]; then
	[ $# -eq 2 ] || { echo "usage: $0 RDMADOCTOR BW_PAIR" >&2; exit 2; }
	VM_SMP=${VM_SMP:-2} exec "$here/vm-run.sh" --timeout 360 -- "$here/bw_verbs.sh" --inside \
		"$(realpath "$1")" "$(realpath "$2")"
fi
shift
bin=$1 pair=$2
dev=${VM_RDMA_DEV:-rxe0}
ip=${VM_IP:-10.0.2.15}
ulimit -l unlimited
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$here/../lib/tally.sh"
field() { sed -n "s/.*[[:space:]]$2=\([^[:space:]]*\).*/\1/p" <<<"$1" | head -n 1; }
side() { grep "^side=$2 " <<<"$1"; }

# run_pair NAME ARGS...: run bw_pair, keep its output in $out
run_pair() {
	local name=$1
	shift
	out=$(timeout 60 "$pair" --device "$dev" --peer "$ip" "$@" 2>&1)
	local rc=$?
	[ $rc -eq 0 ] || { bad "$name: bw_pair exit $rc: $out"; return 1; }
	return 0
}

# iteration mode: the active side completed exactly iters x qps messages of
# size bytes, in a positive time, on the ipv4 roce v2 gid (index 1 in this VM)
check_iters() {
	local name=$1 who=$2 iters=$3 qps=$4 size=$5 l
	l=$(side "$out" "$who")
	local msgs bytes secs gi
	msgs=$(field "$l" msgs) bytes=$(field "$l" bytes) secs=$(field "$l" seconds) gi=$(field "$l" gid_index)
	if [ "$msgs" = $((iters * qps)) ] && [ "$bytes" = $((iters * qps * size)) ] &&
		awk -v s="$secs" 'BEGIN { exit !(s > 0) }' && [ "$gi" = 1 ]; then
		ok "$name: $who moved $msgs x $size B ($(field "$l" gbps) Gb/s)"
	else
		bad "$name: $who counted msgs=$msgs bytes=$bytes seconds=$secs gid_index=$gi, want $((iters * qps)) x $size B on gid 1"
	fi
}

echo "# bw_pair over $dev ($ip)"
run_pair write --op write --size 65536 --iters 100 && check_iters write client 100 1 65536
run_pair read --op read --size 65536 --iters 100 && check_iters read client 100 1 65536
if run_pair send --op send --size 65536 --iters 100; then
	check_iters send client 100 1 65536
	check_iters send-received server 100 1 65536
fi
run_pair qps4 --op write --size 16384 --qps 4 --iters 100 && check_iters qps4 client 100 4 16384
if run_pair bidir --op write --size 65536 --iters 100 --bidir; then
	check_iters bidir client 100 1 65536
	check_iters bidir server 100 1 65536
fi
if run_pair bidir-send --op send --size 4096 --qps 2 --iters 150 --bidir; then
	check_iters bidir-send client 150 2 4096
	check_iters bidir-send server 150 2 4096
fi
# post lists and CQ moderation: iterations not a multiple of either
run_pair postlist --op write --size 1024 --iters 1001 --post-list 8 --cq-mod 16 &&
	check_iters postlist client 1001 1 1024
# a post list that moderation (100) is not a multiple of, and depth 128:
# signals must still fall where a chain ends, or posting stalls
run_pair postlist64 --op write --size 4096 --iters 1000 --post-list 64 --cq-mod 100 &&
	check_iters postlist64 client 1000 1 4096
for s in 2 4096 65536 1048576; do
	n=$((s >= 1048576 ? 6 : 100))
	run_pair "sweep-$s" --op write --size $s --iters $n --inline 64 && check_iters "sweep-$s" client $n 1 $s
done
# duration mode: warm-up and drain excluded, per-second intervals.  The
# window closes at the first sampler tick after 2 s; on rxe one post call
# can run the kernel's requester for a whole queue of messages (up to about
# 0.5 s under TCG), so the window may overrun by that much.
if run_pair duration --op write --size 65536 --duration-ms 2000 --warmup-ms 300; then
	l=$(side "$out" client)
	if awk -v s="$(field "$l" seconds)" -v n="$(field "$l" intervals)" -v mi="$(field "$l" min_gbps)" \
		-v a="$(field "$l" gbps)" -v ma="$(field "$l" max_gbps)" \
		'BEGIN { exit !(s >= 2.0 && s < 4.0 && n >= 2 && n <= 4 && mi > 0 && mi <= a * 1.001 && a <= ma * 1.001) }'; then
		ok "duration: 2 s window, $(field "$l" intervals) intervals, min $(field "$l" min_gbps) <= avg $(field "$l" gbps) <= max $(field "$l" max_gbps)"
	else
		bad "duration: $l"
	fi
fi
# latency: every round trip gives a sample on the client, min <= p50 <= max
for op in write send; do
	if run_pair "lat-$op" --mode lat --op $op --size 2 --iters 200 --inline 220; then
		l=$(side "$out" client)
		if [ "$(field "$l" lat_n)" = 200 ] &&
			awk -v a="$(field "$l" lat_min)" -v b="$(field "$l" lat_p50)" -v c="$(field "$l" lat_max)" \
				'BEGIN { exit !(a > 0 && a <= b && b <= c) }'; then
			ok "lat-$op: 200 samples, p50 $(field "$l" lat_p50) us"
		else
			bad "lat-$op: $l"
		fi
	fi
done
# errors the user can act on
e=$("$pair" --device "$dev" --peer "$ip" --gid-index 99 --iters 10 2>&1)
[[ $? -eq 1 && "$e" == *"gid index 99 is empty or missing on $dev"* ]] && ok "bad gid index refused" || bad "gid index 99: $e"
e=$("$pair" --device nosuchdev --iters 10 2>&1)
[[ $? -eq 1 && "$e" == *"no rdma device named 'nosuchdev'"* ]] && ok "unknown device refused" || bad "unknown device: $e"
e=$("$pair" --device "$dev" --peer "$ip" --gpu 0 --iters 10 2>&1)
[[ $? -eq 1 && "$e" == *"cannot load libcuda.so.1"*"run without --gpu"* ]] && ok "no-gpu path says why" || bad "gpu 0 without a gpu: $e"
run_pair gid0 --gid-index 0 --size 4096 --iters 100 && [ "$(field "$(side "$out" client)" gid_index)" = 0 ] &&
	ok "--gid-index 0 overrides the choice" || bad "gid0: $out"

# --- the command line: rdmadoctor bw/lat server and client over verbs -------
# (server --once in the background, client in the foreground, --json; both
# with the same token, which a server beyond loopback needs, or --open)
export RDMADOCTOR_TOKEN=vm-bw-verbs-$$-token
srv_args=()	# the server's own options, for the next cli_pair
cli_pair() { # NAME bw|lat CLIENT-ARGS...: the client's JSON in $js
	local name=$1 cmd=$2
	shift 2
	timeout 60 "$bin" "$cmd" server --once "${srv_args[@]}" >/tmp/bwv-srv.$$ 2>&1 &
	local spid=$! i
	for i in $(seq 50); do
		grep -q listening /tmp/bwv-srv.$$ 2>/dev/null && break
		sleep 0.1
	done
	js=$(timeout 60 "$bin" --json "$cmd" client "$ip" --transport verbs --device "$dev" "$@" 2>/tmp/bwv-cli.$$)
	local rc=$?
	[ $rc -eq 0 ] || kill $spid 2>/dev/null	# a server whose client failed would wait
	wait $spid
	local src=$?
	# the server judges its side against the port rate (rxe says 2.5 Gb/s,
	# which TCG cannot fill): exit 1 there is its verdict, not a failure
	[ $rc -eq 0 ] && { [ $src -eq 0 ] || { [ $src -eq 1 ] && grep -q 'below the expected' /tmp/bwv-srv.$$; }; } && return 0
	bad "$name: client exit $rc, server exit $src: $(head -c 600 /tmp/bwv-cli.$$) / $(tail -n 3 /tmp/bwv-srv.$$)"
	return 1
}
# jcheck NAME PYTHON-EXPR: the expression over d (the client's document)
jcheck() {
	if python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); sys.exit(0 if eval(sys.argv[1]) else 1)' "$2" <<<"$js"; then
		ok "$1"
	else
		bad "$1: $2 is false in: $(head -c 800 <<<"$js")"
	fi
}
if cli_pair cli-write bw --op write --size 65536 --qps 2 --iters 100 --expect-gbps 0.0001; then
	jcheck "cli bw write, 2 qps: 200 x 64 KiB on rxe0 gid 1, pass" \
		'd["verdict"] == "pass" and d["results"][0]["rails"][0]["bytes"] == 200 * 65536 and d["results"][0]["rails"][0]["device"] == "rxe0" and d["results"][0]["rails"][0]["gid_index"] == 1 and d["results"][0]["rails"][0]["mtu_bytes"] == 1024'
fi
if cli_pair cli-read-bidir bw --op read --size 16384 --iters 100 --bidir --expect-gbps 0.0001; then
	jcheck "cli bw read bidir: 100 x 16 KiB each way" \
		'd["results"][0]["rails"][0]["bytes"] == 100 * 16384 and d["results"][0]["remote_total"]["gbps"]["avg"] > 0'
fi
if cli_pair cli-lat lat --op send --iters 200; then
	jcheck "cli lat send: 200 one-way samples, min <= p50 <= p99 <= max" \
		'(lambda l: l["samples"] == 200 and 0 < l["min"] <= l["p50"] <= l["p99"] <= l["max"])(d["latency_usec"])'
fi
# the same test options on both ends, as with perftest: the server's are
# checks the client's request passes
srv_args=(--transport verbs --device "$dev" --op write --size 4096 --iters 50)
if cli_pair cli-same-options bw --op write --size 4096 --iters 50 --expect-gbps 0.0001; then
	jcheck "cli bw, the same options on both ends: 50 x 4 KiB" \
		'd["verdict"] == "pass" and d["results"][0]["rails"][0]["bytes"] == 50 * 4096'
fi
srv_args=()
# a server that serves only tcp refuses a verbs client, saying so
timeout 60 "$bin" bw server --transport tcp >/tmp/bwv-srv.$$ 2>&1 &
spid=$!
for i in $(seq 50); do
	grep -q listening /tmp/bwv-srv.$$ 2>/dev/null && break
	sleep 0.1
done
e=$(timeout 60 "$bin" bw client "$ip" --transport verbs --device "$dev" --iters 10 2>&1)
rc=$?
kill $spid 2>/dev/null
wait $spid 2>/dev/null
[[ $rc -eq 3 && "$e" == *"does not serve the verbs transport"* ]] &&
	ok "a tcp-only server refuses a verbs client" || bad "tcp-only server, verbs client: exit $rc: $e"
rm -f /tmp/bwv-srv.$$ /tmp/bwv-cli.$$

# --- against perftest, interleaved ------------------------------------------
# Same device, same GID (1), same size, one QP, tx depth 128, CQ moderation
# 1 at 64 KiB (perftest's rule, ours too), iterations mode; runs of the two
# tools alternate so a burst of host load hits both.
# Tolerance: the medians of 3 runs each must be within a factor of 3, and
# one more round of 3 is allowed when the first disagrees.  Why so wide:
# under TCG on the shared 2-core build host a single run of either tool
# varies by 2-3x (measured while writing this test, load average 10-14:
# ib_write_bw 64 KiB 0.08-0.24 Gb/s, ours 0.11-0.30 Gb/s); what this test
# must catch is a broken loop (one WR at a time, a lost signal, wrong byte
# counts, a spinning passive side), which costs 5x and more on rxe.
# Latency compares each run's minimum (t_min / lat_min), and of the three
# runs the least: a preempted vCPU inflates medians to milliseconds for both
# tools, and whole runs to tens of microseconds when the two ends and rxe's
# kernel threads share the VM's two vCPUs (seen: ours 29.1, 7.4, 3125 us
# against perftest's 7.9, 3908, 2396 in one round); the least is the path's
# own cost, which a broken loop raises in every run.
# perftest's server listens on TCP 18515: start the client only then (a
# client that comes too early fails, and its server would wait forever)
pt_listening() {
	local i
	for i in $(seq 50); do
		ss -Hltn 'sport = :18515' 2>/dev/null | grep -q . && return
		sleep 0.1
	done
}
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
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
least() { sort -g | head -n 1; }
perf_run() { # tool awk-column args...: server and client on rxe0, the client's figure
	local tool=$1 col=$2
	shift 2
	timeout 60 "$tool" -d "$dev" -x 1 -F "$@" >/tmp/pt-srv.$$ 2>&1 &
	local spid=$!
	pt_listening
	timeout 60 "$tool" -d "$dev" -x 1 -F "$@" "$ip" 2>&1 |
		awk -v c="$col" '/^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+/ { print $c; exit }'
	pt_reap $spid
}
within3() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && b > 0 && a / b >= 1 / 3 && a / b <= 3) }'; }
# compare NAME UNIT AGGREGATE PERFTEST-CMD OUR-FIELD OUR-ARGS...: AGGREGATE
# (median or least) of three runs each
compare() {
	local name=$1 unit=$2 agg=$3 pcmd=$4 fld=$5 round mo mt
	shift 5
	for round in 1 2; do
		local ours=() theirs=() t
		for i in 1 2 3; do
			t=$($pcmd)
			[ -n "$t" ] && theirs+=("$t")
			run_pair "$name-$round-$i" "$@" && ours+=("$(field "$(side "$out" client)" "$fld")")
		done
		mo=$(printf '%s\n' "${ours[@]}" | $agg) mt=$(printf '%s\n' "${theirs[@]}" | $agg)
		echo "# $name round $round: rdmadoctor ${ours[*]} $unit, perftest ${theirs[*]} $unit"
		if [ ${#ours[@]} -eq 3 ] && [ ${#theirs[@]} -eq 3 ] && within3 "$mo" "$mt"; then
			ok "$name agrees with perftest: $agg $mo vs $mt $unit (ratio $(awk -v a="$mo" -v b="$mt" 'BEGIN { printf "%.2f", a / b }'))"
			return
		fi
	done
	bad "$name vs perftest: $agg ${mo:-none} vs ${mt:-none} $unit"
}
pt_bw() { perf_run ib_write_bw 4 --report_gbits -s 65536 -n 150 -t 128; }
pt_lat() { perf_run ib_write_lat 3 -s 2 -n 200 -I 220; }
if command -v ib_write_bw >/dev/null && command -v ib_write_lat >/dev/null; then
	compare write-bw-64k Gb/s median pt_bw gbps --op write --size 65536 --iters 150 --tx-depth 128
	compare write-lat-min us least pt_lat lat_min --mode lat --op write --size 2 --iters 200 --inline 220
else
	bad "perftest is not installed (apt-get install perftest)"
fi
rm -f /tmp/pt-srv.$$
tally_done "vm bw verbs"
