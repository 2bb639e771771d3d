"""Counting assertions for the scripts beside this one: ok() records one,
printing what failed; done() prints the count and exits 1 on any failure."""
import sys

passed = failed = 0


def ok(cond, what, show=""):
    global passed, failed
    if cond:
        passed += 1
        return
    failed += 1
    print("FAIL:", what)
    if show:
        print(show[:3000])


def done():
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
