#!/usr/bin/env python3
"""check-report-html.py - kalloc-report's HTML page in a real browser.

    testsuite/report/check-report-html.py [--planted-only] [--screenshot FILE]

Makes the page (plugin/kalloc-report.py html) of a planted report and of
build/defconfig/6.12/report.jsonl when that exists (make
check-defconfig leaves it), and loads each in Debian's chromium
(installed with testsuite/apt-install.sh when missing): headless, --dump-dom,
with a URL fragment "#selftest&sort=COL[&desc]&filter=TEXT&all" that has
the page's own script click the column's header, type the filter and
draw every row, then write what it did and performance.now () at the end
of its first rendering into <pre id="selftest">.  From the dumped DOM it
checks, one PASS or FAIL line each:

  - the page holds every site of the report, once, and no probe;
  - the rows drawn are the sites the filter matches, in the order the
    sort asks for (computed here from the report, ties in file:line
    order);
  - the first rendering ended within 1000 ms of the navigation.

--screenshot FILE also takes a 1280x900 picture of the defconfig page
(the planted one without it).  KALLOC_REPORT_HTML_PLANT=sort or =filter
breaks the page's sort or filter before it is loaded: the check must
then fail (make check-harness).  Ends with "report-html: N passed,
N failed"; exits 1 on any failure.
"""
import argparse
import html.parser
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, 'testsuite', 'lib'))
import kharness  # noqa: E402
TOOL = kharness.report.TOOL
WORK = os.path.join(TOP, 'build', 'report-html')
DEFCONFIG = os.path.join(TOP, 'build', 'defconfig', '6.12')
LOAD_LIMIT_MS = 1000.0

# What KALLOC_REPORT_HTML_PLANT breaks: the one line of the page's script
# that sorts, or that leaves out the rows the filter does not match.
PLANTS = {
    'sort': ('rows.sort(cmp);', ';'),
    'filter': ('if (!match(i)) continue;', ';'),
}

kr = kharness.report.tool()

results = {'passed': 0, 'failed': 0}


def verdict(name, ok, why=''):
    if ok:
        print('PASS: %s' % name)
        results['passed'] += 1
    else:
        print('FAIL: %s%s' % (name, ': ' + why if why else ''))
        results['failed'] += 1
    sys.stdout.flush()
    return ok


# ---- the planted report -------------------------------------------------------

def planted(path):
    """A report of sites of every kind, allocator, rewrite and warning;
    a header site reported by two units; a file name with characters
    HTML escapes; three probes.  Returns the sites' (file, line)."""
    recs = []
    allocs = ['kmalloc', 'kzalloc', 'kcalloc', 'kmalloc_array', 'devm_kzalloc',
              'kzalloc_node', 'krealloc', 'vmalloc', 'malloc', 'calloc']
    kinds = ['object', 'array', 'flex', 'opaque']
    dirs = ['drivers/net', 'drivers/gpu/drm', 'fs/ext4', 'mm', 'net/core', 'lib']
    for n in range(60):
        kind = kinds[n % 4]
        rew = [['saturate'], [], ['counter-check', 'counter-store'], []][n % 4] if n % 3 else []
        warn = ['object'] if n % 11 == 0 else (['array', 'type'] if n % 13 == 5 else [])
        recs.append({'kalloc': kr.VERSION, 'file': '/src/%s/f%d.c' % (dirs[n % 6], n % 7),
                     'line': 10 + (n * 37) % 200, 'column': 5 + n % 9,
                     'function': 'fn_%02d' % ((n * 17) % 23), 'allocator': allocs[(n * 7) % 10],
                     'kind': kind, 'typed': n % 10 == 9, 'pointee': 'struct s%d' % (n % 5),
                     'count': 'n' if kind in ('array', 'flex') else None,
                     'counter': 'len' if kind == 'flex' else None,
                     'counter_left': 'read before set' if kind == 'flex' and 'counter-store' not in rew else None,
                     'rewrites': rew, 'warnings': warn, 'unit': '/src/%s/f%d.c' % (dirs[n % 6], n % 7)})
    odd = {'kalloc': kr.VERSION, 'file': '/src/drivers/odd/a<b>&"c".c', 'line': 3, 'column': 1,
           'function': 'odd', 'allocator': 'kzalloc', 'kind': 'object', 'pointee': 'struct <x>',
           'count': None, 'counter': None, 'counter_left': None, 'rewrites': [], 'warnings': ['object']}
    recs.append(odd)
    hdr = {'kalloc': kr.VERSION, 'file': '/src/include/h.h', 'line': 7, 'column': 9,
           'function': 'h_new', 'allocator': 'kmalloc', 'kind': 'array', 'pointee': 'int',
           'count': 'n', 'counter': None, 'counter_left': None, 'rewrites': ['saturate'],
           'warnings': []}
    recs.append(dict(hdr, unit='/src/lib/a.c'))
    recs.append(dict(hdr, unit='/src/lib/b.c'))
    for probe in ('/tmp/build/conftest.c', '<stdin>', '/x/CMakeFiles/CMakeScratch/t/CheckFunctionExists.c'):
        recs.append(dict(hdr, file=probe, line=1))
    recs.append({'kalloc': kr.VERSION, 'wrapper': 'drv_alloc', 'roles': 'size,gfp',
                 'file': '/src/lib/a.c', 'line': 4, 'linkage': 'extern', 'calls': 'kmalloc'})
    with open(path, 'w') as f:
        for r in recs:
            f.write(json.dumps(r) + '\n')


# ---- the dumped page ----------------------------------------------------------

class Dom(html.parser.HTMLParser):
    """The site rows drawn (data-i, in order), <pre id="selftest">'s text
    and the page's data."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.selftest, self.data = [], None, None
        self._in = None
        self._text = []
        self._body = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'tbody' and a.get('id') == 'sites-body':
            self._body = True
        elif tag == 'tr' and self._body and 'data-i' in a:
            self.rows.append(int(a['data-i']))
        elif tag == 'pre' and a.get('id') == 'selftest':
            self._in, self._text = 'selftest', []
        elif tag == 'script' and a.get('id') == 'kalloc-data':
            self._in, self._text = 'data', []

    def handle_endtag(self, tag):
        if tag == 'tbody':
            self._body = False
        elif self._in and tag in ('pre', 'script'):
            text = ''.join(self._text)
            if self._in == 'selftest':
                self.selftest = json.loads(text)
            else:
                self.data = json.loads(text)
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._text.append(data)


def chromium():
    exe = shutil.which('chromium')
    if exe:
        return exe
    p = subprocess.run([os.path.join(TOP, 'testsuite', 'apt-install.sh'), 'chromium'])
    exe = shutil.which('chromium')
    if p.returncode or not exe:
        print('report-html: chromium is not installed and testsuite/apt-install.sh could not install it')
        return None
    return exe


def browser(exe, args, timeout=300):
    cmd = [exe, '--headless', '--no-sandbox', '--disable-gpu',
           '--user-data-dir=%s' % os.path.join(WORK, 'chromium-profile')] + args
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, text=True, errors='replace')


def make_page(name, reports, srcdirs):
    page = os.path.join(WORK, name + '.html')
    # Reports named from the checkout, as the page then shows them.
    cmd = [sys.executable, TOOL, 'html', '-o', page] + \
        ['--srcdir=%s' % d for d in srcdirs] + [os.path.relpath(r, TOP) for r in reports]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=TOP)
    if p.returncode:
        return None, p.stdout
    plant = os.environ.get('KALLOC_REPORT_HTML_PLANT')
    if plant:
        with open(page) as f:
            text = f.read()
        old, new = PLANTS[plant]
        if old not in text:
            return None, 'cannot plant a broken %s: %r is not in the page' % (plant, old)
        with open(page, 'w') as f:
            f.write(text.replace(old, new))
    return page, ''


def hay(files, s):
    """What the filter box searches in a site, as the page's script has it."""
    def text(v):
        return '' if v is None else str(v)
    fields = ['%s:%s' % (files[s[0]][0], s[1]), s[3], s[4], s[5], 'typed' if s[6] else '',
              s[7], s[8], s[9], s[10], s[11], s[12]]
    return ' '.join(text(v) for v in fields).lower()


COLS = {'function': 3, 'allocator': 4, 'kind': 5, 'pointee': 7, 'count': 8,
        'counter': 9, 'rewrites': 10, 'warnings': 11}


def expected(data, col, desc, filt, only_warned=False):
    files, sites = data['files'], data['sites']
    filt = filt.strip().lower()
    rows = [i for i, s in enumerate(sites)
            if (not filt or filt in hay(files, s)) and (not only_warned or s[11])]
    if col == 'file':
        def key(i):
            return (files[sites[i][0]][0], sites[i][1] or 0)
    else:
        def key(i):
            v = sites[i][COLS[col]]
            return '' if v is None else str(v)
    # Ties stay in the page's order (file:line), descending or not.
    return sorted(rows, key=key, reverse=desc)


def check_page(exe, name, page, sites, col, desc, filt, toggle='', first=True):
    """Load PAGE with a selftest fragment; check the rows against SITES
    (the report's unique sites, as kalloc-report's load () gives them)."""
    frag = 'selftest&sort=%s%s&filter=%s%s&all' % (
        col, '&desc' if desc else '', urllib.parse.quote(filt), '&toggle=' + toggle if toggle else '')
    what = '%s: sort %s%s, filter %r%s' % (name, col, ' desc' if desc else '', filt,
                                           ', ' + toggle if toggle else '')
    t0 = time.time()
    try:
        p = browser(exe, ['--dump-dom', 'file://%s#%s' % (page, frag)])
    except subprocess.TimeoutExpired:
        return verdict(what, False, 'chromium timed out')
    took = time.time() - t0
    dom = Dom()
    dom.feed(p.stdout)
    if p.returncode or dom.selftest is None or dom.data is None:
        return verdict(what, False, 'chromium exit %d, no selftest result in the page (%s)'
                       % (p.returncode, p.stderr.strip().splitlines()[-1:] or ''))
    data = dom.data
    # Every site, once, no probe.
    mine = sorted('%s:%s:%s:%s' % (data['files'][s[0]][0], s[1], s[2], s[4]) for s in data['sites'])
    want = sorted('%s:%s:%s:%s' % (s['file'], s.get('line'), s.get('column'), s.get('allocator'))
                  for s in sites)
    if first:
        verdict('%s: the page holds the %d sites of the report' % (name, len(want)), mine == want,
                '%d in the page, %d only in the report, %d only in the page'
                % (len(mine), len(set(want) - set(mine)), len(set(mine) - set(want))))
    exp = expected(data, col, desc, filt, 'only-warned' in toggle)
    st = dom.selftest
    ok_count = st.get('shown') == len(exp) and len(dom.rows) == len(exp)
    verdict('%s: the filter leaves %d rows' % (what, len(exp)), ok_count,
            'the page says %s matching, %d drawn' % (st.get('shown'), len(dom.rows)))
    bad = next((k for k, (a, b) in enumerate(zip(dom.rows, exp)) if a != b), None)
    verdict('%s: the rows in sort order' % what, ok_count and bad is None,
            'row %s: %s, expected %s' % (bad, dom.rows[bad] if bad is not None else '-',
                                         exp[bad] if bad is not None else '-')
            if bad is not None else 'the row count differs')
    ms = st.get('load_ms')
    verdict('%s: first rendering %s ms after navigation (limit %d; chromium ran %.1f s)'
            % (name, ms, LOAD_LIMIT_MS, took),
            isinstance(ms, (int, float)) and ms < LOAD_LIMIT_MS)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--planted-only', action='store_true',
                    help='not the defconfig report, even when it is there')
    ap.add_argument('--screenshot', metavar='FILE',
                    help='also a 1280x900 screenshot of the defconfig page')
    args = ap.parse_args()
    if os.environ.get('KALLOC_REPORT_HTML_PLANT', '') not in ('', ) + tuple(PLANTS):
        print('report-html: KALLOC_REPORT_HTML_PLANT is sort or filter')
        return 2
    os.makedirs(WORK, exist_ok=True)
    exe = chromium()
    if not exe:
        return kharness.cannot_run('report-html')

    cases = []
    report = os.path.join(WORK, 'planted.jsonl')
    planted(report)
    cases.append(('planted', [report], [], [
        ('allocator', True, 'kzalloc', ''),
        ('file', False, 'drivers/', 'only-warned'),
        ('pointee', False, '', ''),
    ]))
    defconfig = os.path.join(DEFCONFIG, 'report.jsonl')
    if not args.planted_only and os.path.exists(defconfig):
        src = os.path.join(TOP, 'build', 'defconfig', 'src-6.12')
        cases.append(('defconfig 6.12', [defconfig], [src] if os.path.isdir(src) else [], [
            ('allocator', True, 'kzalloc', ''),
            ('file', False, '', ''),
        ]))
    elif not args.planted_only:
        print('report-html: no %s (make check-defconfig): the planted report only' % defconfig)

    for name, reports, srcdirs, runs in cases:
        page, why = make_page(name.split()[0], reports, srcdirs)
        if not verdict('%s: kalloc-report html makes the page' % name, page is not None, why):
            continue
        sites = kr.load(reports, [os.path.normpath(os.path.abspath(d)) for d in srcdirs])[0]
        if name == 'planted':
            # The planted report's own count, not kalloc-report's.
            verdict('planted: 62 sites, the three probes left out', len(sites) == 62,
                    '%d sites' % len(sites))
        for n, (col, desc, filt, toggle) in enumerate(runs):
            check_page(exe, name, page, sites, col, desc, filt, toggle, n == 0)
        shot = args.screenshot if name != 'planted' else None
        if shot:
            p = browser(exe, ['--hide-scrollbars', '--window-size=1280,900',
                              '--screenshot=%s' % os.path.abspath(shot), 'file://%s' % page])
            verdict('%s: screenshot %s' % (name, shot),
                    p.returncode == 0 and os.path.exists(shot), p.stderr[-300:])

    return kharness.summary('report-html', results['passed'], results['failed'])


if __name__ == '__main__':
    sys.exit(main())
