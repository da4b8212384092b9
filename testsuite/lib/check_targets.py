#!/usr/bin/env python3
"""check_targets.py - `make help` is the one list of the Makefile's targets.

    python3 testsuite/lib/check_targets.py [--root DIR] [--self-test]

Checks, on DIR/Makefile (default: this checkout) and DIR/.ci/run:
  - every .PHONY target a user runs is listed by `make help`, and every
    target `make help` names exists;
  - the targets of help's "Tier ci" section are exactly CI_CHECKS, those
    of "Tier slow" exactly SLOW_CHECKS (what check-ci and check-slow run);
  - .ci/run runs `make check-ci` and no check target by itself.
Prints one line per finding, then "targets: N listed, N findings"; exits
1 on any finding.  --self-test plants a Makefile with one unlisted target
and one CI check missing from its tier, and requires exactly those two.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import kharness  # noqa: E402  (beside this file)

# Targets that are plumbing, not commands.
INTERNAL = {"all", "plugin", "FORCE", "headers-present"}


def make_var(text, name):
    m = re.search(r"^%s\s*:=\s*((?:.*\\\n)*.*)$" % name, text, re.M)
    return set(m.group(1).replace("\\\n", " ").split()) if m else set()


def help_sections(root):
    out = subprocess.run(["make", "-s", "--no-print-directory", "-C", root, "help"],
                         capture_output=True, text=True).stdout
    sections, current = {}, None
    for line in out.splitlines():
        m = re.match(r"Tier (\w+)", line)
        if m:
            current = m.group(1)
        elif line and not line.startswith(" "):
            current = None
        for t in re.findall(r"^\s+make ([a-z][a-z0-9-]*)", line):
            sections.setdefault(current, set()).add(t)
    return sections


def check(root):
    with open(os.path.join(root, "Makefile")) as f:
        text = f.read()
    phony = set()
    for m in re.finditer(r"^\.PHONY:\s*((?:.*\\\n)*.*)$", text, re.M):
        phony |= set(m.group(1).replace("\\\n", " ").split())
    defined = set(re.findall(r"^([a-z][a-z0-9-]*)\s*:(?!=)", text, re.M))
    sections = help_sections(root)
    listed = set().union(*sections.values()) if sections else set()
    findings = []
    for t in sorted(phony - INTERNAL - listed):
        findings.append(f"Makefile: target {t} is not in make help")
    for t in sorted(listed - defined):
        findings.append(f"make help: names {t}, which the Makefile does not define")
    for tier, var, runner in (("ci", "CI_CHECKS", "check-ci"), ("slow", "SLOW_CHECKS", "check-slow")):
        want, got = make_var(text, var), sections.get(tier, set()) - {runner}
        for t in sorted(got - want):
            findings.append(f"make help: {t} is in tier {tier} but not in {var}")
        for t in sorted(want - got):
            findings.append(f"Makefile: {t} is in {var} but not in help's tier {tier}")
    ci = os.path.join(root, ".ci", "run")
    if os.path.exists(ci):
        with open(ci) as f:
            cmds = re.findall(r"^\s*make\s+(\S+)", f.read(), re.M)
        if "check-ci" not in cmds:
            findings.append(".ci/run: does not run make check-ci")
        for c in cmds:
            if c != "check-ci":
                findings.append(f".ci/run: runs make {c} outside check-ci")
    return listed, findings


def self_test():
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "Makefile"), "w") as f:
            f.write("# demo.\n#\n#   make check   the tests\n#\n# Tier ci:\n"
                    "#   make check-ci  all\n#   make check-a   a\n\n"
                    ".PHONY: check check-ci check-a check-b hidden\n"
                    "CI_CHECKS := check-a \\\n\tcheck-b\n"
                    "help:\n\t@sed -n '1,/^$$/{/^$$/d;s/^# \\{0,1\\}//;p}' Makefile\n"
                    "check:\ncheck-ci:\ncheck-a:\ncheck-b:\nhidden:\n")
        _, findings = check(d)
    want = ["Makefile: target check-b is not in make help",
            "Makefile: target hidden is not in make help",
            "Makefile: check-b is in CI_CHECKS but not in help's tier ci"]
    return kharness.planted("targets", findings, want)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=kharness.TOP)
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    listed, findings = check(args.root)
    for f in findings:
        print(f)
    print(f"targets: {len(listed)} listed, {len(findings)} findings")
    return 1 if findings or not listed else 0


if __name__ == "__main__":
    sys.exit(main())
