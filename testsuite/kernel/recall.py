#!/usr/bin/env python3
"""recall.py [options] --obj OBJ --src SRC REPORT.jsonl... - how many of the
allocation calls a plain source search finds in the compiled .c files of
a kernel build are in kalloc's report.

The compiled files are the .c files named by the kbuild command files
OBJ/**/.*.o.cmd (the source and the .c files it includes).  The search
looks, in those files with comments and strings blanked, for calls to
every allocator of kalloc's table (as the plugin lists it with
-fplugin-arg-kalloc-list-allocators, so the two cannot drift apart): kmalloc(sizeof(*x)), kzalloc(sizeof(...)),
kcalloc(...), kmalloc_array(...), struct_size() sizes, kvmalloc,
devm_kzalloc... .  A found call is in the report when the report has a
site in the same file on one of the lines of its statement (from the
statement's first line to the call's closing parenthesis).

Every found call that is not in the report is put in a category:
  macro-use      written in a #define body of this file; the report has
                 the site at a line that uses the macro (counted as found)
  macro-unused   written in a #define body whose uses are not in the report
  allocator      inside a function that is itself an allocator (kalloc
                 skips allocator bodies: no site of the user's there)
  host           its file is a host program (scripts/, arch/*/tools/):
                 compiled by HOSTCC, without -D__KERNEL__ and without the
                 plugin, which the build gives to CC only
  not-compiled   its lines are not in the preprocessed file (#ifdef)
  not-reached    its function never reaches the pass: GCC drops unused
                 static functions before building SSA (checked with
                 kalloc's dump, -fplugin-arg-kalloc-dump)
  dead-branch    its function reaches the pass but the call does not: a
                 constant condition (IS_ENABLED(), a constant argument)
                 removed it first
  unexplained    none of these: a recall failure to look at
The last three are decided by recompiling the file from its kbuild
command line (the preprocessor, then the plugin with its dump), only for
calls that need it.

Options: --plugin PLUGIN (for the dump; default: the -fplugin= of the
command line), --examples N (per category, default 5), --json FILE (every
found call with its category), --jobs N.
The last line is
  recall: F found by search, R in report (P%), E explained, U unexplained
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import kharness  # noqa: E402
from kharness import kbuild_cmd  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
KEYWORDS = {'return', 'else', 'do', 'case', 'sizeof', 'typeof', '__typeof__',
            'if', 'while', 'for', 'switch', 'goto'}


def allocator_names(cc, plugin):
    """The allocators the plugin recognises, as it lists them itself
    (-fplugin-arg-kalloc-list-allocators), so the two cannot drift apart."""
    argv = [cc, '-fplugin=' + plugin, '-fplugin-arg-kalloc-list-allocators',
            '-fsyntax-only', '-x', 'c', '/dev/null']
    out = subprocess.run(argv, capture_output=True, text=True)
    names = [line.split()[0] for line in out.stdout.splitlines()
             if re.match(r'\w+\s+size=-?\d+ count=-?\d+ gfp=-?\d+$', line)]
    if out.returncode != 0 or not names:
        sys.exit('recall: no allocator list from %s: %s' % (' '.join(argv), out.stderr.strip()))
    return names


def compiler_and_plugin(sources, plugin):
    """The compiler the build used and its kalloc plugin (PLUGIN if given)."""
    for source, cmd in sorted(sources.items()):
        argv = compile_command(cmd, source)
        given = [a[len('-fplugin='):] for a in argv if a.startswith('-fplugin=')]
        if plugin or given:
            return argv[0], plugin or given[0]
    sys.exit('recall: the build used no -fplugin= and --plugin was not given')


# ---- the compiled files -----------------------------------------------------

class Moved:
    """A build tree moved after it was built: its command files and report
    still name the old source directory.  OLD is that directory, found
    from the first source path that does not exist but whose tail does
    under SRC; paths and command lines are rewritten from OLD to SRC."""
    old = None
    src = None

    @classmethod
    def learn(cls, path):
        if cls.old is not None or os.path.exists(path) or not path.startswith('/'):
            return
        parts = path.split('/')
        for k in range(2, len(parts)):
            if os.path.exists(os.path.join(cls.src, *parts[k:])):
                cls.old = '/'.join(parts[:k])
                return

    @classmethod
    def path(cls, p):
        if cls.old and (p == cls.old or p.startswith(cls.old + '/')):
            return cls.src + p[len(cls.old):]
        return p

    @classmethod
    def command(cls, cmd):
        return cmd.replace(cls.old + '/', cls.src + '/') if cls.old else cmd


def compiled_files(obj):
    """{source .c: (obj dir, command)} and {included .c: its includer}."""
    sources, included = {}, {}
    for root, name in kbuild_cmd.cmd_files(obj):
        cmd, source, deps = kbuild_cmd.read(os.path.join(root, name))
        deps = [d for d in deps if d.endswith('.c')]
        if not source or not source.endswith('.c') or not cmd:
            continue
        Moved.learn(source)
        source = os.path.realpath(Moved.path(os.path.join(obj, source)))
        sources[source] = Moved.command(cmd)
        for dep in deps:
            dep = os.path.realpath(Moved.path(os.path.join(obj, dep)))
            if dep != source:
                included.setdefault(dep, source)
    return sources, included


# ---- the search ---------------------------------------------------------------

def blank_comments(text):
    """TEXT with comments, strings and character literals turned into
    spaces (newlines kept, so offsets and lines stay)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '/' and text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
        elif c == '/' and text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            # blank what is between the quotes, keep the quotes
            for k in range(i + 1, min(j, n)):
                if out[k] != '\n':
                    out[k] = ' '
            i = j + 1
            continue
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != '\n':
                out[k] = ' '
        i = j
    return ''.join(out)


def line_starts(text):
    starts = [0]
    for m in re.finditer('\n', text):
        starts.append(m.end())
    return starts


def line_of(starts, offset):
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


def directive_lines(text, starts):
    """{line: macro name or '' } for every line of a preprocessor
    directive (with its continuations); the name for #define."""
    lines = {}
    physical = text.split('\n')
    i = 0
    while i < len(physical):
        m = re.match(r'\s*#\s*(\w+)(?:\s+(\w+))?', physical[i])
        if m:
            name = m.group(2) if m.group(1) == 'define' else ''
            j = i
            lines[j + 1] = name
            while physical[j].rstrip().endswith('\\') and j + 1 < len(physical):
                j += 1
                lines[j + 1] = name
            i = j + 1
        else:
            i += 1
    return lines


def function_spans(text, directives, starts):
    """[(first offset, last offset, name)] of the function bodies, found
    by brace depth outside directives; a body is a top-level { after a )."""
    spans = []
    depth = 0
    body_start = name = None
    code = list(text)
    for line, _ in directives.items():
        a = starts[line - 1]
        b = starts[line] if line < len(starts) else len(text)
        for k in range(a, b):
            if code[k] != '\n':
                code[k] = ' '
    code = ''.join(code)
    for m in re.finditer(r'[{}]', code):
        if m.group() == '{':
            if depth == 0:
                body_start = m.start()
                name = None
                before = code[max(0, m.start() - 4000):m.start()].rstrip()
                # skip trailing attributes/macros like __acquires(x)
                if before.endswith(')'):
                    k, d = len(before) - 1, 0
                    while k >= 0:
                        if before[k] == ')':
                            d += 1
                        elif before[k] == '(':
                            d -= 1
                            if d == 0:
                                break
                        k -= 1
                    ident = re.search(r'(\w+)\s*$', before[max(0, k - 200):k])
                    name = ident.group(1) if ident else None
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0 and body_start is not None:
                spans.append((body_start, m.end(), name))
                body_start = None
    return spans


def matching_paren(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == '(':
            depth += 1
        elif code[k] == ')':
            depth -= 1
            if depth == 0:
                return k
    return -1


def split_args(args):
    out, depth, cur = [], 0, ''
    for c in args:
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        if c == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += c
    out.append(cur.strip())
    return out


def shape(name, args, array_allocs):
    """What the plain search would call it (the source search's patterns)."""
    joined = ' '.join(' '.join(args).split())
    if 'struct_size' in joined:
        return 'struct_size'
    if name in array_allocs:
        return 'array'
    if re.search(r'sizeof\s*\(?\s*\*', joined):
        return 'sizeof(*x)'
    if 'sizeof' in joined:
        return 'sizeof'
    return 'other'


def search_file(path, names, array_allocs):
    try:
        raw = open(path, errors='replace').read()
    except OSError:
        return []
    code = blank_comments(raw)
    starts = line_starts(code)
    directives = directive_lines(code, starts)
    spans = function_spans(code, directives, starts)
    pattern = re.compile(r'\b(' + '|'.join(sorted(names, key=len, reverse=True))
                         + r')\s*\(')
    calls = []
    for m in pattern.finditer(code):
        name = m.group(1)
        before = code[max(0, m.start() - 400):m.start()].rstrip()
        prev = re.search(r'(\w+|\S)$', before)
        prev = prev.group(1) if prev else ''
        line = line_of(starts, m.start())
        macro = directives.get(line)
        if macro is not None and macro == name and re.search(r'#\s*define\s*$', before[-40:]):
            continue            # #define kmalloc(...)
        if macro is not None and macro == '':
            continue            # #if, #undef... lines
        if prev in ('.', '>', '&'):
            continue            # a member or an address, not a call
        if re.match(r'\w+$', prev) and prev not in KEYWORDS:
            continue            # a declaration: void *kmalloc(...)
        if prev == '*':
            pp = re.search(r'(\w+|\S)\s*\*$', before)
            if pp and (re.match(r'\w+$', pp.group(1)) and pp.group(1) not in KEYWORDS
                       or pp.group(1) == '*'):
                continue        # a declaration: void *kmalloc(...)
        open_at = m.end() - 1
        close = matching_paren(code, open_at)
        if close < 0:
            continue
        args = split_args(code[open_at + 1:close])
        end_line = line_of(starts, close)
        # The statement's first line: after the previous ; { } or directive.
        k = m.start() - 1
        while k >= 0 and code[k] not in ';{}':
            k -= 1
        k += 1
        while k < m.start() and code[k].isspace():
            k += 1
        first = line_of(starts, k)
        while first < line and (first in directives or not code[starts[first - 1]:starts[first]].strip()):
            first += 1
        func = None
        for a, b, fname in spans:
            if a <= m.start() < b:
                func = fname
                break
        calls.append({
            'file': path, 'line': line, 'first': min(first, line),
            'last': end_line, 'allocator': name, 'macro': macro or None,
            'function': func,
            'shape': shape(name, args, array_allocs),
            'text': ' '.join(code[m.start():close + 1].split())[:160],
        })
    return calls


_macros = {}


def macro_uses(path, name):
    """Lines of PATH outside #define bodies where macro NAME is expanded:
    directly, through other macros of the file that use it, or through a
    macro that makes its name by pasting (TEST_##alloc for TEST_kmalloc)."""
    if path not in _macros:
        code = blank_comments(open(path, errors='replace').read())
        starts = line_starts(code)
        directives = directive_lines(code, starts)
        physical = code.split('\n')
        bodies = defaultdict(str)
        for line, macro in directives.items():
            if macro:
                bodies[macro] += physical[line - 1] + '\n'
        plain = [(i + 1, t) for i, t in enumerate(physical) if i + 1 not in directives]
        _macros[path] = (bodies, plain)
    bodies, plain = _macros[path]
    users, todo = set(), [name]
    while todo:
        m = todo.pop()
        for other, body in bodies.items():
            if other in users or other == name:
                continue
            pasted = any(m.startswith(p) for p in re.findall(r'(\w+)\s*##', body))
            if re.search(r'\b%s\b' % re.escape(m), body) or pasted:
                users.add(other)
                todo.append(other)
    names = [name] + sorted(users)
    pattern = re.compile(r'\b(%s)\b' % '|'.join(map(re.escape, names)))
    return [i for i, t in plain if pattern.search(t)]


# ---- the report -------------------------------------------------------------

def load_report(paths):
    """{file: {line: set(functions)}} of the report's sites."""
    sites = defaultdict(lambda: defaultdict(set))
    for path in paths:
        for rec in kharness.report.records(path):
            if 'wrapper' in rec:
                continue    # a wrapper learnt, not a site
            name = rec.get('file') or ''
            if not name.startswith('/'):
                continue    # probes read stdin
            sites[os.path.realpath(Moved.path(name))][rec.get('line')].add(rec.get('function'))
    return sites


# ---- recompiling one file ------------------------------------------------------

def compile_command(cmd, source):
    """SOURCE's compile command in CMD without its output and dependency
    file (nor a report file), as a list of arguments."""
    return kbuild_cmd.compile_args(
        kbuild_cmd.source_words(cmd, source),
        drop=('-Wp,-MMD', '-Wp,-MD', '-fplugin-arg-kalloc-report='))


def is_host_command(cmd, source):
    """Was SOURCE compiled by HOSTCC (a host program)?  Kbuild compiles
    every kernel object with -D__KERNEL__ and CC, which carries the
    plugin; a host program has neither.  A kernel object without the
    plugin is no host program: it stays a miss to look at."""
    words = compile_command(cmd, source)
    return ('-D__KERNEL__' not in words
            and not any(w.startswith('-fplugin=') for w in words))


def preprocessed_lines(obj, cmd, source, wanted):
    """Lines of WANTED (a file) that survive preprocessing SOURCE."""
    argv = [a for a in compile_command(cmd, source)
            if not a.startswith('-fplugin')]
    argv = [a for a in argv if a != '-c'] + ['-E', '-o', '-']
    try:
        out = subprocess.run(argv, cwd=obj, capture_output=True, text=True,
                             errors='replace', timeout=300).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines, here, num = set(), False, 0
    is_wanted = {}
    for text in out.split('\n'):
        if text.startswith('# '):
            m = re.match(r'# (\d+) "(.*)"', text)
            if m:
                num = int(m.group(1))
                cur = m.group(2)
                if cur not in is_wanted:
                    is_wanted[cur] = os.path.realpath(
                        Moved.path(os.path.join(obj, cur))) == wanted
                here = is_wanted[cur]
                continue
        if here and text.strip():
            lines.add(num)
        num += 1
    return lines


def dumped_functions(obj, cmd, source, plugin):
    """{function: set(lines)} that kalloc's pass saw compiling SOURCE."""
    argv = compile_command(cmd, source)
    if plugin:
        argv = [a for a in argv if not a.startswith('-fplugin=')]
        argv.insert(1, '-fplugin=' + plugin)
    if not any(a.startswith('-fplugin=') for a in argv):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        argv += ['-fplugin-arg-kalloc-dump', '-o', os.path.join(tmp, 'x.o'),
                 '-dumpdir', tmp + '/']
        try:
            subprocess.run(argv, cwd=obj, capture_output=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired):
            return None
        funcs = defaultdict(set)
        for name in os.listdir(tmp):
            if not name.endswith('.kalloc'):
                continue
            fn = None
            for text in open(os.path.join(tmp, name), errors='replace'):
                m = re.match(r';; Function (\S+)', text)
                if m:
                    fn = m.group(1)
                    funcs[fn]
                m = re.match(r'kalloc: line (\d+)', text)
                if m and fn:
                    funcs[fn].add(int(m.group(1)))
        return funcs if funcs else None


# ---- main ---------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--obj', required=True)
    ap.add_argument('--src', required=True)
    ap.add_argument('--plugin')
    ap.add_argument('--examples', type=int, default=5)
    ap.add_argument('--json')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('report', nargs='+')
    args = ap.parse_args()
    obj = os.path.realpath(args.obj)
    src = os.path.realpath(args.src)
    Moved.src = src
    rel = lambda p: os.path.relpath(p, src) if p.startswith(src + os.sep) else p

    sources, included = compiled_files(obj)
    names = allocator_names(*compiler_and_plugin(sources, args.plugin))
    array_allocs = {n for n in names if 'calloc' in n or 'array' in n}
    files = sorted(set(sources) | set(included))
    report = load_report(args.report)

    calls = []
    for path in files:
        calls.extend(search_file(path, names, array_allocs))

    def in_report(path, first, last):
        lines = report.get(path, {})
        return any(l in lines for l in range(first, last + 1))

    alloc_set = set(names) | {n + '_noprof' for n in names}
    pending = defaultdict(list)     # file -> calls to recompile for
    for c in calls:
        if in_report(c['file'], c['first'], c['last']):
            c['category'] = 'report'
        elif c['macro']:
            lines = report.get(c['file'], {})
            uses = macro_uses(c['file'], c['macro'])
            c['category'] = 'macro-use' if any(u in lines for u in uses) else 'macro-unused'
        elif c['function'] in alloc_set:
            c['category'] = 'allocator'
        else:
            pending[c['file']].append(c)

    def settle(path):
        source = path if path in sources else included[path]
        cmd = sources[source]
        if is_host_command(cmd, source):
            for c in pending[path]:
                c['category'] = 'host'
            return
        lines = preprocessed_lines(obj, cmd, source, path)
        funcs = None
        for c in pending[path]:
            if lines is not None and not any(l in lines for l in range(c['first'], c['last'] + 1)):
                c['category'] = 'not-compiled'
                continue
            if funcs is None:
                funcs = dumped_functions(obj, cmd, source, args.plugin) or {}
            if c['function'] and funcs and c['function'] not in funcs:
                c['category'] = 'not-reached'
            elif c['function'] in funcs:
                # The pass saw the call, yet the report has no site for
                # it: the report lost it.
                seen = funcs[c['function']]
                c['category'] = ('unexplained'
                                 if any(l in seen for l in range(c['first'], c['last'] + 1))
                                 else 'dead-branch')
            else:
                c['category'] = 'unexplained'

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(settle, sorted(pending)))

    found = len(calls)
    by_cat = Counter(c['category'] for c in calls)
    by_shape = Counter(c['shape'] for c in calls)
    shape_in = Counter(c['shape'] for c in calls if c['category'] in ('report', 'macro-use'))
    matched = by_cat['report'] + by_cat['macro-use']
    print('compiled .c files: %d (%d sources, %d included .c)' %
          (len(files), len(sources), len(set(included) - set(sources))))
    print('files with a call found by search: %d' % len({c['file'] for c in calls}))
    print('allocation calls found by search: %d' % found)
    print('  %-12s %6s %6s' % ('shape', 'found', 'in report'))
    for s in ('sizeof(*x)', 'sizeof', 'struct_size', 'array', 'other'):
        print('  %-12s %6d %6d' % (s, by_shape[s], shape_in[s]))
    print('by category:')
    order = ('report', 'macro-use', 'macro-unused', 'allocator', 'host', 'not-compiled',
             'not-reached', 'dead-branch', 'unexplained')
    for cat in order:
        print('  %-13s %6d' % (cat, by_cat[cat]))
    for cat in order[1:]:
        ex = [c for c in calls if c['category'] == cat][:args.examples]
        if ex:
            print('%s, e.g.:' % cat)
            for c in ex:
                print('  %s:%d %s%s: %s' % (rel(c['file']), c['line'],
                                         c['function'] or '?',
                                         ' (macro %s)' % c['macro'] if c['macro'] else '',
                                         c['text']))
    # The other way round: report sites in these files that no search hit covers.
    covered = defaultdict(set)
    for c in calls:
        covered[c['file']].update(range(c['first'], c['last'] + 1))
    extra = [(p, l) for p in files for l in report.get(p, {}) if l not in covered[p]]
    print('report sites in these files on no line the search found: %d' % len(extra))
    for p, l in sorted(extra)[:args.examples]:
        print('  %s:%d' % (rel(p), l))
    if args.json:
        with open(args.json, 'w') as f:
            for c in calls:
                c = dict(c, file=rel(c['file']))
                f.write(json.dumps(c) + '\n')
    explained = found - matched - by_cat['unexplained']
    print('recall: %d found by search, %d in report (%.1f%%), %d explained, %d unexplained'
          % (found, matched, 100.0 * matched / found if found else 100.0,
             explained, by_cat['unexplained']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
