#!/usr/bin/env python3
"""The map matches the house: src/ against docs/architecture.md.

docs/architecture.md holds the floors of src/ in a ```layers block, from the
ground up, one floor a line: `NAME: folder folder ... [< FLOOR FLOOR ...]`.
A folder may include (by `#include "..."`) only its own files, those of the
folders of its floor listed before it, and those of the floors below it that
its `<` list names (every floor below it when there is no list).  This test
fails on:
  - a folder of src/ that the map does not place, or a placed one that is gone;
  - an include that runs up (to a later folder in the order), or down to a
    floor the `<` list leaves out (a judge that includes a reader);
  - a circle of files (a module is x.c with x.h; x -> y when x.c or x.h
    includes y.h), and so of folders, since the order is total;
  - src/cmd/ over 5,000 lines in all, or a file of it over 600;
  - a path of src/ that the page names (`src/x/y.c`, or `x/y.c` for a folder
    x of src/) and the tree lacks;
  - a folder of tests/ that mirrors no folder of src/ and is not one of the
    whole product's (WHOLE), or a unit test tests/x/test_*.c that includes
    nothing of src/x/ (directly or through a tests/lib header): the test of
    src/x/ is found in tests/x/.
usage: test_architecture.py SRC_DIR ARCHITECTURE_MD
"""
import os
import re
import sys

from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Tally  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CMD_LINES, CMD_FILE_LINES = 5000, 600
# tests/ folders that test the whole product rather than one folder of src/
WHOLE = {"fixtures", "fuzz", "docs", "vm", "pkg", "fresh", "k8s", "slurm", "valgrind", "lib"}


def src_folders_included(path, lib, seen=None):
    """The folders of src/ whose headers PATH includes, directly or through
    a header of tests/lib."""
    seen = seen if seen is not None else set()
    with open(path, errors='replace') as fh:
        text = fh.read()
    out = set()
    for inc in INCLUDE.findall(text):
        if '/' in inc:
            out.add(inc.split('/', 1)[0])
        elif os.path.exists(os.path.join(lib, inc)) and inc not in seen:
            seen.add(inc)
            out |= src_folders_included(os.path.join(lib, inc), lib, seen)
    return out


def mirror_problems(top, present):
    tests = os.path.join(top, 'tests')
    lib = os.path.join(tests, 'lib')
    found = []
    for d in sorted(os.listdir(tests)):
        if not os.path.isdir(os.path.join(tests, d)):
            continue
        units = [f for f in sorted(os.listdir(os.path.join(tests, d)))
                 if f.startswith('test_') and f.endswith('.c')]
        if d not in present and d not in WHOLE:
            found.append(f"tests/{d}/ mirrors no folder of src/ (name it for the folder it tests)")
        for u in units:
            if d not in src_folders_included(os.path.join(tests, d, u), lib):
                found.append(f"tests/{d}/{u} includes nothing of src/{d}/: move it to the folder it tests")
    return found


def floors_of(doc):
    m = re.search(r'^```layers\n(.*?)^```', doc, re.M | re.S)
    if not m:
        sys.exit(f"no ```layers block in the architecture page")
    order, floor, uses, names = [], {}, {}, []
    for line in m.group(1).splitlines():
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        name, _, rest = line.partition(':')
        name = name.strip()
        folders, _, below = rest.partition('<')
        for u in below.split():
            if u not in names:
                sys.exit(f"floor {name} uses {u}, which is not a floor below it")
        uses[name] = set(below.split()) if below.strip() else set(names)
        names.append(name)
        for f in folders.split():
            floor[f] = name
            order.append(f)
    return order, floor, uses


def modules(src):
    """{module: set of modules it includes}, module = folder/name (or name at top)"""
    edges = defaultdict(set)
    for d, _, files in os.walk(src):
        for f in files:
            if not f.endswith(('.c', '.h')):
                continue
            p = os.path.join(d, f)
            mod = os.path.relpath(p, src).rsplit('.', 1)[0]
            edges[mod]
            with open(p, errors='replace') as fh:
                text = fh.read()
            for inc in INCLUDE.findall(text):
                q = os.path.normpath(os.path.join(d, inc))
                if not os.path.exists(q):
                    q = os.path.normpath(os.path.join(src, inc))
                if not os.path.exists(q) or not q.startswith(os.path.normpath(src) + os.sep):
                    continue
                tgt = os.path.relpath(q, src).rsplit('.', 1)[0]
                if tgt != mod:
                    edges[mod].add(tgt)
    return edges


def circles(edges):
    """strongly connected components of more than one module (Tarjan, iterative)"""
    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = n[0]; n[0] += 1; stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = n[0]; n[0] += 1; stack.append(w); on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop(); on.discard(w); comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def folder(mod):
    return mod.split('/', 1)[0] if '/' in mod else '.'


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    src, doc_path = sys.argv[1], sys.argv[2]
    with open(doc_path) as fh:
        doc = fh.read()
    order, floor, uses = floors_of(doc)
    rank = {f: i for i, f in enumerate(order)}
    rank['.'] = len(order)		# src/main.c: the command table, above all
    problems = []

    present = {d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))}
    for d in sorted(present - set(order)):
        problems.append(f"src/{d}/ is on no floor of the map: place it in the layers block")
    for d in sorted(set(order) - present):
        problems.append(f"the map places src/{d}/, which the tree lacks")

    edges = modules(src)
    ups = 0
    for a in sorted(edges):
        for b in sorted(edges[a]):
            fa, fb = folder(a), folder(b)
            if fa == fb or fa not in rank or fb not in rank:
                continue
            if rank[fb] > rank[fa]:
                ups += 1
                problems.append(f"upward include: {a} ({floor.get(fa, fa)}) includes {b} "
                                f"({floor.get(fb, fb)}), a folder above it")
            elif fa != '.' and floor[fb] != floor[fa] and floor[fb] not in uses[floor[fa]]:
                ups += 1
                problems.append(f"include past the map: {a} ({floor[fa]}) includes {b} "
                                f"({floor[fb]}), a floor {floor[fa]} does not use")
    circ = circles(edges)
    for c in circ:
        problems.append("circle of files: " + " -> ".join(c + c[:1]))

    cmd = os.path.join(src, 'cmd')
    total = 0
    for f in sorted(os.listdir(cmd)) if os.path.isdir(cmd) else []:
        with open(os.path.join(cmd, f), errors='replace') as fh:
            n = sum(1 for _ in fh)
        total += n
        if n > CMD_FILE_LINES:
            problems.append(f"src/cmd/{f} has {n} lines: a command file dispatches "
                            f"(at most {CMD_FILE_LINES}); move the engine to its subject's folder")
    if total > CMD_LINES:
        problems.append(f"src/cmd/ has {total} lines, over {CMD_LINES}")

    top = os.path.dirname(os.path.abspath(src))
    named = set(re.findall(r'\bsrc/[A-Za-z0-9_./*-]*[A-Za-z0-9_*]', doc))
    for m in re.findall(r'(?<![A-Za-z0-9_./-])([a-z]+/[A-Za-z0-9_*]+\.[ch])\b', doc):
        if m.split('/')[0] in present:
            named.add('src/' + m)
    missing = []
    for p in sorted(named):
        if '*' in p:
            d, pat = os.path.split(p)
            rx = re.compile('^' + re.escape(pat).replace('\\*', '.*') + '$')
            if not any(rx.match(f) for f in os.listdir(os.path.join(top, d))
                       if os.path.isdir(os.path.join(top, d))):
                missing.append(p)
        elif not os.path.exists(os.path.join(top, p)):
            missing.append(p)

    mirror = mirror_problems(top, present)
    t = Tally()
    t.expect(not mirror, "tests/ mirrors src/", "\n    ".join(mirror))
    by_kind = {
        "every folder on a floor": [p for p in problems if "floor of the map" in p or "the map places" in p],
        "no include up or past the map": [p for p in problems if p.startswith(("upward", "include past"))],
        "no circle of files": [p for p in problems if p.startswith("circle")],
        "the command layer dispatches": [p for p in problems if p.startswith("src/cmd/")],
    }
    for what, found in by_kind.items():
        t.expect(not found, what, "\n    ".join(found))
    t.expect(not missing, "every path the page names is in the tree",
             "\n    ".join(f"the page names {p}, which the tree lacks" for p in missing))
    print(f"{len(edges)} modules in {len(present)} folders; {ups} upward includes, "
          f"{len(circ)} circles; src/cmd/ {total} lines")
    t.done()


if __name__ == '__main__':
    main()
