#!/usr/bin/env python3
"""gen-objsize.py OUTDIR - write small C programs that print
__builtin_dynamic_object_size () for structures whose flexible array is
annotated with counted_by: counter types and positions, element sizes,
counts 0, 1, typical and at the counter type's limit (and past what was
allocated), whole-struct and member pointers, modes 0-3, directly and
through FORTIFY_SOURCE-style inline wrappers, heap and on-stack objects.
Each program prints "label value" lines; a GCC 15 build (native
counted_by) and a GCC 12 + kalloc build must print the same."""
import os
import sys

COUNTERS = [  # type, typical, limit values (as C expressions)
    ("unsigned char", ["0", "1", "5", "255"]),
    ("signed char", ["0", "1", "5", "127", "-1"]),
    ("unsigned short", ["0", "1", "9", "65535"]),
    ("short", ["0", "3", "32767", "-5"]),
    ("unsigned int", ["0", "1", "7", "4294967295u"]),
    ("int", ["0", "1", "7", "2147483647", "-1"]),
    ("unsigned long", ["0", "1", "7", "4294967296ul"]),
    ("long", ["0", "2", "7", "-7"]),
]
ELEMS = [("char", "1"), ("short", "2"), ("int", "4"), ("long", "8"),
         ("struct e12", "12")]
POSITIONS = ["first", "middle", "last", "anonymous"]


def struct_def(name, ctype, elem, position):
    fam = f"{elem} fam[] __attribute__((counted_by(cnt)));"
    if position == "first":
        body = f"{ctype} cnt; long a; {fam}"
    elif position == "middle":
        body = f"long a; {ctype} cnt; int b; {fam}"
    elif position == "last":
        body = f"long a; short b; {ctype} cnt; {fam}"
    else:
        body = f"long a; struct {{ int flags; {ctype} cnt; }}; {fam}"
    return f"struct {name} {{ {body} }};"


def program(index, ctype, values):
    out = ["#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>",
           "struct e12 { int x, y, z; };",
           "#define P(label, e) printf(\"%s %zd\\n\", label, (long)(e))",
           "static inline __attribute__((always_inline)) unsigned long",
           "bdos0(const void *p) { return __builtin_dynamic_object_size(p, 0); }",
           "static inline __attribute__((always_inline)) unsigned long",
           "bdos1(const void *p) { return __builtin_dynamic_object_size(p, 1); }",
           "static volatile int opaque_index = 2;"]
    tests = []
    for e, (elem, esize) in enumerate(ELEMS):
        for pos in POSITIONS:
            name = f"s_{e}_{pos}"
            out.append(struct_def(name, ctype, elem, pos))
            fn = f"t_{e}_{pos}"
            lines = [f"__attribute__((noinline)) static void {fn}(struct {name} *p, const char *tag)",
                     "{", "  int i = opaque_index;", "  char label[128];"]
            forms = [("whole", "p"), ("fam", "p->fam"), ("fam0", "&p->fam[0]"),
                     ("fam1", "&p->fam[1]"), ("fami", "&p->fam[i]"),
                     ("bytes3", "(char *)p->fam + 3"), ("plusi", "p->fam + i"),
                     ("cnt", "&p->cnt")]
            for form, expr in forms:
                for mode in range(4):
                    lines.append(f"  snprintf(label, sizeof label, \"%s {form} mode{mode}\", tag);")
                    lines.append(f"  P(label, __builtin_dynamic_object_size({expr}, {mode}));")
            lines.append("  snprintf(label, sizeof label, \"%s wrapper0 fam\", tag);")
            lines.append("  P(label, bdos0(p->fam));")
            lines.append("  snprintf(label, sizeof label, \"%s wrapper1 fami\", tag);")
            lines.append("  P(label, bdos1(&p->fam[i]));")
            lines.append("}")
            out.extend(lines)
            for v in values:
                tests.append((name, fn, esize, v))
    out.append("int main(void)\n{")
    out.append("  char tag[96];")
    for k, (name, fn, esize, v) in enumerate(tests):
        out.append("  {")
        out.append(f"    struct {name} *h = malloc(sizeof(struct {name}) + 6 * {esize});")
        out.append(f"    memset(h, 0, sizeof(struct {name}) + 6 * {esize});")
        out.append(f"    h->cnt = {v};")
        out.append(f"    snprintf(tag, sizeof tag, \"{name} cnt={v} heap\");")
        out.append(f"    {fn}(h, tag);")
        out.append(f"    P(\"{name} cnt={v} direct fam\", __builtin_dynamic_object_size(h->fam, 1));")
        out.append(f"    P(\"{name} cnt={v} direct whole\", __builtin_dynamic_object_size(h, 0));")
        out.append("    free(h);")
        out.append(f"    union {{ char bytes[sizeof(struct {name}) + 3 * {esize}]; struct {name} obj; }} u = {{ 0 }};")
        out.append(f"    struct {name} *l = (struct {name} *)&u;")
        out.append(f"    l->cnt = {v};")
        out.append(f"    P(\"{name} cnt={v} local whole\", __builtin_dynamic_object_size(l, 0));")
        out.append(f"    P(\"{name} cnt={v} local fam\", __builtin_dynamic_object_size(l->fam, 1));")
        out.append(f"    P(\"{name} cnt={v} local fam0\", __builtin_dynamic_object_size(l->fam, 0));")
        out.append("  }")
    out.append("  return 0;\n}")
    return "\n".join(out) + "\n"


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for index, (ctype, values) in enumerate(COUNTERS):
        path = os.path.join(outdir, f"objsize-{index}.c")
        with open(path, "w") as f:
            f.write(program(index, ctype, values))
    print(len(COUNTERS))


if __name__ == "__main__":
    main()
