#!/usr/bin/env python3
"""A stranger on the fabric ranks' ports (test_fabric_stranger.sh).

Finds each rank's bw listener (the listening socket of the pid each rank
wrote into RUN-DIR, taken before the first round, when the listener is a
rank's only one) and keeps connections queued on every one until rank 0
ends (RUN-DIR/rc.0), so that at each round's start a stranger is there
before the partner:

  garbage  sends 128 random bytes at once (more than a proof);
  forger   sends a proof in the handshake's layout
           (src/fabric/pair_secret.h) under a secret of its own:
           well-formed, wrong;
  silent   sends nothing and holds the connection (a probe that keeps the
           port): it must not keep the partner waiting.

Each connection then waits for the listener to close it.  On stdout one
JSON object: the ports, the stranger's own source ports, how many
connections each kind made and were closed on, and what a listener sent
back (anything at all is a stranger let in).

Started before the launcher (Python may take seconds to start on a busy
machine, and the first round begins half a second after the rendezvous),
it says it is ready by creating READY-FILE.

usage: stranger.py RUN-DIR RANKS READY-FILE"""
import hashlib
import hmac
import json
import os
import re
import socket
import struct
import sys
import threading
import time

PROOF = b"RDFAB-P1"
GIVE_UP_S = 150

lock = threading.Lock()
summary = {"ports": [], "source_ports": [], "garbage": 0, "forger": 0, "silent": 0, "closed": 0,
           "let_in": []}


def done(run):
    return os.path.exists(os.path.join(run, "rc.0"))


def listening_ports(pid):
    """The TCP ports pid listens on: its sockets' inodes (/proc/PID/fd)
    among the listening sockets of its network namespace (/proc/PID/net/tcp,
    state 0A).  Cheaper than ss -p, which reads every process's fds."""
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                m = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(f"/proc/{pid}/fd/{fd}"))
            except OSError:
                continue
            if m:
                inodes.add(m.group(1))
        lines = open(f"/proc/{pid}/net/tcp").read().splitlines()[1:]
    except OSError:
        return []
    ports = []
    for line in lines:
        f = line.split()
        if f[3] == "0A" and f[9] in inodes:
            ports.append(int(f[1].split(":")[1], 16))
    return ports


def find_ports(run, ranks, deadline):
    """Each rank's listening port: the first one seen alone (its bw listener
    opens before the rendezvous; a data listener only during a test)."""
    ports = {}
    while time.monotonic() < deadline and not done(run):
        for r in range(ranks):
            if r in ports:
                continue
            try:
                found = listening_ports(int(open(os.path.join(run, f"pid.{r}")).read()))
            except (OSError, ValueError):
                continue
            if len(found) == 1:
                ports[r] = found[0]
        if len(ports) == ranks:
            print(f"{time.time():.3f} ports found: {ports}", file=sys.stderr, flush=True)
            return [ports[r] for r in range(ranks)]
        time.sleep(0.01)
    return None


def recv_until_closed(s, got):
    """What the listener sends until it closes (or resets) the connection."""
    while True:
        try:
            b = s.recv(4096)
        except ConnectionResetError:
            return got
        if not b:
            return got
        got += b


def one(kind, port, rank):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    with lock:
        summary["source_ports"].append(s.getsockname()[1])
        summary[kind] += 1
    try:
        got = b""
        if kind == "garbage":
            s.sendall(os.urandom(128))
        elif kind == "forger":
            # as if it were rank 0 in the first round: only the secret is wrong
            nonce, ids = os.urandom(16), struct.pack(">III", 0, rank, 0)
            mac = hmac.new(os.urandom(32), PROOF + nonce + ids, hashlib.sha256).digest()
            s.sendall(PROOF + ids + nonce + mac)
        got = recv_until_closed(s, got)
        with lock:
            summary["closed"] += 1
            if got:
                summary["let_in"].append({"port": port, "kind": kind, "got": got[:64].hex()})
    except (socket.timeout, OSError):
        pass
    finally:
        s.close()


def worker(kind, port, rank, run, deadline):
    while time.monotonic() < deadline and not done(run):
        try:
            one(kind, port, rank)
        except OSError:
            pass	# the listener is gone (the run is ending)
        # queued again well before the listener's next round, without
        # taking the CPU the pairs' tests need
        time.sleep(0.2)


def main():
    run, ranks = sys.argv[1], int(sys.argv[2])
    deadline = time.monotonic() + GIVE_UP_S
    open(sys.argv[3], "w").close()
    ports = find_ports(run, ranks, deadline)
    if not ports:
        print(json.dumps({"error": "no listening port for every rank"}))
        sys.exit(1)
    summary["ports"] = ports
    threads = [threading.Thread(target=worker, args=(kind, port, rank, run, deadline), daemon=True)
               for rank, port in enumerate(ports) for kind in ("garbage", "forger", "silent")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    with lock:
        print(json.dumps(summary))


main()
