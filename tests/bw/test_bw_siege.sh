#!/bin/bash
# A bw server's door under siege on loopback (issue 44): strangers cannot
# keep a real client out.
#   1. eight tokenless connections that say nothing and reconnect as soon
#      as they are cut: every one of eight real clients is served (the
#      server used to give its one slot to whoever connected first, for the
#      whole --idle-timeout, and tell the real client "busy");
#   2. a peer outside --allow opening connections as fast as four threads
#      can: every real client is served, and the log says the flood in a
#      bounded number of lines;
#   3. wrong tokens from one address: five are judged, then the address
#      waits, doubling; the right token from another address is served
#      meanwhile;
#   4. a server with neither a token nor --allow listens beyond loopback
#      only with --open.
# Each load is bounded in time (seconds) and threads.  No root needed.
# usage: test_bw_siege.sh path/to/rdmadoctor
set -u
bin=${1:?usage: $0 path/to/rdmadoctor}
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
# shellcheck source=tests/lib/bw_loopback.sh
. "$here/../lib/bw_loopback.sh"
# clients N PORT: N real clients one after another, each a short tcp test;
# prints how many were served
clients() {
	local n=$1 port=$2 ok=0 i
	for i in $(seq "$n"); do
		if timeout 30 "$bin" bw client 127.0.0.1 --port "$port" --transport tcp --duration 0.2 \
			--warmup 0 --timeout 5 --token-file "$tmp/token" >/dev/null 2>"$tmp/client.err"; then
			ok=$((ok + 1))
		else
			echo "client $i: $(tail -n 1 "$tmp/client.err")" >&2
		fi
	done
	echo "$ok"
}

printf 'siege-door-token-42\n' >"$tmp/token"
chmod 600 "$tmp/token"
port=$(free_port)
"$bin" bw server --bind 127.0.0.1 --port "$port" --token-file "$tmp/token" \
	>/dev/null 2>"$tmp/s1.err" &
s1=$!
pids+=("$s1")
wait_port "$port" || exit 1

# 1. the silent reconnecting strangers: 8 from the real clients' own
# address, and 48 more from another, more than the lobby holds
python3 "$here/siege.py" hold "$port" 127.0.0.1 12 8 >"$tmp/hold.n" &
holders=$!
python3 "$here/siege.py" hold "$port" 127.0.0.4 12 48 >"$tmp/hold4.n" &
holders4=$!
sleep 1
served=$(clients 8 "$port" 2>"$tmp/hold.clients")
wait $holders $holders4
held=$(cat "$tmp/hold.n")
held4=$(cat "$tmp/hold4.n")
if [ "$served" = 8 ] && [ "${held:-0}" -ge 8 ] && [ "${held4:-0}" -ge 48 ]; then
	echo "ok: 8 of 8 clients served while silent strangers held $held + $held4 connections"
else
	echo "FAIL: $served of 8 clients served under $held + $held4 silent connections:"
	cat "$tmp/hold.clients"; fail=1
fi
# (its newest connections push out its own oldest, or are refused at once)
grep -qE "refused 127.0.0.4: (too many connections waiting to show a token from this address|sent no token while newer connections from its address came)" \
	"$tmp/s1.err" && echo "ok: one address holds at most its share of the lobby" ||
	{ echo "FAIL: no address share"; grep 127.0.0.4 "$tmp/s1.err" | head -5; fail=1; }
grep -q "refused 127.0.0.1: idle: sent nothing within 5.0 s" "$tmp/s1.err" &&
	echo "ok: the silent ones were cut after --idle-timeout, and logged" ||
	{ echo "FAIL: no idle refusal logged"; tail -n 5 "$tmp/s1.err"; fail=1; }

# 2. a flood from outside --allow (127.0.0.2 is another loopback address)
port2=$(free_port)
"$bin" bw server --bind 127.0.0.1 --port "$port2" --allow 127.0.0.1/32 \
	--token-file "$tmp/token" >/dev/null 2>"$tmp/s2.err" &
s2=$!
pids+=("$s2")
wait_port "$port2" || exit 1
python3 "$here/siege.py" flood "$port2" 127.0.0.2 10 4 >"$tmp/flood.n" &
flooders=$!
sleep 1
served=$(clients 8 "$port2" 2>"$tmp/flood.clients")
wait $flooders
flooded=$(cat "$tmp/flood.n")
lines=$(grep -c "refused 127.0.0.2:" "$tmp/s2.err")
# the old door took ~20 such connections a second before allowed clients
# timed out in its backlog of 16
if [ "$served" = 8 ] && [ "${flooded:-0}" -ge 400 ]; then
	echo "ok: 8 of 8 allowed clients served during a flood of $flooded connections from outside --allow"
else
	echo "FAIL: $served of 8 allowed clients served during a flood of $flooded:"
	cat "$tmp/flood.clients"; fail=1
fi
# the budget: 10 at once, then one every 6 s for the address (~12 s here)
if [ "$lines" -le 16 ] && grep -q "refusals not logged since the last line" "$tmp/s2.err"; then
	echo "ok: the flood took $lines log lines, with the count of those left out"
else
	echo "FAIL: $lines log lines for the flood:"; head -n 20 "$tmp/s2.err"; fail=1
fi
kill -0 $s2 2>/dev/null || { echo "FAIL: the server died under the flood"; fail=1; }

# 3. guesses from 127.0.0.3 at the token server
python3 "$here/siege.py" guess "$port" 127.0.0.3 12 >"$tmp/guess.out" 2>&1
judged=$(grep -c "bad token" "$tmp/guess.out")
if sed -n 1,5p "$tmp/guess.out" | grep -c "^refused: bad token" | grep -qx 5 &&
	sed -n 6p "$tmp/guess.out" | grep -q "too many in a row: this address waits 1 s" &&
	sed -n 7p "$tmp/guess.out" | grep -q "too many wrong tokens from this address: try again in 1 s" &&
	[ "$judged" -le 7 ]; then
	echo "ok: 12 quick guesses, $judged judged, then: $(sed -n 7p "$tmp/guess.out")"
else
	echo "FAIL: wrong tokens were not slowed ($judged of 12 judged):"; cat "$tmp/guess.out"; fail=1
fi
served=$(clients 1 "$port" 2>"$tmp/guess.clients")
[ "$served" = 1 ] && echo "ok: the right token from another address is served meanwhile" ||
	{ echo "FAIL: a real client was refused during the pause:"; cat "$tmp/guess.clients"; fail=1; }
sleep 1.2
python3 "$here/siege.py" guess "$port" 127.0.0.3 1 >"$tmp/guess2.out" 2>&1
grep -q "this address waits 2 s" "$tmp/guess2.out" &&
	echo "ok: after its pause the next wrong guess doubles it: $(cat "$tmp/guess2.out")" ||
	{ echo "FAIL: after the pause:"; cat "$tmp/guess2.out"; fail=1; }
kill -0 $s1 2>/dev/null || { echo "FAIL: the token server died"; fail=1; }

# 4. beyond loopback, open only when said
timeout 10 "$bin" bw server --port "$(free_port)" >/dev/null 2>"$tmp/open.err"
rc=$?
[ $rc = 2 ] && grep -q "would serve anyone who reaches every address on port" "$tmp/open.err" &&
	grep -q -- "--open" "$tmp/open.err" &&
	echo "ok: no token, no --allow, every address: a usage error naming --open" ||
	{ echo "FAIL: an open server started unasked (exit $rc)"; cat "$tmp/open.err"; fail=1; }
port4=$(free_port)
"$bin" lat server --open --port "$port4" >/dev/null 2>"$tmp/s4.err" &
pids+=("$!")
wait_port "$port4" && echo "ok: lat server --open listens on every address" || fail=1

[ $fail = 0 ] && echo "bw siege: all passed"
exit $fail
