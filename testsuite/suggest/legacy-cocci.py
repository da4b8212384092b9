#!/usr/bin/env python3
"""legacy-cocci.py - a kernel's legacy allocation calls as kalloc reports
them, against what upstream's own conversion script would still change.

    legacy-cocci.py --src SRC --obj OBJ --report R.jsonl --cocci COCCI
                    [--jobs N] [--out DIR]

OBJ is a kbuild object tree built with kalloc (its report R.jsonl), SRC
its source tree, COCCI scripts/coccinelle/api/kmalloc_objs.cocci (Linux
7.0 and later carry it).  spatch runs with the script's own options and
each file's include options over the compiled C files that name a
kmalloc-family allocator; the lines each hunk removes are matched with
the report's sites.  Prints

    cocci: N files, N hunks (N spatch failures)
    hunks with a legacy site in the report: N; without: N
    legacy sites of the kmalloc family in those files: N, N in a hunk
      (by kind ...), N not (by kind ...)
    typed sites: N (none in a hunk)

and the sites of each class with --list.  Exits 1 when spatch failed on a
file or a typed site is in a hunk (upstream's script converts only legacy
calls: a typed site there would be a misreading).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = re.compile(r"\b(kv?[mz]alloc|kv?malloc_array|kv?calloc)\b")
FAMILY = re.compile(r"^(kv?[mz]alloc|kv?malloc_array|kv?calloc)(_node)?(_noprof)?$")
OPTIONS = ["--include-headers-for-types", "--all-includes", "--include-headers",
           "--keep-comments"]


def compiled(obj, src):
    out = subprocess.run([os.path.join(HERE, "compiled-files.py"), obj, src, "-fplugin="],
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        path, _, args = (line.split("\t") + ["", ""])[:3]
        try:
            with open(os.path.join(src, path), errors="replace") as f:
                if NAMES.search(f.read()):
                    rows.append((path, args))
        except OSError:
            pass
    return rows


def spatch(src, cocci, out, path, args):
    """spatch's patch for PATH, kept in OUT while the script is the same
    (a run stopped half way goes on where it was)."""
    name = os.path.join(out, path.replace("/", "%"))
    key = subprocess.run(["sha256sum", cocci], capture_output=True, text=True).stdout.split()[0]
    try:
        with open(name + ".rc") as f:
            if f.read().split() == ["0", key]:
                with open(name + ".patch") as p:
                    return path, 0, p.read()
    except OSError:
        pass
    cmd = ["spatch", "--very-quiet", "--sp-file", cocci, "-D", "patch"] + OPTIONS \
        + args.split() + [path]
    r = subprocess.run(cmd, cwd=src, capture_output=True, text=True, timeout=900)
    with open(name + ".patch", "w") as f:
        f.write(r.stdout)
    with open(name + ".rc", "w") as f:
        f.write(f"{r.returncode} {key}\n")
    return path, r.returncode, r.stdout


def hunks(patch):
    """(file, first, last) of the lines each hunk removes, old numbering."""
    result, name, old = [], None, 0
    current = None
    for line in patch.splitlines():
        if line.startswith("--- "):
            name = re.sub(r"^(a/|/tmp/[^/]*/)", "", line[4:].split("\t")[0].strip())
            continue
        m = re.match(r"@@ -(\d+)(?:,\d+)? ", line)
        if m:
            old = int(m.group(1))
            current = None
            continue
        if line.startswith("+++"):
            continue
        if line.startswith("-"):
            if current is None:
                current = [name, old, old]
                result.append(current)
            current[2] = old
            old += 1
        elif line.startswith(" "):
            current = None
            old += 1
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True)
    ap.add_argument("--obj", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--cocci", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default="legacy-cocci")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    src, obj = os.path.abspath(a.src), os.path.abspath(a.obj)
    cocci = os.path.abspath(a.cocci)
    os.makedirs(a.out, exist_ok=True)
    rows = compiled(obj, src)
    failed, all_hunks = 0, []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for path, rc, text in pool.map(lambda r: spatch(src, cocci, a.out, *r), rows):
            if rc:
                failed += 1
                print(f"spatch failed: {path}", file=sys.stderr)
            all_hunks += [h for h in hunks(text) if h[0] == path]
    files = {p for p, _ in rows}
    sites = []
    with open(a.report, errors="replace") as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "wrapper" in r or not r.get("file"):
                continue
            rel = os.path.relpath(os.path.normpath(r["file"]), src)
            if rel in files and FAMILY.match(r.get("allocator", "")):
                sites.append((rel, r["line"], r.get("kind"), bool(r.get("typed")),
                              r.get("allocator")))
    sites = sorted(set(sites))
    in_hunk = lambda s: any(h[0] == s[0] and h[1] <= s[1] <= h[2] for h in all_hunks)
    legacy = [s for s in sites if not s[3]]
    typed = [s for s in sites if s[3]]
    matched = [s for s in legacy if in_hunk(s)]
    unmatched = [s for s in legacy if not in_hunk(s)]
    typed_in = [s for s in typed if in_hunk(s)]
    hunk_has = lambda h: any(s[0] == h[0] and h[1] <= s[1] <= h[2] for s in legacy)
    with_site = [h for h in all_hunks if hunk_has(h)]
    kinds = lambda ss: ", ".join(f"{k} {n}" for k, n in
                                 sorted(collections.Counter(s[2] for s in ss).items()))
    print(f"cocci: {len(rows)} files, {len(all_hunks)} hunks ({failed} spatch failures)")
    print(f"hunks with a legacy site in the report: {len(with_site)}; "
          f"without: {len(all_hunks) - len(with_site)}")
    print(f"legacy sites of the kmalloc family in those files: {len(legacy)}, "
          f"{len(matched)} in a hunk ({kinds(matched)}), {len(unmatched)} not ({kinds(unmatched)})")
    print(f"typed sites: {len(typed)} ({len(typed_in)} in a hunk)")
    if a.list:
        for title, ss in (("in a hunk", matched), ("not in a hunk", unmatched),
                          ("typed in a hunk", typed_in)):
            for s in ss:
                print(f"  {title}: {s[0]}:{s[1]} {s[4]} {s[2]}")
        for h in all_hunks:
            if not hunk_has(h):
                print(f"  hunk without a site: {h[0]}:{h[1]}-{h[2]}")
    return 1 if failed or typed_in or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
