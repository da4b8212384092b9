#!/usr/bin/env python3
"""run-bench.py - `make bench`: what kalloc costs at compile time, the code it
makes, and the memory it takes.

    testsuite/bench/run-bench.py CC /abs/path/kalloc.so

Inputs come from testsuite/bench/make-corpus.sh (run first by `make bench`):
the Linux 6.12 corpus (build/bench/corpus/*.i with their .flags) and the
stress units (build/bench/stress).  Every compile runs cc1 itself, with the
command line `CC -###` prints, in three modes:

    none     no plugin
    harden   -fplugin=PLUGIN (the default mode)
    check    -fplugin=PLUGIN -fplugin-arg-kalloc-mode=check

Phases:
  A  - callgrind instruction counts (which do not depend on load):
       CALLGRIND_UNITS of the corpus and calls-1k at -O0 (BENCH_FULL=1 adds
       calls-1k and funcs-1k at -O2 and the 10k units: about two hours
       more on 2 cores), BENCH_JOBS - 1 at a time (default nproc - 1) in a
       lane of their own that runs on through phase B;
     - beside it, one at a time: CPU time (user+sys, min of runs, modes
       interleaved) of the stress units at -O2 and of the scaling units
       (1k, 10k, 100k calls in one function, BENCH_RUNS runs each) at -O0;
  B  (one compile at a time, beside the callgrind lane) wall-clock of
     every corpus unit, min of BENCH_RUNS (default 3) runs interleaved
     none/harden/check, with CPU time and peak RSS;
  BENCH_JOBS=1 runs all of it in turn (about 40 minutes on 2 cores).
  C  codegen-table and the alloc-path micro-benchmark under callgrind.

Prints the tables (also written to build/bench/results/tables.md), one
line per check, and ends with "bench: N passed, N failed".
"""
import concurrent.futures
import os
import platform
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True          # no __pycache__ in the source tree
import cgparse  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import kharness  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(ROOT, "build", "bench")
RESULTS = os.path.join(BENCH, "results")
CGDIR = os.path.join(BENCH, "callgrind")

MODES = ["none", "harden", "check"]
# Small allocation-heavy units of fs/, kernel/, drivers/ and net/ (callgrind
# runs cc1 about 50 times slower); fs/binfmt_elf has rewrites.  Small units
# weigh the plugin's fixed cost (loading it) more than the corpus does.
CALLGRIND_UNITS = [
    "fs/quota/quota_tree",
    "fs/binfmt_elf",
    "kernel/auditfilter",
    "drivers/usb/core/config",
    "net/sunrpc/auth_gss/auth_gss",
]
# The goals: percent more cc1 instructions on the corpus subset per mode
# and on a unit without allocation calls, and percent more peak memory.
GOAL_OVERHEAD = {"harden": 0.20, "check": 0.10}
GOAL_NOALLOC = 0.02
GOAL_RSS_100K = 10.0         # calls-100k at -O0
GOAL_RSS_CORPUS = 1.0        # every corpus unit
GOAL_SCALING = 1.5           # per-call cost at 100k / at 10k


def env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


RUNS = max(1, env_int("BENCH_RUNS", 3))
JOBS = max(1, env_int("BENCH_JOBS", os.cpu_count() or 1))
FULL = os.environ.get("BENCH_FULL", "") not in ("", "0")
TIMEOUT = env_int("BENCH_TIMEOUT", 1800)
# A quick run of the driver itself: 3 corpus units, 1k stress units only.
SMOKE = os.environ.get("BENCH_SMOKE", "") not in ("", "0")
# For work on this script: keep the callgrind outputs of an earlier run.
REUSE = os.environ.get("BENCH_REUSE_CALLGRIND", "") not in ("", "0")


class Unit:
    def __init__(self, name, src, flags):
        self.name, self.src, self.flags = name, src, flags


def corpus_units():
    corpus = os.path.join(BENCH, "corpus")
    names = []
    with open(os.path.join(HERE, "corpus.list")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                names.append(line[:-2])
    units = []
    for name in names:
        with open(os.path.join(corpus, name + ".flags")) as f:
            flags = f.read().split()
        units.append(Unit(name, os.path.join(corpus, name + ".i"), flags))
    return units


def stress_unit(name, opt):
    return Unit(f"{name} {opt}", os.path.join(BENCH, "stress", name + ".c"),
                [opt, "-I", os.path.join(ROOT, "testsuite", "include"),
                 "-DKSHAPE_HOOKS"])


class Bench:
    def __init__(self, cc, plugin):
        self.cc, self.plugin = cc, plugin
        self.cc1_cache = {}
        self.lock = threading.Lock()
        self.checks = []
        self.out = []
        self.cpu_used = 0.0          # CPU seconds of every compile so far

    # ---- running cc1 --------------------------------------------------
    def mode_flags(self, mode):
        if mode == "none":
            return []
        flags = ["-fplugin=" + self.plugin]
        if mode == "check":
            flags.append("-fplugin-arg-kalloc-mode=check")
        return flags

    def cc1(self, unit, mode, extra=()):
        """The cc1 command line for UNIT in MODE, from `CC -###`."""
        key = (unit.name, mode, tuple(extra))
        if key not in self.cc1_cache:
            cmd = shlex.split(self.cc) + unit.flags + self.mode_flags(mode) + list(extra) \
                + ["-S", "-o", "/dev/null", unit.src, "-###"]
            err = subprocess.run(cmd, capture_output=True, text=True).stderr
            lines = [ln for ln in err.splitlines()
                     if ln.strip() and shlex.split(ln)[0].endswith("/cc1")]
            if not lines:
                raise RuntimeError(f"no cc1 line for {unit.name}:\n{err}")
            self.cc1_cache[key] = shlex.split(lines[0])
        return self.cc1_cache[key]

    def run(self, cmd, timeout=TIMEOUT, stderr_path=None):
        """Run CMD; (wall s, cpu s, peak RSS KiB, exit status)."""
        err = open(stderr_path, "w") if stderr_path else subprocess.DEVNULL
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        timer = threading.Timer(timeout, lambda: os.kill(proc.pid, signal.SIGKILL))
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = status
        with self.lock:
            self.cpu_used += usage.ru_utime + usage.ru_stime
        if stderr_path:
            err.close()
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, status

    def callgrind(self, unit, mode):
        out = os.path.join(CGDIR, f"{unit.name.replace('/', '_').replace(' ', '_')}.{mode}.out")
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] \
            + self.cc1(unit, mode)
        if REUSE and os.path.getsize(out if os.path.exists(out) else os.devnull):
            return cgparse.Profile(out)
        _, _, _, status = self.run(cmd, timeout=6 * 3600)
        if status != 0:
            raise RuntimeError(f"callgrind failed on {unit.name} {mode}")
        return cgparse.Profile(out)

    # ---- output -------------------------------------------------------
    def say(self, text=""):
        print(text, flush=True)
        self.out.append(text)

    def table(self, header, rows):
        self.say("| " + " | ".join(header) + " |")
        self.say("|" + "---|" * len(header))
        for row in rows:
            self.say("| " + " | ".join(str(c) for c in row) + " |")
        self.say()

    def check(self, ok, text):
        self.checks.append((ok, text))
        self.say(f"CHECK {'PASS' if ok else 'FAIL'} {text}")


def pct(new, old):
    return f"{100.0 * (new - old) / old:+.2f}%" if old else "n/a"


def ratio(new, old):
    return f"{new / old:.4f}" if old else "n/a"


def machine_lines(cc):
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    version = subprocess.run(shlex.split(cc) + ["--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    valgrind = subprocess.run(["valgrind", "--version"], capture_output=True,
                              text=True).stdout.strip()
    return [f"machine: {os.cpu_count()} CPUs, {model}, {platform.system()} "
            f"{platform.release()}",
            f"compiler: {version}; {valgrind}"]


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    cc, plugin = sys.argv[1], os.path.abspath(sys.argv[2])
    b = Bench(cc, plugin)
    os.makedirs(RESULTS, exist_ok=True)
    os.makedirs(CGDIR, exist_ok=True)
    started = time.time()
    for line in machine_lines(cc):
        b.say(line)
    b.say(f"load average at start: {load()}; BENCH_RUNS={RUNS} BENCH_JOBS={JOBS}"
          f"{' BENCH_FULL=1' if FULL else ''}")
    b.say()

    corpus = corpus_units()
    by_name = {u.name: u for u in corpus}
    cg_units = [by_name[n] for n in CALLGRIND_UNITS]
    if SMOKE:
        corpus = [by_name[n] for n in CALLGRIND_UNITS[:3]]
        cg_units = cg_units[:1]
    # -O0: callgrind on calls-1k at -O2 takes 3 x 4 minutes.
    cg_stress = [stress_unit("calls-1k", "-O0"), stress_unit("noalloc-2k", "-O0")]
    if FULL:
        cg_stress += [stress_unit("calls-1k", "-O2"), stress_unit("funcs-1k", "-O2"),
                      stress_unit("calls-10k", "-O2"), stress_unit("funcs-10k", "-O2")]
    cpu_stress = [(stress_unit("calls-1k", "-O2"), RUNS),
                  (stress_unit("calls-10k", "-O2"), 1),
                  (stress_unit("funcs-10k", "-O2"), 1)]
    # calls-100k runs as often as the others: one run of it per mode left
    # the scaling check to the noise of a single 50-75 s compile.
    scaling = [(stress_unit("calls-1k", "-O0"), RUNS),
               (stress_unit("calls-10k", "-O0"), RUNS),
               (stress_unit("calls-100k", "-O0"), RUNS)]
    tr_units = [by_name["net/sunrpc/auth_gss/auth_gss"], stress_unit("calls-1k", "-O2")]
    if SMOKE:
        cg_stress = cg_stress[:1]
        cpu_stress = cpu_stress[:1]
        scaling = [(stress_unit("funcs-1k", "-O0"), RUNS), scaling[0]]
        tr_units = [corpus[0]]

    # ---- phase A: callgrind beside the CPU-time compiles ------------------
    # Instruction counts do not depend on load, so callgrind runs in its
    # own lane (JOBS - 1 at a time) through phases A and B; the CPU-time
    # compiles and then phase B run one at a time beside it.  JOBS=1 runs
    # everything in turn.
    cg_lane = max(1, JOBS - 1)
    b.say(f"phase A: callgrind on {len(cg_units)} corpus units and "
          f"{len(cg_stress)} stress units ({cg_lane} at a time"
          f"{', beside phases A and B' if JOBS > 1 else ''}), CPU time of the "
          f"stress units (one at a time)")
    profiles, cpu = {}, {}
    cg_tasks, cpu_tasks = [], []    # (estimated cost, kind, unit, mode)
    for u in cg_units + cg_stress:
        for m in MODES:
            cg_tasks.append((100 if "stress" in u.src else 50, "cg", u, m))
    for u, runs in cpu_stress + scaling:
        cost = 300 if "100k" in u.name else (30 if "10k" in u.name else 1)
        for _ in range(runs):       # modes interleaved, as in phase B
            for m in MODES:
                cpu_tasks.append((cost, "cpu", u, m))
    for u in tr_units:
        cpu_tasks.append((2, "tr", u, "harden"))
    cg_tasks.sort(key=lambda t: -t[0])
    cpu_tasks.sort(key=lambda t: -t[0])
    time_reports = {}

    task_log = open(os.path.join(RESULTS, "tasks.log"), "w")

    def do(task):
        t0 = time.time()
        try:
            do_task(task)
        finally:
            with b.lock:
                task_log.write(f"{task[1]} {task[2].name} {task[3]}: "
                               f"{time.time() - t0:.1f} s\n")
                task_log.flush()

    def do_task(task):
        _, kind, u, m = task
        if kind == "tr":
            path = os.path.join(RESULTS, f"time-report.{u.name.replace('/', '_').replace(' ', '_')}.txt")
            if b.run(b.cc1(u, m, ["-ftime-report"]), stderr_path=path)[3] != 0:
                raise RuntimeError(f"cc1 -ftime-report failed on {u.name}")
            with open(path) as f:
                time_reports[u.name] = f.read().splitlines()
        elif kind == "cg":
            profiles[(u.name, m)] = b.callgrind(u, m)
        else:
            res = b.run(b.cc1(u, m))
            if res[3] != 0:     # a failed compile's time is no measurement
                raise RuntimeError(f"cc1 failed on {u.name} ({m}), status {res[3]}")
            with b.lock:
                cpu.setdefault((u.name, m), []).append(res)

    cg_pool = concurrent.futures.ThreadPoolExecutor(max_workers=cg_lane)
    if JOBS > 1:
        cg_futures = [cg_pool.submit(do, t) for t in cg_tasks]
    else:
        for t in cg_tasks:
            do(t)
        cg_futures = []
    for t in cpu_tasks:
        do(t)
    b.say(f"phase A done after {time.time() - started:.0f} s, load {load()}; "
          f"{b.cpu_used:.0f} CPU seconds"
          f"{f', callgrind still running' if any(not f.done() for f in cg_futures) else ''}")
    cpu_a = b.cpu_used
    b.say()

    # ---- phase B: wall-clock of the corpus, one at a time -----------------
    b.say(f"phase B: wall-clock of {len(corpus)} corpus units, {RUNS} interleaved "
          f"runs per mode, one compile at a time")
    loads = [load()]
    wall = {}
    sites = {}
    warnings = {}
    with tempfile.TemporaryDirectory() as tmp:
        for u in corpus:
            for r in range(RUNS):
                for m in MODES:
                    extra = []
                    report = os.path.join(tmp, "report.json")
                    if m == "harden" and r == 0:
                        # the first run also counts the sites (a few lines of JSON)
                        extra = ["-fplugin-arg-kalloc-report=" + report]
                    errf = os.path.join(tmp, "stderr")
                    res = b.run(b.cc1(u, m, extra), stderr_path=errf)
                    if res[3] != 0:
                        raise RuntimeError(f"cc1 failed on {u.name} ({m}): "
                                           + open(errf).read()[-2000:])
                    wall.setdefault((u.name, m), []).append(res)
                    if r == 0:
                        with open(errf) as f:
                            warnings[(u.name, m)] = sum("warning:" in ln for ln in f)
                    if extra:
                        kinds = {"saturate": 0, "counter-check": 0, "counter-store": 0}
                        n = 0
                        if os.path.exists(report):
                            with open(report) as f:
                                for line in f:
                                    n += 1
                                    for k in kinds:
                                        kinds[k] += f'"{k}"' in line
                            os.unlink(report)
                        sites[u.name] = (n, kinds)
            loads.append(load())
    b.say(f"phase B done after {time.time() - started:.0f} s, load during it "
          f"{loads[0]} .. {loads[len(loads) // 2]} .. {loads[-1]}; "
          f"{b.cpu_used - cpu_a:.0f} CPU seconds (with the callgrind lane's)")
    b.say()

    for fut in cg_futures:
        fut.result()
    cg_pool.shutdown()
    b.say(f"callgrind done after {time.time() - started:.0f} s")
    b.say()

    # ---- phase C: codegen and the alloc-path micro-benchmark --------------
    codegen_out = subprocess.run(
        [os.path.join(HERE, "codegen-table.py"), cc, plugin, os.path.join(BENCH, "codegen")],
        check=True, capture_output=True, text=True).stdout
    micro = alloc_path(b, cc, plugin)

    # ---- tables -------------------------------------------------------
    report_tables(b, corpus, cg_units, cg_stress, profiles, cpu, cpu_stress, scaling,
                  wall, sites, warnings, codegen_out, micro, time_reports)
    b.say(f"bench took {time.time() - started:.0f} s; load average at end: {load()}")
    passed = sum(1 for ok, _ in b.checks if ok)
    failed = len(b.checks) - passed
    with open(os.path.join(RESULTS, "tables.md"), "w") as f:
        f.write("\n".join(b.out) + "\n")
    return kharness.summary("bench", passed, failed)


def alloc_path(b, cc, plugin):
    """Instructions per call of codegen.c's functions, three builds."""
    out = os.path.join(BENCH, "alloc-path")
    os.makedirs(out, exist_ok=True)
    driver = os.path.join(out, "alloc-path.o")
    subprocess.run(shlex.split(cc) + ["-O2", "-c", os.path.join(HERE, "alloc-path.c"),
                                      "-o", driver], check=True)
    iters = 100000
    builds = {"kalloc": ["-fplugin=" + plugin], "upstream": ["-DUPSTREAM"], "legacy": []}
    result = {}
    for build, extra in builds.items():
        obj = os.path.join(out, f"codegen-{build}.o")
        exe = os.path.join(out, f"alloc-path-{build}")
        subprocess.run(shlex.split(cc) + ["-O2", "-c", os.path.join(HERE, "codegen.c"),
                                          "-o", obj] + extra, check=True)
        subprocess.run(shlex.split(cc) + ["-o", exe, driver, obj], check=True)
        cgout = os.path.join(out, f"callgrind.{build}.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cgout,
                        exe, str(iters)], check=True, capture_output=True)
        prof = cgparse.Profile(cgout)
        result[build] = {}
        for fn in ("array", "flex", "flex_counter", "flex_checked"):
            self_ir, incl, called = prof.function(fn)
            result[build][fn] = (self_ir / iters, incl / iters, called)
        result[build]["__kmalloc"] = prof.function("__kmalloc")
    return result, iters


def min_of(samples, index):
    return min(s[index] for s in samples)


def report_tables(b, corpus, cg_units, cg_stress, profiles, cpu, cpu_stress, scaling,
                  wall, sites, warnings, codegen_out, micro, time_reports):
    # kalloc.so is the loader (plugin/loader.c); the plugin proper is kalloc-core.so.
    in_plugin = (lambda obj: obj.endswith("/kalloc.so") or obj.endswith("/kalloc-core.so"))

    # 1. instructions, corpus subset and 1k stress units
    in_ldso = (lambda obj: "/ld-linux" in obj)
    b.say("## Instructions (callgrind, cc1 only)")
    b.say()
    rows, split_rows = [], []
    tot = {m: 0 for m in MODES}
    tot_split = {m: [0, 0, 0] for m in ("harden", "check")}
    units = cg_units + cg_stress
    for u in units:
        prof = {m: profiles[(u.name, m)] for m in MODES}
        ir = {m: prof[m].total for m in MODES}
        split = {}
        for m in ("harden", "check"):
            load_ir = prof[m].object_self(in_ldso) - prof["none"].object_self(in_ldso)
            own = prof[m].entry_cost(in_plugin)
            rest = ir[m] - ir["none"] - load_ir - own
            split[m] = (load_ir, own, rest)
        if u in cg_units:
            for m in MODES:
                tot[m] += ir[m]
            for m in split:
                tot_split[m] = [a + b_ for a, b_ in zip(tot_split[m], split[m])]
        rows.append([u.name, f"{ir['none']:,}", f"{ir['harden']:,}",
                     pct(ir["harden"], ir["none"]), f"{ir['check']:,}",
                     pct(ir["check"], ir["none"])])
        split_rows.append([u.name] + [f"{x:+,}" for m in ("harden", "check") for x in split[m]])
        if u is cg_units[-1]:
            rows.append(["**corpus subset**", f"{tot['none']:,}", f"{tot['harden']:,}",
                         pct(tot["harden"], tot["none"]), f"{tot['check']:,}",
                         pct(tot["check"], tot["none"])])
            split_rows.append(["**corpus subset**"] + [f"{x:+,}" for m in ("harden", "check")
                                                       for x in tot_split[m]])
    b.table(["unit", "Ir none", "Ir harden", "harden", "Ir check", "check"], rows)
    b.say("Where the difference goes: *loading* is the dynamic linker (ld.so) "
          "relocating kalloc.so at start-up; *kalloc.so* is every call from GCC into "
          "the plugin (passes, callbacks, attribute handlers) with the GCC functions "
          "it calls; *GCC* is the rest: GCC's plugin-event dispatch "
          "(invoke_plugin_callbacks_full) and compiling the code the plugin added.")
    b.say()
    b.table(["unit", "harden: loading", "kalloc.so", "GCC", "check: loading", "kalloc.so",
             "GCC"], split_rows)
    for u in cg_stress:
        if u.name.startswith("noalloc"):
            # GCC's plugin-event dispatch (every pass of every function
            # asks whether a plugin wants it) is the price of any plugin;
            # the goal is what kalloc itself costs: loading and its code.
            prof = {m: profiles[(u.name, m)] for m in MODES}
            for m in ("harden", "check"):
                total = 100.0 * (prof[m].total - prof["none"].total) / prof["none"].total
                own = (prof[m].object_self(in_ldso) - prof["none"].object_self(in_ldso)
                       + prof[m].entry_cost(in_plugin))
                over = 100.0 * own / prof["none"].total
                b.check(over <= GOAL_NOALLOC,
                        f"{u.name} (no allocation call), loading and kalloc.so, mode={m}: "
                        f"{over:+.3f}% (goal <= {GOAL_NOALLOC}%; with GCC's plugin "
                        f"dispatch {total:+.3f}%)")
            continue
        n = {"1k": 1000, "10k": 10000}[u.name.split()[0].split("-")[1]]
        per = {m: profiles[(u.name, m)].entry_cost(in_plugin) / n for m in ("harden", "check")}
        gcc = {m: (profiles[(u.name, m)].total - profiles[(u.name, "none")].total) / n
               for m in ("harden", "check")}
        b.say(f"{u.name}: per allocation call, {per['harden']:,.0f} instructions in kalloc.so "
              f"and {gcc['harden']:,.0f} in all (harden); {per['check']:,.0f} and "
              f"{gcc['check']:,.0f} (check).")
    b.say()
    for m in ("harden", "check"):
        over = 100.0 * (tot[m] - tot["none"]) / tot["none"]
        b.check(over <= GOAL_OVERHEAD[m],
                f"corpus instructions, mode={m}: {over:+.3f}% (goal <= {GOAL_OVERHEAD[m]}%)")
    b.say()

    # 1b. -ftime-report
    b.say("## -ftime-report (mode=harden)")
    b.say()
    b.say("kalloc's passes and callbacks are timed as *plugin execution*; the "
          "update of SSA form its rewrites ask for is *tree SSA incremental* "
          "(shared with GCC's own passes). Seconds user+sys; -ftime-report "
          "counts in hundredths and times every callback (one for every "
          "structure type) on its own, which likely costs more than the "
          "callbacks: the kalloc.so column of the instruction table is the "
          "exact share.")
    b.say()
    rows = []
    for name, lines in time_reports.items():
        times = {}
        for ln in lines:
            label, _, rest = ln.partition(":")
            label = label.strip()
            if label in ("plugin execution", "tree SSA incremental", "TOTAL"):
                secs = re.findall(r"\d+\.\d+", rest)      # usr, sys, wall
                if len(secs) >= 2:
                    times[label] = float(secs[0]) + float(secs[1])
        total = times.get("TOTAL", 0.0)
        plug = times.get("plugin execution", 0.0)
        ssa = times.get("tree SSA incremental", 0.0)
        rows.append([name, f"{total:.2f}", f"{plug:.2f}",
                     f"{100.0 * plug / total:.1f}%" if total else "n/a", f"{ssa:.2f}"])
    b.table(["unit", "TOTAL", "plugin execution", "share", "tree SSA incremental"], rows)

    # 2. wall-clock, every corpus unit
    b.say(f"## Wall-clock, every corpus unit (min of {RUNS} interleaved runs, seconds)")
    b.say()
    rows = []
    tw = {m: 0.0 for m in MODES}
    tc = {m: 0.0 for m in MODES}
    tsites = 0
    for u in corpus:
        w = {m: min_of(wall[(u.name, m)], 0) for m in MODES}
        c = {m: min_of(wall[(u.name, m)], 1) for m in MODES}
        for m in MODES:
            tw[m] += w[m]
            tc[m] += c[m]
        n, kinds = sites.get(u.name, (0, {}))
        tsites += n
        rw = ", ".join(f"{v} {k}" for k, v in kinds.items() if v) or "-"
        warn = warnings[(u.name, "harden")] - warnings[(u.name, "none")]
        rows.append([u.name, n, rw, warn, f"{w['none']:.3f}", f"{w['harden']:.3f}",
                     ratio(w["harden"], w["none"]), f"{w['check']:.3f}",
                     ratio(w["check"], w["none"]),
                     f"{ratio(c['harden'], c['none'])} / {ratio(c['check'], c['none'])}"])
    rows.append(["**total**", tsites, "",
                 sum(warnings[(u.name, "harden")] - warnings[(u.name, "none")] for u in corpus),
                 f"{tw['none']:.2f}", f"{tw['harden']:.2f}", ratio(tw["harden"], tw["none"]),
                 f"{tw['check']:.2f}", ratio(tw["check"], tw["none"]),
                 f"{ratio(tc['harden'], tc['none'])} / {ratio(tc['check'], tc['none'])}"])
    b.say("sites: allocation calls kalloc analysed (its report=, inline wrappers in "
          "headers included); rewrites: what it hardened; warnings: kalloc's, "
          "i.e. warnings with the plugin minus without.  Counted_by is off in "
          "these units (the kernel's CONFIG_CC_HAS_COUNTED_BY probe ran with "
          "plain GCC 12), so no counter is stored.")
    b.say()
    b.table(["unit", "sites", "rewrites", "warnings", "none", "harden", "ratio",
             "check", "ratio", "CPU ratio harden / check"], rows)

    # 3. memory
    largest = max(corpus, key=lambda u: os.path.getsize(u.src))
    b.say(f"## Peak RSS of cc1 (KiB, min of runs)")
    b.say()
    rows = []
    for name, samples in [(largest.name + " (largest unit)",
                           {m: wall[(largest.name, m)] for m in MODES}),
                          (cpu_stress[-1][0].name, {m: cpu[(cpu_stress[-1][0].name, m)]
                                                    for m in MODES}),
                          (scaling[-1][0].name, {m: cpu[(scaling[-1][0].name, m)]
                                                 for m in MODES})]:
        r = {m: min_of(samples[m], 2) for m in MODES}
        rows.append([name, f"{r['none']:,}", f"{r['harden']:,}", pct(r["harden"], r["none"]),
                     f"{r['check']:,}", pct(r["check"], r["none"])])
    b.table(["unit", "none", "harden", "", "check", ""], rows)
    big = scaling[-1][0]
    if big.name.startswith("calls-100k"):
        r = {m: min_of(cpu[(big.name, m)], 2) for m in MODES}
        for m in ("harden", "check"):
            over = 100.0 * (r[m] - r["none"]) / r["none"]
            b.check(over <= GOAL_RSS_100K, f"peak RSS, {big.name}, mode={m}: "
                    f"{over:+.1f}% (goal <= {GOAL_RSS_100K}%)")
    worst = {}
    for u in corpus:
        r = {m: min_of(wall[(u.name, m)], 2) for m in MODES}
        for m in ("harden", "check"):
            over = 100.0 * (r[m] - r["none"]) / r["none"]
            if m not in worst or over > worst[m][0]:
                worst[m] = (over, u.name)
    for m, (over, name) in sorted(worst.items()):
        b.check(over <= GOAL_RSS_CORPUS, f"peak RSS, largest growth of a corpus unit, "
                f"mode={m}: {over:+.2f}% ({name}; goal <= {GOAL_RSS_CORPUS}%)")

    # 4. stress units at -O2
    b.say("## Stress units at -O2 (CPU seconds, user+sys, min of runs)")
    b.say()
    rows = []
    for u, runs in cpu_stress:
        t = {m: min_of(cpu[(u.name, m)], 1) for m in MODES}
        rows.append([u.name, runs, f"{t['none']:.2f}", f"{t['harden']:.2f}",
                     ratio(t["harden"], t["none"]), f"{t['check']:.2f}",
                     ratio(t["check"], t["none"])])
    b.table(["unit", "runs", "none", "harden", "ratio", "check", "ratio"], rows)

    # 5. scaling
    b.say("## Scaling: N allocation calls in one function, -O0 (CPU seconds, min of runs)")
    b.say()
    b.say("The plugin's cost per call is the difference to the compile without "
          "it, divided by N; linear scaling keeps it constant.")
    b.say()
    rows = []
    per_call, gcc_per_call = {}, {}
    for u, runs in scaling:
        n = {"1k": 1000, "10k": 10000, "100k": 100000}[u.name.split()[0].split("-")[1]]
        if n in per_call:               # smoke runs: two units of one size
            n += 1
        t = {m: min_of(cpu[(u.name, m)], 1) for m in MODES}
        ok = all(s[3] == 0 for m in MODES for s in cpu[(u.name, m)])
        per_call[n] = {m: 1e6 * (t[m] - t["none"]) / n for m in ("harden", "check")}
        gcc_per_call[n] = 1e6 * t["none"] / n
        rows.append([u.name, runs, f"{t['none']:.2f}", f"{t['harden']:.2f}",
                     f"{t['check']:.2f}", f"{gcc_per_call[n]:.1f}",
                     f"{per_call[n]['harden']:.1f}", f"{per_call[n]['check']:.1f}",
                     "" if ok else "**killed or failed**"])
    b.table(["unit", "runs", "none", "harden", "check", "GCC µs/call",
             "kalloc µs/call harden", "kalloc µs/call check", ""], rows)
    # A difference below 2% of the compile is within the noise of CPU
    # times; the per-call cost at the smaller size is taken as at least that.
    small, big = sorted(per_call)[-2:]
    floor = 0.02 * gcc_per_call[small]
    if SMOKE:       # funcs-1k against calls-1k: two shapes, no scaling to check
        b.say("(smoke run: no scaling check)")
    for m in () if SMOKE else ("harden", "check"):
        lo, hi = per_call[small][m], per_call[big][m]
        grow = hi / max(lo, floor)
        b.check(grow <= GOAL_SCALING,
                f"linear scaling, mode={m}: kalloc µs per call {lo:.1f} at {small:,} calls, "
                f"{hi:.1f} at {big:,} (x{grow:.1f}; goal <= x{GOAL_SCALING}, "
                f"noise floor {floor:.1f} µs)")
    b.say()

    # 6. code
    b.say("## Code: codegen.c at -O2")
    b.say()
    for line in codegen_out.splitlines():
        if line.startswith("CHECK "):
            _, verdict, text = line.split(" ", 2)
            b.check(verdict == "PASS", text)
        else:
            b.say(line)
    b.say()

    # 7. micro-benchmark
    result, iters = micro
    b.say(f"## Allocation path (callgrind, instructions per call, {iters:,} calls each, "
          "bump allocator behind __kmalloc)")
    b.say()
    rows = []
    for fn in ("array", "flex", "flex_counter", "flex_checked"):
        rows.append([fn] + [f"{result[x][fn][0]:.2f}" for x in ("kalloc", "upstream", "legacy")]
                    + [f"{result[x][fn][1]:.2f}" for x in ("kalloc", "upstream", "legacy")])
    b.table(["function", "own kalloc", "own upstream", "own legacy",
             "with __kmalloc kalloc", "upstream", "legacy"], rows)


if __name__ == "__main__":
    sys.exit(main())
