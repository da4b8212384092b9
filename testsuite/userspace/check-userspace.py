#!/usr/bin/env python3
"""check-userspace.py - `make check-userspace`: real Debian 12 C packages built
without and with kalloc (mode=harden), each running its own test suite.

    testsuite/userspace/check-userspace.py CC /abs/path/kalloc.so [PACKAGE...]

For each package of PACKAGES (or those named): make sure a deb-src line for
Debian's archive exists (else write /etc/apt/sources.list.d/
kalloc-deb-src.sources from the deb line's URI), `apt-get build-dep`,
`apt-get source --download-only` into build/userspace/dl, unpack it twice
with dpkg-source (Debian's patches applied) and build it with its upstream
build system (CMake + ctest, configure + make check, or zlib's own
configure + make test):

    plain   CC="CC"
    kalloc  CC="CC -fplugin=PLUGIN -fplugin-arg-kalloc-mode=harden
                -fplugin-arg-kalloc-report=REPORT"

A package passes when both builds succeed, both test suites print their
summary with at least one test, no test that passed plain fails (or is
missing) with kalloc (per test: ctest and automake name theirs), no log says
"internal compiler error", the kalloc report holds at least one site
(the plugin ran), and every site it warned about is listed in
testsuite/userspace/triaged (docs/results/userspace.md).  A package that does not build plain, or whose suite
gives no summary, is a failure of this harness, never a skip.

Results are cleared at the start of each package's run (only the
downloaded sources in build/userspace/dl are kept); the table is written to
build/userspace/results.md.  One line per package, then
"userspace: N passed, N failed".  USERSPACE_JOBS sets make -j (default 2).
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "build", "userspace")
DL = os.path.join(WORK, "dl")
TRIAGED = os.path.join(HERE, "triaged")
sys.path.insert(0, os.path.join(ROOT, "testsuite", "lib"))
import kharness  # noqa: E402
from kharness import kalloc_log  # noqa: E402
TOOL = kharness.report.TOOL
JOBS = os.environ.get("USERSPACE_JOBS", "2")
STEP_TIMEOUT = 3600

# name: Debian source package; build: cmake, autotools or zlib; subdir:
# where the upstream build system lives; args: configure/cmake options
# (the same for both builds).  Why each is here: docs/results/userspace.md.
PACKAGES = [
    dict(name="zlib", build="zlib", args=[]),
    dict(name="libtasn1-6", build="autotools",
         args=["--disable-doc", "--disable-gcc-warnings"]),
    # Debian's security patches test "#if XML_DTD == 1", which its
    # autotools config.h defines and CMake's leaves empty: autotools.
    dict(name="expat", build="autotools", subdir="expat",
         args=["--without-docbook", "--without-examples"]),
    dict(name="jansson", build="cmake",
         args=["-DJANSSON_BUILD_DOCS=OFF", "-DJANSSON_EXAMPLES=OFF"]),
    dict(name="json-c", build="cmake", args=["-DBUILD_STATIC_LIBS=OFF"]),
    dict(name="cjson", build="cmake",
         args=["-DENABLE_CJSON_TEST=ON", "-DENABLE_CJSON_UTILS=ON"]),
    dict(name="libyaml", build="cmake", args=["-DBUILD_TESTING=ON"]),
    dict(name="xz-utils", build="autotools", args=["--disable-doc", "--disable-nls"]),
    dict(name="pcre2", build="autotools", args=["--enable-jit"]),
    dict(name="libpng1.6", build="autotools", args=[]),
]


def log(msg):
    print(msg, flush=True)


def child_env(cc):
    env = dict(os.environ)
    # A make above us (make check-userspace) must not hand its jobserver down.
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(k, None)
    env.update(LC_ALL="C", CC=cc, CFLAGS="-O2 -g", DEBIAN_FRONTEND="noninteractive")
    return env


def run(cmd, cwd, logf, env, timeout=STEP_TIMEOUT):
    """Run cmd (a list) appending to logf; return its exit status."""
    with open(logf, "a") as f:
        f.write("\n$ %s\n" % " ".join(shlex.quote(c) for c in cmd))
        f.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
                                  env=env, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            f.write("\ncheck-userspace: timed out after %d s\n" % timeout)
            return 124
        except OSError as e:
            f.write("\ncheck-userspace: %s\n" % e)
            return 127


# ---- apt -------------------------------------------------------------------

def sudo():
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo"):
        return ["sudo"]
    return None


def have_deb_src():
    files = glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*.list") \
        + glob.glob("/etc/apt/sources.list.d/*.sources")
    for path in files:
        try:
            text = open(path).read()
        except OSError:
            continue
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("deb-src ") or \
                    (line.startswith("Types:") and "deb-src" in line.split()):
                return True
    return False


def debian_uri():
    """The URI of the deb line for Debian's main archive."""
    for path in glob.glob("/etc/apt/sources.list.d/*.sources"):
        for block in open(path).read().split("\n\n"):
            fields = dict(l.split(":", 1) for l in block.splitlines()
                          if ":" in l and not l.startswith("#"))
            uris = fields.get("URIs", "").split()
            suites = fields.get("Suites", "").split()
            if uris and any(s in ("bookworm", "stable") for s in suites) and "security" not in uris[0]:
                return uris[0], suites
    for path in glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*.list"):
        for line in open(path).read().splitlines():
            w = line.split()
            if len(w) >= 3 and w[0] == "deb" and "security" not in w[1] and "debian" in w[1]:
                uri = [x for x in w[1:] if not x.startswith("[")][0]
                return uri, ["bookworm", "bookworm-updates"]
    return None, None


APT_OPTS = ["-o", "DPkg::Lock::Timeout=600"]


def ensure_sources(aptlog):
    """A deb-src line, updated lists; False (said why) when impossible."""
    s = sudo()
    if s is None:
        log("check-userspace: apt-get needs root (or sudo)")
        return False
    if not have_deb_src():
        uri, suites = debian_uri()
        if not uri:
            log("check-userspace: no deb line for Debian's archive to derive a deb-src line from")
            return False
        text = ("# Debian's source packages (kalloc: make check-userspace)\n"
                "Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n"
                "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
                % (uri, " ".join(suites)))
        path = "/etc/apt/sources.list.d/kalloc-deb-src.sources"
        log("check-userspace: no deb-src line: writing %s (%s)" % (path, uri))
        p = subprocess.run(s + ["tee", path], input=text, text=True, stdout=subprocess.DEVNULL)
        if p.returncode:
            return False
    if run(s + ["apt-get"] + APT_OPTS + ["update", "-qq"], WORK, aptlog, child_env("gcc")):
        log("check-userspace: apt-get update failed (%s)" % aptlog)
        return False
    return True


def fetch_source(name, aptlog):
    """build-dep and the source package in DL; the .dsc path or None."""
    env = child_env("gcc")
    if run(sudo() + ["apt-get"] + APT_OPTS + ["build-dep", "-y", "-qq", name],
           WORK, aptlog, env):
        return None, "apt-get build-dep %s failed" % name
    # apt-get source re-downloads nothing it has already verified in DL.
    if run(["apt-get", "source", "--download-only", "-qq", name], DL, aptlog, env):
        return None, "apt-get source %s failed" % name
    out = subprocess.run(["apt-cache", "showsrc", "--only-source", name],
                         capture_output=True, text=True, env=env).stdout
    versions = re.findall(r"^Version: (\S+)", out, re.M)
    if not versions:
        return None, "apt-cache showsrc %s: no version" % name
    best = versions[0]
    for v in versions[1:]:
        if subprocess.run(["dpkg", "--compare-versions", v, "gt", best]).returncode == 0:
            best = v
    dsc = os.path.join(DL, "%s_%s.dsc" % (name, best.split(":", 1)[-1]))
    if not os.path.exists(dsc):
        return None, "%s missing after apt-get source" % dsc
    return (dsc, best), None


# ---- builds ----------------------------------------------------------------

def build_cmake(pkg, src, logf, env):
    bdir = os.path.join(src, "_build")
    top = os.path.join(src, pkg.get("subdir", ""))
    if run(["cmake", "-S", top, "-B", bdir, "-DCMAKE_BUILD_TYPE=None"] + pkg["args"],
           src, logf, env):
        return False, None
    if run(["cmake", "--build", bdir, "-j", JOBS], src, logf, env):
        return False, None
    tlog = os.path.join(os.path.dirname(logf), os.path.basename(logf).replace(".log", "-tests.log"))
    run(["ctest", "--test-dir", bdir, "-j", JOBS, "--output-on-failure", "--timeout", "1200"],
        src, tlog, env)
    return True, parse_ctest(open(tlog, errors="replace").read())


def parse_ctest(text):
    tests = {}
    for m in re.finditer(r"Test\s+#\d+: (\S+) \.+\**\s*(\S.*?)\s+[\d.]+ sec", text):
        res = m.group(2)
        tests[m.group(1)] = "PASS" if res == "Passed" else \
            "SKIP" if res.startswith("Not Run") or "Skipped" in res else "FAIL"
    summary = re.search(r"tests passed, (\d+) tests? failed out of (\d+)", text)
    if not summary or int(summary.group(2)) != len(tests):
        return None
    return tests


def build_autotools(pkg, src, logf, env):
    top = os.path.join(src, pkg.get("subdir", ""))
    if not os.path.exists(os.path.join(top, "configure")):
        if run(["autoreconf", "-fi"], top, logf, env):
            return False, None
    if run(["./configure"] + pkg["args"], top, logf, env):
        return False, None
    if run(["make", "-j" + JOBS], top, logf, env):
        return False, None
    tlog = logf.replace(".log", "-tests.log")
    run(["make", "-j" + JOBS, "-k", "check"], top, tlog, env)
    return True, parse_automake(top, open(tlog, errors="replace").read())


def parse_automake(top, text):
    tests = {}
    for trs in glob.glob(os.path.join(top, "**", "*.trs"), recursive=True):
        m = re.search(r"^:test-result: (\S+)", open(trs, errors="replace").read(), re.M)
        name = os.path.relpath(trs, top)[:-4]
        tests[name] = m.group(1) if m else "ERROR"
    totals = [int(n) for n in re.findall(r"^# TOTAL: (\d+)", text, re.M)]
    if not totals or sum(totals) != len(tests):
        return None
    return tests


def build_zlib(pkg, src, logf, env):
    if run(["./configure"] + pkg["args"], src, logf, env):
        return False, None
    if run(["make", "-j" + JOBS], src, logf, env):
        return False, None
    tlog = logf.replace(".log", "-tests.log")
    run(["make", "-k", "test", "test64"], src, tlog, env)
    tests = {}
    text = open(tlog, errors="replace").read()
    for m in re.finditer(r"\*\*\* (zlib[\w -]*?test) (OK|FAILED) \*\*\*", text):
        tests[m.group(1)] = "PASS" if m.group(2) == "OK" else "FAIL"
    return True, tests or None


BUILDERS = dict(cmake=build_cmake, autotools=build_autotools, zlib=build_zlib)


def ice_count(paths):
    n = 0
    for p in paths:
        if os.path.exists(p):
            n += open(p, errors="replace").read().count("internal compiler error")
    return n


def report_brief(report):
    if not os.path.exists(report):
        return None, 0, "", 0, 0
    p = subprocess.run([TOOL, "summary", "--brief", report], capture_output=True, text=True)
    m = re.match(r"sites (\d+) \(([^)]*)\); rewritten (\d+) .*; warnings (\d+)", p.stdout)
    if p.returncode or not m:
        return None, 0, "", 0, 0
    return p.stdout.strip(), int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))


def load_triaged(path):
    """Lines "PACKAGE FILE:LINE VERDICT ..." (docs/results/userspace.md)."""
    triaged = {}
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            words = line.split("#", 1)[0].split()
            if len(words) >= 3:
                triaged[(words[0], words[1])] = " ".join(words[2:])
    return triaged


def warned_sites(report, srcdir):
    """FILE:LINE of every warned site in REPORT, FILE relative to SRCDIR."""
    if not os.path.exists(report):
        return []
    sites = kharness.report.load([report], [os.path.abspath(srcdir)])[0]
    return sorted(set("%s:%s" % (s["file"], s.get("line")) for s in sites if s.get("warnings")))


def offset_lines(logs, srcdir):
    """FILE:LINE of every offset warning in the build LOGS (a statement
    warning, not in the report), FILE relative to SRCDIR."""
    found = set()
    for log in logs:
        if os.path.exists(log):
            with open(log, errors="replace") as f:
                found |= kalloc_log.offsets(f.read(), [os.path.abspath(srcdir)])
    return sorted("%s:%d" % f for f in found)


def judge(name, plain, kal, sites, warned, triaged):
    """What is wrong with package NAME's two builds: PLAIN and KAL are
    dict(built, tests, ice), tests a {name: PASS|FAIL|SKIP|...} dict or
    None when the suite gave no summary; SITES the report's site count,
    WARNED its warned FILE:LINEs, TRIAGED load_triaged ()'s."""
    problems = []
    if not plain["built"]:
        problems.append("plain build failed (harness failure)")
    if plain["built"] != kal["built"]:
        problems.append("kalloc build %s" % ("failed" if not kal["built"] else "succeeded alone"))
    for which, b in (("plain", plain), ("kalloc", kal)):
        if b["built"] and not b["tests"]:
            problems.append("no test-suite summary (or no test) in the %s build" % which)
        if b["ice"]:
            problems.append("%d internal compiler error(s) in the %s build" % (b["ice"], which))
    new_fail = []
    if plain["tests"] and kal["tests"]:
        for t, r in sorted(plain["tests"].items()):
            k = kal["tests"].get(t)
            if k != r and k != "PASS":
                new_fail.append("%s (%s -> %s)" % (t, r, k or "missing"))
        if new_fail:
            problems.append("new failures: " + ", ".join(new_fail))
    if kal["built"] and not sites:
        problems.append("the kalloc report has no site: did the plugin run?")
    for where in warned:
        if (name, where) not in triaged:
            problems.append("untriaged warning at %s" % where)
    return problems


def check_package(pkg, cc, plugin):
    name = pkg["name"]
    pdir = os.path.join(WORK, name)
    shutil.rmtree(pdir, ignore_errors=True)        # no result of an earlier run
    os.makedirs(pdir)
    aptlog = os.path.join(pdir, "apt.log")
    got, err = fetch_source(name, aptlog)
    if err:
        return dict(name=name, ok=False, line="%s: %s (%s)" % (name, err, aptlog))
    dsc, version = got
    report = os.path.join(pdir, "kalloc-report.jsonl")
    ccs = dict(plain=cc,
               kalloc="%s -fplugin=%s -fplugin-arg-kalloc-mode=harden "
                      "-fplugin-arg-kalloc-report=%s" % (cc, plugin, report))
    res = dict(name=name, version=version)
    for which in ("plain", "kalloc"):
        src = os.path.join(pdir, which)
        logf = os.path.join(pdir, which + ".log")
        if run(["dpkg-source", "--no-check", "-x", dsc, src], pdir, logf, child_env(cc)):
            return dict(name=name, ok=False, line="%s: dpkg-source -x failed (%s)" % (name, logf))
        t0 = time.time()
        built, tests = BUILDERS[pkg["build"]](pkg, src, logf, child_env(ccs[which]))
        res[which] = dict(built=built, tests=tests, secs=time.time() - t0,
                          ice=ice_count([logf, logf.replace(".log", "-tests.log")]))
    plain, kal = res["plain"], res["kalloc"]
    brief, sites, kinds, rewritten, warnings = report_brief(report)
    res.update(brief=brief, sites=sites, kinds=kinds, rewritten=rewritten, warnings=warnings)
    klog = os.path.join(pdir, "kalloc.log")
    offsets = offset_lines([klog, klog.replace(".log", "-tests.log")],
                           os.path.join(pdir, "kalloc"))
    res["warnings"] = (res["warnings"] or 0) + len(offsets)
    problems = judge(name, plain, kal, sites,
                     warned_sites(report, os.path.join(pdir, "kalloc")) + offsets,
                     load_triaged(TRIAGED))
    def tot(b):
        if not b["tests"]:
            return "-"
        return "%d/%d" % (sum(1 for r in b["tests"].values() if r in ("PASS", "XFAIL")),
                          len(b["tests"]))
    res.update(ok=not problems, plain_tot=tot(plain), kalloc_tot=tot(kal))
    res["line"] = ("%s %s: tests passed plain %s, kalloc %s; sites %d, rewritten %d, "
                   "warnings %d; %.0f s + %.0f s%s"
                   % (name, version, res["plain_tot"], res["kalloc_tot"], sites, rewritten,
                      warnings, plain["secs"], kal["secs"],
                      "" if not problems else "; " + "; ".join(problems)))
    if brief:
        with open(os.path.join(pdir, "report-summary.txt"), "w") as f:
            subprocess.run([TOOL, "summary", "--srcdir", os.path.join(pdir, "kalloc"), report],
                           stdout=f, stderr=subprocess.STDOUT)
    return res


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: check-userspace CC /abs/path/kalloc.so [PACKAGE...]\n")
        return 2
    cc, plugin = sys.argv[1], sys.argv[2]
    wanted = sys.argv[3:]
    pkgs = [p for p in PACKAGES if not wanted or p["name"] in wanted]
    unknown = set(wanted) - set(p["name"] for p in PACKAGES)
    if unknown:
        sys.stderr.write("check-userspace: unknown package(s): %s\n" % " ".join(sorted(unknown)))
        return 2
    if not os.path.isabs(plugin) or not os.path.exists(plugin):
        log("check-userspace: plugin %s not found (make first)" % plugin)
        return kharness.cannot_run("userspace", failed=len(pkgs))
    os.makedirs(DL, exist_ok=True)
    for f in ("results.md", "results.json"):
        if os.path.exists(os.path.join(WORK, f)):
            os.remove(os.path.join(WORK, f))
    if not ensure_sources(os.path.join(WORK, "apt.log")):
        return kharness.cannot_run("userspace", failed=len(pkgs))
    results = []
    for pkg in pkgs:
        r = check_package(pkg, cc, plugin)
        log("%s %s" % ("PASS" if r["ok"] else "FAIL", r["line"]))
        results.append(r)
    passed = sum(1 for r in results if r["ok"])
    with open(os.path.join(WORK, "results.md"), "w") as f:
        f.write("| package | version | sites | kinds | rewritten | warnings | tests plain | "
                "tests kalloc | result |\n|---|---|---|---|---|---|---|---|---|\n")
        for r in results:
            f.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
                    % (r["name"], r.get("version", "?"), r.get("sites", "-"), r.get("kinds", "-"),
                       r.get("rewritten", "-"), r.get("warnings", "-"),
                       r.get("plain_tot", "-"), r.get("kalloc_tot", "-"),
                       "pass" if r["ok"] else "FAIL"))
    with open(os.path.join(WORK, "results.json"), "w") as f:
        json.dump(results, f, indent=1, default=str)
    return kharness.summary("userspace", passed, len(results) - passed)


if __name__ == "__main__":
    sys.exit(main())
