#!/usr/bin/env python3
"""kalloc-report - read the reports of kalloc, the GCC plugin.

  kalloc-report summary [--srcdir DIR]... [--brief] [--depth N] [--wrappers FILE] REPORT...
  kalloc-report list [--srcdir DIR]... [--rewritten] [--warned] [--kind K]... [--dir D]... REPORT...
  kalloc-report wrappers [--srcdir DIR]... [-o FILE] REPORT...
  kalloc-report compare [--ignore FIELD]... [--strip PREFIX]... A B
  kalloc-report html [-o FILE] [--srcdir DIR]... [--depth N] REPORT...
  kalloc-report --version

A report is what -fplugin-arg-kalloc-report=FILE appends: one JSON object
a line per allocation site and compilation, and one per allocator
wrapper learnt from its body.  A site in a header is reported once per
file that includes it; kalloc-report counts a site once per
file:line:column:allocator ("unique sites") and merges what was done to
it.  Compiler probes (Kconfig's and Kbuild's $(CC) tests, read from
standard input or /dev/null; configure's conftest.c; CMake's and Meson's
try-compiles) are told by what they are, not by where the build is, and
counted apart.  --srcdir DIR strips DIR from file names.

summary   counts the sites by kind, typed and legacy, allocator and
          directory (--depth components, default 1), the rewrites, the
          warnings, the counters stored and left alone (with why), and
          lists every warned site, counter store, counter left alone and
          wrapper; --brief prints one line; --wrappers FILE also writes
          the wrapper file.
list      one line a site, "FILE:LINE: ALLOCATOR KIND REWRITES WARNINGS"
          ("-" for none), those matching every filter given.
wrappers  the wrapper file for -fplugin-arg-kalloc-wrappers=FILE: one
          NAME:ROLES line per wrapper other files can call (extern, or
          defined in a header), with a comment saying where it is
          defined; a name learnt with two role lists is left out, with a
          comment.
compare   two reports site for site, order and kalloc's version aside
          (--ignore a field, --strip a tree's prefix from file names):
          "lost:" (in A only), "added:" (in B only), "changed:" (with the
          fields that differ), then "compare: N same, N added, N lost,
          N changed"; exit 1 when they differ.
html      one self-contained HTML page (no network): totals, bars, a
          table of directories (--depth components, default 2) and a
          table of sites to sort (click a header) and filter.

Exit status: 0; 1 when compare finds a difference; 2 for bad input (a
report that cannot be read, that holds no record, or a line that is not
JSON).
"""
import argparse
import html
import json
import os
import re
import sys
import urllib.parse
from collections import Counter, OrderedDict

# make install writes the Makefile's VERSION here.
VERSION = '0.1'
PROG = 'kalloc-report'

KINDS = ('object', 'array', 'flex', 'opaque')
REWRITES = ('saturate', 'counter-check', 'counter-store')
WARNINGS = ('object', 'array', 'flex', 'type')


class BadInput(Exception):
    """A report that cannot be read or holds no record."""


def relname(name, srcdirs):
    if not name:
        return '?'
    norm = os.path.normpath(name)
    for d in srcdirs:
        if norm.startswith(d + os.sep):
            return norm[len(d) + 1:]
    return name


# What compiler probes are, by what they are rather than where they live:
# autoconf's conftest.c, CMake's and Meson's try-compiles.  Kbuild's
# $(CC) tests and cc-option read standard input or /dev/null.
PROBE_FILE = re.compile(r'(^|/)(conftest\.c|CMakeCCompilerId\.c|CheckFunctionExists\.c'
                        r'|CheckSymbolExists\.c|CheckIncludeFile\.c)$'
                        r'|/CMakeFiles/(CMakeTmp|CMakeScratch)/|/meson-private/')


def is_probe(fname, srcdirs=None):
    """A compiler probe of the build (Kbuild's cc-option, a configure or
    CMake test), whatever directory the build is in; SRCDIRS is not
    consulted (a module built under /tmp is real code)."""
    if fname in ('<stdin>', '-', '/dev/null'):
        return True
    return bool(PROBE_FILE.search(fname))


def records(path, counts=None):
    """The JSON objects of the report PATH, one a line; a line that is
    not a JSON object is counted in COUNTS['bad'] and said on stderr.
    OSError when PATH cannot be read."""
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                rec = None
            if not isinstance(rec, dict):
                if counts is not None:
                    counts['bad'] = counts.get('bad', 0) + 1
                sys.stderr.write('%s: %s:%d: not JSON\n' % (PROG, path, n))
                continue
            yield rec


def load(paths, srcdirs, wrappers=None, empty=None):
    """Unique sites of the reports PATHS (file names relative to the first
    of SRCDIRS they are in), and how many site records, probe records
    and bad lines they held: (sites, raw, probes, bad).  Wrapper records
    go to the dict WRAPPERS (name: [records]) when given; the reports
    that hold no record at all are appended to the list EMPTY."""
    sites = OrderedDict()
    raw = probes = 0
    counts = {}
    for path in paths:
        n = 0
        for rec in records(path, counts):
            n += 1
            if 'wrapper' in rec:
                if wrappers is not None:
                    rec['file'] = relname(rec.get('file'), srcdirs)
                    wrappers.setdefault(rec['wrapper'], []).append(rec)
                continue
            raw += 1
            fname = rec.get('file') or ''
            if is_probe(fname, srcdirs):
                probes += 1
                continue
            rec['file'] = relname(fname, srcdirs)
            key = (rec['file'], rec.get('line'), rec.get('column'), rec.get('allocator'))
            old = sites.get(key)
            if old is None:
                rec['_seen'] = 1
                sites[key] = rec
            else:
                # One site in a header, compiled in many files: merge
                # what was done to it.
                old['_seen'] += 1
                for k in ('rewrites', 'warnings'):
                    for v in rec.get(k) or []:
                        if v not in old.setdefault(k, []):
                            old[k].append(v)
        if n == 0 and empty is not None:
            empty.append(path)
    return list(sites.values()), raw, probes, counts.get('bad', 0)


def load_checked(paths, srcdirs, wrappers=None):
    """load (), raising BadInput for a report that cannot be read or
    holds no record."""
    empty = []
    try:
        result = load(paths, srcdirs, wrappers, empty)
    except OSError as e:
        raise BadInput('%s: cannot read the report: %s'
                       % (e.filename or '?', e.strerror or e))
    if empty:
        raise BadInput('%s: empty report: no record (was it written by '
                       '-fplugin-arg-kalloc-report=?)' % ', '.join(empty))
    return result


def summarise(sites):
    kinds = Counter(s.get('kind', '?') for s in sites)
    rew = Counter(r for s in sites for r in s.get('rewrites') or [])
    rewritten = sum(1 for s in sites if s.get('rewrites'))
    warn = Counter(w for s in sites for w in s.get('warnings') or [])
    warned = [s for s in sites if s.get('warnings')]
    return kinds, rew, rewritten, warn, warned


def directory(fname, depth):
    """The first DEPTH components of FNAME's directory ('.' for none)."""
    d = os.path.dirname(os.path.normpath(fname))
    if not d:
        return '.'
    absolute = d.startswith('/')
    parts = [p for p in d.split('/') if p][:max(depth, 1)]
    return ('/' if absolute else '') + '/'.join(parts)


def by_directory(sites, depth):
    """OrderedDict directory: {sites, KIND..., rewritten, warned}, most
    sites first."""
    dirs = {}
    for s in sites:
        d = dirs.setdefault(directory(s['file'], depth),
                            Counter(sites=0, rewritten=0, warned=0))
        d['sites'] += 1
        d[s.get('kind', '?')] += 1
        d['rewritten'] += bool(s.get('rewrites'))
        d['warned'] += bool(s.get('warnings'))
    return OrderedDict(sorted(dirs.items(), key=lambda kv: (-kv[1]['sites'], kv[0])))


def callable_elsewhere(rec):
    """Can other files call this wrapper: extern, or in a header?"""
    return rec.get('linkage') == 'extern' or not str(rec.get('file')).endswith('.c')


def wrapper_lines(wrappers):
    """The wrapper file's lines, and how many wrappers it lists."""
    lines = ['# kalloc wrapper file (make report WRAPPERS=FILE): '
             'NAME:ROLES as -fplugin-arg-kalloc-alloc= takes them']
    listed = 0
    for name in sorted(wrappers):
        recs = [r for r in wrappers[name] if callable_elsewhere(r)]
        if not recs:
            continue
        roles = sorted(set(r.get('roles') for r in recs))
        where = sorted(set('%s:%s' % (os.path.normpath(str(r.get('file'))), r.get('line'))
                           for r in recs))
        if len(roles) > 1:
            lines.append('# %s left out: roles %s differ (%s)'
                         % (name, ' and '.join(roles), ', '.join(where)))
            continue
        lines.append('%s:%s  # %s, calls %s'
                     % (name, roles[0], ', '.join(where), recs[0].get('calls')))
        listed += 1
    return lines, listed


def fmt_counter(counter, names):
    extra = sorted(k for k in counter if k not in names)
    return ', '.join('%s %d' % (k, counter.get(k, 0)) for k in list(names) + extra)


def most_first(counter, top=None):
    """'NAME N, ...', most first; past TOP names, the rest as one 'N others M'."""
    items = sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0])))
    rest = items[top:] if top else []
    items = items[:top] if top else items
    return ', '.join(['%s %d' % kv for kv in items]
                     + (['%d others %d' % (len(rest), sum(n for _k, n in rest))] if rest else []))


def srcdirs_of(args):
    return [os.path.normpath(os.path.abspath(d)) for d in getattr(args, 'srcdir', None) or []]


def by_place(s):
    return (s['file'], s.get('line') or 0, s.get('column') or 0, s.get('allocator') or '')


# ---- summary ------------------------------------------------------------------

def cmd_summary(args):
    srcdirs = srcdirs_of(args)
    wrappers = OrderedDict()
    sites, raw, probes, bad = load_checked(args.reports, srcdirs, wrappers)
    lines, listed = wrapper_lines(wrappers)
    if args.wrappers:
        with open(args.wrappers, 'w') as f:
            f.write('\n'.join(lines) + '\n')
    kinds, rew, rewritten, warn, warned = summarise(sites)
    files = len(set(s['file'] for s in sites))
    if args.brief:
        print('sites %d (%s); rewritten %d (%s); warnings %d'
              % (len(sites), fmt_counter(kinds, KINDS), rewritten,
                 fmt_counter(rew, REWRITES), len(warned)))
        return 2 if bad else 0
    print('report: %s' % ' '.join(args.reports))
    print('  entries: %d (%d from compiler probes)%s'
          % (raw, probes, ', %d unreadable' % bad if bad else ''))
    print('  unique sites: %d in %d files' % (len(sites), files))
    print('  by kind: %s' % fmt_counter(kinds, KINDS))
    typed = Counter(s.get('kind') for s in sites if s.get('typed'))
    print('  typed (Linux 7.x kmalloc_obj() and friends, left as written): %d (%s);'
          ' legacy: %d (%s)'
          % (sum(typed.values()), fmt_counter(typed, KINDS), len(sites) - sum(typed.values()),
             fmt_counter(kinds - typed, KINDS)))
    print('  by allocator: %s' % (most_first(Counter(s.get('allocator') for s in sites), 12)
                                  or 'none'))
    print('  rewritten: %d sites (%s)' % (rewritten, fmt_counter(rew, REWRITES)))
    print('  warnings: %d sites (%s)' % (len(warned), fmt_counter(warn, WARNINGS)))
    left_why = Counter(s.get('counter_left') for s in sites if s.get('counter_left'))
    print('  counters: %d stored, %d left alone%s'
          % (rew.get('counter-store', 0), sum(left_why.values()),
             ' (%s)' % most_first(left_why) if left_why else ''))
    print('  wrappers learnt: %d (%d other files can call%s)'
          % (len(wrappers), listed,
             ', written to %s' % args.wrappers if args.wrappers else ''))
    dirs = by_directory(sites, args.depth)
    print('  by directory: %d (%d component%s)'
          % (len(dirs), args.depth, '' if args.depth == 1 else 's'))
    for d, c in dirs.items():
        print('    dir %s: %d sites (%s), %d rewritten, %d warned'
              % (d, c['sites'], ', '.join('%s %d' % (k, c[k]) for k in KINDS if c[k]),
                 c['rewritten'], c['warned']))
    for s in sorted(warned, key=by_place):
        print('    warning: %s:%s: %s: %s %s pointee=%s count=%s: %s'
              % (s['file'], s.get('line'), s.get('function'), s.get('allocator'),
                 s.get('kind'), s.get('pointee'), s.get('count'),
                 ','.join(s.get('warnings'))))
    counters = [s for s in sites if 'counter-store' in (s.get('rewrites') or [])]
    for s in sorted(counters, key=by_place):
        print('    counter-store: %s:%s: %s: %s->%s = %s'
              % (s['file'], s.get('line'), s.get('function'), s.get('pointee'),
                 s.get('counter'), s.get('count')))
    left = [s for s in sites if s.get('counter_left')]
    for s in sorted(left, key=by_place):
        print('    counter-left: %s:%s: %s: %s->%s: %s'
              % (s['file'], s.get('line'), s.get('function'), s.get('pointee'),
                 s.get('counter'), s.get('counter_left')))
    for line in lines[1:]:
        print('    wrapper: %s' % line)
    return 2 if bad else 0


# ---- list ---------------------------------------------------------------------

def under(fname, dirs):
    for d in dirs:
        d = os.path.normpath(d)
        if d in ('', '.') or fname == d or fname.startswith(d.rstrip('/') + '/'):
            return True
    return False


def cmd_list(args):
    for k in args.kind or []:
        if k not in KINDS:
            raise BadInput('--kind %s: a kind is one of %s' % (k, ', '.join(KINDS)))
    sites, _raw, _probes, bad = load_checked(args.reports, srcdirs_of(args))
    for s in sorted(sites, key=by_place):
        if args.rewritten and not s.get('rewrites'):
            continue
        if args.warned and not s.get('warnings'):
            continue
        if args.kind and s.get('kind') not in args.kind:
            continue
        if args.dir and not under(s['file'], args.dir):
            continue
        print('%s:%s: %s %s %s %s'
              % (s['file'], s.get('line'), s.get('allocator'), s.get('kind'),
                 ','.join(s.get('rewrites') or []) or '-',
                 ','.join(s.get('warnings') or []) or '-'))
    return 2 if bad else 0


# ---- wrappers -----------------------------------------------------------------

def cmd_wrappers(args):
    wrappers = OrderedDict()
    _sites, _raw, _probes, bad = load_checked(args.reports, srcdirs_of(args), wrappers)
    lines, _listed = wrapper_lines(wrappers)
    text = '\n'.join(lines) + '\n'
    if args.output and args.output != '-':
        with open(args.output, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 2 if bad else 0


# ---- compare ------------------------------------------------------------------

def stripped(name, strip):
    for prefix in strip:
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def compare_load(path, ignore, strip):
    """{key: set of records as JSON}: a site keyed by file, line, column
    and allocator, a wrapper by name, file and line; probes left out."""
    sites = {}
    try:
        recs = list(records(path))
    except OSError as e:
        raise BadInput('%s: cannot read the report: %s' % (path, e.strerror or e))
    if not recs:
        raise BadInput('%s: empty report: no record (was it written by '
                       '-fplugin-arg-kalloc-report=?)' % path)
    for r in recs:
        if 'wrapper' not in r and is_probe(r.get('file') or ''):
            continue
        for field in ('file', 'unit'):
            if field in r:
                r[field] = stripped(r[field] or '', strip)
        name = r.get('file', '')
        if 'wrapper' in r:
            key = ('wrapper', r['wrapper'], name, r.get('line'))
        else:
            key = (name, r.get('line'), r.get('column'), r.get('allocator'))
        rec = {k: v for k, v in r.items() if k != 'kalloc' and k not in ignore}
        sites.setdefault(key, set()).add(json.dumps(rec, sort_keys=True))
    return sites


def where(key):
    return ':'.join(str(k) for k in key if k is not None)


def diff_fields(a, b):
    ra = [json.loads(x) for x in sorted(a)]
    rb = [json.loads(x) for x in sorted(b)]
    fields = set()
    for x in ra:
        for y in rb:
            fields |= {k for k in set(x) | set(y) if x.get(k) != y.get(k)}
    return ', '.join('%s %s -> %s' % (k, [x.get(k) for x in ra], [y.get(k) for y in rb])
                     for k in sorted(fields))


def cmd_compare(args):
    a = compare_load(args.a, set(args.ignore), args.strip)
    b = compare_load(args.b, set(args.ignore), args.strip)
    same = added = lost = changed = 0
    for key in sorted(set(a) | set(b), key=lambda k: [str(x) for x in k]):
        if key not in b:
            lost += 1
            print('lost: %s' % where(key))
        elif key not in a:
            added += 1
            print('added: %s' % where(key))
        elif a[key] != b[key]:
            changed += 1
            print('changed: %s: %s' % (where(key), diff_fields(a[key], b[key])))
        else:
            same += 1
    print('compare: %d same, %d added, %d lost, %d changed' % (same, added, lost, changed))
    return 0 if added == lost == changed == 0 else 1


# ---- html ---------------------------------------------------------------------

HTML_CSS = r"""
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em 2em; color: #1d1d1f; background: #fff; }
h1 { font-size: 1.5em; margin: 0 0 .2em; } h2 { font-size: 1.15em; margin: 1.4em 0 .5em; }
.meta { color: #666; margin: 0 0 1em; } code { font-size: 13px; }
.cards { display: flex; flex-wrap: wrap; gap: .5em; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: .35em .7em; min-width: 5.5em; background: #fafafa; }
.card b { display: block; font-size: 1.35em; } .card span { color: #555; font-size: .85em; }
.overview { display: flex; flex-wrap: wrap; gap: 2.5em; align-items: flex-start; }
.charts { width: 26em; }
.overview h2 { margin-top: .9em; }
.bar { display: flex; align-items: center; margin: .1em 0; }
.bar .l { width: 8em; } .bar .n { width: 4.5em; text-align: right; color: #444; padding-left: .5em; }
.bar .t { flex: 1; background: #eee; border-radius: 3px; height: .9em; overflow: hidden; }
.bar .f { height: 100%; background: #4a78c2; } .bar .f.r { background: #2e8b57; } .bar .f.w { background: #c0392b; } .bar .f.none { background: #aaa; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: .2em .6em; text-align: left; border-bottom: 1px solid #eee; white-space: nowrap; }
td.n, th.n { text-align: right; }
thead th { background: #f0f0f0; position: sticky; top: 0; }
#sites thead th { cursor: pointer; user-select: none; }
#sites thead th.asc::after { content: " \25B2"; } #sites thead th.desc::after { content: " \25BC"; }
#dirs tbody tr { cursor: pointer; } #dirs tbody tr:hover, #sites tbody tr:hover { background: #f3f7ff; }
.dirs { max-height: 23em; overflow: auto; display: inline-block; border: 1px solid #ddd; }
.controls { display: flex; flex-wrap: wrap; gap: 1em; align-items: center; margin: .5em 0; position: sticky; top: 0; background: #fff; padding: .4em 0; z-index: 2; }
.controls input[type=search] { width: 24em; padding: .3em; font: inherit; }
#count { color: #555; }
#more { margin: .6em 0; padding: .3em 1em; font: inherit; }
td.rw { color: #2e8b57; } td.wn { color: #c0392b; font-weight: bold; }
.typed { font-size: .8em; color: #fff; background: #777; border-radius: 3px; padding: 0 .3em; margin-left: .3em; }
a { color: #1a55b0; text-decoration: none; } a:hover { text-decoration: underline; }
"""

# The page's script.  One listener each on the table's header, the
# filter box, the toggles and the directory table; the site table is
# drawn from strings, 500 rows at a time.  "#selftest&sort=COL[&desc]
# [&filter=TEXT][&toggle=NAME,...]" clicks the header, types the filter,
# clicks the toggles (&all: draws every row), and writes the time the
# first rendering ended (performance.now ()), the rows matching and the
# rows drawn into <pre id="selftest">.  The table holds the first 500
# rows matching; the others are drawn as "more" scrolls into view.
HTML_JS = r"""
(function () {
"use strict";
var D = JSON.parse(document.getElementById("kalloc-data").textContent);
var F = D.files, S = D.sites, N = S.length;
var body = document.getElementById("sites-body"), head = document.getElementById("sites-head");
var box = document.getElementById("filter"), count = document.getElementById("count");
var controls = document.getElementById("controls");
/* a site: [file, line, column, function, allocator, kind, typed, pointee, count, counter, rewrites, warnings, counter_left] */
var COL = { file: 0, "function": 3, allocator: 4, kind: 5, pointee: 7, count: 8, counter: 9, rewrites: 10, warnings: 11 };
var st = { col: null, desc: false, text: "", kinds: { object: 1, array: 1, flex: 1, opaque: 1 }, rewritten: false, warned: false };
function esc(v) { return String(v).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
function str(v) { return v === null || v === undefined ? "" : String(v); }
var hay = new Array(N);
for (var i = 0; i < N; i++) {
  var s = S[i];
  hay[i] = [F[s[0]][0] + ":" + s[1], s[3], s[4], s[5], s[6] ? "typed" : "", s[7], s[8], s[9], s[10], s[11], s[12]]
    .map(str).join(" ").toLowerCase();
}
function scmp(x, y) { return x < y ? -1 : x > y ? 1 : 0; }
function cmp(a, b) {
  var x = S[a], y = S[b], r;
  if (st.col === "file") r = scmp(F[x[0]][0], F[y[0]][0]) || (x[1] || 0) - (y[1] || 0);
  else { var c = COL[st.col]; r = scmp(str(x[c]), str(y[c])); }
  if (st.desc) r = -r;
  return r || a - b;
}
function match(i) {
  var s = S[i];
  if (!st.kinds[s[5]] && s[5] in st.kinds) return false;
  if (st.rewritten && !s[10]) return false;
  if (st.warned && !s[11]) return false;
  return st.text === "" || hay[i].indexOf(st.text) >= 0;
}
function cell(v, cls) { return "<td" + (cls ? " class=\"" + cls + "\"" : "") + ">" + esc(str(v)) + "</td>"; }
function row(j) {
  var s = S[j], f = F[s[0]], where = esc(f[0] + ":" + s[1]);
  return "<tr data-i=\"" + j + "\"><td>" + (f[1] ? "<a href=\"" + esc(f[1]) + "\">" + where + "</a>" : where) + "</td>" +
    cell(s[3]) + cell(s[4]) + "<td>" + esc(s[5]) + (s[6] ? "<span class=\"typed\">typed</span>" : "") + "</td>" +
    cell(s[7]) + cell(s[8]) + cell(s[9] ? s[9] + (s[12] ? " (left: " + s[12] + ")" : "") : "") +
    cell(s[10], "rw") + cell(s[11], "wn") + "</tr>";
}
/* The rows matching, in order; the first DRAWN of them are in the table,
   the others are drawn when "more" scrolls into view or is clicked. */
var CHUNK = 500, cur = [], drawn = 0, more = document.getElementById("more");
function draw(upto) {
  if (upto > cur.length) upto = cur.length;
  if (upto > drawn) {
    var out = new Array(upto - drawn);
    for (var k = drawn; k < upto; k++) out[k - drawn] = row(cur[k]);
    body.insertAdjacentHTML("beforeend", out.join(""));
    drawn = upto;
  }
  more.style.display = drawn < cur.length ? "" : "none";
  more.textContent = "show the other " + (cur.length - drawn) + " sites";
}
function render() {
  var rows = [];
  for (var i = 0; i < N; i++) {
    if (!match(i)) continue;
    rows.push(i);
  }
  if (st.col) rows.sort(cmp);
  cur = rows;
  drawn = 0;
  body.innerHTML = "";
  draw(CHUNK);
  count.textContent = rows.length + " of " + N + " sites";
  var ths = head.getElementsByTagName("th");
  for (var t = 0; t < ths.length; t++)
    ths[t].className = ths[t].getAttribute("data-col") === st.col ? (st.desc ? "desc" : "asc") : "";
}
more.addEventListener("click", function () { draw(cur.length); });
if (window.IntersectionObserver)
  new IntersectionObserver(function (es) { if (es[0].isIntersecting) draw(drawn + 4 * CHUNK); }).observe(more);
head.addEventListener("click", function (e) {
  var th = e.target.closest("th");
  if (!th) return;
  var c = th.getAttribute("data-col");
  if (st.col === c) st.desc = !st.desc; else { st.col = c; st.desc = false; }
  render();
});
box.addEventListener("input", function () { st.text = box.value.trim().toLowerCase(); render(); });
controls.addEventListener("change", function (e) {
  var t = e.target, k = t.getAttribute("data-kind");
  if (k) st.kinds[k] = t.checked ? 1 : 0;
  else if (t.id === "only-rewritten") st.rewritten = t.checked;
  else if (t.id === "only-warned") st.warned = t.checked;
  else return;
  render();
});
document.getElementById("dirs").addEventListener("click", function (e) {
  var tr = e.target.closest("tr[data-dir]");
  if (!tr) return;
  box.value = tr.getAttribute("data-dir") + "/";
  st.text = box.value.toLowerCase();
  render();
  document.getElementById("sites-title").scrollIntoView();
});
render();
var loaded = performance.now();
var h = location.hash.replace(/^#/, "");
if (h.split("&")[0] === "selftest") {
  var p = {};
  h.split("&").slice(1).forEach(function (kv) {
    var e = kv.indexOf("=");
    if (e < 0) p[decodeURIComponent(kv)] = ""; else p[decodeURIComponent(kv.slice(0, e))] = decodeURIComponent(kv.slice(e + 1));
  });
  var t0 = performance.now(), col = p.sort || "allocator";
  var th = head.querySelector("th[data-col=\"" + col + "\"]");
  if (th) { th.click(); if ("desc" in p) th.click(); }
  if (p.filter) { box.value = p.filter; box.dispatchEvent(new Event("input", { bubbles: true })); }
  (p.toggle ? p.toggle.split(",") : []).forEach(function (id) {
    var el = document.getElementById(id) || controls.querySelector("[data-kind=\"" + id + "\"]");
    if (el) el.click();
  });
  if ("all" in p) more.click();
  var pre = document.createElement("pre");
  pre.id = "selftest";
  pre.textContent = JSON.stringify({ total: N, shown: cur.length, drawn: body.rows.length, sort: st.col, desc: st.desc,
    filter: st.text, load_ms: Math.round(loaded * 10) / 10, selftest_ms: Math.round((performance.now() - t0) * 10) / 10 });
  document.body.appendChild(pre);
}
})();
"""


def bars(title, rows, total, cls=''):
    out = ['<div class="chart"><h2>%s</h2>' % html.escape(title)]
    for label, n in rows:
        pct = 100.0 * n / total if total else 0
        out.append('<div class="bar"><span class="l">%s</span><span class="t">'
                   '<span class="f%s" style="width:%.2f%%;display:block"></span></span>'
                   '<span class="n">%d</span></div>'
                   % (html.escape(label), ' none' if label == 'none' else ' ' + cls if cls else '',
                      pct, n))
    out.append('</div>')
    return '\n'.join(out)


def file_href(fname, srcdirs):
    """A file:// URL for FNAME when it is a file here (FNAME relative to
    one of SRCDIRS, or absolute), else ''."""
    cands = [fname] if os.path.isabs(fname) else [os.path.join(d, fname) for d in srcdirs]
    for c in cands:
        if os.path.isfile(c):
            return 'file://' + urllib.parse.quote(os.path.abspath(c))
    return ''


def opt(v):
    return None if v is None else str(v)


def page(reports, sites, raw, probes, wrappers, srcdirs, depth):
    kinds, rew, rewritten, warn, warned = summarise(sites)
    typed = sum(1 for s in sites if s.get('typed'))
    left = sum(1 for s in sites if s.get('counter_left'))
    versions = sorted(set(str(s.get('kalloc')) for s in sites if s.get('kalloc')))
    _lines, listed = wrapper_lines(wrappers)
    files, findex, rows = [], {}, []
    for s in sorted(sites, key=by_place):
        f = s['file']
        if f not in findex:
            findex[f] = len(files)
            files.append([f, file_href(f, srcdirs)])
        rows.append([findex[f], s.get('line'), s.get('column'), opt(s.get('function')),
                     opt(s.get('allocator')), opt(s.get('kind')), 1 if s.get('typed') else 0,
                     opt(s.get('pointee')), opt(s.get('count')), opt(s.get('counter')),
                     ','.join(s.get('rewrites') or []), ','.join(s.get('warnings') or []),
                     opt(s.get('counter_left')) or ''])
    data = json.dumps({'files': files, 'sites': rows}, separators=(',', ':'))
    data = data.replace('<', '\\u003c').replace('>', '\\u003e').replace('&', '\\u0026')
    n = len(sites)
    cards = [('sites', n), ('files', len(files)), ('rewritten', rewritten),
             ('warned', len(warned)), ('typed', typed), ('legacy', n - typed),
             ('counters stored', rew.get('counter-store', 0)), ('counters left', left),
             ('wrappers learnt', len(wrappers)), ('probe entries', probes)]
    dirs = by_directory(sites, depth)
    drows = []
    for d, c in dirs.items():
        drows.append('<tr data-dir="%s"><td>%s</td><td class="n">%d</td>%s'
                     '<td class="n">%d</td><td class="n">%d</td></tr>'
                     % (html.escape(d), html.escape(d), c['sites'],
                        ''.join('<td class="n">%d</td>' % c[k] for k in KINDS),
                        c['rewritten'], c['warned']))
    names = ', '.join(os.path.basename(r) for r in reports)
    cols = [('file', 'file:line'), ('function', 'function'), ('allocator', 'allocator'),
            ('kind', 'kind'), ('pointee', 'pointee'), ('count', 'count'),
            ('counter', 'counter'), ('rewrites', 'rewrites'), ('warnings', 'warnings')]
    js = HTML_JS
    return '\n'.join([
        '<!DOCTYPE html>',
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<title>kalloc report: %s</title>' % html.escape(names),
        '<style>%s</style></head><body>' % HTML_CSS,
        '<h1>kalloc report</h1>',
        '<p class="meta">%s &middot; %d entries, %d from compiler probes &middot; kalloc %s'
        ' &middot; %s %s</p>'
        % (html.escape(' '.join(reports)), raw, probes,
           html.escape(', '.join(versions) or '?'), PROG, VERSION),
        '<div class="cards">%s</div>' % ''.join(
            '<div class="card"><b>%d</b><span>%s</span></div>' % (v, html.escape(k))
            for k, v in cards),
        '<div class="overview"><div class="charts">',
        bars('Kinds', [(k, kinds.get(k, 0)) for k in KINDS]
             + [(k, v) for k, v in sorted(kinds.items()) if k not in KINDS], n),
        bars('Rewrites', [(k, rew.get(k, 0)) for k in REWRITES]
             + [('none', n - rewritten)], n, 'r'),
        bars('Warnings', [(k, warn.get(k, 0)) for k in WARNINGS]
             + [('none', n - len(warned))], n, 'w'),
        '</div><div>',
        '<h2>Directories (%d; click one to filter the sites)</h2>' % len(dirs),
        '<div class="dirs"><table id="dirs"><thead><tr><th>directory</th><th class="n">sites</th>%s'
        '<th class="n">rewritten</th><th class="n">warned</th></tr></thead><tbody>'
        % ''.join('<th class="n">%s</th>' % k for k in KINDS),
        '\n'.join(drows),
        '</tbody></table></div></div></div>',
        '<h2 id="sites-title">Sites</h2>',
        '<div class="controls" id="controls">'
        '<input type="search" id="filter" placeholder="filter: file, function, allocator, pointee, rewrite..." autocomplete="off">'
        + ''.join('<label><input type="checkbox" data-kind="%s" checked> %s</label>' % (k, k)
                  for k in KINDS)
        + '<label><input type="checkbox" id="only-rewritten"> rewritten only</label>'
          '<label><input type="checkbox" id="only-warned"> warned only</label>'
          '<span id="count"></span></div>',
        '<table id="sites"><thead id="sites-head"><tr>%s</tr></thead>'
        '<tbody id="sites-body"></tbody></table><button id="more" type="button">more</button>'
        % ''.join('<th data-col="%s">%s</th>' % c for c in cols),
        '<p class="meta">%d wrappers learnt, %d that other files can call '
        '(<code>kalloc-report wrappers</code> writes them as a wrapper file).</p>'
        % (len(wrappers), listed),
        '<script type="application/json" id="kalloc-data">%s</script>' % data,
        '<script>%s</script>' % js,
        '</body></html>', ''])


def cmd_html(args):
    srcdirs = srcdirs_of(args)
    wrappers = OrderedDict()
    sites, raw, probes, bad = load_checked(args.reports, srcdirs, wrappers)
    text = page(args.reports, sites, raw, probes, wrappers, srcdirs, args.depth)
    if args.output and args.output != '-':
        with open(args.output, 'w', encoding='utf-8') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 2 if bad else 0


# ---- the command line ---------------------------------------------------------

def parser():
    ap = argparse.ArgumentParser(
        prog=PROG, description='Read the reports of kalloc '
        '(-fplugin-arg-kalloc-report=FILE): summarise, list, compare, '
        'write a wrapper file or an HTML page.')
    ap.add_argument('--version', action='version', version='%s %s' % (PROG, VERSION))
    sub = ap.add_subparsers(dest='command', metavar='COMMAND')
    sub.required = True

    def common(p, srcdir=True):
        if srcdir:
            p.add_argument('--srcdir', action='append', default=[], metavar='DIR',
                           help='strip this directory from file names (repeatable)')
        p.add_argument('reports', nargs='+', metavar='REPORT')

    p = sub.add_parser('summary', help='counts, warned sites, counters, wrappers')
    p.add_argument('--brief', action='store_true', help='one line')
    p.add_argument('--depth', type=int, default=1, metavar='N',
                   help='directory components for "by directory" (default 1)')
    p.add_argument('--wrappers', metavar='FILE',
                   help='also write the wrappers learnt as a wrapper file')
    common(p)
    p.set_defaults(func=cmd_summary)

    p = sub.add_parser('list', help='one line a site: FILE:LINE: ALLOCATOR KIND REWRITES WARNINGS')
    p.add_argument('--rewritten', action='store_true', help='only sites kalloc rewrote')
    p.add_argument('--warned', action='store_true', help='only sites kalloc warned about')
    p.add_argument('--kind', action='append', metavar='K',
                   help='only sites of kind K (%s; repeatable)' % ', '.join(KINDS))
    p.add_argument('--dir', action='append', metavar='D',
                   help='only sites in directory D (after --srcdir; repeatable)')
    common(p)
    p.set_defaults(func=cmd_list)

    p = sub.add_parser('wrappers', help='the wrapper file for -fplugin-arg-kalloc-wrappers=')
    p.add_argument('-o', '--output', metavar='FILE', help='write it to FILE (default: stdout)')
    common(p)
    p.set_defaults(func=cmd_wrappers)

    p = sub.add_parser('compare', help='two reports site for site: added, lost, changed')
    p.add_argument('--ignore', action='append', default=[], metavar='FIELD',
                   help='a field left out of the comparison (repeatable)')
    p.add_argument('--strip', action='append', default=[], metavar='PREFIX',
                   help='a prefix removed from file names (repeatable)')
    p.add_argument('a', metavar='A')
    p.add_argument('b', metavar='B')
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser('html', help='one self-contained HTML page')
    p.add_argument('-o', '--output', metavar='FILE', help='write it to FILE (default: stdout)')
    p.add_argument('--depth', type=int, default=2, metavar='N',
                   help='directory components of the directory table (default 2)')
    common(p)
    p.set_defaults(func=cmd_html)
    return ap


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except BadInput as e:
        sys.stderr.write('%s: %s\n' % (PROG, e))
        return 2
    except BrokenPipeError:
        # kalloc-report list ... | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        sys.stderr.write('%s: %s\n' % (PROG, e))
        return 2


if __name__ == '__main__':
    sys.exit(main())
