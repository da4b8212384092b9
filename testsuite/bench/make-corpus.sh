#!/bin/bash
# make-corpus.sh - the inputs of `make bench`, cached under build/bench.
#
#   testsuite/bench/make-corpus.sh [CC]
#
# 1. The kernel corpus: Linux 6.12 (Debian's linux-source-6.12, unpacked
#    from /usr/src, or KSRC=DIR) configured with x86_64 defconfig and
#    `make prepare`, then `make path/file.i` for every file of
#    testsuite/bench/corpus.list.  Each unit becomes
#    build/bench/corpus/PATH.i and PATH.flags: the kernel's own compile
#    flags for it (from its .cmd file), minus the preprocessor's
#    (-I, -D, -include, -nostdinc, -Wp,-MMD) and minus -Werror, so that a
#    kalloc warning cannot stop a benchmark compile.
# 2. The stress units (testsuite/bench/gen-stress.py) in build/bench/stress.
#
# Everything is rebuilt only when this script, the list or the compiler
# changes; the first run takes about 2 minutes on 2 cores (unpacking the
# tarball is most of it).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CC=${1:-gcc}
out=$top/build/bench
tarball=${KSRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
ksrc=${KSRC:-$out/linux-source-6.12}
kobj=$out/kobj
corpus=$out/corpus
stress=$out/stress
jobs=$(nproc)
mkdir -p "$out"

units=$(grep -v '^#' "$here/corpus.list" | grep -v '^[[:space:]]*$')

stamp_of() {
	{ cat "$@"; "$CC" --version | head -1; echo "$ksrc"; } | sha1sum | cut -d' ' -f1
}

# ---- the kernel corpus -----------------------------------------------------
corpus_stamp=$(stamp_of "$here/make-corpus.sh" "$here/corpus.list")
if [ "$(cat "$corpus/.stamp" 2>/dev/null)" = "$corpus_stamp" ]; then
	echo "make-corpus: kernel corpus cached ($(echo "$units" | wc -l) units in $corpus)"
else
	if [ ! -f "$ksrc/Makefile" ]; then
		if [ -n "${KSRC:-}" ]; then
			echo "make-corpus: KSRC=$KSRC is not a kernel tree" >&2; exit 1
		fi
		if [ ! -f "$tarball" ]; then
			echo "make-corpus: $tarball missing: apt-get install linux-source-6.12" >&2
			exit 1
		fi
		echo "make-corpus: unpacking $tarball"
		rm -rf "$out/linux-source-6.12.tmp"
		mkdir -p "$out/linux-source-6.12.tmp"
		tar -xf "$tarball" -C "$out/linux-source-6.12.tmp"
		mv "$out/linux-source-6.12.tmp/linux-source-6.12" "$ksrc"
		rmdir "$out/linux-source-6.12.tmp"
	fi
	kmake() { make -s -C "$ksrc" O="$kobj" ARCH=x86_64 CC="$CC" "$@"; }
	if [ ! -f "$kobj/.kalloc-prepared" ]; then
		echo "make-corpus: x86_64 defconfig, make prepare in $kobj"
		rm -rf "$kobj"
		mkdir -p "$kobj"
		kmake defconfig >/dev/null
		kmake -j"$jobs" prepare >/dev/null
		touch "$kobj/.kalloc-prepared"
	fi
	targets=$(echo "$units" | sed 's/\.c$/.i/')
	echo "make-corpus: preprocessing $(echo "$units" | wc -l) units"
	# shellcheck disable=SC2086
	kmake -j"$jobs" $targets
	rm -rf "$corpus"
	for unit in $units; do
		base=${unit%.c}
		dir=$(dirname "$unit")
		name=$(basename "$base")
		mkdir -p "$corpus/$dir"
		cp "$kobj/$base.i" "$corpus/$base.i"
		cmd=$(python3 "$here/../lib/kharness" cmd "$kobj/$dir/.$name.i.cmd") || exit 1
		# The compile flags: what is left of the -E command line.
		python3 - "$cmd" > "$corpus/$base.flags" <<'EOF'
import shlex, sys
words = shlex.split(sys.argv[1])[1:]          # drop the compiler
keep, skip = [], False
for w in words:
    if skip:
        skip = False
        continue
    if w in ('-include', '-o', '-isystem'):
        skip = True
        continue
    if (w in ('-E', '-nostdinc', '-Werror') or w.startswith(('-I', '-D', '-U', '-Wp,'))
            or w.startswith('-fmacro-prefix-map=') or w.endswith('.c')):
        continue
    keep.append(w)
print(' '.join(keep))
EOF
	done
	echo "$corpus_stamp" > "$corpus/.stamp"
	echo "make-corpus: kernel corpus in $corpus"
fi

# ---- the stress units ------------------------------------------------------
stress_stamp=$(stamp_of "$here/gen-stress.py")
if [ "$(cat "$stress/.stamp" 2>/dev/null)" = "$stress_stamp" ]; then
	echo "make-corpus: stress units cached in $stress"
else
	rm -rf "$stress"
	mkdir -p "$stress"
	python3 "$here/gen-stress.py" "$stress"
	echo "$stress_stamp" > "$stress/.stamp"
fi
