#!/bin/sh
# run-demo.sh CC PLUGIN - compile the legacy driver with kalloc, show what
# it catches, then run it built without and with the plugin.
set -u
cc=$1
plugin=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/demo
mkdir -p "$out"
src=$here/legacy-driver.c
flags="-O2 -I$top/testsuite/include"

echo "== 1. Compiling docs/demo/legacy-driver.c with kalloc:"
echo "   $cc -fplugin=plugin/kalloc.so -c legacy-driver.c"
echo
$cc $flags -fplugin="$plugin" "$src" -o "$out/driver-kalloc" 2>&1 | sed "s|$top/||"
echo
echo "== 2. Running it built WITHOUT kalloc:"
$cc $flags "$src" -o "$out/driver-plain" 2>/dev/null && "$out/driver-plain" | sed 's/^/   /'
echo
echo "== 3. Running it built WITH kalloc (same source, no edits):"
"$out/driver-kalloc" | sed 's/^/   /'
echo
echo "kalloc: the two warnings above are real bugs; the hardened build refuses"
echo "the wrapping allocation and sets the counted_by counter, as Linux 7.0's"
echo "kmalloc_objs()/kmalloc_flex() do.  See README.md and docs/."
