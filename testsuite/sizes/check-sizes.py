#!/usr/bin/env python3
"""check-sizes.py - the differential test of hardened allocation sizes.

Generates size expressions that mix signed and unsigned terms of every
width, constants, negative run-time values, sums, subtractions, products,
the kernel's size_add ()/size_mul () and struct_size (), and terms whose
sign is chosen at run time: conditionals and selects (c ? -8 : v), PHIs
of an if/else, min ()/max (), casts through narrower types, signed and
size_t function results, signed loads, (size_t) of a signed difference;
builds each
program without and with the plugin at -O0 and -O2, in both kernel
shapes (testsuite/include/kernel.h), and runs them on run-time values
chosen near the edges.  For every expression and every set of values:

  - without the plugin, the allocator receives what C's modular size_t
    arithmetic gives (this checks the generator's own model of C);
  - with the plugin, it receives that same size whenever the exact
    value the program means is at most SIZE_MAX (docs/rewrites.md,
    "Signed terms and subtractions"), and SIZE_MAX exactly when the
    value is above it.

Usage: check-sizes.py CC PLUGIN [OUTDIR]
Environment: SIZES_FILES (programs, default 8), SIZES_EXPRS (expressions
a program, default 250), SIZES_SEED (default 1), SIZES_RUN (what runs a
cross compiler's programs, e.g. "qemu-arm -L /usr/arm-linux-gnueabihf").
Ends with "sizes: N passed, N failed"; exits non-zero on any failure, or
when nothing was compared.
"""
import os
import random
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import kharness  # noqa: E402
from kharness import run  # noqa: E402

VECTORS = 8

# C types of the run-time terms: name, bits, signed.
TYPES = [
    ("u8", 8, False), ("u16", 16, False), ("u32", 32, False),
    ("size_t", None, False), ("unsigned long long", 64, False),
    ("s8", 8, True), ("s16", 16, True), ("int", 32, True),
    ("long", None, True), ("long long", 64, True),
]
CONSTS = [1, 2, 3, 4, 8, 12, 16, 24, 40, 64, 4096]
# Constants a chosen term may take: negative ones too.
CHOICE_CONSTS = [-40, -8, -1, 0, 1, 8, 24]
# Narrower types a term is cast through: name, bits, signed.
NARROW = [("s8", 8, True), ("s16", 16, True), ("int", 32, True),
          ("u8", 8, False), ("u16", 16, False), ("u32", 32, False)]


class Gen:
    """Random expression trees.  Every binary operator has a size_t
    left operand, so that C converts the other one to size_t (a signed
    term sign-extended) and never computes in int.  Products are by
    constants: a product of run-time values is left as the program
    wrote it (docs/rewrites.md), and GCC factors a * b + a * C into
    a * (b + C), so where kalloc checks one depends on GCC's folding."""

    def __init__(self, rng, bits):
        self.rng = rng
        self.bits = bits
        self.types = [(t, b or bits, s) for t, b, s in TYPES
                      if (b or bits) <= bits]

    def var(self):
        return ("var", self.rng.randrange(len(self.vars)))

    def leaf(self):
        r = self.rng.random()
        if r < 0.3:
            return ("const", self.rng.choice(CONSTS))
        if r < 0.45:
            return self.chosen()
        return self.var()

    def arm(self):
        if self.rng.random() < 0.4:
            return ("const", self.rng.choice(CHOICE_CONSTS))
        return self.var()

    def chosen(self):
        """A term whose sign the program picks at run time."""
        kind = self.rng.choice(["cond_size", "cond_long", "ifelse", "min",
                                "max", "narrow", "call_long", "call_size",
                                "load", "sdiff"])
        if kind == "narrow":
            return ("narrow", self.rng.randrange(len(NARROW)), self.var())
        if kind == "load":
            return ("load", self.arm())
        if kind == "sdiff":
            return ("sdiff", self.var(), self.var())
        return (kind, self.arm(), self.arm())

    def expr(self, depth):
        r = self.rng.random()
        if depth <= 0 or r < 0.25:
            return self.leaf()
        if r < 0.45:
            return ("add", self.expr(depth - 1), self.expr(depth - 1))
        if r < 0.6:
            return ("sub", self.expr(depth - 1), self.expr(depth - 1))
        if r < 0.85:
            return ("mul", self.expr(depth - 1),
                    ("const", self.rng.choice(CONSTS)))
        if r < 0.92:
            return ("size_add", self.expr(depth - 1), self.expr(depth - 1))
        return ("size_mul", self.expr(depth - 1),
                ("const", self.rng.choice(CONSTS)))

    def size(self):
        """A size kalloc hardens: a product by a constant element size
        (or struct_size ()) around an expression with run-time terms,
        which GCC's folding keeps (a run-time term scaled by 2 or more)."""
        while True:
            size = self.candidate()
            if size[0].startswith("struct_size") or any(
                    k != "1" and abs(v) >= 2 for k, v in linear(size).items()):
                return size

    def candidate(self):
        self.vars = [self.rng.choice(self.types)
                     for _ in range(self.rng.randrange(1, 4))]
        r = self.rng.random()
        inner = self.expr(3)
        while is_constant(inner):       # a constant * C is no element
            inner = self.expr(3)
        if r < 0.12:
            return ("struct_size", inner)
        if r < 0.2:
            return ("struct_size_u8", inner)
        elem = ("const", self.rng.choice(CONSTS[1:]))
        if r < 0.6:
            return ("mul", inner, elem)
        if r < 0.8:
            return ("add", ("mul", inner, elem), self.expr(2))
        return ("add", self.expr(2), ("mul", inner, elem))

    def values(self):
        out = []
        for _, b, signed in self.vars:
            picks = [0, 1, 3, 100, (1 << b) - 1, 1 << (b - 1),
                     (1 << (b - 1)) - 1, (1 << self.bits) // 8 + 3,
                     (1 << self.bits) // 24, self.rng.getrandbits(b)]
            if signed:
                lo = -(1 << (b - 1))
                picks += [-1, -3, -100, lo, lo + 1,
                          self.rng.randrange(lo, 0)]
                picks = [p for p in picks if lo <= p < -lo]
            else:
                picks = [p for p in picks if 0 <= p < (1 << b)]
            out.append(self.rng.choice(picks))
        out.append(self.rng.randrange(2))     # c, the selector
        return out


# ---- the model -------------------------------------------------------

def linear(node):
    """NODE as a linear form {term: coefficient} of its variables and
    helper calls: what GCC's folding can see through."""
    op = node[0]
    if op == "var":
        return {node: 1}
    if op == "const":
        return {"1": node[1]}
    if op in ("add", "sub", "mul") and node[2][0] == "const" and op == "mul":
        return {k: v * node[2][1] for k, v in linear(node[1]).items()}
    if op in ("add", "sub"):
        form = dict(linear(node[1]))
        sign = 1 if op == "add" else -1
        for k, v in linear(node[2]).items():
            form[k] = form.get(k, 0) + sign * v
        return form
    return {node: 1}


def has_chosen(node):
    """Does NODE hold a term whose sign is chosen at run time?"""
    if node[0] in CHOSEN_TEXT or node[0] in ("narrow", "load"):
        return True
    return any(isinstance(n, tuple) and has_chosen(n) for n in node[1:])


def is_constant(node):
    """Does NODE fold to a constant ((4 + v) - v)?"""
    return all(v == 0 for k, v in linear(node).items() if k != "1")


CHOSEN_TEXT = {
    "cond_size": "((size_t) (c ? (size_t) %s : (size_t) %s))",
    "cond_long": "((size_t) (c ? (long) %s : (long) %s))",
    "ifelse": "(({ size_t t_; if (c) t_ = %s; else t_ = %s; t_; }))",
    "min": "((size_t) min ((long) %s, (long) %s))",
    "max": "((size_t) max ((long) %s, (long) %s))",
    "call_long": "((size_t) pick_long (c, %s, %s))",
    "call_size": "(pick_size (c, %s, %s))",
    "sdiff": "((size_t) ((long) (s16) %s - (long) (s16) %s))",
}


def arm_text(node, names):
    if node[0] == "const":
        return "%d" % node[1]
    return names[node[1]]


def c_text(node, names):
    op = node[0]
    if op == "var":
        return names[node[1]]
    if op == "const":
        return "(size_t) %d" % node[1]
    if op in CHOSEN_TEXT:
        return CHOSEN_TEXT[op] % (arm_text(node[1], names),
                                  arm_text(node[2], names))
    if op == "narrow":
        return "((size_t) (%s) %s)" % (NARROW[node[1]][0],
                                       arm_text(node[2], names))
    if op == "load":
        return ("((size_t) *(volatile long *) &(long) { %s })"
                % arm_text(node[1], names))
    if op in ("struct_size", "struct_size_u8"):
        return "struct_size (p, data, %s)" % c_text(node[1], names)
    if op in ("size_add", "size_mul"):
        return "%s (%s, %s)" % (op, c_text(node[1], names),
                                c_text(node[2], names))
    sym = {"add": "+", "sub": "-", "mul": "*"}[op]
    # The left operand is size_t: (size_t) 0 + x converts a leaf.
    left = c_text(node[1], names)
    if node[1][0] == "var":
        left = "((size_t) 0 + %s)" % left
    return "(%s %s %s)" % (left, sym, c_text(node[2], names))


class Model:
    """What C computes (modular) and what kalloc must make of it."""

    def __init__(self, bits, values, types):
        self.bits = bits
        self.mod = 1 << bits
        self.max = self.mod - 1
        self.wide = 1 << (2 * bits - 1)
        self.values = values
        self.types = types
        self.c = values[len(types)]

    def signed(self, v, bits=None):
        bits = bits or self.bits
        v %= 1 << bits
        return v - (1 << bits) if v >> (bits - 1) else v

    def arm_value(self, node):
        """What an arm means: a constant or a variable with its sign."""
        return node[1] if node[0] == "const" else self.values[node[1]]

    def arm_may_be_negative(self, node):
        if node[0] == "const":
            return node[1] < 0
        return self.types[node[1]][2]

    def chosen(self, node):
        """The exact value of a term whose sign is chosen at run time, as
        kalloc reads it (docs/rewrites.md): a value of a signed type, or a
        size_t any of whose possible values may be negative, is signed;
        a size_t returned by a function is unsigned."""
        op = node[0]
        if op == "narrow":
            name, bits, signed = NARROW[node[1]]
            v = self.arm_value(node[2]) % (1 << bits)
            return self.signed(v, bits) if signed else v
        if op == "load":
            return self.signed(self.arm_value(node[1]))
        if op == "sdiff":
            return (self.signed(self.arm_value(node[1]), 16)
                    - self.signed(self.arm_value(node[2]), 16))
        a, b = self.arm_value(node[1]), self.arm_value(node[2])
        pick = a if self.c else b
        if op in ("cond_long", "call_long"):
            return self.signed(pick)
        if op == "min":
            return min(self.signed(a), self.signed(b))
        if op == "max":
            return max(self.signed(a), self.signed(b))
        if op == "call_size":
            return pick % self.mod
        # cond_size, ifelse: a size_t that may hold a negative number
        if any(self.arm_may_be_negative(n) for n in node[1:]):
            return self.signed(pick)
        return pick % self.mod

    def program(self, node):
        """C's value: every step modulo 2 ** bits."""
        op = node[0]
        if op == "var":
            return self.values[node[1]] % self.mod
        if op == "const":
            return node[1] % self.mod
        if op in CHOSEN_TEXT or op in ("narrow", "load"):
            return self.chosen(node) % self.mod
        if op in ("struct_size", "struct_size_u8"):
            return self.sat_add(FLEX_HEADER,
                                self.sat_mul(self.program(node[1]), 4))
        a, b = self.program(node[1]), self.program(node[2])
        if op == "size_add":
            return self.sat_add(a, b)
        if op == "size_mul":
            return self.sat_mul(a, b)
        return {"add": a + b, "sub": a - b, "mul": a * b}[op] % self.mod

    def sat_add(self, a, b):
        return min(a + b, self.max)

    def sat_mul(self, a, b):
        return min(a * b, self.max)

    def exact(self, node):
        """(value, overflow): the value the program means, terms with
        their sign, as docs/rewrites.md says; a saturating helper gets
        its operands as C passes them, but SIZE_MAX for one above it."""
        op = node[0]
        if op == "var":
            return self.values[node[1]], False
        if op == "const":
            return node[1], False
        if op in CHOSEN_TEXT or op in ("narrow", "load"):
            return self.chosen(node), False
        if op in ("struct_size", "struct_size_u8", "size_add", "size_mul"):
            if op.startswith("struct_size"):
                count = self.operand(node[1])
                if op == "struct_size_u8" and count > 255:
                    # kmalloc_flex (): a count the counter cannot hold
                    return self.max, False
                return self.sat_add(FLEX_HEADER, self.sat_mul(count, 4)), False
            a, b = self.operand(node[1]), self.operand(node[2])
            if op == "size_add":
                return self.sat_add(a, b), False
            return self.sat_mul(a, b), False
        (a, oa), (b, ob) = self.exact(node[1]), self.exact(node[2])
        v = {"add": a + b, "sub": a - b, "mul": a * b}[op]
        return v, oa or ob or not -self.wide <= v < self.wide

    def operand(self, node):
        v, over = self.exact(node)
        if over or v > self.max:
            return self.max
        return v % self.mod

    def kalloc(self, node):
        v, over = self.exact(node)
        if over or v > self.max:
            return self.max
        # C's own value, unless a helper below got SIZE_MAX for an
        # operand above it (the exact value is then the helper's).
        return v % self.mod


FLEX_HEADER = 8             # sizeof (struct flex): u64 id; u32 data[]
# struct flex_u8 has the same layout, and a u8 counted_by counter: the
# plugin refuses counts above 255 (docs/rewrites.md).
DESTS = {"struct_size": "struct flex *p", "struct_size_u8": "struct flex_u8 *p"}


def write_program(path, gen, count, rng):
    exprs = []
    lines = ['#include "kernel.h"', "#include <stdio.h>", "",
             "struct flex { u64 id; u32 data[]; };",
             "struct flex_u8 { u32 id; u8 count; u32 data[] __counted_by (count); };",
             "",
             "static size_t sizes[%d][%d];" % (count, VECTORS),
             "__attribute__ ((__noinline__)) static long",
             "pick_long (int c, long a, long b) { return c ? a : b; }",
             "__attribute__ ((__noinline__)) static size_t",
             "pick_size (int c, size_t a, size_t b) { return c ? a : b; }",
             ""]
    for k in range(count):
        size = gen.size()
        names = ["v%d" % i for i in range(len(gen.vars))]
        vectors = [gen.values() for _ in range(VECTORS)]
        exprs.append((size, vectors, list(gen.vars)))
        params = ", ".join("%s %s" % (t, n)
                           for (t, _, _), n in zip(gen.vars, names))
        params += ", int c"
        dest = DESTS.get(size[0], "u64 *p")
        lines += ["__attribute__ ((__noinline__)) static size_t",
                  "t%d (%s)" % (k, params), "{",
                  "  %s;" % dest,
                  "  p = kmalloc (%s, GFP_KERNEL);" % c_text(size, names),
                  "  kfree (p);", "  return kstub_last_size;", "}", ""]
        calls = []
        for j, vec in enumerate(vectors):
            args = ", ".join("OPAQUE ((%s) %dLL)" % (t, v) if v >= 0 else
                             "OPAQUE ((%s) (%dLL))" % (t, v)
                             for (t, _, _), v in zip(gen.vars, vec))
            args += ", OPAQUE (%d)" % vec[-1]
            calls.append("  sizes[%d][%d] = t%d (%s);" % (k, j, k, args))
        lines += ["static void", "run%d (void)" % k, "{"] + calls + ["}", ""]
    lines += ["int", "main (void)", "{"]
    lines += ["  run%d ();" % k for k in range(count)]
    lines += ["  for (int k = 0; k < %d; k++)" % count,
              "    for (int j = 0; j < %d; j++)" % VECTORS,
              '      printf ("%d %d %zu\\n", k, j, sizes[k][j]);',
              "  return 0;", "}"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return exprs


def read_sizes(text, count):
    sizes = {}
    for line in text.splitlines():
        k, j, v = line.split()
        sizes[int(k), int(j)] = int(v)
    if len(sizes) != count * VECTORS:
        return None
    return sizes


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        print("usage: check-sizes CC PLUGIN [OUTDIR]", file=sys.stderr)
        return 2
    cc, plugin = sys.argv[1], sys.argv[2]
    outdir = sys.argv[3] if len(sys.argv) > 3 else "build/sizes"
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = int(os.environ.get("SIZES_FILES", "8"))
    count = int(os.environ.get("SIZES_EXPRS", "250"))
    seed = int(os.environ.get("SIZES_SEED", "1"))
    runner = os.environ.get("SIZES_RUN", "")
    if not os.path.isfile(plugin):
        return kharness.cannot_run("sizes", "no plugin at %s" % plugin)
    probe = run("echo __SIZEOF_SIZE_T__ | %s -E -P -x c -" % cc)
    try:
        bits = 8 * int(probe.stdout.split()[-1])
    except (ValueError, IndexError):
        return kharness.cannot_run("sizes", "%s does not run: %s" % (cc, probe.stdout))

    os.makedirs(outdir, exist_ok=True)
    for old in os.listdir(outdir):
        os.unlink(os.path.join(outdir, old))
    rng = random.Random(seed)
    gen = Gen(rng, bits)
    flags = "-w -I%s/include -DKSTUB_SIZE_ONLY" % shlex.quote(top)
    variants = ["-O0", "-O2", "-O0 -DKSHAPE_HOOKS", "-O2 -DKSHAPE_HOOKS"]
    passed = failed = checks = overflows = unread = 0
    for f in range(files):
        src = os.path.join(outdir, "sizes-%d.c" % f)
        exprs = write_program(src, gen, count, rng)
        for variant in variants:
            got = {}
            for side, (_built, out) in kharness.plain_and_kalloc(
                    cc, variant, flags, src,
                    "-fplugin=%s -fplugin-arg-kalloc-no-warn=all" % shlex.quote(plugin),
                    runner=runner).items():
                got[side] = (read_sizes(out.stdout, count)
                             if out.returncode == 0 else None)
                if got[side] is None:
                    print("sizes: %s %s %s failed: %s"
                          % (src, variant, side, out.stdout[-2000:]))
            for k, (size, vectors, types) in enumerate(exprs):
                bad = []
                for j, vec in enumerate(vectors):
                    model = Model(bits, vec, types)
                    want_plain, want = model.program(size), model.kalloc(size)
                    checks += 1
                    overflows += want == model.max and want_plain != want
                    plain = got["plain"] and got["plain"][k, j]
                    hard = got["kalloc"] and got["kalloc"][k, j]
                    # GCC may fold arithmetic into the arms of a chosen
                    # term (c ? a : b) * 8, whose sign kalloc then cannot
                    # read: it leaves such a size as the program has it.
                    # It may miss that overflow, never invent one.
                    if (hard == want_plain and want != want_plain
                            and has_chosen(size)):
                        unread += 1
                        want = want_plain
                    if plain != want_plain or hard != want:
                        bad.append("values %s: plain %s (C: %d), kalloc %s "
                                   "(want %d)" % (vec, plain, want_plain,
                                                  hard, want))
                if bad:
                    failed += 1
                    print("FAIL: %s t%d %s: %s" % (src, k, variant,
                                                   c_text(size, ["v%d" % i for i in range(3)])))
                    for line in bad[:3]:
                        print("      " + line)
                else:
                    passed += 1
    print("sizes: %d expressions, %d values each, %d variants: %d checks, "
          "%d of them overflows that kalloc must refuse"
          % (files * count, VECTORS, len(variants), checks, overflows))
    print("sizes: %d overflows of chosen terms left as the program has them "
          "(a sign kalloc cannot read)" % unread)
    if passed == 0:
        failed += 1
    return kharness.summary("sizes", passed, failed)


if __name__ == "__main__":
    sys.exit(main())
