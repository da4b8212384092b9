#!/usr/bin/env python3
"""check-mutants.py - does `make check` catch one-line breakages of plugin/?

Reads a fixed list of mutants (testsuite/mutants/mutants.list: a file, an
exact original line, its replacement).  Copies the tree as it is in the
work tree (tracked and untracked files, not build/) once, builds it and
runs `make check` there: that baseline must pass, or the run stops.  Then,
for each mutant, a fresh copy of that built tree gets the one line
replaced (only that file is rebuilt), is built and runs `make check`:

  caught    the build fails, or make check reports a failure (or times out)
  survived  make check passes: no test notices the breakage

A mutant whose original line is not in its file exactly once is an error
of the list, never a catch: the run stops with status 2.

Usage: check-mutants.py CC [LIST]
Environment: MUTANTS (comma-separated names: only those),
MUTANTS_TIMEOUT (seconds for one make check, default 900),
MUTANTS_DIR (work directory, default build/mutants).
Prints one line a mutant and ends with "mutants: N caught, N survived";
exits 1 when any survived, 2 on an error of the list or the baseline.
"""
import os
import re
import shutil
import signal
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUMMARY = re.compile(r"^kalloc: (\d+) passed, (\d+) failed", re.M)


def die(msg, status=2):
    print("check-mutants: " + msg, file=sys.stderr)
    sys.exit(status)


def parse_list(path):
    """The mutants of PATH: dicts with name, file, from, to."""
    mutants, block = [], {}
    with open(path) as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if block:
                missing = {"name", "file", "from", "to"} - set(block)
                if missing:
                    die("%s:%d: mutant without %s"
                        % (path, number, ", ".join(sorted(missing))))
                mutants.append(block)
                block = {}
            continue
        key, sep, value = line.partition(":")
        if not sep or key not in ("name", "file", "from", "to"):
            die("%s:%d: expected name:, file:, from: or to:" % (path, number))
        block[key] = value.strip()
    names = [m["name"] for m in mutants]
    for name in names:
        if names.count(name) > 1:
            die("%s: mutant %s listed twice" % (path, name))
    return mutants


def mutate(tree, mutant, write=True):
    """Replace MUTANT's line in TREE (or, without WRITE, only find it);
    die unless it is there exactly once.  Returns its line number."""
    path = os.path.join(tree, mutant["file"])
    if not os.path.isfile(path):
        die("mutant %s: no file %s" % (mutant["name"], mutant["file"]))
    with open(path) as f:
        lines = f.read().split("\n")
    hits = [i for i, line in enumerate(lines) if line.strip() == mutant["from"]]
    if len(hits) != 1:
        die("mutant %s: the line %r is in %s %d times, not once: fix the list"
            % (mutant["name"], mutant["from"], mutant["file"], len(hits)))
    i = hits[0]
    if not write:
        return i + 1
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = indent + mutant["to"]
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return i + 1


def run(cmd, cwd, log, timeout=None):
    """Run CMD in CWD, output to LOG; (status, output), status None on timeout."""
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            status = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            status = None
    with open(log, errors="replace") as f:
        return status, f.read()


def check(tree, cc, log, timeout):
    """make check in TREE: (failed?, what it said)."""
    status, out = run(["make", "--no-print-directory", "CC=" + cc, "check"],
                      tree, log, timeout)
    if status is None:
        return True, "make check timed out"
    found = SUMMARY.findall(out)
    if found:
        passed, failed = found[-1]
        said = "%s passed, %s failed" % (passed, failed)
        return status != 0 or int(failed) > 0, said
    return status != 0, "no summary, status %d" % status


def copy_source(dest):
    """The work tree's files (tracked and untracked, not ignored) into DEST."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=TOP, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in files:
        src = os.path.join(TOP, name)
        if not name or not os.path.lexists(src):
            continue
        os.makedirs(os.path.dirname(os.path.join(dest, name)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, name), follow_symlinks=False)


def main():
    if len(sys.argv) < 2:
        die("usage: check-mutants CC [LIST]")
    cc = sys.argv[1]
    listfile = sys.argv[2] if len(sys.argv) > 2 else \
        os.path.join(TOP, "testsuite", "mutants", "mutants.list")
    mutants = parse_list(listfile)
    wanted = [w for w in os.environ.get("MUTANTS", "").split(",") if w]
    for w in wanted:
        if w not in [m["name"] for m in mutants]:
            die("no mutant called %s in %s" % (w, listfile))
    if wanted:
        mutants = [m for m in mutants if m["name"] in wanted]
    timeout = int(os.environ.get("MUTANTS_TIMEOUT", "900"))
    workdir = os.path.abspath(os.environ.get("MUTANTS_DIR",
                                             os.path.join(TOP, "build", "mutants")))
    pristine = os.path.join(workdir, "pristine")
    work = os.path.join(workdir, "tree")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(pristine)

    # Every mutant's line must be there before anything is built.
    copy_source(pristine)
    for m in mutants:
        mutate(pristine, m, write=False)

    status, _ = run(["make", "--no-print-directory", "-j2", "CC=" + cc],
                    pristine, os.path.join(workdir, "baseline-build.log"))
    if status != 0:
        die("the unmutated tree does not build: %s/baseline-build.log" % workdir)
    failed, said = check(pristine, cc, os.path.join(workdir, "baseline-check.log"),
                         timeout)
    if failed:
        die("make check fails without mutants (%s): %s/baseline-check.log"
            % (said, workdir))
    print("baseline: %s" % said, flush=True)

    caught = survived = 0
    survivors = []
    for m in mutants:
        log = os.path.join(workdir, m["name"])
        shutil.copytree(pristine, work, symlinks=True)
        line = mutate(work, m)
        where = "%s:%d" % (m["file"], line)
        status, _ = run(["make", "--no-print-directory", "CC=" + cc], work,
                        log + ".build.log")
        if status != 0:
            caught += 1
            print("caught    %-28s %s (the build fails)" % (m["name"], where),
                  flush=True)
        else:
            failed, said = check(work, cc, log + ".check.log", timeout)
            if failed:
                caught += 1
                print("caught    %-28s %s (%s)" % (m["name"], where, said),
                      flush=True)
            else:
                survived += 1
                survivors.append(m["name"])
                print("SURVIVED  %-28s %s (%s)" % (m["name"], where, said),
                      flush=True)
        shutil.rmtree(work)

    print("mutants: %d caught, %d survived" % (caught, survived))
    if survivors:
        print("survivors: " + ", ".join(survivors))
    sys.exit(1 if survived else 0)


if __name__ == "__main__":
    main()
