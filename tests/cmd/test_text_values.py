#!/usr/bin/env python3
"""A value with a newline in it (a NIC's fw_ver, board_id and node_desc,
the hostname, a netdev's name, as a replayed tree may hold them) prints
cleaned in every text output: no line of inventory, check, gids, topo,
watch, plan, record or fleet starts with the text after the newline, which
would read as the tool's own ("PASS ...").  Each value is seen cleaned
("?PASS injected ...") at least once, so the test looks where it should.

usage: test_text_values.py RDMADOCTOR SOURCE_DIR"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import fail  # noqa: E402
import rdtest  # noqa: E402

MARK = "PASS injected"


def inject(root):
    """Newlines (and a CR) into the tree's values; the netdev's name is a
    directory's, so its links are renamed with it."""
    for d, _, files in os.walk(root):
        for name, what in (("fw_ver", "fw"), ("board_id", "board"), ("node_desc", "node")):
            if name in files:
                p = os.path.join(d, name)
                with open(p) as f:
                    old = f.read().rstrip("\n")
                with open(p, "w") as f:
                    f.write("%s\n%s %s\r\n" % (old, MARK, what))
    with open(os.path.join(root, "proc/sys/kernel/hostname"), "w") as f:
        f.write("dgx\n%s host\n" % MARK)
    net = os.path.join(root, "sys/class/net")
    old = "enp41s0f1np1"
    new = old + "\n" + MARK + " netdev"
    target = os.readlink(os.path.join(net, old))
    real = os.path.normpath(os.path.join(net, target))
    os.rename(real, os.path.join(os.path.dirname(real), new))
    os.unlink(os.path.join(net, old))
    os.symlink(os.path.join(os.path.dirname(target), new), os.path.join(net, new))
    for d, _, files in os.walk(root):	# the GID table names it too
        if d.endswith("gid_attrs/ndevs"):
            for name in files:
                p = os.path.join(d, name)
                with open(p) as f:
                    if f.read().strip() != old:
                        continue
                with open(p, "w") as f:
                    f.write(new + "\n")


def run(binary, *args):
    p = rdtest.run(binary, *args, errors="replace")
    if p.returncode not in (0, 1):
        fail("%s exited %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p.stdout + p.stderr


def main():
    binary, src = sys.argv[1], sys.argv[2]
    seen = set()
    with tempfile.TemporaryDirectory(prefix="rd-text-values-") as tmp:
        root = os.path.join(tmp, "root")
        rdtest.copy_root(os.path.join(src, "tests/fixtures/dgx-h100/root"), root)
        inject(root)
        db = os.path.join(tmp, "fleet.db")
        runs = (
            ("inventory",), ("check",), ("gids",), ("topo",),
            ("watch", "--until", root, "--duration", "1"),
            ("plan", "--params", "70B", "--tp", "8", "--pp", "1", "--dp", "4"),
            ("record", "--db", db),
            ("fleet", "--db", db, "ls"),
            ("fleet", "--db", db, "show", "dgx\n%s host" % MARK),
            ("fleet", "--db", db, "rm", "dgx\n%s host" % MARK),
        )
        for args in runs:
            out = run(binary, "--root", root, "-v", *args)
            for line in out.splitlines():
                if line.startswith(MARK):
                    fail("%s: a value's newline began a line: %r" % (args[0], line))
            for what in ("fw", "board", "node", "host", "netdev"):
                if "?%s %s" % (MARK, what) in out:
                    seen.add(what)
            print("%s: no line begins with a value's text" % " ".join(args[:2]))
    missing = {"fw", "board", "host", "netdev"} - seen
    if missing:
        fail("never printed, so never tested: %s" % sorted(missing))
    print("PASS")


if __name__ == "__main__":
    main()
