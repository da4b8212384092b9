#!/usr/bin/env python3
"""typed-identical.py - a unit whose allocations are all typed already
(Linux 7.x's kmalloc_obj () family) must compile to the same object with
kalloc as without it: kalloc adds no saturation and no counter store to a
typed call.

    typed-identical.py --report R.jsonl --src SRC PLAIN-OBJ KALLOC-OBJ

R.jsonl is the plugin build's report (each site names its unit), SRC the
kernel source tree, PLAIN-OBJ and KALLOC-OBJ the object trees of the
builds without and with kalloc (check-kernel's VERSION-plain/obj and
VERSION-kalloc/obj).  A unit counts when the report has at least one
site in it and every site is typed; its object PATH.o is compared byte
for byte, and on a difference the sections that differ are named.
Prints one line per differing unit and ends with

    typed-identical: N units with typed calls only, N identical, N differ, N without objects

exiting 1 when a unit differs or when there is no unit to compare.
"""
import argparse
import collections
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import kharness  # noqa: E402


def typed_only_units(report, src):
    units = collections.defaultdict(lambda: [0, 0])   # unit: [typed, legacy]
    for r in kharness.report.records(report):
        unit = r.get("unit")
        if "wrapper" in r or not unit:
            continue
        unit = os.path.normpath(unit)
        if not unit.startswith(os.path.normpath(src) + os.sep):
            continue
        units[unit][0 if r.get("typed") else 1] += 1
    return sorted(os.path.relpath(u, src) for u, (t, l) in units.items()
                  if t and not l and u.endswith(".c"))


def sections(path):
    """Section name: contents (hex dump) of an object."""
    out = subprocess.run(["readelf", "-W", "-S", path], capture_output=True,
                         text=True).stdout
    names = []
    for line in out.splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) > 2 and parts[0].startswith("[") and parts[0] != "[Nr]":
            names.append(parts[1])
    dump = {}
    for name in names:
        dump[name] = subprocess.run(["readelf", "-W", "-x", name, path],
                                    capture_output=True, text=True).stdout
    return dump


def differing_sections(a, b):
    sa, sb = sections(a), sections(b)
    return sorted(n for n in set(sa) | set(sb) if sa.get(n) != sb.get(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("plain")
    ap.add_argument("kalloc")
    args = ap.parse_args()
    units = typed_only_units(args.report, args.src)
    same = differ = missing = 0
    for rel in units:
        obj = os.path.splitext(rel)[0] + ".o"
        a, b = os.path.join(args.plain, obj), os.path.join(args.kalloc, obj)
        if not (os.path.isfile(a) and os.path.isfile(b)):
            missing += 1
            continue
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() == fb.read():
                same += 1
                continue
        differ += 1
        print(f"{rel}: differs in {', '.join(differing_sections(a, b)) or 'the ELF header'}")
    print(f"typed-identical: {len(units)} units with typed calls only, {same} identical, "
          f"{differ} differ, {missing} without objects")
    return 0 if units and not differ and same else 1


if __name__ == "__main__":
    sys.exit(main())
