#!/bin/bash
# dkms-build.sh SRC TREE KERNELVER - build one DKMS package the way dkms 3.0
# (Debian 12's) does, without installing anything: read SRC/dkms.conf as
# dkms does (sourced in a subshell, only its variables kept), apply its
# BUILD_EXCLUSIVE_* rules, copy SRC to TREE/PACKAGE_NAME/PACKAGE_VERSION/
# build, apply PATCH[], run PRE_BUILD, run MAKE[0] (or dkms's default
# kbuild command) with "make" turned into "make -jN KERNELRELEASE=..." and
# CC from the headers' .kernelvariables, and check that every
# BUILT_MODULE_NAME[] was built.
#
# The kernel is /lib/modules/KERNELVER/build.  The environment passes
# through (KCFLAGS: how check-dkms adds the plugin).  DKMS_JOBS: -j (2).
# The build's output goes to stderr; the last line on stdout is one of
#   built N modules
#   excluded: REASON      (BUILD_EXCLUSIVE_* rules out this kernel)
#   failed: REASON
# Exit status 0 only for "built".
set -u
src=$(cd "$1" && pwd) dkms_tree=$2 kernelver=$3
jobs=${DKMS_JOBS:-2}
# dkms.conf's variables may be scalars or arrays (MAKE= or MAKE[0]=), and
# bash's set -u refuses ${#MAKE[@]} of a scalar: no set -u from here on.
set +u
arch=$(uname -m)
kernel_source_dir=/lib/modules/$kernelver/build
kernel_config=$kernel_source_dir/.config
source_tree=$(dirname "$src")

vars="PACKAGE_NAME PACKAGE_VERSION MAKE MAKE_MATCH CLEAN PRE_BUILD PATCH PATCH_MATCH
  BUILT_MODULE_NAME BUILT_MODULE_LOCATION DEST_MODULE_LOCATION
  BUILD_EXCLUSIVE_KERNEL BUILD_EXCLUSIVE_ARCH BUILD_EXCLUSIVE_CONFIG"
[ -f "$src/dkms.conf" ] || { echo "failed: no dkms.conf"; exit 1; }
# dkms.conf is a shell fragment: sourced in a subshell (it may set ARCH
# and others), its dkms variables printed back, as dkms's safe_source does.
conf=$( (
    export kernelver arch kernel_source_dir dkms_tree source_tree
    set +u
    cd "$src" && . "$src/dkms.conf" >/dev/null 2>&1
    for v in $vars; do declare -p "$v" 2>/dev/null; done
) ) || true
unset $vars
eval "$conf"
[ -n "${PACKAGE_NAME:-}" ] && [ -n "${PACKAGE_VERSION:-}" ] ||
    { echo "failed: dkms.conf names no PACKAGE_NAME/PACKAGE_VERSION"; exit 1; }
module=$PACKAGE_NAME module_version=$PACKAGE_VERSION
build_dir=$dkms_tree/$module/$module_version/build

# ---- BUILD_EXCLUSIVE_* (dkms read_conf) -----------------------------------
if [ -n "${BUILD_EXCLUSIVE_KERNEL:-}" ] && ! [[ $kernelver =~ $BUILD_EXCLUSIVE_KERNEL ]]; then
    echo "excluded: BUILD_EXCLUSIVE_KERNEL=$BUILD_EXCLUSIVE_KERNEL"; exit 1
fi
if [ -n "${BUILD_EXCLUSIVE_ARCH:-}" ] && ! [[ $arch =~ $BUILD_EXCLUSIVE_ARCH ]]; then
    echo "excluded: BUILD_EXCLUSIVE_ARCH=$BUILD_EXCLUSIVE_ARCH"; exit 1
fi
if [ -n "${BUILD_EXCLUSIVE_CONFIG:-}" ] && [ -e "$kernel_config" ]; then
    for k in $BUILD_EXCLUSIVE_CONFIG; do
        case $k in
        !*) ! grep -q -E "^${k#!}=[ym]" "$kernel_config" || { echo "excluded: $k"; exit 1; } ;;
        *) grep -q -E "^$k=[ym]" "$kernel_config" || { echo "excluded: $k not set"; exit 1; } ;;
        esac
    done
fi

# ---- the make command (dkms read_conf, actual_build) ----------------------
make_command=""
[ -n "${MAKE_MATCH[0]:-}" ] || make_command=${MAKE[0]:-}
for ((i = 0; i < ${#MAKE[@]}; i++)); do
    [ -n "${MAKE[$i]:-}" ] && [ -n "${MAKE_MATCH[$i]:-}" ] &&
        [[ $kernelver =~ ${MAKE_MATCH[$i]} ]] && make_command=${MAKE[$i]}
done
[ -n "$make_command" ] || make_command="make -C $kernel_source_dir M=$dkms_tree/$module/$module_version/build"
if grep -q CONFIG_CC_IS_CLANG=y "$kernel_config" 2>/dev/null; then
    echo "failed: the kernel was built with clang"; exit 1
fi

rm -rf "$build_dir"
mkdir -p "$(dirname "$build_dir")"
cp -a "$src/" "$build_dir"
cd "$build_dir" || exit 1
for ((i = 0; i < ${#PATCH[@]}; i++)); do
    p=${PATCH[$i]:-}
    [ -n "$p" ] || continue
    [ -n "${PATCH_MATCH[$i]:-}" ] && ! [[ $kernelver =~ ${PATCH_MATCH[$i]} ]] && continue
    patch -p1 < "patches/$p" >&2 || { echo "failed: patch $p does not apply"; exit 1; }
done

# dkms: CC is the kernel's own compiler (CONFIG_CC_VERSION_TEXT, then
# the headers' .kernelvariables).
if [ -f "$kernel_source_dir/.kernelvariables" ]; then
    CC=$(printf 'show-%%:\n\t@echo $($*)\ninclude %s/.kernelvariables\n' "$kernel_source_dir" | make -s -f - show-CC)
    export CC
fi

if [ -n "${PRE_BUILD:-}" ]; then
    run=$build_dir/$PRE_BUILD
    if [ -x "${run%% *}" ]; then
        ( cd "$build_dir" && exec $run ) >&2 || echo "dkms-build: PRE_BUILD failed (dkms goes on)" >&2
    else
        echo "dkms-build: the pre_build script is not executable (dkms goes on)" >&2
    fi
fi

the_make_command=${make_command/#make/make -j$jobs KERNELRELEASE=$kernelver}
echo "dkms-build: $the_make_command" >&2
( eval "{ $the_make_command; }" ) >&2
status=$?

missing="" n=0
for ((i = 0; i < ${#BUILT_MODULE_NAME[@]}; i++)); do
    name=${BUILT_MODULE_NAME[$i]:-}
    [ -n "$name" ] || { [ "${#DEST_MODULE_LOCATION[@]}" -eq 1 ] && name=$module; }
    loc=${BUILT_MODULE_LOCATION[$i]:-}
    [ -z "$loc" ] || [ "${loc: -1}" = / ] || loc=$loc/
    if [ -e "$build_dir/$loc$name.ko" ]; then n=$((n + 1)); else missing="$missing $name"; fi
done
if [ "${#BUILT_MODULE_NAME[@]}" -eq 0 ]; then
    # dkms's default: one module named after the package.
    if [ -e "$build_dir/$module.ko" ]; then n=1; else missing=" $module"; fi
fi
if [ -n "$missing" ]; then
    echo "failed: make exit $status, not built:$missing"; exit 1
fi
[ "$status" -eq 0 ] || { echo "failed: make exit $status"; exit 1; }
echo "built $n modules"
