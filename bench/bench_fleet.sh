#!/bin/bash
# Fleet scale, SQLite and PostgreSQL side by side:
#   - HOSTS (10,000) host records generated from the fixture machines with
#     varied values, ingested by WRITERS (8) `record --from` runs at once;
#   - the same checks again an hour later: unchanged, so each adds a seen
#     time and counter deltas only (the database's growth per check);
#   - `fleet diff` over DIFF_HOSTS (100,000) hosts: the ingested hosts and
#     clones of them made in SQL (their drift facts, columns and host
#     entries copied, the documents left small: diff reads no document);
#   - NODES (1,000) nodes recording at once, each its own `record --from`
#     with --timeout 5 as a health check would: the latency of each, median
#     and worst, and how many gave up.
# Prints the figures; asserts nothing; not part of CI (aims: ingest under
# 10 s, diff under 5 s).  PostgreSQL is a server started here (initdb,
# pg_ctl, loopback port 21500-21509), stopped at the end.
#   bench/bench_fleet.sh BINARY [HOSTS] [WRITERS] [DIFF_HOSTS] [NODES]
# Build with -DCMAKE_BUILD_TYPE=RelWithDebInfo to measure what users get.
set -u
bin=$(realpath "$1")
hosts=${2:-10000}
writers=${3:-8}
diff_hosts=${4:-100000}
nodes=${5:-1000}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d -t "${BENCH_PREFIX:-bench-fleet}.XXXXXX")
chmod 755 "$tmp"	# the postgres user reads its password file in it
pg=""
cleanup() {
	[ -n "$pg" ] && python3 "$src/tests/fleet/pgserver.py" stop "$tmp/pg"
	rm -rf "$tmp"
}
trap cleanup EXIT

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
t0=$(now)
python3 - "$bin" "$src" "$tmp/docs" "$hosts" <<'PY' || { echo "cannot generate the documents"; exit 1; }
import json, os, random, sys
sys.path.insert(0, os.path.join(sys.argv[2], "tests", "fleet"))
import fleetgen
binary, src, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
os.makedirs(os.path.join(out, "a"))
os.makedirs(os.path.join(out, "b"))
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
    # the same check an hour later: only the time differs (and so it is
    # unchanged); its counters would differ on a live machine
    for sub, t in (("a", "2026-11-30T07:00:00Z"), ("b", "2026-11-30T08:00:00Z")):
        with open(os.path.join(out, sub, "%05d.json" % i), "w") as f:
            f.write('{"schema":1,"host":"%s","time":"%s","profile":%s,"verdict":%s,'
                    '"check":%s,"bw":%s}' % (name, t, json.dumps(shapes[k]["profile"]),
                                             json.dumps(shapes[k]["verdict"]), check, bw))
PY
t1=$(now)
bytes=$(du -sb "$tmp/docs/a" | cut -f1)
echo "generated $hosts records ($((bytes / 1048576)) MiB of JSON) twice in $(ms "$t0" "$t1") ms"
for sub in a b; do
	ls "$tmp/docs/$sub" | sed "s|^|$tmp/docs/$sub/|" >"$tmp/list.$sub"
	split -n "l/$writers" "$tmp/list.$sub" "$tmp/batch.$sub."
done

mkdir -p "$tmp/pg"
if out=$(python3 "$src/tests/fleet/pgserver.py" start "$tmp/pg" 2>&1) && [ -n "$out" ]; then
	pg=yes
	set -- $out
	export PGPASSFILE=$2
	pg_uri() { echo "postgresql://postgres@127.0.0.1:$1/$2"; }
	pg_port=$1
	psqlq() { psql -X -At -h 127.0.0.1 -p "$pg_port" -U postgres -d "$1" -c "$2"; }
	psqlq postgres "CREATE DATABASE bench" >/dev/null
	psqlq postgres "CREATE DATABASE nodes" >/dev/null
else
	echo "PostgreSQL: not run ($out)"
fi

# sql BACKEND DB STATEMENT: one value, through the backend's own client
sql() {
	if [ "$1" = sqlite ]; then sqlite3 "$2" "$3"; else psqlq "${2##*/}" "$3"; fi
}
# bytes BACKEND DB: the store's size, compacted
size_of() {
	if [ "$1" = sqlite ]; then
		sqlite3 "$2" 'PRAGMA wal_checkpoint(TRUNCATE); VACUUM;' >/dev/null
		stat -c %s "$2"
	else
		psqlq "${2##*/}" 'VACUUM FULL' >/dev/null
		psqlq "${2##*/}" "SELECT sum(pg_total_relation_size(t::regclass)) FROM (VALUES ('records'),
			('seen'), ('record_groups'), ('hosts'), ('schema_version')) v(t)"
	fi
}

# ingest BACKEND DB SET: WRITERS `record --from` runs at once, one batch each
ingest() {
	local t0 t1 cpu
	t0=$(now)
	# CPU seconds too: on a shared machine the wall time says more about
	# the neighbours than about us
	cpu=$( { TIMEFORMAT='%U %S'; time ls "$tmp"/batch."$3".* |
		xargs -P "$writers" -I{} sh -c 'xargs -a "$1" "$2" -q record --db "$3" --from \
			2>>"$4" || echo failed' sh {} "$bin" "$2" "$tmp/errors" >"$tmp/fails"; } 2>&1 |
		awk '{ printf "%.1f", $1 + $2 }')
	t1=$(now)
	ingest_ms=$(ms "$t0" "$t1")
	ingest_cpu=$cpu
	ingest_failed=$(wc -l <"$tmp/fails")
	if [ "$ingest_failed" -gt 0 ]; then
		echo "$1 ingest: a failed batch said: $(grep -m1 . "$tmp/errors" | cut -c1-300)"
	fi
}

# clone BACKEND DB N: hosts copied in SQL until there are N
clone() {
	local have times
	have=$(sql "$1" "$2" 'SELECT count(DISTINCT host) FROM records')
	times=$(( ($3 + have - 1) / have - 1 ))
	[ "$times" -ge 1 ] || return 0
	sql "$1" "$2" "
	CREATE TEMP TABLE k AS SELECT n FROM (WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1
		FROM c WHERE n < $times) SELECT n FROM c) x;
	INSERT INTO records(host, time, last_seen, doc, profile, verdict, findings, dmi_product, gpus,
		content) SELECT r.host || '-c' || k.n, r.time, r.last_seen, '{}', r.profile, r.verdict,
		r.findings, r.dmi_product, r.gpus, r.content FROM records r, k;
	INSERT INTO record_groups(record_id, profile, nic_model, link_layer, facts)
		SELECT c.id, g.profile, g.nic_model, g.link_layer, g.facts FROM records r
		CROSS JOIN k JOIN records c ON c.host = r.host || '-c' || k.n AND c.time = r.time
		JOIN record_groups g ON g.record_id = r.id WHERE r.host NOT LIKE '%-c%';
	INSERT INTO hosts(host, record_id, last_seen, checks, records, counters)
		SELECT host, id, last_seen, 1, 1, '{}' FROM records WHERE host LIKE '%-c%';" >/dev/null
}

# nodes BACKEND DB: NODES processes record at once; latency of each
nodes_at_once() {
	local i
	mkdir -p "$tmp/lat"
	rm -f "$tmp"/lat/*
	for i in $(seq 1 "$nodes"); do
		f=$(sed -n "$(( (i - 1) % hosts + 1 ))p" "$tmp/list.a")
		( s=$(now); "$bin" -q record --db "$2" --timeout 5 --time 2026-12-01T00:00:00Z \
			--from "$f" >/dev/null 2>"$tmp/lat/$i.err"; rc=$?; e=$(now)
		  echo "$(( (e - s) / 1000000 )) $rc" >"$tmp/lat/$i" ) &
	done
	wait
	cat "$tmp"/lat/[0-9]* | python3 -c '
import sys
rows = [l.split() for l in sys.stdin if l.strip()]
lat = sorted(int(r[0]) for r in rows)
bad = sum(1 for r in rows if r[1] not in ("0", "1"))
print("%d ms median, %d ms worst, %d of %d gave up" % (lat[len(lat) // 2], lat[-1], bad, len(rows)))'
}

declare -A R
for backend in sqlite postgresql; do
	if [ "$backend" = sqlite ]; then
		db=$tmp/fleet.db
		nodes_db=$tmp/nodes.db
	else
		[ -n "$pg" ] || continue
		db=$(pg_uri "$pg_port" bench)
		nodes_db=$(pg_uri "$pg_port" nodes)
	fi
	ingest "$backend" "$db" a
	stored=$(sql "$backend" "$db" 'SELECT count(*) FROM records')
	R[$backend,ingest]="$ingest_ms ms, $ingest_cpu CPU s ($stored stored, $ingest_failed batches failed)"
	before=$(size_of "$backend" "$db")
	ingest "$backend" "$db" b
	seen=$(sql "$backend" "$db" 'SELECT count(*) FROM seen')
	after=$(size_of "$backend" "$db")
	R[$backend,seen]="$(( (after - before) / (seen ? seen : 1) )) bytes per unchanged check ($seen seen, $ingest_ms ms, $ingest_failed batches failed)"
	R[$backend,size]="$(( before / (stored ? stored : 1) )) bytes per record"
	t0=$(now)
	"$bin" --json fleet --db "$db" diff >"$tmp/diff.$backend.json"
	t1=$(now)
	R[$backend,diff10]="$(ms "$t0" "$t1") ms over $hosts hosts"
	clone "$backend" "$db" "$diff_hosts"
	n=$(sql "$backend" "$db" 'SELECT count(DISTINCT host) FROM records')
	t0=$(now)
	diff_cpu=$( { TIMEFORMAT='%U %S'; time "$bin" --json fleet --db "$db" diff >/dev/null; } 2>&1 |
		awk '{ printf "%.1f", $1 + $2 }')
	t1=$(now)
	R[$backend,diff]="$(ms "$t0" "$t1") ms, $diff_cpu CPU s over $n hosts"
	t0=$(now)
	"$bin" --json fleet --db "$db" ls >/dev/null
	t1=$(now)
	R[$backend,ls]="$(ms "$t0" "$t1") ms over $n hosts"
	R[$backend,nodes]=$(nodes_at_once "$backend" "$nodes_db")
done
# the two backends must agree on what they were given
if [ -n "$pg" ] && ! python3 - "$tmp/diff.sqlite.json" "$tmp/diff.postgresql.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if a == b else 1)
PY
then
	echo "NOTE: fleet diff over the $hosts ingested hosts differs between the backends"
fi

printf '%-34s %-50s %s\n' "" "SQLite" "PostgreSQL"
for k in ingest:"ingest, $writers writers (aim 10 s)" seen:"size per unchanged check (aim 2 KB)" \
	 size:"size per record" diff10:"fleet diff" diff:"fleet diff (aim 5 s)" ls:"fleet ls" \
	 nodes:"$nodes nodes at once"; do
	printf '%-34s %-50s %s\n' "${k#*:}" "${R[sqlite,${k%%:*}]}" "${R[postgresql,${k%%:*}]:-not run}"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
