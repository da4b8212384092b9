#!/usr/bin/env python3
"""time-sample.py [--count N] [--repeat R] [--plugin PLUGIN] OBJ - the
compile-time cost of kalloc on a sample of a kernel build's files.

A second whole build without the plugin costs as much as the first; this
compiles N files of the build in OBJ (every k-th .c source of the sorted
.o.cmd files, so all directories are represented) from their kbuild
command lines, each without the plugin and with it (the -fplugin options
of the command line, or -fplugin=PLUGIN in mode=check with a report to a
temporary file), alternately, R times each, keeping each file's fastest
time per build.  Time is the compiler's CPU time (user + sys of the gcc
process and its children), which load on the machine disturbs less than
wall time.  Objects go to a temporary directory; OBJ is not touched.

Prints one line per file and the totals:
  time-sample: N files, without T0 s, with T1 s CPU (+P%)
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
from kharness import kbuild_cmd  # noqa: E402


def commands(obj):
    out = []
    for root, name in kbuild_cmd.cmd_files(obj):
        cmd, source, _deps = kbuild_cmd.read(os.path.join(root, name))
        if cmd and source and source.endswith('.c') and ' -c ' in cmd:
            out.append((os.path.relpath(os.path.join(root, name), obj), source, cmd))
    return sorted(out)


def argv_for(cmd, source, plugin, report, tmp):
    out = kbuild_cmd.compile_args(kbuild_cmd.source_words(cmd, source),
                                  drop=('-Wp,-MMD', '-Wp,-MD', '-fplugin'))
    if plugin:
        out[1:1] = ['-fplugin=' + plugin, '-fplugin-arg-kalloc-mode=check',
                    '-fplugin-arg-kalloc-report=' + report]
    return out + ['-o', os.path.join(tmp, 'x.o')]


def cpu_time(argv, cwd):
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, proc.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--count', type=int, default=100)
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('--plugin', help='default: the one of the command lines')
    ap.add_argument('obj')
    args = ap.parse_args()
    obj = os.path.realpath(args.obj)
    all_cmds = commands(obj)
    if not all_cmds:
        print('time-sample: no .o.cmd files under %s' % obj, file=sys.stderr)
        return 2
    plugin = args.plugin
    if not plugin:
        for a in shlex.split(all_cmds[0][2].split(';')[0]):
            if a.startswith('-fplugin='):
                plugin = a[len('-fplugin='):]
    if not plugin:
        print('time-sample: no plugin given or on the command lines', file=sys.stderr)
        return 2
    step = max(1, len(all_cmds) // args.count)
    sample = all_cmds[::step][:args.count]
    total = [0.0, 0.0]
    done = 0
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, 'report.jsonl')
        for cmdfile, source, cmd in sample:
            best = [None, None]
            ok = True
            for _ in range(args.repeat):
                for i, p in enumerate((None, plugin)):
                    t, rc = cpu_time(argv_for(cmd, source, p, report, tmp), obj)
                    ok = ok and rc == 0
                    best[i] = t if best[i] is None else min(best[i], t)
            if not ok:
                print('  %-60s failed to compile, left out' % cmdfile)
                continue
            done += 1
            total[0] += best[0]
            total[1] += best[1]
            obj_name = os.path.join(os.path.dirname(cmdfile),
                                    os.path.basename(cmdfile)[1:-len('.cmd')])
            print('  %-60s %7.2f %7.2f' % (obj_name, best[0], best[1]))
            sys.stdout.flush()
    print('time-sample: %d files of %d, without %.1f s, with %.1f s CPU (%+.1f%%)'
          % (done, len(all_cmds), total[0], total[1],
             100.0 * (total[1] - total[0]) / total[0] if total[0] else 0.0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
