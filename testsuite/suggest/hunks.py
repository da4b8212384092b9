#!/usr/bin/env python3
"""hunks.py - cut unified diffs of one tree into changes; merge or compare them.

  hunks.py merge SRCDIR PATCH
      PATCH as one clean patch (-p1, "a/" and "b/" names, 3 lines of
      context): every change once, however many times PATCH repeats it (a
      compiler writes a header's fix-its once per file that includes it).
      Changes that overlap but differ are reported on stderr and the
      first is kept.

  hunks.py compare [--label-a A] [--label-b B] [--only-a-places]
                [--not-compiled PLACES] SRCDIR A.patch B.patch
      Changes of the two sides whose removed lines overlap form one hunk;
      for each hunk the text each side makes of those source lines is
      compared, all white space folded, so that a call joined onto one
      line by one tool and kept on several by the other compares equal
      (it is still counted apart as "same code, other layout").  Prints one
      line per hunk, grouped: identical, same code other layout,
      differing (both texts shown), only A, only A not compiled (below),
      only B; then the summary line
        hunks: U A hunks in compiled code, I identical (L of them other
        layout), D differing, OA only A, OB only B; P% of A's reproduced;
        N more A hunks in code not compiled
      --not-compiled PLACES: a file of "PATH:LINE", the lines the build's
      preprocessor left out; A-only hunks there are listed apart, as
      "only A, not compiled", and do not count as A hunks.  Those listed
      as "PATH:LINE other" (compiled-lines: the code compiled there calls
      no kmalloc-family function, a macro renames it) are compiled code:
      listed apart, but counted as A hunks B did not make.
      --only-a-places: print only the "PATH:LINE" of each A-only hunk.

A change is a run of removed and added lines, context dropped; a run
that removes and adds as many lines is cut into one change a line.  For
comparing, a change reaches to the end of the statement it is in (the
line where its parentheses close, past a line that ends in "=").  Paths in
the patches may be absolute, under SRCDIR, or relative to it, with or
without "a/" and "b/".
"""
import difflib
import os
import re
import sys

HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')


def norm_path(path, srcdir):
    """PATH relative to SRCDIR, without "..": a file #included as
    ../../../../lib/xz/xz_dec_bcj.c (the x86 boot decompressor) is
    lib/xz/xz_dec_bcj.c."""
    path = path.split('\t')[0].strip()
    if path.startswith(srcdir + '/'):
        return os.path.normpath(path[len(srcdir) + 1:])
    for prefix in ('a/', 'b/'):
        if path.startswith(prefix) and os.path.exists(os.path.join(srcdir, path[2:])):
            return os.path.normpath(path[2:])
    return os.path.normpath(path)


def parse(patch, srcdir):
    """{(file, first old line, removed lines, added lines)}: PATCH cut into
    runs of changed lines, context dropped."""
    out = set()
    name = None
    old = None
    run = None  # [first old line, removed, added]

    def flush():
        nonlocal run
        if run and len(run[1]) == len(run[2]):
            # Line for line (the usual one call a line): one change each,
            # so that neighbouring calls are compared apart.
            for i, (old_line, new_line) in enumerate(zip(run[1], run[2])):
                if old_line != new_line:
                    out.add((name, run[0] + i, (old_line,), (new_line,)))
        elif run:
            out.add((name, run[0], tuple(run[1]), tuple(run[2])))
        run = None

    left = 0  # lines of the current hunk still to read (old + new)
    with open(patch, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if left <= 0:
                flush()
                m = HUNK.match(line)
                if line.startswith('--- '):
                    name = norm_path(line[4:], srcdir)
                elif m and name:
                    old = int(m.group(1))
                    left = int(m.group(2) or 1) + int(m.group(4) or 1)
                continue
            if line.startswith('-'):
                run = run or [old, [], []]
                run[1].append(line[1:])
                old += 1
                left -= 1
            elif line.startswith('+'):
                run = run or [old, [], []]
                run[2].append(line[1:])
                left -= 1
            elif line.startswith('\\'):
                pass
            else:
                flush()
                old += 1
                left -= 2
    flush()
    return out


def open_parens(lines):
    """Parentheses opened and not closed in LINES (literals skipped)."""
    text = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '', '\n'.join(lines))
    return text.count('(') - text.count(')')


def fold(text):
    """The text with white space dropped where C does not need it."""
    text = re.sub(r'\s+', ' ', text).strip()
    return re.sub(r' ?([^\w\s]) ?', r'\1', text)


def apply(source, edits, first, last):
    """Source lines FIRST..LAST (1-based) with EDITS applied, as text."""
    out = []
    line = first
    for start, removed, added in sorted(edits):
        while line < start:
            out.append(source[line - 1])
            line += 1
        out.extend(added)
        line = start + len(removed)
    while line <= last:
        out.append(source[line - 1])
        line += 1
    return '\n'.join(out)


def merge(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    srcdir = os.path.abspath(argv[0])
    by_file = {}
    for c in parse(argv[1], srcdir):
        by_file.setdefault(c[0], []).append(c[1:])
    for name in sorted(by_file):
        with open(os.path.join(srcdir, name), errors='surrogateescape') as f:
            source = f.read().split('\n')
        kept = []
        for start, removed, added in sorted(by_file[name]):
            if kept and start < kept[-1][0] + max(len(kept[-1][1]), 1):
                sys.stderr.write('hunks: %s:%d: overlapping changes, kept the first\n'
                                 % (name, start))
                continue
            if list(removed) != source[start - 1:start - 1 + len(removed)]:
                sys.stderr.write('hunks: %s:%d: does not match the source, left out\n'
                                 % (name, start))
                continue
            kept.append((start, removed, added))
        new = source[:]
        for start, removed, added in reversed(kept):
            new[start - 1:start - 1 + len(removed)] = list(added)
        for line in difflib.unified_diff(source, new, 'a/' + name, 'b/' + name,
                                         lineterm=''):
            sys.stdout.write(line + '\n')
    return 0


def compare(argv):
    labels = ['A', 'B']
    not_compiled = {}
    places_only = False
    while argv and argv[0].startswith('--'):
        if argv[0].startswith('--label-'):
            labels['ab'.index(argv[0][-1])] = argv[1]
        elif argv[0] == '--not-compiled':
            with open(argv[1]) as f:
                for line in f:
                    words = line.split()
                    if words:
                        not_compiled[words[0]] = words[1:] == ['other']
        elif argv[0] == '--only-a-places':
            places_only = True
            argv = argv[1:]
            continue
        else:
            sys.stderr.write(__doc__)
            return 2
        argv = argv[2:]
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    srcdir = os.path.abspath(argv[0])
    sides = [parse(argv[1], srcdir), parse(argv[2], srcdir)]

    files = sorted({c[0] for s in sides for c in s})
    groups = {k: [] for k in ('identical', 'layout', 'differing', 'only-a',
                              'not-compiled', 'other', 'only-b')}
    for name in files:
        try:
            with open(os.path.join(srcdir, name), errors='replace') as f:
                source = f.read().split('\n')
        except OSError:
            source = []
        # Changes as [first, last] old-line ranges (an insertion covers the
        # line it goes before), merged across sides where they overlap.
        items = []
        for i, s in enumerate(sides):
            for c in s:
                if c[0] == name:
                    first = c[1]
                    last = c[1] + max(len(c[2]), 1) - 1
                    # To the end of the statement: one tool may change
                    # only the first line of a call, the other reflow it.
                    while last < len(source) and (
                            open_parens(source[first - 1:last]) > 0
                            or source[last - 1].rstrip().endswith('=')):
                        last += 1
                    items.append((first, last, i, (c[1], c[2], c[3])))
        items.sort()
        hunks = []
        for first, last, i, edit in items:
            if hunks and first <= hunks[-1][1]:
                hunks[-1][1] = max(hunks[-1][1], last)
                hunks[-1][2][i].append(edit)
            else:
                hunks.append([first, last, ([], [])])
                hunks[-1][2][i].append(edit)
        for first, last, edits in hunks:
            where = '%s:%d' % (name, first)
            if not edits[1]:
                key = 'only-a'
                if where in not_compiled:
                    key = 'other' if not_compiled[where] else 'not-compiled'
                groups[key].append((where, apply(source, edits[0], first, last), None))
                continue
            if not edits[0]:
                groups['only-b'].append((where, None, apply(source, edits[1], first, last)))
                continue
            a = apply(source, edits[0], first, last)
            b = apply(source, edits[1], first, last)
            if a == b:
                groups['identical'].append((where, a, b))
            elif fold(a) == fold(b):
                groups['layout'].append((where, a, b))
            else:
                groups['differing'].append((where, a, b))

    if places_only:
        for where, _a, _b in groups['only-a']:
            print(where)
        return 0
    title = {
        'identical': 'identical',
        'layout': 'same code, other layout (counted as identical)',
        'differing': 'differing',
        'only-a': 'only ' + labels[0],
        'not-compiled': 'only %s, not compiled (left out by the preprocessor)' % labels[0],
        'other': 'only %s, compiled as no allocator call (a macro renames it; counted)' % labels[0],
        'only-b': 'only ' + labels[1],
    }
    for key in ('identical', 'layout', 'differing', 'only-a', 'not-compiled', 'other',
                'only-b'):
        print('== %s: %d' % (title[key], len(groups[key])))
        for where, a, b in groups[key]:
            if key == 'identical':
                print('  %s  %s' % (where, ' '.join(a.split())))
                continue
            print('  ' + where)
            if a is not None:
                print('    %s: %s' % (labels[0], a.replace('\n', '\n    %s| ' % labels[0])))
            if b is not None:
                print('    %s: %s' % (labels[1], b.replace('\n', '\n    %s| ' % labels[1])))
    same = len(groups['identical']) + len(groups['layout'])
    total_a = same + len(groups['differing']) + len(groups['only-a']) + len(groups['other'])
    pct = 100.0 * same / total_a if total_a else 100.0
    print('hunks: %d %s hunks in compiled code, %d identical (%d of them other '
          'layout), %d differing, %d only %s (%d where the compiled call is no '
          'allocator), %d only %s; %.1f%% of %s\'s reproduced; %d more %s '
          'hunks in code not compiled'
          % (total_a, labels[0], same, len(groups['layout']),
             len(groups['differing']), len(groups['only-a']) + len(groups['other']),
             labels[0], len(groups['other']), len(groups['only-b']), labels[1], pct,
             labels[0], len(groups['not-compiled']), labels[0]))
    return 0


if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] in ('merge', 'compare'):
        sys.exit((merge if sys.argv[1] == 'merge' else compare)(sys.argv[2:]))
    sys.stderr.write(__doc__)
    sys.exit(2)
