#!/usr/bin/env python3
"""kunit-results.py - KUnit results of a kernel boot, normalised and checked.

  kunit-results.py parse CONSOLE.LOG > RESULTS
      Reads a console log holding KUnit's KTAP output and prints, sorted,
      one result per line, so that two boots compare with diff(1):
          suite NAME ok|not-ok|skip pass:N fail:N skip:N total:N
          test SUITE.CASE ok|not-ok|skip
          param SUITE.CASE.PARAM ok|not-ok|skip
          console SUITE|(boot)|(userspace) kasan:N bug:N warning:N
      (kernel reports printed while SUITE ran, outside any, or after
      check-kernel-full's userspace run began; UBSAN counts as bug),
          userspace done failures:N       (that run's own verdict)
          userspace power-down clean      (the kernel powered off)
          module load.M ok|not-ok|skip    (skip: no such device)
          module unload.M ok|not-ok       (not-ok: failed or still loaded)
      and last "plan: N suites, M results, complete|incomplete".  Console
      noise between KTAP lines (oopses the tests provoke on purpose,
      printk timestamps) is ignored.

  kunit-results.py check [--baseline BASE] [--xfail SUITE.CASE]...
                     [--userspace] [--list-failures] RESULTS
      Checks one boot: complete, nothing failed but the --xfail cases,
      no KASAN report outside the suites (suites such as kasan and
      kunit_fault provoke some on purpose),
      and, with --baseline, the same results as BASE (the build without
      the plugin) apart from the --xfail cases.  --userspace: the
      userspace run also ended with 0 failures, the kernel powered off,
      and no kernel report (KASAN, UBSAN, BUG, oops, WARNING) came after
      the run began.  --list-failures (check-kernel-full, where a
      defconfig kernel under QEMU fails some cases with and without the
      plugin): failed cases are listed, "failed (listed): ...", and do
      not fail the check by themselves; with --baseline every one must
      still be the same as without the plugin.  Prints "totals: ..."
      then one line per problem, and ends with "verdict: pass",
      "verdict: xfail" (only expected failures) or "verdict: fail".
      Exit status 0, 0 or 1 respectively.
"""
import os
import re
import sys

RESULT = re.compile(r'^(not ok|ok) \d+ (?:- )?(.*?)(?:\s+#\s*(SKIP|TODO)\b.*)?$')
SUBTEST = re.compile(r'^# Subtest: (\S+)')
TOTALS = re.compile(r'^# (?:Totals|(\S+)): pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)')
PLAN = re.compile(r'^1\.\.(\d+)$')
STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
ESCAPES = re.compile(r'\x1b\[[0-9;?]*[A-Za-z]')
KASAN = re.compile(r'BUG: KASAN: ')
BUG = re.compile(r'(BUG: |BUG \S+ \(|Oops: |general protection fault|kernel BUG at|UBSAN: )')
USERSPACE_START = re.compile(r'^kalloc-userspace: start$')
USERSPACE_DONE = re.compile(r'^kalloc-userspace: done, (\d+) failures$')
MODULE = re.compile(r'^kalloc-userspace: module (\S+): (.*)$')
MODULE_ROWS = {
    'loaded': 'load.%s ok', 'no such device': 'load.%s skip', 'load failed': 'load.%s not-ok',
    'unloaded': 'unload.%s ok', 'unload failed': 'unload.%s not-ok',
    'still loaded': 'unload.%s not-ok',
}
POWER_DOWN = re.compile(r'^reboot: Power down$')
WARNING = re.compile(r'WARNING: ')


def status(word, directive):
    if directive == 'SKIP':
        return 'skip'
    return 'ok' if word == 'ok' else 'not-ok'


def parse(lines):
    plan = None
    suites = []
    rows = []
    subtest = {}           # indent level -> name of the open subtest
    current_totals = None
    first_row = 0
    suite_now = '(boot)'   # the suite running, for console reports
    reports = {}           # suite -> [kasan, bug, warning]
    userspace = []         # rows of the userspace run
    for raw in lines:
        line = STAMP.sub('', ESCAPES.sub('', raw.rstrip('\r\n')))
        stripped = line.lstrip(' ')
        indent = (len(line) - len(stripped)) // 4
        stripped = stripped.rstrip()
        for i, pattern in enumerate((KASAN, BUG, WARNING)):
            if pattern.match(stripped):
                reports.setdefault(suite_now, [0, 0, 0])[i] += 1
                break
        if USERSPACE_START.match(stripped):
            suite_now = '(userspace)'
            continue
        m = USERSPACE_DONE.match(stripped)
        if m:
            userspace.append('userspace done failures:%s' % m.group(1))
            continue
        m = MODULE.match(stripped)
        if m and suite_now == '(userspace)':
            what = MODULE_ROWS.get(m.group(2), 'unknown.%%s not-ok (%s)' % m.group(2))
            userspace.append('module ' + what % m.group(1))
            continue
        if POWER_DOWN.match(stripped) and suite_now == '(userspace)':
            userspace.append('userspace power-down clean')
            continue
        m = PLAN.match(stripped)
        if m and indent == 0 and plan is None:
            plan = int(m.group(1))
            continue
        m = SUBTEST.match(stripped)
        if m:
            if indent == 1:
                suite_now = m.group(1)
            subtest[indent] = m.group(1)
            for deeper in [k for k in subtest if k > indent]:
                del subtest[deeper]
            continue
        m = TOTALS.match(stripped)
        if m and indent == 0:
            # "# SUITE: pass:..." counts the suite's cases, then
            # "# Totals: pass:..." counts cases and parameters; both come
            # before the suite's result line, only for suites of more
            # than one case.  Keep the last, "# Totals".
            current_totals = 'pass:%s fail:%s skip:%s total:%s' % m.group(2, 3, 4, 5)
            continue
        m = RESULT.match(stripped)
        if not m:
            continue
        st = status(m.group(1), m.group(3))
        name = m.group(2).strip()
        if indent == 0:
            suites.append(name)
            if current_totals is None:
                # Suites of one case print no counts: count the results.
                mine = [r.rsplit(' ', 1)[1] for r in rows[first_row:]]
                current_totals = 'pass:%d fail:%d skip:%d total:%d' % (
                    mine.count('ok'), mine.count('not-ok'), mine.count('skip'), len(mine))
            rows.append('suite %s %s %s' % (name, st, current_totals))
            current_totals = None
            first_row = len(rows)
            if suite_now != '(userspace)':
                suite_now = '(boot)'
        elif indent == 1:
            rows.append('test %s.%s %s' % (subtest.get(1, '?'), name, st))
        else:
            # Parameters: their "# Subtest: CASE" is at their own indent.
            rows.append('param %s.%s.%s %s' % (subtest.get(1, '?'),
                                               subtest.get(indent, '?'), name, st))
    # Kernel reports on the console, per suite: some suites provoke them
    # on purpose (slub_test, kasan); a plugin build must give the same.
    for suite, (k, b, w) in reports.items():
        rows.append('console %s kasan:%d bug:%d warning:%d' % (suite, k, b, w))
    rows.extend(userspace)
    complete = plan is not None and plan > 0 and plan == len(suites)
    rows.sort()
    rows.append('plan: %s suites, %d results, %s' % (
        plan if plan is not None else 'no', len(suites),
        'complete' if complete else 'incomplete'))
    return rows


def read_rows(path):
    with open(path, errors='replace') as f:
        return [l.rstrip('\n') for l in f if l.strip()]


def split_row(row):
    """('suite'|'test'|'param', name, status, counts) of a results line."""
    parts = row.split(' ')
    return parts[0], parts[1], parts[2], ' '.join(parts[3:])


def check(path, baseline, xfails, userspace=False, list_failures=False):
    # A missing file is a failed check, never an empty (or old) result.
    for name, p in (('results', path), ('baseline', baseline)):
        if p and not os.path.isfile(p):
            print('no %s: %s' % (name, p))
            print('verdict: fail')
            return 1
    rows = read_rows(path)
    problems = []
    plan = [r for r in rows if r.startswith('plan: ')]
    if not plan or not plan[-1].endswith(' complete'):
        problems.append('incomplete KUnit output: %s' % (plan[-1] if plan else 'no plan'))
    results = [split_row(r) for r in rows if not r.startswith('plan: ')]
    failed = [(k, n) for k, n, s, _ in results if s == 'not-ok']
    expected, unexpected = [], []
    for kind, name in failed:
        # A suite that fails only through expected failures is expected.
        if name in xfails or (kind == 'suite' and any(x.startswith(name + '.') for x in xfails)):
            expected.append(name)
        else:
            unexpected.append('%s %s' % (kind, name))
    # A parameter of an expected-failing case is expected too.
    for u in list(unexpected):
        kind, name = u.split(' ', 1)
        if kind == 'param' and any(name.startswith(x + '.') for x in xfails):
            unexpected.remove(u)
            expected.append(name)
    counts = [0, 0, 0]
    for kind, name, st, cnt in results:
        if kind == 'suite':
            m = re.match(r'pass:(\d+) fail:(\d+) skip:(\d+)', cnt)
            if m:
                counts = [a + int(b) for a, b in zip(counts, m.groups())]
    nsuites = sum(1 for r in results if r[0] == 'suite')
    print('totals: %d suites, pass:%d fail:%d skip:%d' % (nsuites, counts[0], counts[1], counts[2]))
    mods = [(n.split('.', 1)[0], st) for kind, n, st, _ in results if kind == 'module']
    if mods:
        print('modules: loaded %d, no device %d, load failed %d; unloaded %d, not %d' % tuple(
            mods.count(x) for x in (('load', 'ok'), ('load', 'skip'), ('load', 'not-ok'),
                                     ('unload', 'ok'), ('unload', 'not-ok'))))
    listed = []
    for u in unexpected:
        if list_failures:
            listed.append(u)
        else:
            problems.append('failed: %s' % u)
    if userspace:
        if 'userspace done failures:0' not in rows:
            done = [r for r in rows if r.startswith('userspace done')]
            problems.append('userspace run: %s' % (done[0] if done else 'did not finish'))
        if 'userspace power-down clean' not in rows:
            problems.append('userspace run: the kernel did not power off')
        # parse() writes a console row only for a suite that had a report.
        for kind, name, st, cnt in results:
            if kind == 'console' and name == '(userspace)':
                problems.append('kernel reports during the userspace run: %s %s' % (st, cnt))
    for kind, name, st, cnt in results:
        if kind == 'console' and name == '(boot)' and st != 'kasan:0':
            problems.append('KASAN report outside the KUnit suites: %s' % st)
    xpass = [x for x in xfails if x not in expected
             and any(n == x and s == 'ok' for _, n, s, _ in results)]
    if baseline:
        def comparable(rs):
            out = set()
            for kind, name, st, cnt in rs:
                if name in xfails or any(name.startswith(x + '.') for x in xfails):
                    continue
                if kind == 'suite' and any(x.startswith(name + '.') for x in xfails):
                    # Its counts move with the expected failure.
                    out.add('suite %s' % name)
                    continue
                out.add(' '.join(p for p in (kind, name, st, cnt) if p))
            return out
        base = [split_row(r) for r in read_rows(baseline) if not r.startswith('plan: ')]
        mine, theirs = comparable(results), comparable(base)
        for r in sorted(theirs - mine):
            problems.append('differs: without plugin: %s' % r)
        for r in sorted(mine - theirs):
            problems.append('differs: with plugin:    %s' % r)
    for p in problems:
        print(p)
    for u in listed:
        print('failed (listed): %s' % u)
    for e in sorted(set(expected)):
        if '.' in e:      # cases and parameters; their suites go without saying
            print('expected failure: %s' % e)
    for x in xpass:
        print('unexpected pass: %s (listed in expected-failures)' % x)
    if problems:
        print('verdict: fail')
        return 1
    print('verdict: %s' % ('xfail' if expected else 'pass'))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == 'parse':
        with open(argv[2], errors='replace') as f:
            for row in parse(f):
                print(row)
        return 0
    if len(argv) >= 3 and argv[1] == 'check':
        baseline, xfails, rest = None, [], argv[2:]
        flags = {'userspace': False, 'list_failures': False}
        while len(rest) > 1:
            if rest[0] == '--userspace':
                flags['userspace'], rest = True, rest[1:]
            elif rest[0] == '--list-failures':
                flags['list_failures'], rest = True, rest[1:]
            elif rest[0] == '--baseline':
                baseline, rest = rest[1], rest[2:]
            elif rest[0] == '--xfail':
                xfails.append(rest[1])
                rest = rest[2:]
            else:
                break
        if len(rest) == 1:
            return check(rest[0], baseline, xfails, **flags)
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
