#!/usr/bin/env python3
"""cocci-anchors - kalloc's warnings against upstream's Coccinelle checks
for wrong sizeof operands, over the same compiled files.

  cocci-anchors.py --src DIR --files LIST --report R.jsonl [--report ...]
                   --out DIR [--jobs N] [--naming-allocators] COCCI...

LIST has one compiled C file per line, relative to --src, optionally
followed by a tab, an object and a tab with spatch's include options
(testsuite/suggest/compiled-files.py writes that).  Each COCCI (upstream's
scripts/coccinelle/misc/noderef.cocci and badty.cocci) runs in report
mode on each file with the options its own "Options:" line gives, as
make coccicheck runs it; its output is kept in OUT/NAME/ per file, and
reused only while the script, its options and spatch stay the same.

Every hit is put in one class:
  warned     inside the parentheses of an allocation call that kalloc's
             report lists, and kalloc warned about that call
  silent     inside such a call, and kalloc said nothing: to triage
  unseen     on a line that names an allocator, in no call kalloc saw
  other      anything else (memset (p, 0, sizeof (p)), a copy ...)
and every kalloc warning of kind object, array or type that no script
flagged is listed as what kalloc adds.  OUT/anchors.txt holds the lists;
the last line printed is

  anchors: FILES files; COCCI: H hits, A at allocations (W warned, S silent), U unseen; ...; kalloc adds K

The exit status is 0 unless a tool failed.
"""
import argparse
import os
import re
import hashlib
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import kharness  # noqa: E402
from concurrent.futures import ThreadPoolExecutor

HIT = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+)-\d+: (?P<msg>.*)$')
ALLOC_WORD = re.compile(r'\w*(alloc|dup)\w*\s*\(')
KINDS = ('object', 'array', 'type')


def options_of(cocci):
    with open(cocci) as f:
        for line in f:
            if line.startswith('// Options:'):
                return shlex.split(line.split(':', 1)[1])
    return []


def fresh_dir(out, cocci, opts):
    """OUT for COCCI's results: emptied unless an earlier run wrote it with
    the same script, options and spatch (a stale result is no result)."""
    version = subprocess.run(['spatch', '--version'], capture_output=True,
                             text=True).stdout.split('\n')[0]
    with open(cocci, 'rb') as f:
        key = hashlib.sha256(f.read() + repr((opts, version)).encode()).hexdigest()
    stamp = os.path.join(out, 'key')
    try:
        with open(stamp) as f:
            same = f.read() == key
    except OSError:
        same = False
    if not same:
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        with open(stamp, 'w') as f:
            f.write(key)


def run_spatch(job):
    cocci, opts, src, rel, inc, out = job
    dest = os.path.join(out, rel.replace('/', '%') + '.out')
    if os.path.exists(dest):
        return 0
    cmd = ['spatch', '-D', 'report', '--very-quiet', '--sp-file', cocci] \
        + opts + inc + [rel]
    try:
        res = subprocess.run(cmd, cwd=src, capture_output=True, text=True,
                             timeout=600, errors='replace')
        status, text = res.returncode, res.stdout
    except subprocess.TimeoutExpired:
        status, text = 124, ''
    if status == 0:
        with open(dest + '.tmp', 'w') as f:
            f.write(text)
        os.rename(dest + '.tmp', dest)
    return status


def read_files(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if parts[0]:
                rows.append((parts[0], shlex.split(parts[2]) if len(parts) > 2 else []))
    return rows


def rel_path(src, path):
    path = os.path.normpath(path if os.path.isabs(path) else os.path.join(src, path))
    return os.path.relpath(path, src)


class Source:
    """Lines and call extents of the files of one tree, read once."""

    def __init__(self, src):
        self.src = src
        self.text = {}

    def lines(self, rel):
        if rel not in self.text:
            try:
                with open(os.path.join(self.src, rel), errors='replace') as f:
                    self.text[rel] = f.read().split('\n')
            except OSError:
                self.text[rel] = []
        return self.text[rel]

    def call_extent(self, rel, line, col):
        """(line, col) of the '(' of the call at LINE:COL and of its ')'."""
        lines = self.lines(rel)
        depth, start = 0, None
        for n in range(line - 1, min(len(lines), line + 40)):
            text = lines[n]
            first = col - 1 if n == line - 1 else 0
            quote = None
            for i in range(first, len(text)):
                c = text[i]
                if quote:
                    if c == quote and text[i - 1] != '\\':
                        quote = None
                    continue
                if c in '"\'':
                    quote = c
                elif c == '(':
                    if start is None:
                        start = (n + 1, i + 1)
                    depth += 1
                elif c == ')' and start is not None:
                    depth -= 1
                    if depth == 0:
                        return start, (n + 1, i + 1)
        return None


def load_sites(reports, src, source):
    sites = {}
    for path in reports:
        for r in kharness.report.records(path):
            if 'column' not in r or 'allocator' not in r or r.get('typed'):
                continue
            rel = rel_path(src, r['file'])
            key = (rel, r['line'], r['column'])
            site = sites.setdefault(key, {'allocator': r.get('allocator'),
                                          'warnings': set()})
            site['warnings'].update(r.get('warnings') or [])
    by_file = {}
    for (rel, line, col), site in sites.items():
        site['at'] = (rel, line, col)
        site['where'] = '%s:%d:%d' % (rel, line, col)
        by_file.setdefault(rel, []).append(site)
    return by_file


def classify(hit, by_file, source):
    rel, line, col = hit
    for site in by_file.get(rel, []):
        if 'extent' not in site:        # read a file only where a hit is
            site['extent'] = source.call_extent(*site['at'])
        ext = site['extent']
        if ext and ext[0] <= (line, col) <= ext[1]:
            return ('warned' if site['warnings'] & set(KINDS) else 'silent'), site
    lines = source.lines(rel)
    text = lines[line - 1] if 0 < line <= len(lines) else ''
    return ('unseen' if ALLOC_WORD.search(text) else 'other'), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--files', required=True)
    ap.add_argument('--report', action='append', default=[])
    ap.add_argument('--out', required=True)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--naming-allocators', action='store_true',
                    help='only the files whose text calls something named *alloc*/*dup* '
                         '(an allocation hit can only be there)')
    ap.add_argument('cocci', nargs='+')
    args = ap.parse_args()
    src = os.path.abspath(args.src)
    files = read_files(args.files)
    if not files:
        sys.exit('cocci-anchors: no files in %s' % args.files)
    source = Source(src)
    listed = len(files)
    if args.naming_allocators:
        files = [(rel, inc) for rel, inc in files
                 if any(ALLOC_WORD.search(line) for line in source.lines(rel))]
    by_file = load_sites(args.report, src, source)
    failed = 0
    summary, listing = [], []
    flagged_sites = set()
    for cocci in args.cocci:
        name = os.path.splitext(os.path.basename(cocci))[0]
        out = os.path.join(args.out, name)
        opts = options_of(cocci)
        fresh_dir(out, cocci, opts)
        jobs = [(os.path.abspath(cocci), opts, src, rel, inc, out) for rel, inc in files]
        with ThreadPoolExecutor(args.jobs) as pool:
            status = list(pool.map(run_spatch, jobs))
        bad = [files[i][0] for i, s in enumerate(status) if s != 0]
        failed += len(bad)
        hits = set()
        for rel, _ in files:
            dest = os.path.join(out, rel.replace('/', '%') + '.out')
            if not os.path.exists(dest):
                continue
            with open(dest) as f:
                for line in f:
                    m = HIT.match(line.strip())
                    if m:
                        hits.add((rel_path(src, m.group('file')), int(m.group('line')),
                                  int(m.group('col'))))
        counts = dict.fromkeys(('warned', 'silent', 'unseen', 'other'), 0)
        for hit in sorted(hits):
            cls, site = classify(hit, by_file, source)
            counts[cls] += 1
            if site:
                flagged_sites.add(site['where'])
            if cls != 'other':
                text = source.lines(hit[0])[hit[1] - 1].strip()
                listing.append('%s\t%s\t%s:%d:%d\t%s' % (name, cls, hit[0], hit[1], hit[2], text))
        summary.append('%s: %d hits, %d at allocations (%d warned, %d silent), %d unseen%s'
                       % (name, len(hits), counts['warned'] + counts['silent'],
                          counts['warned'], counts['silent'], counts['unseen'],
                          ', spatch failed on %d' % len(bad) if bad else ''))
        for rel in bad:
            listing.append('%s\tfailed\t%s' % (name, rel))
    adds = []
    for rel, sites in sorted(by_file.items()):
        for site in sites:
            kinds = site['warnings'] & set(KINDS)
            if kinds and site['where'] not in flagged_sites:
                adds.append('kalloc\tadds\t%s\t%s %s' % (site['where'], site['allocator'],
                                                       ','.join(sorted(kinds))))
    with open(os.path.join(args.out, 'anchors.txt'), 'w') as f:
        f.write('\n'.join(listing + sorted(adds)) + '\n')
    print('anchors: %d files%s; %s; kalloc adds %d'
          % (len(files), ' (of %d: those naming an allocator)' % listed if listed != len(files) else '',
             '; '.join(summary), len(adds)))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
