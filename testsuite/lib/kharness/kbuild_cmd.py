#!/usr/bin/env python3
"""kbuild_cmd - the one reader of Kbuild's .cmd files for kalloc's scripts.

Beside each target kbuild writes .TARGET.cmd:

  savedcmd_TARGET := COMMAND      (Linux 6.3 and later)
  cmd_TARGET := COMMAND           (before, e.g. Linux 6.1)
  source_TARGET := SOURCE
  deps_TARGET := \\
    DEP \\
    $(wildcard include/config/X) \\

As a module: read(path) -> CmdFile (cmd, source, deps), cmd_path(),
cmd_files(), compiler_words(), source_words(), compile_args() (import
kharness.kbuild_cmd).  As a program, for shell scripts:

  python3 testsuite/lib/kharness cmd|source FILE.cmd

prints that field, or says it is missing (exit 1).
"""
import os
import re
import shlex
import sys
from collections import namedtuple

# cmd: the whole command line (kbuild may chain a second command after
# ';'); source: as written (relative to the object tree); deps: the
# dependency list without $(wildcard ...) entries.
CmdFile = namedtuple('CmdFile', 'cmd source deps')

COMPILER = re.compile(r'(^|/)([\w.+-]*-)?(gcc|cc|clang)(-\d+)?$')


def read(path):
    cmd = source = None
    deps = []
    in_deps = False
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith(('savedcmd_', 'cmd_')) and ':=' in line:
                cmd = line.split(':=', 1)[1].strip()
            elif line.startswith('source_') and ':=' in line:
                source = line.split(':=', 1)[1].strip()
            elif line.startswith('deps_'):
                in_deps = True
            elif in_deps:
                word = line.strip().rstrip('\\').strip()
                if not word:
                    in_deps = False
                elif not word.startswith('$('):
                    deps.append(word)
    return CmdFile(cmd, source, deps)


def cmd_path(objdir, target):
    """The .cmd file of TARGET (relative to OBJDIR), e.g. kernel/fork.o."""
    return os.path.join(objdir, os.path.dirname(target),
                        '.' + os.path.basename(target) + '.cmd')


def cmd_files(objdir):
    """(directory, name) of every object's .cmd file under OBJDIR."""
    if not os.path.isdir(objdir):
        raise NotADirectoryError('kbuild_cmd: no object tree at %s' % objdir)
    for root, _dirs, files in sorted(os.walk(objdir)):
        for name in sorted(files):
            if name.startswith('.') and name.endswith('.o.cmd'):
                yield root, name


def compiler_words(cmd):
    """The first command of CMD as words, from the compiler on (a wrapper
    before it, such as score-cocci's cc-suggest, dropped)."""
    words = shlex.split(cmd.split(';')[0])
    while words and not COMPILER.search(words[0]):
        words.pop(0)
    return words


def source_words(cmd, source):
    """CMD cut after its SOURCE file (objtool and other steps follow it),
    as words from the compiler on."""
    at = cmd.find(source) if source else -1
    return compiler_words(cmd[:at + len(source)] if at >= 0 else cmd)


def compile_args(words, drop=('-fplugin', '-Wp,-MMD'), output=None):
    """WORDS without '-o FILE' (or with '-o OUTPUT' in its place) and
    without the words that start with one of DROP."""
    args, skip = [], False
    for w in words:
        if skip:
            skip = False
            continue
        if w == '-o':
            skip = True
            if output is not None:
                args += ['-o', output]
        elif not w.startswith(tuple(drop)):
            args.append(w)
    return args


def main(argv):
    if len(argv) != 2 or argv[0] not in ('cmd', 'source'):
        sys.stderr.write(__doc__)
        return 2
    try:
        value = getattr(read(argv[1]), argv[0])
    except OSError as e:
        sys.stderr.write('kbuild_cmd: %s\n' % e)
        return 1
    if not value:
        sys.stderr.write('kbuild_cmd: no %s line in %s\n' % (argv[0], argv[1]))
        return 1
    print(value)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
