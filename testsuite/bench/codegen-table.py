#!/usr/bin/env python3
"""codegen-table.py - the code kalloc makes against Linux 7.0's macros.

    codegen-table.py CC PLUGIN OUTDIR

Compiles testsuite/bench/codegen.c at -O2 three ways:
  kalloc    the legacy calls, with -fplugin=PLUGIN (mode=harden)
  upstream  -DUPSTREAM: Linux 7.0's kmalloc_objs ()/kmalloc_flex (), no plugin
  legacy    the legacy calls without the plugin (unchecked; for reference)
and disassembles each function with objdump -dr.  Per function: the
instructions and bytes of the function's symbol (alignment padding is not
counted), conditional branches (jcc), and calls (call, and jmp to a
relocated symbol: a tail call).

Prints the table and one check line per function and goal:
  CHECK <PASS|FAIL> <text>
for the bench driver: kalloc no larger than upstream, no more conditional
branches than upstream and none at all, and no call added (no more calls than upstream,
and as many as the unhardened legacy code).
"""
import os
import re
import subprocess
import sys

FUNCTIONS = ["array", "flex", "flex_counter", "flex_checked"]


def compile_obj(cc, src, out, extra):
    subprocess.run([cc, "-O2", "-c", src, "-o", out] + extra, check=True)


def symbols(obj):
    """name -> (address, size) of the function symbols of OBJ."""
    syms = {}
    text = subprocess.run(["objdump", "-t", obj], check=True,
                          capture_output=True, text=True).stdout
    for line in text.splitlines():
        m = re.match(r"([0-9a-f]+)\s.*\sF\s+\S+\s+([0-9a-f]+)\s+(\S+)$", line)
        if m:
            syms[m.group(3)] = (int(m.group(1), 16), int(m.group(2), 16))
    return syms


def analyse(obj):
    """name -> dict(insns, bytes, branches, calls, text) for FUNCTIONS."""
    syms = symbols(obj)
    text = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", obj],
                          check=True, capture_output=True, text=True).stdout
    insns = []          # (address, mnemonic, operands, relocated)
    for line in text.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m and not re.match(r"R_X86_64", m.group(2)):
            insns.append([int(m.group(1), 16), m.group(2), m.group(3), False])
        elif re.match(r"\s+[0-9a-f]+: R_X86_64", line) and insns:
            insns[-1][3] = True
    result = {}
    for name in FUNCTIONS:
        start, size = syms[name]
        body = [i for i in insns if start <= i[0] < start + size]
        branches = sum(1 for i in body
                       if i[1].startswith("j") and i[1] not in ("jmp", "jmpq"))
        calls = sum(1 for i in body
                    if i[1].startswith("call")
                    or (i[1].startswith("jmp") and i[3]))
        result[name] = {
            "insns": len(body), "bytes": size, "branches": branches,
            "calls": calls,
            "text": "\n".join(f"    {a:4x}: {m} {o}".rstrip() for a, m, o, _ in body),
        }
    return result


def main():
    cc, plugin, out = sys.argv[1], sys.argv[2], sys.argv[3]
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "codegen.c")
    os.makedirs(out, exist_ok=True)
    builds = {
        "kalloc": ["-fplugin=" + plugin],
        "upstream": ["-DUPSTREAM"],
        "legacy": [],
    }
    data = {}
    for build, extra in builds.items():
        obj = os.path.join(out, f"codegen-{build}.o")
        compile_obj(cc, src, obj, extra)
        data[build] = analyse(obj)
        with open(os.path.join(out, f"codegen-{build}.s.txt"), "w") as f:
            for name in FUNCTIONS:
                f.write(f"{name}:\n{data[build][name]['text']}\n")

    k, u, l = data["kalloc"], data["upstream"], data["legacy"]
    print("Code per function, gcc -O2 (kalloc = legacy calls + plugin; upstream = "
          "Linux 7.0 macros, no plugin; legacy = no plugin, unchecked)")
    print()
    print("| function | instructions kalloc / upstream / legacy | bytes | "
          "conditional branches | calls |")
    print("|---|---|---|---|---|")
    for name in FUNCTIONS:
        cells = []
        for key in ("insns", "bytes", "branches", "calls"):
            cells.append(f"{k[name][key]} / {u[name][key]} / {l[name][key]}")
        print(f"| `{name}` | " + " | ".join(cells) + " |")
    print()
    for name in FUNCTIONS:
        checks = [
            (k[name]["bytes"] <= u[name]["bytes"],
             f"codegen {name}: kalloc {k[name]['bytes']} bytes <= upstream {u[name]['bytes']}"),
            (k[name]["branches"] <= u[name]["branches"],
             f"codegen {name}: kalloc {k[name]['branches']} conditional branches <= "
             f"upstream {u[name]['branches']}"),
            # The hardened path is branch-free: the size saturates with a
            # mask and the counter store's address is a conditional move.
            (k[name]["branches"] == 0,
             f"codegen {name}: kalloc 0 conditional branches (kalloc "
             f"{k[name]['branches']})"),
            (k[name]["calls"] <= u[name]["calls"] and k[name]["calls"] == l[name]["calls"],
             f"codegen {name}: no call added (kalloc {k[name]['calls']}, upstream "
             f"{u[name]['calls']}, legacy {l[name]['calls']})"),
        ]
        for ok, text in checks:
            print(f"CHECK {'PASS' if ok else 'FAIL'} {text}")


if __name__ == "__main__":
    main()
