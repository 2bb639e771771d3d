#!/usr/bin/env python3
"""serve survives what the internet sends: unknown paths and methods, garbage,
a huge header, slow clients (one byte a second: cut at the deadline while
others are served), idle clients, more connections from one address than
it allows, and 100 concurrent scrapers all answered.

usage: test_serve_hostile.py RDMADOCTOR SOURCE_DIR"""
import http.client
import os
import select
import signal
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_common import Server, check, fixture, one, parse  # noqa: E402

TIMEOUT_S = 2		# --timeout given to the server
PER_IP = 128		# MAX_PER_IP in src/cmd/serve.c


def raw(port, data, read_timeout=10):
    """Send bytes, return what came back (b'' when closed without an
    answer); a reset while sending counts as closed."""
    s = socket.create_connection(("127.0.0.1", port), timeout=read_timeout)
    got = b""
    try:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
                if b"\r\n\r\n" in got and len(got) > 4096:
                    break
        except (ConnectionResetError, socket.timeout):
            pass
    finally:
        s.close()
    return got


def status_of(reply):
    if not reply.startswith(b"HTTP/1."):
        return None
    return int(reply.split(b" ", 2)[1])


def scrape_ok(srv):
    status, _, body = srv.get("/metrics", timeout=10)
    check(status == 200 and body.endswith("\n") and "rdmadoctor_port_up" in body,
          "/metrics not served: %d" % status)
    return body


def test_paths_and_methods(srv):
    for path in ("/metricsx", "/metrics/", "/x/../metrics", "/%2e%2e/etc/passwd",
                 "/index.html", "/" + "a" * 8000):
        status, _, body = srv.get(path)
        check(status in (404, 414, 431), "%s: status %d" % (path[:40], status))
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "PATCH", "FOO"):
        status, headers, _ = srv.get("/metrics", method=method)
        check(status == 405 and headers.get("allow") == "GET, HEAD",
              "%s: status %d allow %r" % (method, status, headers.get("allow")))
    # a POST with a body: refused, the body not taken
    reply = raw(srv.port, b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n"
                + b"x" * 200000)
    check(status_of(reply) in (405, None), "POST with body: %r" % reply[:60])
    # garbage and broken request lines
    for junk in (b"\x00\xff\xfe garbage\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                 b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
                 b"\r\n" * 1000):
        reply = raw(srv.port, junk)
        check(status_of(reply) != 200 or junk.startswith(b"GET /metrics"),
              "junk %r answered 200" % junk[:20])
    scrape_ok(srv)
    print("paths and methods: 404, 405 with Allow, junk refused")


def test_huge_headers(srv):
    for what, req in (
            ("one 200 KB header", b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: "
             + b"a" * 200000 + b"\r\n\r\n"),
            ("5000 headers", b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
             + b"".join(b"X-H%d: v\r\n" % i for i in range(5000)) + b"\r\n"),
            ("a 100 KB URL", b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")):
        reply = raw(srv.port, req)
        st = status_of(reply)
        check(st in (None, 400, 413, 414, 431), "%s: answered %s" % (what, st))
        check(srv.alive(), "server died on " + what)
        scrape_ok(srv)
    print("huge headers: refused (431 or closed), the server lives")


def slow_client(port, result, idx):
    """One byte a second of a request; note when the server cut it."""
    req = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow-loris-test\r\n\r\n"
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    start = time.monotonic()
    sent = 0
    try:
        for b in req:
            r, _, _ = select.select([s], [], [], 0)
            if r:
                if not s.recv(4096):
                    break		# closed by the server
            try:
                s.send(bytes([b]))
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 1
            time.sleep(1)
            if time.monotonic() - start > 30:
                break
    except (ConnectionResetError, socket.timeout):
        pass
    finally:
        s.close()
    result[idx] = (sent, time.monotonic() - start, len(req))


def test_slow_clients(srv):
    n = 5
    result = [None] * n
    threads = [threading.Thread(target=slow_client, args=(srv.port, result, i))
               for i in range(n)]
    for t in threads:
        t.start()
    served = 0
    t0 = time.monotonic()
    while any(t.is_alive() for t in threads) and time.monotonic() - t0 < 40:
        scrape_ok(srv)		# others are served meanwhile
        served += 1
        time.sleep(0.25)
    for t in threads:
        t.join(5)
    for sent, took, total in result:
        check(sent < total, "a slow client sent its whole request (%d bytes in %.1f s)"
              % (sent, took))
        check(took < TIMEOUT_S + 8, "a slow client was cut only after %.1f s" % took)
    check(served >= 4, "only %d scrapes while slow clients hung on" % served)
    print("slow clients: %d cut after %s bytes; %d scrapes served meanwhile"
          % (n, sorted(r[0] for r in result), served))


def test_idle_client(srv):
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=TIMEOUT_S + 8)
    t0 = time.monotonic()
    try:
        got = s.recv(100)
    except ConnectionResetError:
        got = b""
    took = time.monotonic() - t0
    s.close()
    check(got == b"" or got.startswith(b"HTTP/1.1 408"), "idle client got %r" % got[:40])
    check(took < TIMEOUT_S + 8, "idle client kept %.1f s" % took)
    print("idle client: closed after %.1f s" % took)


def test_per_ip_limit(binary, root):
    """More idle connections than one address may hold: the excess is
    closed at once (its own server, with a long timeout, so that nothing
    else closes them), and scrapes work again once they are gone."""
    srv = Server(binary, root, "--timeout", "60")
    socks = [socket.create_connection(("127.0.0.1", srv.port), timeout=5)
             for _ in range(PER_IP + 60)]
    closed = set()
    deadline = time.monotonic() + 20
    while len(closed) < 60 and time.monotonic() < deadline:
        r, _, _ = select.select([s for s in socks if s not in closed], [], [], 0.5)
        for s in r:
            try:
                if s.recv(10) == b"":
                    closed.add(s)
            except ConnectionResetError:
                closed.add(s)
    check(len(closed) == 60, "%d of %d connections closed, expected the 60 over the "
          "per-address limit" % (len(closed), PER_IP + 60))
    for s in socks:
        s.close()
    deadline = time.monotonic() + 10
    while True:
        try:
            scrape_ok(srv)
            break
        except (ConnectionError, http.client.HTTPException, socket.timeout):
            check(time.monotonic() < deadline, "no scrape served after the flood")
            time.sleep(0.2)
    srv.stop()
    print("per-address limit: %d of %d closed at once, then served again"
          % (len(closed), PER_IP + 60))


def test_concurrent(srv, n=100):
    """All answered, whole; and the storm reads the machine once per cache
    period (10 s by default), not once per scrape."""
    before = one(parse(scrape_ok(srv)), "rdmadoctor_refreshes_total")
    t0 = time.monotonic()
    barrier = threading.Barrier(n)
    results = [None] * n

    def client(i):
        try:
            barrier.wait(30)
            c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
            c.request("GET", "/metrics")
            r = c.getresponse()
            body = r.read()
            results[i] = (r.status, len(body), int(r.getheader("Content-Length")))
            c.close()
        except Exception as e:  # noqa: BLE001 - reported below
            results[i] = ("error", repr(e))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    bad = [r for r in results if not r or r[0] != 200 or r[1] != r[2]]
    check(not bad, "%d of %d concurrent scrapes failed: %s" % (len(bad), n, bad[:5]))
    after = one(parse(scrape_ok(srv)), "rdmadoctor_refreshes_total")
    periods = int((time.monotonic() - t0) / 10) + 1
    check(after - before <= periods, "%d scrapes read the machine %d times in %d cache periods"
          % (n, after - before, periods))
    print("%d concurrent scrapes: all 200, whole bodies; %d reading(s) of the machine"
          % (n, after - before))


def test_keep_alive(srv):
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    for path, want in (("/metrics", 200), ("/nope", 404), ("/metrics", 200)):
        c.request("GET", path)
        r = c.getresponse()
        r.read()
        check(r.status == want, "keep-alive %s: %d" % (path, r.status))
    c.close()


def main():
    binary, src = sys.argv[1], sys.argv[2]
    root = fixture(src, "dgx-h100")
    test_per_ip_limit(binary, root)
    srv = Server(binary, root, "--timeout", str(TIMEOUT_S))
    try:
        test_keep_alive(srv)
        test_paths_and_methods(srv)
        test_huge_headers(srv)
        test_idle_client(srv)
        test_slow_clients(srv)
        test_concurrent(srv)
        metrics = parse(scrape_ok(srv))
        check(one(metrics, "rdmadoctor_refresh_failures_total") == 0, "a reading failed")
    except BaseException:
        print("server stderr:\n" + "".join(srv.lines), file=sys.stderr)
        srv.kill()
        raise
    srv.stop(signal.SIGTERM)
    print("PASS")


if __name__ == "__main__":
    main()
