#!/usr/bin/env python3
"""check-counters.py - the differential test of counted_by counter stores.

Generates functions that allocate a counted_by structure with each kind of
allocator (zeroing: kzalloc (), kvzalloc (), calloc (); not zeroing:
kmalloc (), kvmalloc (), malloc (); kmalloc () then memset ()) and then do
a random, well-defined sequence of operations on it: stores of the
counter (constants, the capacity, 0), increments, compound assignments,
reads, comparisons, fills indexed by the counter before and after the
increment, reads through a pointer to the counter and through memcpy (),
calls that receive the object, publication through a global, early
returns, loops, realloc ().  The generator simulates each sequence and
keeps only what is defined without kalloc: no read of a counter or an
element the program has not written (kmalloc () memory), no element
past the capacity.  Each program is built without and with the plugin
at -O0, -O2 and -O2 -flto, in both kernel shapes, and with
AddressSanitizer at -O0 and -O2; every build must print the same thing,
and no AddressSanitizer build may report anything.

Usage: check-counters.py CC PLUGIN [OUTDIR]
Environment: COUNTERS_FILES (programs, default 6), COUNTERS_FUNCS
(functions a program, default 60), COUNTERS_SEED (default 1).
Ends with "counters: N passed, N failed"; exits non-zero on any failure,
or when nothing was compared.
"""
import os
import random
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import kharness  # noqa: E402

# Counter types: name, largest value.
COUNTERS = [("u8", 255), ("u16", 65535), ("u32", 2 ** 32 - 1),
            ("int", 2 ** 31 - 1), ("size_t", 2 ** 32 - 1)]
CAPS = [0, 1, 2, 3, 5, 8, 13]
# Allocators: name, C text, zeroed, freed with.
ALLOCATORS = [
    ("kzalloc", "kzalloc (struct_size (b, items, cap), GFP_KERNEL)", True, "kfree"),
    ("kvzalloc", "kvzalloc (struct_size (b, items, cap), GFP_KERNEL)", True, "kvfree"),
    ("calloc", "calloc (1, sizeof (*b) + cap * sizeof (b->items[0]))", True, "free"),
    ("kmalloc", "kmalloc (struct_size (b, items, cap), GFP_KERNEL)", False, "kfree"),
    ("kvmalloc", "kvmalloc (struct_size (b, items, cap), GFP_KERNEL)", False, "kvfree"),
    ("malloc", "malloc (sizeof (*b) + cap * sizeof (b->items[0]))", False, "free"),
    ("memset", "kmalloc (struct_size (b, items, cap), GFP_KERNEL)", False, "kfree"),
]


class State:
    """What the program has written so far, as C defines it."""

    def __init__(self, cap, zeroed, counter_max):
        self.cap = cap
        self.n = 0 if zeroed else None        # None: not written
        self.items = set(range(cap)) if zeroed else set()
        self.pad = 0 if zeroed else None
        self.max = counter_max


class Gen:
    def __init__(self, rng):
        self.rng = rng

    def ops(self, st, libc, c):
        """Statements (C text) after the allocation, each defined in ST,
        which they update.  C: the run-time selector's value."""
        out = []
        for _ in range(self.rng.randrange(1, 7)):
            op = self.pick(st, libc)
            if op is None:
                break
            text, ends = op(st, c)
            out.append(text)
            if ends:
                break
        return out

    def pick(self, st, libc):
        rng = self.rng
        choices = []
        n, cap = st.n, st.cap
        choices += [self.store_const, self.store_cap, self.store_zero,
                    self.call_set]
        if cap > 0:
            choices.append(self.memset_all)
        if n is not None:
            choices += [self.read, self.test_zero, self.read_pointer,
                        self.read_memcpy, self.early_return]
            if n < cap:
                choices += [self.increment, self.fill_post, self.fill_pre,
                            self.fill_inc_first, self.call_add,
                            self.publish_add, self.compound]
                choices.append(self.loop_up)
                choices.append(self.fill_loop)
        if libc:
            choices.append(self.grow)
        return rng.choice(choices)

    # -- operations: each returns (text, ends the sequence) --------------

    def store_const(self, st, c):
        k = self.rng.randrange(0, st.cap + 1)
        st.n = k
        return "b->n = %d;" % k, False

    def store_cap(self, st, c):
        st.n = st.cap
        return "b->n = cap;", False

    def store_zero(self, st, c):
        st.n = 0
        return "b->n = 0;", False

    def call_set(self, st, c):
        k = self.rng.randrange(0, st.cap + 1)
        st.n = k
        return "bag_set (b, %d);" % k, False

    def memset_all(self, st, c):
        st.n = 0
        st.pad = 0
        st.items = set(range(st.cap))
        return "memset (b, 0, sizeof (*b) + cap * sizeof (b->items[0]));", False

    def read(self, st, c):
        return "seen += b->n;", False

    def test_zero(self, st, c):
        st.pad = 77 if st.n == 0 else st.pad
        return "if (b->n == 0) b->pad = 77;", False

    def read_pointer(self, st, c):
        return "{ __typeof__ (b->n) *np = &b->n; seen += *np; }", False

    def read_memcpy(self, st, c):
        return ("{ __typeof__ (b->n) v; memcpy (&v, &b->n, sizeof v); "
                "seen += v; }"), False

    def early_return(self, st, c):
        return "if (c) return b;", bool(c)

    def increment(self, st, c):
        st.n += 1
        return "b->n++;", False

    def compound(self, st, c):
        k = self.rng.randrange(1, st.cap - st.n + 1)
        st.n += k
        return "b->n += %d;" % k, False

    def fill_post(self, st, c):
        v = self.rng.randrange(1, 1000)
        st.items.add(st.n)
        st.n += 1
        return "b->items[b->n++] = %d;" % v, False

    def fill_pre(self, st, c):
        v = self.rng.randrange(1, 1000)
        st.n += 1
        st.items.add(st.n - 1)
        return "b->items[++b->n - 1] = %d;" % v, False

    def fill_inc_first(self, st, c):
        v = self.rng.randrange(1, 1000)
        st.n += 1
        st.items.add(st.n - 1)
        return "b->n++; b->items[b->n - 1] = %d;" % v, False

    def call_add(self, st, c):
        v = self.rng.randrange(1, 1000)
        st.items.add(st.n)
        st.n += 1
        return "bag_add (b, %d);" % v, False

    def publish_add(self, st, c):
        v = self.rng.randrange(1, 1000)
        st.items.add(st.n)
        st.n += 1
        return "published = b; published_add (%d);" % v, False

    def loop_up(self, st, c):
        k = self.rng.randrange(st.n, st.cap + 1)
        st.n = max(st.n, k)
        return "while (b->n < %d) b->n++;" % k, False

    def fill_loop(self, st, c):
        k = self.rng.randrange(1, st.cap - st.n + 1)
        st.items.update(range(st.n, st.n + k))
        st.n += k
        return ("for (int i = 0; i < %d; i++) b->items[b->n++] = i + 1;" % k,
                False)

    def grow(self, st, c):
        # realloc () keeps the contents; the new elements are unwritten.
        st.cap += 2
        return ("{ struct bag *g = realloc (b, sizeof (*b) + (cap + 2) "
                "* sizeof (b->items[0])); if (!g) return b; b = g; cap += 2; }"
                ), False


HEADER = """\
#include <stdlib.h>
#include <string.h>
#include "kernel.h"

struct bag { %s n; u32 pad; u64 items[] __counted_by (n); };
static struct bag *published;
static unsigned long seen;

__attribute__ ((__noinline__)) static void
bag_add (struct bag *b, u64 v)
{
  b->items[b->n++] = v;
}

__attribute__ ((__noinline__)) static void
bag_set (struct bag *b, size_t k)
{
  b->n = k;
}

__attribute__ ((__noinline__)) static void
published_add (u64 v)
{
  published->items[published->n++] = v;
}
"""


def write_program(path, gen, count, rng):
    ctype, cmax = rng.choice(COUNTERS)
    lines = [HEADER % ctype]
    calls = []
    for k in range(count):
        name, text, zeroed, free = rng.choice(ALLOCATORS)
        libc = name in ("calloc", "malloc")
        cap = rng.choice([x for x in CAPS if x <= cmax])
        c = rng.randrange(2)
        st = State(cap, zeroed, cmax)
        pre = []
        if name == "memset":
            pre = ["memset (b, 0, struct_size (b, items, cap));"]
            st.n, st.pad, st.items = 0, 0, set(range(cap))
        ops = gen.ops(st, libc, c)
        lines += ["/* %s */" % name,
                  "__attribute__ ((__noinline__)) static struct bag *",
                  "f%d (size_t cap, int c)" % k, "{",
                  "  struct bag *b = %s;" % text,
                  "  if (!b)", "    return NULL;"]
        lines += ["  " + s for s in pre + ops]
        lines += ["  return b;", "}", ""]
        # What main may read afterwards: the counter if written, the
        # elements below it that were written, the pad if written.
        show_n = st.n is not None
        items = sorted(i for i in st.items if show_n and i < st.n)
        reads = []
        if show_n:
            reads.append('printf (" n=%lu", (unsigned long) b->n);')
        for i in items:
            reads.append('printf (" %%d=%%lu", %d, (unsigned long) b->items[%d]);'
                         % (i, i))
        if st.pad is not None:
            reads.append('printf (" pad=%u", b->pad);')
        calls += ["  b = f%d (OPAQUE ((size_t) %d), OPAQUE (%d));" % (k, cap, c),
                  '  printf ("f%d%%s", b ? "" : " NULL");' % k,
                  "  if (b)", "    {"]
        calls += ["      " + r for r in reads]
        calls += ["      %s (b);" % free, "    }",
                  '  printf (" seen=%lu\\n", seen);']
    lines += ["int", "main (void)", "{", "  struct bag *b;"] + calls
    lines += ["  return 0;", "}"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        print("usage: check-counters CC PLUGIN [OUTDIR]", file=sys.stderr)
        return 2
    cc, plugin = sys.argv[1], sys.argv[2]
    outdir = sys.argv[3] if len(sys.argv) > 3 else "build/counters"
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = int(os.environ.get("COUNTERS_FILES", "6"))
    count = int(os.environ.get("COUNTERS_FUNCS", "60"))
    seed = int(os.environ.get("COUNTERS_SEED", "1"))
    if not os.path.isfile(plugin):
        return kharness.cannot_run("counters", "no plugin at %s" % plugin)
    os.makedirs(outdir, exist_ok=True)
    for old in os.listdir(outdir):
        os.unlink(os.path.join(outdir, old))
    rng = random.Random(seed)
    gen = Gen(rng)
    flags = "-w -I%s/include" % shlex.quote(top)
    plug = "-fplugin=%s -fplugin-arg-kalloc-no-warn=all" % shlex.quote(plugin)
    variants = ["-O0", "-O2", "-O2 -flto", "-O0 -DKSHAPE_HOOKS",
                "-O2 -DKSHAPE_HOOKS", "-O2 -flto -DKSHAPE_HOOKS",
                "-O0 -fsanitize=address", "-O2 -fsanitize=address -DKSHAPE_HOOKS"]
    passed = failed = 0
    for f in range(files):
        src = os.path.join(outdir, "counters-%d.c" % f)
        write_program(src, gen, count, rng)
        for variant in variants:
            got = {}
            for side, (built, p) in kharness.plain_and_kalloc(
                    cc, variant, flags, src, plug,
                    runner="ASAN_OPTIONS=detect_leaks=0").items():
                got[side] = (p.returncode, p.stdout) if built else ("build", p.stdout[-1500:])
            plain, hard = got["plain"], got["kalloc"]
            if plain[0] != 0:
                # The generator's program must be defined and clean.
                failed += 1
                print("FAIL: %s %s: the program itself fails: %s"
                      % (src, variant, plain[1][-1500:]))
                continue
            if hard != plain:
                failed += 1
                print("FAIL: %s %s: differs with the plugin" % (src, variant))
                a, b = plain[1].splitlines(), str(hard[1]).splitlines()
                for x, y in zip(a, b):
                    if x != y:
                        print("      without: %s\n      with:    %s" % (x, y))
                        break
                if hard[0] != 0:
                    print("      exit %s: %s" % (hard[0], str(hard[1])[-800:]))
            else:
                passed += 1
    print("counters: %d programs of %d functions, %d variants each"
          % (files, count, len(variants)))
    if passed == 0:
        failed += 1
    return kharness.summary("counters", passed, failed)


if __name__ == "__main__":
    sys.exit(main())
