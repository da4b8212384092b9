"""kharness - what kalloc's test scripts share.

Python scripts put testsuite/lib on sys.path and import it:

    sys.path.insert(0, os.path.join(TOP, 'testsuite', 'lib'))
    import kharness
    from kharness import kbuild_cmd, kalloc_log, report

It holds:

  summary(NAME, PASSED, FAILED[, SKIPPED])   prints the summary line every
      check ends with, "NAME: N passed, N failed[, N skipped]", and
      returns the exit status: 1 when anything failed or nothing passed
  cannot_run(NAME[, MESSAGE][, failed=N])    a check that cannot run
      fails: MESSAGE on stderr, then "NAME: 0 passed, N failed"; returns 1
  run(CMD)                  a shell command, its output and errors together
  plain_and_kalloc(...)     a program built and run without and with the
      plugin (check-counters, check-sizes)
  load_script(PATH, NAME)   a script without a module name, as a module
  kbuild_cmd                the one reader of Kbuild's .cmd files
  kalloc_log                the one reader of kalloc's warnings in build logs
  report                    kalloc's reports, read by plugin/kalloc-report.py
                            itself (loaded as a module, not copied)

Shell scripts source testsuite/lib/harness.sh (summary, cannot_run) or
run the command line of this package (`python3 testsuite/lib/kharness
help`).
"""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys

from . import kalloc_log, kbuild_cmd, report  # noqa: F401  (re-exported)

# The checkout: testsuite/lib/kharness/ is three levels down.
TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))


def summary_line(name, passed, failed, skipped=None):
    """'NAME: P passed, F failed' and, when SKIPPED is given, ', S skipped'."""
    line = '%s: %d passed, %d failed' % (name, passed, failed)
    if skipped is not None:
        line += ', %d skipped' % skipped
    return line


def summary(name, passed, failed, skipped=None, file=None):
    """Print the summary line (to FILE, default standard output) and
    return the exit status of the check: 1 when FAILED is not 0 or
    nothing passed (a check that ran nothing proves nothing), else 0."""
    print(summary_line(name, passed, failed, skipped), file=file or sys.stdout,
          flush=True)
    return 1 if failed or not passed else 0


def planted(name, found, want):
    """A checker's self-test: FOUND must be exactly the WANT findings
    planted in a scratch tree; prints the verdict and returns 0 or 1."""
    if sorted(found) != sorted(want):
        print(f"{name}: self-test failed: found", found, "wanted", want)
        return 1
    print(f"{name}: self-test: {len(want)} planted findings found, nothing else")
    return 0


def cannot_run(name, message=None, failed=1):
    """A check that cannot run fails, it does not skip: MESSAGE (when
    given) on standard error as "NAME: MESSAGE", then the summary line
    "NAME: 0 passed, FAILED failed"; returns 1, the exit status."""
    if message is not None:
        print('%s: %s' % (name, message), file=sys.stderr, flush=True)
    summary(name, 0, failed)
    return 1


def run(cmd, cwd=None):
    """The shell command CMD: a CompletedProcess whose stdout holds its
    output and its errors, as text."""
    return subprocess.run(cmd, shell=True, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def plain_and_kalloc(cc, variant, flags, src, plugin_flags, runner=''):
    """SRC built (CC VARIANT FLAGS [PLUGIN_FLAGS] SRC -o EXE) and run
    (RUNNER EXE: an environment assignment, qemu-user...) twice, without
    and with the plugin.  Returns {'plain': R, 'kalloc': R}, R a pair
    (built, process): the run when the build succeeded (built True), the
    failed build otherwise.  EXE is SRC without '.c', VARIANT without
    spaces, '-plain' or '-kalloc'."""
    got = {}
    for side, extra in (('plain', ''), ('kalloc', plugin_flags)):
        exe = '%s%s-%s' % (src[:-2], variant.replace(' ', ''), side)
        build = run('%s %s %s %s %s -o %s' % (cc, variant, flags, extra, src, exe))
        if build.returncode != 0:
            got[side] = (False, build)
        else:
            got[side] = (True, run(('%s %s' % (runner, exe)).strip()))
    return got


def load_script(path, name):
    """The Python script PATH as a module called NAME, loaded once (a
    script named with a hyphen cannot be imported by name)."""
    mod = sys.modules.get(name)
    if mod is not None and getattr(mod, '__file__', None) == os.path.abspath(path):
        return mod
    loader = importlib.machinery.SourceFileLoader(name, os.path.abspath(path))
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    loader.exec_module(mod)
    return mod
