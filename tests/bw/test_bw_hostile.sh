#!/bin/bash
# A hostile client against a running `bw server` on loopback: garbage,
# truncated messages, wrong magic and version, huge lengths, sizes and QP
# counts over the caps, a malformed transport endpoint, a client that
# connects and stops answering, a connect storm.  The server must answer
# what it can with an ERROR that names the cap, never crash, and afterwards
# serve a normal test.  No root needed.
# usage: test_bw_hostile.sh path/to/rdmadoctor
set -u
bin=${1:?usage: $0 path/to/rdmadoctor}
# shellcheck source=tests/lib/bw_loopback.sh
. "$(dirname "$0")/../lib/bw_loopback.sh"

port=$(free_port)
"$bin" bw server --bind 127.0.0.1 --port "$port" --timeout 1 --max-size 1M --max-qps 8 \
	--max-duration 30 --max-memory 64M --idle-timeout 1 >"$tmp/srv.out" 2>"$tmp/srv.err" &
srv=$!
pids+=("$srv")
wait_port "$port" || exit 1

fail=0
python3 - "$port" <<'PY' || fail=1
import socket, struct, sys, time

port = int(sys.argv[1])
T0 = time.time()
MAGIC, VER = 0x52444257, 3
HELLO, OK, ERROR, ENDPOINT, GO, RESULT, BYE, AUTH = range(1, 9)
failures = 0

def hdr(t, n, magic=MAGIC, ver=VER):
    return struct.pack(">IHHI", magic, ver, t, n)

def hello(size=65536, qps=1, duration_ms=1000, warmup_ms=0, iters=0, rails=1,
          mode=0, transport=0, op=0, bidir=0, host=b"hostile"):
    p = struct.pack(">BBBBQIIIIIIIQII", mode, transport, op, bidir, size, qps, 128, 1, 1, 0,
                    duration_ms, warmup_ms, iters, 1000, rails)
    p += struct.pack(">H", len(host)) + host
    p += struct.pack(">BQ", 0, 0)	# version 3: no --expect-gbps
    return hdr(HELLO, len(p)) + p

def auth(token=b""):
    return hdr(AUTH, 2 + len(token)) + struct.pack(">H", len(token)) + token

def conn():
    # the client's first word is its token (none: this server needs none)
    s = socket.create_connection(("127.0.0.1", port), 5)
    s.settimeout(10)
    s.sendall(auth())
    return s

def read_msg(s):
    h = b""
    while len(h) < 12:
        c = s.recv(12 - len(h))
        if not c:
            return None, None
        h += c
    magic, ver, t, n = struct.unpack(">IHHI", h)
    assert magic == MAGIC and ver == VER, "server sent a bad header"
    body = b""
    while len(body) < n:
        c = s.recv(n - len(body))
        if not c:
            break
        body += c
    return t, body

def text(body):
    if not body:
        return ""
    n = struct.unpack(">H", body[:2])[0]
    return body[2:2 + n].decode()

def check(name, cond, detail=""):
    global failures
    if cond:
        print("ok:", name)
    else:
        print("FAIL:", name, detail)
        failures += 1

def expect_error(name, payload, words):
    s = conn()
    s.sendall(payload)
    try:
        t, body = read_msg(s)
    except (ConnectionResetError, socket.timeout) as e:
        check(name, False, repr(e))
        return
    finally:
        pass
    msg = text(body) if t == ERROR else ""
    check(name, t == ERROR and all(w in msg for w in words), "got %r %r" % (t, msg))
    s.close()

expect_error("garbage", b"GET / HTTP/1.0\r\n\r\n" + b"\xff" * 100, ["magic"])
expect_error("wrong magic", hdr(HELLO, 0, magic=0x12345678), ["magic"])
expect_error("wrong version", hdr(HELLO, 0, ver=77), ["version"])
expect_error("unknown type", hdr(99, 0), ["type"])
expect_error("huge length", hdr(HELLO, 0xFFFFFFFF), ["limit"])
expect_error("HELLO length over its bound", hdr(HELLO, 8 << 20), ["limit"])
expect_error("RESULT first", hdr(RESULT, 0), ["HELLO"])
# AUTH is the first message, and only the first
s = socket.create_connection(("127.0.0.1", port), 5)
s.settimeout(10)
s.sendall(hello())
t, body = read_msg(s)
check("HELLO before AUTH", t == ERROR and "AUTH" in text(body), repr((t, body)))
s.close()
s = socket.create_connection(("127.0.0.1", port), 5)
s.settimeout(10)
s.sendall(hdr(AUTH, 2) + b"\x10\x00")
t, body = read_msg(s)
check("AUTH with a length past its payload", t == ERROR and "malformed" in text(body),
      repr((t, body)))
s.close()
s = socket.create_connection(("127.0.0.1", port), 5)
s.settimeout(10)
s.sendall(hdr(AUTH, 8 << 10))
t, body = read_msg(s)
check("AUTH over its bound", t == ERROR and "limit" in text(body), repr((t, body)))
s.close()
expect_error("a second AUTH", auth(), ["type 8"])
expect_error("short HELLO", hdr(HELLO, 3) + b"abc", ["malformed HELLO"])
expect_error("size over the cap", hello(size=1 << 30), ["--max-size"])
expect_error("qps over the cap", hello(qps=4096), ["--max-qps"])
expect_error("duration over the cap", hello(duration_ms=3600 * 1000), ["--max-duration"])
expect_error("memory over the cap", hello(size=1 << 20, qps=8, rails=8), ["--max-memory"])
expect_error("zero size", hello(size=0), ["message size"])
expect_error("64-bit size", hello(size=1 << 62), ["message size"])
expect_error("iterations and duration both", hello(iters=5), ["exactly one"])
expect_error("no iterations, no duration", hello(duration_ms=0), ["exactly one"])
expect_error("unknown op", hello(op=7), ["unknown"])
expect_error("verbs on a server without it", hello(transport=1), ["verbs"])
expect_error("host with control characters", hello(host=b"\x1b[2Jx"), ["malformed"])

# a refused HELLO leaves the connection usable: ask again, properly this time
s = conn()
s.sendall(hello(size=1 << 30))
t, body = read_msg(s)
check("refusal first", t == ERROR)
s.sendall(hello())
t, body = read_msg(s)
check("then accepted", t == OK, repr((t, body)))
# ...then a malformed transport endpoint: the server's tcp engine refuses it
ep = b"\x00\x00\x00\x00" + struct.pack(">I", 3) + b"xyz"
s.sendall(hdr(ENDPOINT, len(ep)) + ep)
t, body = read_msg(s)
while t == ENDPOINT:
    t, body = read_msg(s)
check("bad endpoint refused", t == ERROR and "endpoint" in text(body),
      repr((t, body[:80])))
s.close()

# truncated messages: half a header, a header and half a payload, then close
for name, data in [("half header", hdr(HELLO, 10)[:5]),
                   ("half payload", hello()[:20])]:
    s = conn()
    s.sendall(data)
    s.close()
    print("ok: sent", name)

# accepted, then silence where ENDPOINT is due: the server times out (1 s)
s = conn()
s.sendall(hello())
t, body = read_msg(s)
check("silent client accepted", t == OK)
t0 = time.time()
t, body = read_msg(s)
while t == ENDPOINT:
    t, body = read_msg(s)
check("silent client timed out", t == ERROR and "timed out" in text(body) and
      time.time() - t0 < 8, repr((t, body[:80])))
s.close()

# connects and says nothing at all
s = conn()
t, body = read_msg(s)
check("mute client dropped", t == ERROR and "idle" in text(body), repr((t, body)))
s.close()

# a connect storm: 200 connections opened and closed at once, then 10
# held open together (the server serves one at a time; the rest wait in
# its backlog and are dropped when they close)
n = 0
for i in range(200):
    try:
        socket.create_connection(("127.0.0.1", port), 2).close()
        n += 1
    except OSError:
        pass
socks = []
for i in range(10):
    try:
        socks.append(socket.create_connection(("127.0.0.1", port), 2))
    except OSError:
        pass
for x in socks:
    x.close()
print("ok: storm of", n + len(socks), "connections", round(time.time() - T0, 1))
sys.exit(1 if failures else 0)
PY

kill -0 "$srv" 2>/dev/null || { echo "FAIL: the server died"; cat "$tmp/srv.err"; exit 1; }
# one test at a time: a second client while a test runs is told the server
# is busy (and exits 3), the first one is not disturbed
"$bin" bw client 127.0.0.1 --port "$port" --transport tcp --duration 6 --warmup 0.1 \
	>"$tmp/long.out" 2>"$tmp/long.err" &
long=$!
sleep 2.5
"$bin" bw client 127.0.0.1 --port "$port" --transport tcp --duration 0.5 --timeout 1 \
	>/dev/null 2>"$tmp/busy.err"
rc=$?
[ $rc = 3 ] && grep -q "busy" "$tmp/busy.err" ||
	{ echo "FAIL: second client exited $rc:"; cat "$tmp/busy.err"; fail=1; }
wait $long || { echo "FAIL: the running test was disturbed:"; cat "$tmp/long.err"; fail=1; }
# a client killed in the middle of a test: the server notices within its
# bounds and goes on serving
"$bin" bw client 127.0.0.1 --port "$port" --transport tcp --streams 2 --duration 20 \
	>/dev/null 2>&1 &
victim=$!
sleep 1.5
kill -9 $victim; wait $victim 2>/dev/null
kill -0 "$srv" 2>/dev/null || { echo "FAIL: the server died with its client"; exit 1; }

# a server killed in the middle of a test: the client ends, bounded in
# time, exit 3 with a message
port2=$(free_port)
"$bin" bw server --bind 127.0.0.1 --port "$port2" >/dev/null 2>&1 &
srv2=$!
wait_port "$port2" || fail=1
t0=$(date +%s)
"$bin" bw client 127.0.0.1 --port "$port2" --transport tcp --duration 20 --warmup 0.1 \
	>/dev/null 2>"$tmp/orphan.err" &
orphan=$!
sleep 1.5
kill -9 $srv2; wait $srv2 2>/dev/null
wait $orphan
rc=$?
t1=$(date +%s)
[ $rc = 3 ] && [ $((t1 - t0)) -lt 20 ] && [ -s "$tmp/orphan.err" ] ||
	{ echo "FAIL: orphaned client exited $rc after $((t1 - t0)) s:"; cat "$tmp/orphan.err"; fail=1; }
echo "ok: orphaned client ended in $((t1 - t0)) s: $(cat "$tmp/orphan.err")"

# review findings: a server with a short cap and --once
port3=$(free_port)
"$bin" bw server --bind 127.0.0.1 --port "$port3" --timeout 2 --max-duration 3 --max-size 1M --once \
	>"$tmp/srv3.out" 2>"$tmp/srv3.err" &
srv3=$!
pids+=("$srv3")
wait_port "$port3" || fail=1
python3 - "$port3" <<'PY' || fail=1
import socket, struct, sys, time

port = int(sys.argv[1])
MAGIC, VER = 0x52444257, 3
HELLO, OK, ERROR, ENDPOINT, GO, RESULT, BYE, AUTH = range(1, 9)
failures = 0

def hdr(t, n):
    return struct.pack(">IHHI", MAGIC, VER, t, n)

AUTH0 = hdr(8, 2) + b"\x00\x00"	# AUTH, no token

def hello(size=65536, qps=1, duration_ms=1000, warmup_ms=0, iters=0, mode=0):
    p = struct.pack(">BBBBQIIIIIIIQII", mode, 0, 0, 0, size, qps, 128, 1, 1, 0,
                    duration_ms, warmup_ms, iters, 1000, 1)
    p += struct.pack(">H", 7) + b"hostile"
    p += struct.pack(">BQ", 0, 0)	# version 3: no --expect-gbps
    return hdr(HELLO, len(p)) + p

def read_msg(s):
    h = b""
    while len(h) < 12:
        c = s.recv(12 - len(h))
        if not c:
            return None, None
        h += c
    magic, ver, t, n = struct.unpack(">IHHI", h)
    body = b""
    while len(body) < n:
        c = s.recv(n - len(body))
        if not c:
            break
        body += c
    return t, body

def text(body):
    return body[2:2 + struct.unpack(">H", body[:2])[0]].decode() if body else ""

def check(name, cond, detail=""):
    global failures
    print(("ok: " if cond else "FAIL: ") + name, "" if cond else detail)
    failures += 0 if cond else 1

# refused requests do not keep the slot: the second refusal closes
s = socket.create_connection(("127.0.0.1", port), 5)
s.settimeout(5)
s.sendall(AUTH0)
for i in range(2):
    s.sendall(hello(size=1 << 30))
    t, body = read_msg(s)
    check("refusal %d" % (i + 1), t == ERROR, repr((t, body)))
try:
    s.sendall(hello(size=1 << 30))
    t, body = read_msg(s)
except OSError:
    t = None
check("closed after two refusals", t is None, repr(t))
s.close()

# a latency client that keeps the ping-pong going slowly in iterations mode
# is stopped at the server's --max-duration (3 s), not after its iterations
s = socket.create_connection(("127.0.0.1", port), 5)
s.settimeout(15)
s.sendall(AUTH0)
s.sendall(hello(mode=1, size=2, duration_ms=0, iters=100000))
t, body = read_msg(s)
check("slow lat client accepted", t == OK, repr((t, body)))
ep = struct.pack(">IBHQ", 0x52445443, 1, 0, 0)
s.sendall(hdr(ENDPOINT, 8 + len(ep)) + struct.pack(">II", 0, len(ep)) + ep)
t, body = read_msg(s)
check("server endpoint", t == ENDPOINT and len(body) == 8 + 15, repr((t, body)))
dport, token = struct.unpack(">HQ", body[8 + 5:8 + 15])
# --bind 127.0.0.1 applies to the data listener too: not on 127.0.0.2
try:
    socket.create_connection(("127.0.0.2", dport), 2).close()
    refused = False
except OSError:
    refused = True
check("data listener only on --bind's address", refused)
d = socket.create_connection(("127.0.0.1", dport), 5)
d.sendall(struct.pack(">QI", token, 0))
s.sendall(hdr(GO, 0))
t, body = read_msg(s)
check("GO", t == GO, repr((t, body)))
t0 = time.time()
d.settimeout(1)
while time.time() - t0 < 20:
    try:
        d.sendall(b"xy")
        if len(d.recv(2)) == 0:
            break
    except OSError:
        break
    time.sleep(0.5)
t, body = read_msg(s)
el = time.time() - t0
check("slow client stopped at the cap", t == ERROR and "limit" in text(body) and el < 8,
      repr((t, text(body) if t == ERROR else body, round(el, 1))))
d.close()
s.close()
sys.exit(1 if failures else 0)
PY
# --once: the refused client did not end the server; the one that ran a test did
for _ in $(seq 50); do kill -0 "$srv3" 2>/dev/null || break; sleep 0.1; done
kill -0 "$srv3" 2>/dev/null && { echo "FAIL: --once server still runs after a test"; fail=1; kill "$srv3"; }
wait "$srv3" 2>/dev/null
grep -q "limit" "$tmp/srv3.err" || { echo "FAIL: server did not say the limit"; cat "$tmp/srv3.err"; fail=1; }

# lat --iters N after a warm-up: N samples, exit 0
timeout 60 "$bin" --json lat client 127.0.0.1 --port "$port" --transport tcp --iters 200 \
	--warmup 0.3 >"$tmp/lat.json" 2>"$tmp/lat.err" ||
	{ echo "FAIL: lat --iters --warmup"; cat "$tmp/lat.err"; fail=1; }
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "pass", d
assert d["latency_usec"]["samples"] == 200 and d["latency_usec"]["samples_kept"] == 200, d
' "$tmp/lat.json" || { echo "FAIL: lat --iters --warmup samples"; fail=1; }

# a sweep whose last size is refused (over --max-size 1M): --json still writes
# the sizes that finished, verdict error, exit 3
timeout 60 "$bin" --json bw client 127.0.0.1 --port "$port" --transport tcp --sizes 512K..2M \
	--duration 0.3 --warmup 0 >"$tmp/sweep.json" 2>"$tmp/sweep.err"
rc=$?
[ $rc = 3 ] || { echo "FAIL: failed sweep exited $rc"; cat "$tmp/sweep.err"; fail=1; }
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "error" and "max-size" in d["reason"], d
assert [r["size_bytes"] for r in d["results"]] == [524288, 1048576], d["results"]
' "$tmp/sweep.json" || { echo "FAIL: failed sweep JSON"; cat "$tmp/sweep.json"; fail=1; }

# bidirectional: the peer's messages and rate, and both directions summed
timeout 60 "$bin" --json bw client 127.0.0.1 --port "$port" --transport tcp --bidir \
	--duration 0.5 --warmup 0.1 >"$tmp/bidir.json" 2>"$tmp/bidir.err" ||
	{ echo "FAIL: bidir run"; cat "$tmp/bidir.err"; fail=1; }
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["remote_total"]["msgs"] > 0 and r["remote_total"]["msg_rate_mpps"] > 0, r
b = r["bidir_total"]["gbps"]["avg"]
assert abs(b - r["total"]["gbps"]["avg"] - r["remote_total"]["gbps"]["avg"]) < 1e-6 * b, r
' "$tmp/bidir.json" || { echo "FAIL: bidir JSON"; cat "$tmp/bidir.json"; fail=1; }

# the client waits for GO as long as the server may take to accept the data
# connections, and says the server's reason, not its own timeout; a data
# connection that fails: the server's pending ERROR is the reason given
for mode in late-error refused; do
port4=$(free_port)
python3 - "$port4" "$mode" >"$tmp/fake.out" 2>&1 <<'PY' &
import socket, struct, sys, time
port, mode = int(sys.argv[1]), sys.argv[2]
MAGIC, VER = 0x52444257, 3
HELLO, OK, ERROR, ENDPOINT, GO = 1, 2, 3, 4, 5
def msg(t, b=b""):
    return struct.pack(">IHHI", MAGIC, VER, t, len(b)) + b
def txt(s):
    return struct.pack(">H", len(s)) + s.encode()
def read_msg(s):
    h = b""
    while len(h) < 12:
        h += s.recv(12 - len(h))
    n = struct.unpack(">IHHI", h)[3]
    b = b""
    while len(b) < n:
        b += s.recv(n - len(b))
    return struct.unpack(">IHHI", h)[2], b
l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("127.0.0.1", port)); l.listen(4)
d = socket.socket(); d.bind(("127.0.0.1", 0)); d.listen(4)
dport = d.getsockname()[1]
if mode == "refused":
    d.close()	# nothing listens on the data port
c, _ = l.accept()
assert read_msg(c)[0] == 8	# AUTH
assert read_msg(c)[0] == HELLO
c.sendall(msg(OK, txt("fake")))
assert read_msg(c)[0] == ENDPOINT
ep = struct.pack(">IBHQ", 0x52445443, 1, dport, 7)
c.sendall(msg(ENDPOINT, struct.pack(">II", 0, len(ep)) + ep))
if mode == "late-error":
    time.sleep(3)	# longer than the client's --timeout
c.sendall(msg(ERROR, txt("fake server: the data connections never came")))
time.sleep(3)
PY
fake=$!
wait_port "$port4" || fail=1
timeout 30 "$bin" bw client 127.0.0.1 --port "$port4" --transport tcp --timeout 1 \
	--duration 1 >/dev/null 2>"$tmp/fake.err"
rc=$?
[ $rc = 3 ] && grep -q "the data connections never came" "$tmp/fake.err" ||
	{ echo "FAIL: $mode: client exited $rc without the server's reason:"; cat "$tmp/fake.err" "$tmp/fake.out"; fail=1; }
wait $fake 2>/dev/null
done

# Ctrl-C midway through a sweep (issue 44): what finished is written, with
# the verdict and why the rest did not; the server serves the next client.
# timeout(1) forwards the signal twice (to the client and to its process
# group), and a second kill follows at once: both are the same interrupt.
timeout 60 "$bin" --json bw client 127.0.0.1 --port "$port" --transport tcp --sizes 4K..64K \
	--duration 1 --warmup 0.1 --timeout 30 >"$tmp/int.json" 2>"$tmp/int.err" &
cl=$!
sleep 3
kill -INT "$cl"; kill -INT "$cl"
wait "$cl"
rc=$?
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = len(d["results"])
assert 1 <= n < 5, n
assert "interrupted (Ctrl-C)" in d["reason"], d["reason"]
assert d["verdict"] != "pass", d["verdict"]
' "$tmp/int.json" && [ "$rc" = 3 ] && grep -q "interrupted (Ctrl-C) during the" "$tmp/int.err"; then
	echo "ok: Ctrl-C: the sizes that finished, the verdict and why (exit $rc)"
else
	echo "FAIL: Ctrl-C: exit $rc:"; cat "$tmp/int.err"; head -c 600 "$tmp/int.json"; fail=1
fi

# the same server still serves a normal test (the storm drains in ~1 s each
# at worst; the client waits up to its --timeout for the accept)
if ! timeout 90 "$bin" --json bw client 127.0.0.1 --port "$port" --transport tcp --duration 0.5 \
	--warmup 0.1 --timeout 30 >"$tmp/ok.json" 2>"$tmp/ok.err"; then
	echo "FAIL: a normal test after the hostile ones"; cat "$tmp/ok.err"; fail=1
fi
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "no floor" and d["results"][0]["rails"][0]["gbps"]["avg"] > 0
' "$tmp/ok.json" || { echo "FAIL: the normal test's JSON"; fail=1; }
kill -0 "$srv" 2>/dev/null || { echo "FAIL: the server died"; fail=1; }
# out of descriptors: a server that cannot accept goes on (said once, paced),
# and serves again once it can (issue 44: any accept error used to end it).
# Its limit is lowered while it runs to its lowest free descriptor, so that
# the next accept fails with EMFILE whatever it inherited.
port5=$(free_port)
"$bin" bw server --bind 127.0.0.1 --port "$port5" --timeout 1 </dev/null >/dev/null 2>"$tmp/emfile.err" &
srv5=$!
if wait_port "$port5"; then
	low=$(python3 -c 'import os, sys
used = {int(f) for f in os.listdir("/proc/%s/fd" % sys.argv[1])}
print(min(n for n in range(len(used) + 1) if n not in used))' "$srv5")
	prlimit --pid "$srv5" --nofile="$low:4096"
	timeout 20 "$bin" bw client 127.0.0.1 --port "$port5" --transport tcp --timeout 1 \
		--duration 0.2 >/dev/null 2>&1
	sleep 0.5
	if ! kill -0 "$srv5" 2>/dev/null; then
		echo "FAIL: out of descriptors, the server ended:"; cat "$tmp/emfile.err"; fail=1
	elif ! grep -q "cannot accept a client: Too many open files.*(going on)" "$tmp/emfile.err" ||
		[ "$(grep -c 'cannot accept' "$tmp/emfile.err")" != 1 ]; then
		echo "FAIL: out of descriptors (limit $low): not said once:"; cat "$tmp/emfile.err"; fail=1
	else
		prlimit --pid "$srv5" --nofile=4096:4096
		if timeout 60 "$bin" bw client 127.0.0.1 --port "$port5" --transport tcp --timeout 10 \
			--duration 0.3 --warmup 0.1 >/dev/null 2>"$tmp/emfile-ok.err"; then
			echo "ok: out of descriptors, the server went on and served once it could"
		else
			echo "FAIL: after the limit was raised:"; cat "$tmp/emfile-ok.err"; fail=1
		fi
	fi
else
	cat "$tmp/emfile.err"
	fail=1
fi
kill "$srv5" 2>/dev/null
wait "$srv5" 2>/dev/null

[ $fail = 0 ] && echo "bw hostile: all passed"
exit $fail
