#!/usr/bin/env python3
"""Strangers at a bw server's door (tests/bw/test_bw_siege.sh), each bounded
in time and count:
  hold PORT SRC SECONDS THREADS
                              from SRC, connect, say nothing, and connect
                              again as soon as the server cuts: prints how
                              many connections were made
  flood PORT SRC SECONDS THREADS
                              from source address SRC, connect and close as
                              fast as possible: prints how many
  guess PORT SRC N            from SRC, N connections one after another,
                              each presenting a wrong token: prints the
                              server's answer to each, one per line
"""
import socket
import struct
import sys
import threading
import time

MAGIC, VERSION, ERROR, AUTH = 0x52444257, 3, 3, 8


def in_threads(threads, one):
    """one() in that many threads at once, until each returns."""
    ts = [threading.Thread(target=one) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def connect_from(src, port):
    """A connection from address src to the server, or None."""
    s = socket.socket()
    try:
        s.bind((src, 0))
        s.settimeout(2)
        s.connect(("127.0.0.1", port))
        return s
    except OSError:
        s.close()
        return None


def hold(port, src, seconds, threads):
    end = time.time() + seconds
    count = [0]
    lock = threading.Lock()

    def one():
        while time.time() < end:
            s = connect_from(src, port)
            if s is None:
                time.sleep(0.01)
                continue
            with lock:
                count[0] += 1
            s.settimeout(max(0.1, end - time.time()))
            try:
                while s.recv(4096):	# until the server cuts it
                    pass
            except OSError:
                pass
            s.close()

    in_threads(threads, one)
    print(count[0])


def flood(port, src, seconds, threads):
    end = time.time() + seconds
    count = [0]
    lock = threading.Lock()

    def one():
        n = 0
        while time.time() < end:
            s = connect_from(src, port)
            if s is not None:
                n += 1
                s.close()
        with lock:
            count[0] += n

    in_threads(threads, one)
    print(count[0])


def answer(s):
    h = b""
    while len(h) < 12:
        b = s.recv(12 - len(h))
        if not b:
            return "(closed)"
        h += b
    t, n = struct.unpack(">IHHI", h)[2:]
    body = b""
    while len(body) < n:
        b = s.recv(n - len(body))
        if not b:
            break
        body += b
    return body[2:].decode(errors="replace") if t == ERROR else "(type %d)" % t


def guess(port, src, n):
    for i in range(n):
        tok = b"wrong-guess-%04d" % i
        s = socket.socket()
        s.bind((src, 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        try:
            s.sendall(struct.pack(">IHHIH", MAGIC, VERSION, AUTH, 2 + len(tok), len(tok)) + tok)
            print(answer(s), flush=True)
        except OSError as e:
            print("(%s)" % e, flush=True)
        s.close()


if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "hold":
        hold(port, sys.argv[3], float(sys.argv[4]), int(sys.argv[5]))
    elif mode == "flood":
        flood(port, sys.argv[3], float(sys.argv[4]), int(sys.argv[5]))
    elif mode == "guess":
        guess(port, sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(__doc__)
