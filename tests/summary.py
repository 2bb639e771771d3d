#!/usr/bin/env python3
"""The closing summary of tests/run.sh, from what ctest wrote (--output-junit)
and what the fuzzing stage wrote.

usage: summary.py [--ci] [--allowed FILE] [--fuzz FILE] STAGE=JUNIT.xml ...

Prints, in this order:
  - what each failed test printed (its last lines), so a CI log that keeps
    only the end of the run still shows why;
  - the ten slowest tests;
  - one line `suite: N passed, N failed, N skipped`;
  - the skipped tests, each with its reason (the line where it said why).
With --ci a skip is a failure unless the test is named in the --allowed file
(one `NAME  reason` a line, # comments): the machine CI runs on installs
everything the tests need, so a skip there is a gap, never a pass.
Exit 0 when nothing failed (and, with --ci, nothing was skipped unallowed).

A fuzz FILE has one line a target: `NAME pass|fail SECONDS`."""
import sys
import xml.etree.ElementTree as ET

TAIL = 120  # lines of a failed test's output


def skip_reason(out):
    """The line where a skipped test said why: the last that says skip,
    else the last line it printed."""
    lines = [ln.strip() for ln in (out or "").splitlines() if ln.strip()]
    for ln in reversed(lines):
        if "skip" in ln.lower():
            return ln
    return lines[-1] if lines else "(it printed nothing)"


def read_junit(stage, path, tests):
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print("summary: cannot read %s's results '%s': %s" % (stage, path, e))
        return False
    for case in root.iter("testcase"):
        status = case.get("status", "")
        out = case.findtext("system-out") or ""
        if status == "run":
            state = "passed"
        elif status in ("notrun", "disabled") and case.find("skipped") is not None:
            state = "skipped"
        else:
            state = "failed"
        tests.append({"stage": stage, "name": case.get("name"), "state": state,
                      "time": float(case.get("time") or 0), "out": out})
    return True


def read_fuzz(path, tests):
    try:
        with open(path) as f:
            for ln in f:
                w = ln.split()
                if len(w) == 3:
                    tests.append({"stage": "fuzzing", "name": w[0],
                                  "state": "passed" if w[1] == "pass" else "failed",
                                  "time": float(w[2]), "out": ""})
    except OSError:
        pass


def read_allowed(path):
    allowed = {}
    if not path:
        return allowed
    try:
        with open(path) as f:
            for ln in f:
                ln = ln.split("#", 1)[0].strip()
                if ln:
                    name, _, why = ln.partition(" ")
                    allowed[name] = why.strip()
    except OSError as e:
        print("summary: cannot read the allowed skips '%s': %s" % (path, e))
    return allowed


def main(argv):
    ci, allowed_path, fuzz, stages = False, None, None, []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--ci":
            ci = True
        elif a == "--allowed" and args:
            allowed_path = args.pop(0)
        elif a == "--fuzz" and args:
            fuzz = args.pop(0)
        elif "=" in a:
            stages.append(a.split("=", 1))
        else:
            print(__doc__)
            return 2
    tests, unread = [], 0
    for stage, path in stages:
        if not read_junit(stage, path, tests):
            unread += 1
    if fuzz:
        read_fuzz(fuzz, tests)
    allowed = read_allowed(allowed_path)

    failed = [t for t in tests if t["state"] == "failed"]
    skipped = [t for t in tests if t["state"] == "skipped"]
    for t in failed:
        lines = t["out"].rstrip("\n").splitlines()
        print("---- FAILED %s (%s), its last %d lines:" % (t["name"], t["stage"],
                                                          min(TAIL, len(lines))))
        for ln in lines[-TAIL:]:
            print("| " + ln)

    print("\n== the ten slowest tests")
    for t in sorted(tests, key=lambda t: -t["time"])[:10]:
        print("%8.1f s  %s (%s)" % (t["time"], t["name"], t["stage"]))

    unallowed = [t for t in skipped if t["name"] not in allowed] if ci else []
    npass = sum(t["state"] == "passed" for t in tests)
    print()
    print("suite: %d passed, %d failed, %d skipped" % (npass, len(failed) + unread, len(skipped)))
    for t in skipped:
        why = skip_reason(t["out"])
        note = ""
        if ci:
            note = (" [allowed in CI: %s]" % allowed[t["name"]]) if t["name"] in allowed \
                else " [not allowed in CI]"
        print("skipped: %s (%s): %s%s" % (t["name"], t["stage"], why, note))
    for t in failed:
        print("failed: %s (%s)" % (t["name"], t["stage"]))
    if unallowed:
        print("CI: %d skipped tests are not in %s: on CI's machine a skip is a failure "
              "(it installs all that the tests need)" % (len(unallowed), allowed_path))
    return 1 if failed or unread or unallowed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
