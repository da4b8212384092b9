"""kharness.report - kalloc's reports, read by the report tool itself.

plugin/kalloc-report.py (installed as kalloc-report) is the one reader of
the JSON lines -fplugin-arg-kalloc-report=FILE writes: the test scripts
load it as a module instead of copying what it does.

  TOOL                    the path of plugin/kalloc-report.py, to run it
  tool()                  the tool as a module (loaded once)
  records(PATH[, counts]) the JSON objects of one report, a line that is
                          not one said on stderr and counted in counts['bad']
  load(PATHS, SRCDIRS, ...) the unique sites of reports, probes left out:
                          (sites, raw, probes, bad), as kalloc-report counts
  is_probe(FILE)          a compiler probe's file (configure, CMake, Kbuild)
"""
import os

TOOL = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))), 'plugin', 'kalloc-report.py')


def tool():
    """plugin/kalloc-report.py as the module kalloc_report."""
    from . import load_script
    return load_script(TOOL, 'kalloc_report')


def records(path, counts=None):
    return tool().records(path, counts)


def load(paths, srcdirs, wrappers=None, empty=None):
    return tool().load(paths, srcdirs, wrappers=wrappers, empty=empty)


def is_probe(fname):
    return tool().is_probe(fname)
