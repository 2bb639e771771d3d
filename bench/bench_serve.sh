#!/bin/bash
# serve on the largest machine shape: the time of a scrape that reads the
# machine (cold, --cache 0) and of one served from the cache, and 100
# concurrent scrapers.  Printed, never asserted.  Aim (issue 6): a scrape
# under 10 ms, 100 concurrent served without error.
#
#   bench/bench_serve.sh BINARY [SCRAPES]
#
# The shape: 16 ConnectX-7 RoCE NICs, 256 GIDs per port, 8 GPUs
# (tests/fixtures/gen_fixtures.py --shape bench-16nic --out DIR).  Times are
# curl's time_total on loopback, so they include the HTTP exchange.
set -u
bin=$(realpath "$1")
runs=${2:-${BENCH_RUNS:-30}}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

for tool in curl python3; do
	command -v $tool >/dev/null || { echo "bench_serve: needs $tool"; exit 1; }
done
python3 "$src/tests/fixtures/gen_fixtures.py" --shape bench-16nic --out "$tmp" >/dev/null ||
	{ echo "cannot generate the benchmark machine"; exit 1; }
root=$tmp/bench-16nic/root

# start BINARY serve with these options; sets pid and port
start() {
	: >"$tmp/err"
	"$bin" --root "$root" serve --listen 127.0.0.1:0 "$@" 2>"$tmp/err" &
	pid=$!
	for _ in $(seq 100); do
		port=$(grep -o '127\.0\.0\.1:[0-9]*' "$tmp/err" | head -1 | cut -d: -f2)
		[ -n "$port" ] && return 0
		sleep 0.1
	done
	echo "serve did not start: $(cat "$tmp/err")"
	exit 1
}

stop() {
	kill -TERM "$pid"
	wait "$pid"
	pid=
}

# N sequential scrapes: "code seconds" lines
scrapes() {
	for _ in $(seq "$1"); do
		curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "http://127.0.0.1:$port/metrics"
	done
}

# min / median / max in ms of the seconds column, and the non-200 count
summary() {
	python3 -c '
import sys, statistics
rows = [l.split() for l in sys.stdin if l.strip()]
t = sorted(float(r[1]) * 1e3 for r in rows)
bad = sum(r[0] != "200" for r in rows)
print("%3d scrapes  min %7.2f ms  median %7.2f ms  max %7.2f ms  errors %d"
      % (len(t), t[0], statistics.median(t), t[-1], bad))'
}

metric() {
	curl -s "http://127.0.0.1:$port/metrics" | awk -v m="$1" '$1 == m { print $2 }'
}

start --cache 3600
size=$(curl -s "http://127.0.0.1:$port/metrics" | wc -c)
lines=$(curl -s "http://127.0.0.1:$port/metrics" | grep -vc '^#')
echo "bench-16nic: /metrics is $size bytes, $lines series"
printf 'cached  (--cache 3600):  '
scrapes "$runs" | summary
stop

start --cache 0
printf 'cold    (--cache 0):     '
scrapes "$runs" | summary
echo "        reading + check inside the server: $(metric rdmadoctor_refresh_duration_seconds | \
	awk '{ printf "%.2f ms", $1 * 1000 }') (rdmadoctor_refresh_duration_seconds)"
stop

# 100 at once, five rounds, against a 1 s cache: all answered, and how
# many times the machine was read for them
start --cache 1
before=$(metric rdmadoctor_refreshes_total)
t0=$(date +%s.%N)
for round in 1 2 3 4 5; do
	seq 100 | xargs -P 100 -I{} curl -s -o /dev/null -m 30 \
		-w '%{http_code} %{time_total}\n' "http://127.0.0.1:$port/metrics" >>"$tmp/storm"
done
t1=$(date +%s.%N)
after=$(metric rdmadoctor_refreshes_total)
printf '100 concurrent x 5:      '
summary <"$tmp/storm"
echo "        $(python3 -c "print('%.2f' % ($t1 - $t0))") s in all; the machine was read \
$((after - before - 1)) times for these 500 scrapes (--cache 1)"
stop
