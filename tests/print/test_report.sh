#!/bin/sh
# The fleet HTML report in a real browser: a fleet built from the fixture
# machines (make_fleet.py), the page rendered, opened in headless Chromium,
# and what the browser shows compared with the documents (check_page.py);
# then an empty fleet and a fleet of odd records; a screenshot is kept.
# When `rdmadoctor fleet report` exists, the same through the database:
# `record --from` the documents, `fleet report --html`, and the page checked
# against what `fleet ls --json` and `fleet diff --json` say.
# usage: test_report.sh RDMADOCTOR RENDER_FLEET SRCDIR ARTIFACT_DIR
set -u
bin=$1
render=$2
src=$3
art=$4
here=$src/tests/print

if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP: chromium is not installed (Debian package chromium): the page cannot be checked in a browser"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdreport.XXXXXX") || exit 1
sid=

# Chromium runs in a session of its own: every process it starts is found by
# that session id, ended with it, and none may outlive the test.
session_pids() {
	for stat in /proc/[0-9]*/stat; do
		# fields after the ")" that ends the command name: state ppid pgrp session
		line=$(cat "$stat" 2>/dev/null) || continue
		set -- ${line##*) }
		[ "${4:-}" = "$sid" ] && echo "${stat%/stat}" | sed 's|/proc/||'
	done
}
end_chromium() {
	[ -n "$sid" ] || return 0
	kill -TERM -- "-$sid" 2>/dev/null
	n=0
	while [ -n "$(session_pids)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
	kill -KILL -- "-$sid" 2>/dev/null
	sleep 0.2
	left=$(session_pids)
	sid=
	if [ -n "$left" ]; then
		echo "FAIL: chromium processes survived: $left"
		return 1
	fi
}
trap 'end_chromium; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

fail=0
problem() { echo "FAIL: $*"; fail=1; }

# chromium URL-OF-PAGE OUTFILE ARGS...: headless, private profile, at most 90 s
chromium_run() {
	page=$1 out=$2
	shift 2
	setsid chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --disable-background-networking --disable-sync \
		--user-data-dir="$tmp/profile" --hide-scrollbars "$@" "file://$page" \
		>"$out" 2>"$tmp/chromium.err" &
	sid=$!
	n=0
	while kill -0 "$sid" 2>/dev/null && [ $n -lt 900 ]; do sleep 0.1; n=$((n + 1)); done
	if kill -0 "$sid" 2>/dev/null; then
		problem "chromium still running after 90 s on $page"
		end_chromium
		return 1
	fi
	wait "$sid"
	rc=$?
	end_chromium || fail=1
	if [ $rc -ne 0 ]; then
		problem "chromium exited $rc on $page"; tail -5 "$tmp/chromium.err"
		return 1
	fi
}

# page_check NAME PAGE RECORDS DIFF: the DOM as the browser has it
page_check() {
	chromium_run "$2" "$tmp/$1.dom" --dump-dom || return
	python3 "$here/check_page.py" "$tmp/$1.dom" "$3" "$4" || problem "$1: the page shows other figures than its documents"
}

# 1. a fleet from the fixtures, through the page writer itself
python3 "$here/make_fleet.py" "$bin" "$src" "$tmp/fleet" || { echo "FAIL: make_fleet.py"; exit 1; }
if "$render" "$tmp/fleet/records.json" "$tmp/fleet/diff.json" "$tmp/fleet.html"; then
	# self-contained: no script, no URL but the SVG namespace
	grep -q '<script' "$tmp/fleet.html" && problem "fleet.html carries a script"
	grep -o 'https\?://[^"]*' "$tmp/fleet.html" | grep -qv '^http://www.w3.org/2000/svg$' &&
		problem "fleet.html names a URL: $(grep -o 'https\?://[^"]*' "$tmp/fleet.html" | sort -u)"
	page_check fleet "$tmp/fleet.html" "$tmp/fleet/records.json" "$tmp/fleet/diff.json"
	mkdir -p "$art"
	rm -f "$art/fleet.png"
	if chromium_run "$tmp/fleet.html" /dev/null --screenshot="$art/fleet.png" --window-size=1400,2000; then
		echo "screenshot: $art/fleet.png"
		python3 "$here/check_png.py" "$art/fleet.png" 1400 2000 '#2f6bd8' 1000 ||
			problem "the screenshot is not a whole page with the bar chart"
		cp "$tmp/fleet.html" "$art/fleet.html"
	fi
else
	problem "render_fleet on the fleet"
fi

# 2. no hosts at all: a whole page that says so
echo '[]' > "$tmp/empty.json"
if "$render" "$tmp/empty.json" - "$tmp/empty.html"; then
	page_check empty "$tmp/empty.html" "$tmp/empty.json" -
else
	problem "render_fleet on an empty fleet"
fi

# 3. records and a diff where anything may be null or of another type
if "$render" "$here/odd-records.json" "$here/odd-diff.json" "$tmp/odd.html"; then
	page_check odd "$tmp/odd.html" "$here/odd-records.json" "$here/odd-diff.json"
	grep -q '>-<' "$tmp/odd.dom" || problem "odd records: nothing shown as missing (-)"
	grep -q 'unknown' "$tmp/odd.dom" && problem "odd records: a missing value spelled unknown, not -"
else
	problem "render_fleet on odd records"
fi

# 4. a write error is an error, not a cut page
if [ -w /dev/full ]; then
	"$render" "$tmp/fleet/records.json" "$tmp/fleet/diff.json" /dev/full 2>/dev/null &&
		problem "render_fleet to a full disk exited 0"
fi

# 5. the whole path: records into the database, `fleet report --html`, and
# the page against what `fleet ls --json` and `fleet diff --json` say
if "$bin" fleet --help >/dev/null 2>&1; then
	db=$tmp/fleet.db
	"$bin" --json record --db "$db" --from "$tmp"/fleet/records/*.json >"$tmp/stored.json" ||
		problem "record --from the fleet's records exited $?"
	# one host checked three times more, its error counters growing: the
	# page's counter charts (unchanged checks: seen times with deltas)
	python3 - "$tmp/fleet/records" "$tmp/later" <<'PY' || problem "the later checks"
import glob, json, os, sys
src, out = sys.argv[1:3]
os.mkdir(out)
rec = json.load(open(sorted(glob.glob(os.path.join(src, "*.json")))[0]))
port = next(p for n in rec["check"]["inventory"]["nics"] for p in n["ports"]
            if isinstance(p.get("counters"), dict) and "symbol_error" in p["counters"])
for i, grow in enumerate([6, 0, 2]):
    port["counters"]["symbol_error"] += grow
    rec["time"] = rec["time"][:11] + "%02d" % (int(rec["time"][11:13]) + i + 1) + rec["time"][13:]
    json.dump(rec, open(os.path.join(out, "%d.json" % i), "w"))
PY
	"$bin" --json record --db "$db" --from "$tmp"/later/*.json >"$tmp/later.json" ||
		problem "record --from the later checks exited $?"
	grep -q '"seen": *3' "$tmp/later.json" || problem "the later checks are not seen times: $(cat "$tmp/later.json")"
	"$bin" --json fleet --db "$db" ls >"$tmp/ls.json" || problem "fleet ls exited $?"
	"$bin" --json fleet --db "$db" diff >"$tmp/db-diff.json"
	[ $? -le 1 ] || problem "fleet diff could not run"
	# the records as the database keeps them: each host's latest
	python3 - "$bin" "$db" "$tmp/ls.json" "$tmp/db-records.json" <<'PY' || problem "fleet show"
import json, subprocess, sys
tool, db, ls, out = sys.argv[1:5]
hosts = [h["host"] for h in json.load(open(ls))["hosts"]]
recs = []
for h in hosts:
    show = json.loads(subprocess.run([tool, "--json", "fleet", "--db", db, "show", h],
                                     capture_output=True, check=True, timeout=60).stdout)
    # the latest record, with when it was last checked
    recs.append(dict(show["latest"], last_seen=show["records"][-1]["last_seen"]))
json.dump(recs, open(out, "w"))
PY
	if "$bin" fleet --db "$db" report --html "$tmp/db.html"; then
		chromium_run "$tmp/db.html" "$tmp/db.dom" --dump-dom --enable-logging=stderr --v=0 &&
			{ python3 "$here/check_page.py" "$tmp/db.dom" "$tmp/db-records.json" \
				"$tmp/db-diff.json" "$tmp/ls.json" ||
				problem "fleet report: the page differs from fleet ls / fleet diff"; }
		grep ':CONSOLE' "$tmp/chromium.err" &&
			problem "fleet report: the browser's console has messages (above)"
		# the counter charts as the browser has them, against fleet show
		python3 "$here/check_series.py" "$bin" "$db" "$tmp/db.dom" ||
			problem "fleet report: the counter charts differ from fleet show --json"
	else
		problem "fleet report --html exited $?"
	fi
else
	echo "note: this build has no \`rdmadoctor fleet\` yet: the database path is not checked"
fi

[ $fail -eq 0 ] && echo "report_html: all checks passed"
exit $fail
