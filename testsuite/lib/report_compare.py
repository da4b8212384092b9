#!/usr/bin/env python3
"""report_compare - two kalloc reports, site for site, ignoring order.

  report_compare.py [--ignore FIELD]... [--strip PREFIX]... A.jsonl B.jsonl

A site is keyed by file, line, column and allocator (a wrapper record by
wrapper, file and line); the records of a key are compared as sets, every
field but "kalloc" (the version) and those --ignore names.  A file name
(and the unit's) loses the first --strip PREFIX it starts with, so that two trees in two
places compare.  Prints the sites only in A, only in B and changed (with
the fields that differ), then

  compare: N same, N only in A, N only in B, N changed

and exits 0 when the reports hold the same sites, 1 otherwise, 2 when a
report is missing or holds no record at all.
"""
import argparse
import json
import sys


def stripped(name, strip):
    for prefix in strip:
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def load(path, ignore, strip):
    sites = {}
    try:
        f = open(path, errors='replace')
    except OSError as e:
        sys.exit('report_compare: %s' % e)
    with f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ignore', action='append', default=[])
    ap.add_argument('--strip', action='append', default=[])
    ap.add_argument('a')
    ap.add_argument('b')
    args = ap.parse_args()
    a = load(args.a, set(args.ignore), args.strip)
    b = load(args.b, set(args.ignore), args.strip)
    if not a or not b:
        print('compare: %s holds no record' % (args.a if not a else args.b))
        sys.exit(2)
    same = only_a = only_b = changed = 0
    for key in sorted(set(a) | set(b), key=lambda k: [str(x) for x in k]):
        if key not in b:
            only_a += 1
            print('only in A: %s' % where(key))
        elif key not in a:
            only_b += 1
            print('only in B: %s' % where(key))
        elif a[key] != b[key]:
            changed += 1
            print('changed: %s: %s' % (where(key), diff_fields(a[key], b[key])))
        else:
            same += 1
    print('compare: %d same, %d only in A, %d only in B, %d changed'
          % (same, only_a, only_b, changed))
    sys.exit(0 if only_a == only_b == changed == 0 else 1)


if __name__ == '__main__':
    main()
