#!/usr/bin/env python3
"""report_compare - two kalloc reports, site for site, ignoring order.

  report_compare.py [--ignore FIELD]... [--strip PREFIX]... A.jsonl B.jsonl

The same as `kalloc-report compare` (plugin/kalloc-report.py), which it
runs: a site is keyed by file, line, column and allocator (a wrapper
record by wrapper, file and line); the records of a key are compared as
sets, every field but "kalloc" (the version) and those --ignore names;
compiler probes are left out.  A file name (and the unit's) loses the
first --strip PREFIX it starts with, so that two trees in two places
compare.  Prints the sites lost (only in A), added (only in B) and
changed (with the fields that differ), then

  compare: N same, N added, N lost, N changed

and exits 0 when the reports hold the same sites, 1 otherwise, 2 when a
report is missing or holds no record at all.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kharness.report import TOOL  # noqa: E402

if __name__ == '__main__':
    os.execv(sys.executable, [sys.executable, TOOL, 'compare'] + sys.argv[1:])
