"""The command line of kharness, for shell scripts and check-harness:

  python3 testsuite/lib/kharness summary NAME PASSED FAILED [SKIPPED]
      prints "NAME: P passed, F failed[, S skipped]"; exit 1 when F is
      not 0 or P is 0 (nothing passed), else 0
  python3 testsuite/lib/kharness cmd|source FILE.cmd
      that field of a Kbuild .cmd file (kbuild_cmd); exit 1 when missing
  python3 testsuite/lib/kharness warnings LOG...
      each distinct kalloc warning line of the build logs (kalloc_log)
"""
import os
import sys

# Run as a directory, sys.path[0] is this package's own directory: its
# modules must be found as kharness.*, not as top-level modules.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or '.') != HERE]
sys.path.insert(0, os.path.dirname(HERE))

import kharness  # noqa: E402


def usage():
    sys.stderr.write(__doc__)
    return 2


def main(argv):
    if not argv:
        return usage()
    cmd, args = argv[0], argv[1:]
    if cmd == 'summary':
        if len(args) not in (3, 4) or not all(a.isdigit() for a in args[1:]):
            return usage()
        return kharness.summary(args[0], *[int(a) for a in args[1:]])
    if cmd in ('cmd', 'source'):
        return kharness.kbuild_cmd.main(argv)
    if cmd == 'warnings':
        return kharness.kalloc_log.main(['kalloc_log'] + argv)
    if cmd in ('help', '-h', '--help'):
        sys.stdout.write(__doc__)
        return 0
    return usage()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
