#!/bin/bash
# Fleet scale: 10,000 host documents generated from the fixture machines
# with varied values (firmware, MTU, PCIe width, bandwidth), ingested with
# `record --from` in batches, then `fleet diff` over all of them.  Prints
# the times and the database size; asserts nothing (issue 6 aims: ingest
# under 10 s, diff under 2 s).
#   bench/bench_fleet.sh BINARY [HOSTS] [BATCH] [WRITERS]
# WRITERS (default 2) `record --from` processes run at once, as hosts of a
# fleet would; the run with one writer is printed too.  Build with
# -DCMAKE_BUILD_TYPE=RelWithDebInfo to measure what users get.
set -u
bin=$(realpath "$1")
hosts=${2:-10000}
batch=${3:-1000}
writers=${4:-2}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }

t0=$(now)
python3 - "$bin" "$src" "$tmp/docs" "$hosts" <<'PY' || { echo "cannot generate the documents"; exit 1; }
import json, os, random, sys
sys.path.insert(0, os.path.join(sys.argv[2], "tests", "fleet"))
import fleetgen
binary, src, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
os.makedirs(out)
rng = random.Random(6)
# mostly healthy machines of a few shapes, a few broken ones; 4% edited
shapes = [fleetgen.check_doc(binary, os.path.join(src, "examples"), s) for s in fleetgen.SHAPES]
weights = [30, 20, 20, 10, 10, 5, 3, 1, 1]
PLACE = "@@HOST@@"
templates = []
for d in shapes:
    t = json.loads(json.dumps(d))
    t["inventory"]["host"]["hostname"] = PLACE
    templates.append(json.dumps(t, separators=(",", ":")))
for i in range(n):
    k = rng.choices(range(len(shapes)), weights)[0]
    name = "node-%05d" % i
    r = rng.random()
    if r < 0.04:
        d = fleetgen.as_host(shapes[k], name)
        if r < 0.02:
            fleetgen.set_fw(d, "28.35.1012")
        elif r < 0.03:
            fleetgen.set_mtu(d, 2048)
        else:
            fleetgen.set_pcie_width(d, 8)
        check = json.dumps(d, separators=(",", ":"))
    else:
        check = templates[k].replace(PLACE, name, 1)
    nics = [x["name"] for x in shapes[k]["inventory"]["nics"]][:4]
    rails = [(dev, 390 + rng.random() * 4 if rng.random() > 0.01 else 200.0) for dev in nics]
    bw = json.dumps([fleetgen.bw_doc(name, "peer", rails)], separators=(",", ":"))
    with open(os.path.join(out, "%05d.json" % i), "w") as f:
        f.write('{"schema":1,"host":"%s","time":"2026-11-30T07:00:00Z","profile":%s,'
                '"verdict":%s,"check":%s,"bw":%s}' % (name, json.dumps(shapes[k]["profile"]),
                                                       json.dumps(shapes[k]["verdict"]), check, bw))
PY
t1=$(now)
bytes=$(du -sb "$tmp/docs" | cut -f1)
echo "generated $hosts records ($((bytes / 1048576)) MiB of JSON) in $(( (t1 - t0) / 1000000 )) ms"

ls "$tmp/docs" | sed "s|^|$tmp/docs/|" >"$tmp/list"
split -l "$batch" "$tmp/list" "$tmp/batch."

# ingest: each batch one `record --from` run; $1 writers at once
ingest() {
	rm -f "$db" "$db-wal" "$db-shm"
	local t0 t1 cpu
	t0=$(now)
	# CPU seconds too: on a shared machine the wall time says more about
	# the neighbours than about us
	cpu=$( { TIMEFORMAT='%U %S'; time ls "$tmp"/batch.* |
		xargs -P "$1" -I{} sh -c 'xargs -a "$1" "$2" -q record --db "$3" --from || echo failed' \
		sh {} "$bin" "$db" >"$tmp/fails"; } 2>&1 | awk '{ printf "%.1f", $1 + $2 }')
	t1=$(now)
	ingest_ms=$(( (t1 - t0) / 1000000 ))
	stored=$(sqlite3 "$db" 'SELECT count(*) FROM records')
	echo "ingest, $1 writer(s): $stored of $hosts records in $ingest_ms ms, batches of $batch" \
		"($(wc -l <"$tmp/fails") batches failed), $(( hosts * 1000 / (ingest_ms ? ingest_ms : 1) ))" \
		"records/s, $cpu CPU seconds; aim under 10000 ms"
}
db=$tmp/fleet.db
if [ "$writers" -gt 1 ]; then
	ingest 1
fi
ingest "$writers"

t0=$(now)
diff_cpu=$( { TIMEFORMAT='%U %S'; time "$bin" --json fleet --db "$db" diff >"$tmp/diff.json"; } 2>&1 |
	awk '{ printf "%.2f", $1 + $2 }')
t1=$(now)
"$bin" --json fleet --db "$db" diff >/dev/null
rc=$?
diff_ms=$(( (t1 - t0) / 1000000 ))
t0=$(now)
"$bin" --json fleet --db "$db" ls >/dev/null
t1=$(now)
ls_ms=$(( (t1 - t0) / 1000000 ))
t0=$(now)
if "$bin" -q fleet --db "$db" report --html "$tmp/fleet.html" 2>"$tmp/report.err"; then
	t1=$(now)
	report="$(( (t1 - t0) / 1000000 )) ms, page $(( $(stat -c %s "$tmp/fleet.html") / 1024 )) KiB"
else
	report="not run: $(head -c 200 "$tmp/report.err")"
fi
size=$(du -b "$db" | cut -f1)
wal=$(du -b "$db-wal" 2>/dev/null | cut -f1)
outliers=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(g["outliers"]) for g in d["groups"]), len(d["groups"]))' "$tmp/diff.json")

echo "fleet diff: $diff_ms ms, $diff_cpu CPU seconds (exit $rc; outliers, groups: $outliers); aim under 2000 ms"
echo "fleet ls: $ls_ms ms"
echo "fleet report --html: $report"
echo "load average while it ran: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo "database: $((size / 1048576)) MiB (+ WAL $(( ${wal:-0} / 1048576 )) MiB)," \
	"$(( size / (stored ? stored : 1) )) bytes per record"
