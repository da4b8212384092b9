#!/usr/bin/env python3
"""dkms-table.py --run DIR --triaged FILE --plugin SO PACKAGE... - the table
of make check-dkms (testsuite/dkms/check-dkms.sh) from what its run left in
DIR/PACKAGE/: plain.status, kalloc.status, the logs, the dkms trees and
report.jsonl (kalloc's report, read with plugin/kalloc-report.py).

Per package that builds plain: C files compiled, sites found in the
package's own files (and in kernel headers, apart), by kind, rewritten,
warned; it passes when it built with kalloc (the same modules), with no
compiler crash, the plugin on every C compile and every warned site
listed in the triage file (lines "PACKAGE FILE:LINE VERDICT ...", FILE
relative to the package's source directory).  Ends with
"dkms: N passed, N failed".
"""
import argparse
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
import kharness  # noqa: E402
from kharness import kalloc_log  # noqa: E402
rs = kharness.report.tool()

ERROR_RE = re.compile(r'([Ee]rror:|ERROR:|Error [0-9]|No such file|not found|No rule to make)')


def read(path, default=''):
    try:
        with open(path, errors='replace') as f:
            return f.read().strip()
    except OSError:
        return default


def first_error(log):
    """The first line of a failed build that says why."""
    for line in read(log).splitlines():
        if ERROR_RE.search(line) and 'warning:' not in line:
            return line.strip()[:160]
    return ''


def build_dirs(tree):
    """TREE/NAME/VERSION/build of a dkms tree."""
    return glob.glob(os.path.join(tree, '*', '*', 'build'))


def c_compiles(tree, plugin):
    """(C files compiled, how many without the plugin) from kbuild's .cmd files."""
    total = without = 0
    for root, _dirs, files in os.walk(tree):
        for name in files:
            if not (name.startswith('.') and name.endswith('.o.cmd')):
                continue
            text = read(os.path.join(root, name))
            if not re.search(r'^source_\S+ := \S+\.c$', text, re.M):
                continue
            total += 1
            if '-fplugin=' + plugin not in text:
                without += 1
    return total, without


def load_triaged(path):
    triaged = {}
    for line in read(path).splitlines():
        line = line.split('#', 1)[0].split()
        if len(line) >= 3:
            triaged[(line[0], line[1])] = ' '.join(line[2:])
    return triaged


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--run', required=True)
    ap.add_argument('--triaged', required=True)
    ap.add_argument('--plugin', required=True)
    ap.add_argument('packages', nargs='+')
    args = ap.parse_args()
    triaged = load_triaged(args.triaged)

    rows, unbuildable, warned_sites, problems = [], [], [], []
    total = dict(files=0, sites=0, hdr=0, object=0, array=0, flex=0, opaque=0,
                 rewritten=0, warnings=0, logwarn=0, wrappers=0, via=0)
    passed = failed = 0
    for pkg in args.packages:
        d = os.path.join(args.run, pkg)
        plain = read(os.path.join(d, 'plain.status'))
        if not plain:
            # Never built (the run was stopped): a failure, not a pass.
            failed += 1
            problems.append((pkg, ['not run']))
            continue
        if not plain.startswith('built'):
            why = plain
            if plain.startswith('failed'):
                err = first_error(os.path.join(d, 'plain.log'))
                if err:
                    why += ': ' + err
            unbuildable.append((pkg, why))
            continue
        kalloc = read(os.path.join(d, 'kalloc.status'), 'failed: not run')
        log = read(os.path.join(d, 'kalloc.log'))
        why = []
        if kalloc != plain:
            why.append('kalloc build: %s (plain: %s)' % (kalloc, plain))
        if 'internal compiler error' in log:
            why.append('internal compiler error')
        if re.search(r'error: kalloc', log):
            why.append('kalloc error')
        files, without = c_compiles(os.path.join(d, 'kalloc'), args.plugin)
        if files == 0 or without:
            why.append('plugin missing on %d of %d C compiles' % (without, files))
        srcdirs = [os.path.normpath(os.path.abspath(b))
                   for b in build_dirs(os.path.join(d, "kalloc"))]
        wrappers = {}
        sites, _raw, _probes, bad = rs.load([os.path.join(d, 'report.jsonl')],
                                            srcdirs, wrappers)
        if bad:
            why.append('%d unreadable report lines' % bad)
        own = [s for s in sites if not s['file'].startswith('/')]
        hdr = len(sites) - len(own)
        kinds, _rew, rewritten, _warn, warned = rs.summarise(own)
        logwarn = len(set(l for l in log.splitlines() if kalloc_log.WARNING_RE.search(l)))
        for s in warned:
            key = (pkg, '%s:%s' % (s['file'], s.get('line')))
            verdict = triaged.get(key)
            warned_sites.append((pkg, s, verdict))
            if verdict is None:
                why.append('untriaged warning at %s' % key[1])
        offsets = kalloc_log.offsets(log, srcdirs)
        for path, line in sorted(offsets):
            key = (pkg, '%s:%s' % (path, line))
            verdict = triaged.get(key)
            warned_sites.append((pkg, dict(file=path, line=line, function='-',
                                           allocator='-', kind='statement',
                                           pointee='-', warnings=['offset']),
                                 verdict))
            if verdict is None:
                why.append('untriaged warning at %s' % key[1])
        hwarned = [s for s in sites if s['file'].startswith('/') and s.get('warnings')]
        for s in hwarned:
            why.append('warning in a kernel header %s:%s' % (s['file'], s.get('line')))
        via = sum(1 for s in own if s.get('allocator') in wrappers)
        row = dict(pkg=pkg, files=files, sites=len(own), hdr=hdr,
                   wrappers=len(wrappers), via=via,
                   object=kinds.get('object', 0), array=kinds.get('array', 0),
                   flex=kinds.get('flex', 0), opaque=kinds.get('opaque', 0),
                   rewritten=rewritten, warnings=len(warned) + len(offsets),
                   logwarn=logwarn,
                   result='PASS' if not why else 'FAIL')
        for k in total:
            total[k] += row[k]
        rows.append(row)
        if why:
            failed += 1
            problems.append((pkg, why))
        else:
            passed += 1

    cols = ('files', 'sites', 'object', 'array', 'flex', 'opaque', 'hdr',
            'rewritten', 'warnings')
    head = '%-26s' % 'package' + ''.join('%10s' % c for c in cols) + '  result'
    print(head)
    print('-' * len(head))
    for r in rows:
        print('%-26s' % r['pkg'] + ''.join('%10d' % r[c] for c in cols) + '  ' + r['result'])
    print('-' * len(head))
    print('%-26s' % ('total (%d packages)' % len(rows))
          + ''.join('%10d' % total[c] for c in cols))
    print('sites: unique file:line:column:allocator in the package\'s own files; '
          'hdr: sites in kernel headers (not in the kinds); warnings: warned sites '
          '(build log: %d warning lines)' % total['logwarn'])
    print('sites found %d, opaque sites %d' % (total['sites'], total['opaque']))
    print('wrappers learnt %d, sites calling them %d'
          % (total['wrappers'], total['via']))
    if warned_sites:
        print('warnings:')
        for pkg, s, verdict in warned_sites:
            print('  %s %s:%s: %s: %s %s pointee=%s: %s -> %s'
                  % (pkg, s['file'], s.get('line'), s.get('function'),
                     s.get('allocator'), s.get('kind'), s.get('pointee'),
                     ','.join(s.get('warnings')), verdict or 'UNTRIAGED'))
    if unbuildable:
        print('not buildable plain (not counted):')
        for pkg, why in unbuildable:
            print('  %s: %s' % (pkg, why))
    for pkg, why in problems:
        print('FAIL %s: %s' % (pkg, '; '.join(why)))
    if not rows:
        print('no package built plain')
        failed += 1
    return kharness.summary('dkms', passed, failed)


if __name__ == '__main__':
    sys.exit(main())
