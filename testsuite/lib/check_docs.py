#!/usr/bin/env python3
"""check_docs.py - the repository speaks of the product only.

    python3 testsuite/lib/check_docs.py [--root DIR] [--self-test]
    python3 testsuite/lib/check_docs.py --installed DIR

Two checks over the files git tracks under DIR (default: this checkout):

  history  no development-history reference: a numbered session, round
           or stop, a tracker issue by its number.
           The docs say what kalloc does now and why; what an earlier
           version did, and when, is not the reader's business.
  links    every relative link in the Markdown files resolves: the file
           exists, and a #fragment names a heading of the target page.

Prints one line per finding ("FILE:LINE: history: ..." or
"FILE:LINE: link: ...") and ends with "docs: N files, N findings";
exits 1 on any finding.  --installed DIR checks the links of every
Markdown page under DIR (the docs `make install` put there) instead:
an installed page must not link to what was not installed.  --self-test runs both checks on a planted tree
(one finding of each kind) and fails unless they find exactly those:
a check that cannot fail proves nothing.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import kharness  # noqa: E402  (beside this file)

# Words spelt in two pieces so that this file does not match itself.
HISTORY = re.compile(
    r"\b(?:sess" r"ions?|rou" r"nds?|st" r"op)[ -]\d+\b"
    r"|\biss" r"ues? #?\d+\b"
    r"|\bthe (?:sess" r"ion|rou" r"nd)-\d+\b",
    re.IGNORECASE)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
TEXT_SUFFIXES = (".md", ".c", ".h", ".py", ".sh", ".exp", ".7", ".cocci",
                 ".config", ".list", ".txt", ".args", "")


def tracked(root):
    """The files git tracks; in a copy without git (a release tarball, the
    mutants' copy), every file but build/ and hidden ones."""
    try:
        r = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                           capture_output=True, text=True)
    except OSError:                    # no git on the machine
        r = None
    if r and r.returncode == 0 and os.path.samefile(r.stdout.strip(), root):
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                             capture_output=True, check=True).stdout
        return [p for p in out.decode().split("\0") if p]
    files = []
    for d, dirs, names in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if not x.startswith(".")
                   and not (rel == "." and x == "build") and x != "__pycache__"]
        files += [os.path.normpath(os.path.join(rel, n)) for n in names
                  if not n.startswith(".")]
    return sorted(files)


def is_text(path):
    try:
        with open(path, "rb") as f:
            return b"\0" not in f.read(8192)
    except OSError:
        return False


def slug(heading):
    """GitHub's anchor for a heading."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    seen = {}
    names = set()
    in_code = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
                continue
            m = None if in_code else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                base = slug(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                names.add(base if n == 0 else f"{base}-{n}")
    return names


def check_history(root, rel, findings):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            for m in HISTORY.finditer(line):
                findings.append(f"{rel}:{no}: history: '{m.group(0)}'")


def check_links(root, rel, findings):
    base = os.path.dirname(os.path.join(root, rel))
    in_code = False
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            if line.startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                path, _, frag = target.partition("#")
                dest = os.path.normpath(os.path.join(base, path)) if path \
                    else os.path.join(root, rel)
                if not os.path.exists(dest):
                    findings.append(f"{rel}:{no}: link: no file {target}")
                elif frag and dest.endswith(".md") and frag not in anchors(dest):
                    findings.append(f"{rel}:{no}: link: no heading #{frag} in {path or rel}")


def check(root):
    files = [p for p in tracked(root)
             if os.path.splitext(p)[1] in TEXT_SUFFIXES
             and os.path.isfile(os.path.join(root, p))
             and is_text(os.path.join(root, p))]
    findings = []
    for rel in files:
        check_history(root, rel, findings)
        if rel.endswith(".md"):
            check_links(root, rel, findings)
    return files, findings


def self_test():
    with tempfile.TemporaryDirectory() as d:
        planted = {
            "README.md": "# Top\nSee [use](docs/use.md#options) and [gone](docs/gone.md).\n",
            "docs/use.md": "# Use\n## Options\nAs measured in sess" "ion 7.\n",
            "plugin/a.c": "/* fine: a round trip, 8 rounds */\n",
        }
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(d, rel)) or d, exist_ok=True)
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        _, findings = check(d)
    want = ["README.md:2: link: no file docs/gone.md",
            "docs/use.md:3: history: 'sess" "ion 7'"]
    return kharness.planted("docs", findings, want)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=kharness.TOP)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--installed", metavar="DIR")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.installed:
        pages = sorted(os.path.relpath(os.path.join(d, n), args.installed)
                       for d, _, names in os.walk(args.installed)
                       for n in names if n.endswith(".md"))
        findings = []
        for rel in pages:
            check_links(args.installed, rel, findings)
        for f in findings:
            print(f)
        print(f"docs: {len(pages)} installed pages, {len(findings)} findings")
        return 1 if findings or not pages else 0
    files, findings = check(args.root)
    for f in findings:
        print(f)
    print(f"docs: {len(files)} files, {len(findings)} findings")
    return 1 if findings or not files else 0


if __name__ == "__main__":
    sys.exit(main())
