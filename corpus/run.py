#!/usr/bin/env python3
"""Runs the wgperf kernel corpus (corpus/manifest.json; docs/corpus.md).

For every program of the manifest and each of its sources (.cl, .cu):
  1. `wgperf extract` at -O0 and -O2: exit 0 and a model for exactly the
     kernels the manifest lists;
  2. for every kernel and both models, `wgperf analyze --json` and
     `wgperf predict --json` with the kernel's launch file: exit 0, sane
     numbers (a positive, finite time inside its bounds, warps, occupancy),
     and the fallbacks of the report (kinds) equal to the manifest's;
  3. for every kernel, `wgprune --json` on the -O2 model with the launch's
     arguments and the manifest's global size: exit 0 and a ranking of
     positive, sorted times.

  python3 corpus/run.py [--bin build/bin] [--jobs 2] [--only NAME[,NAME]]
                        [--every N] [--no-prune] [--observe] [--markdown]
                        [--work DIR] [--slowest N]

--observe prints the fallbacks each kernel shows (to review before writing
them into the manifest); --markdown prints the table of docs/corpus.md.
Exit status 0 when every check passed, 1 otherwise, 2 on bad usage.
"""
import argparse
import concurrent.futures
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
import wgp_manifest  # noqa: E402
KINDS = {"data-dependent-branch", "data-dependent-loop", "unknown-condition", "unresolved-call", "unended-loop"}
OPT_LEVELS = ("0", "2")


class Failure(Exception):
    pass


def load_manifest(path):
    m = wgp_manifest.load(path, "wgperf-corpus")
    for p in wgp_manifest.each_once(m["programs"], lambda p: p["name"], "program "):
        for k in p["kernels"]:
            fb = k.get("fallbacks", [])
            for kinds in (fb.values() if isinstance(fb, dict) else [fb]):
                bad = set(kinds) - KINDS
                if bad:
                    raise SystemExit("run.py: %s/%s: unknown fallback kinds %s" % (p["name"], k["name"], sorted(bad)))
    return m


def expected_fallbacks(kernel, lang, opt):
    """The manifest's 'fallbacks': a list for every variant, or an object
    whose most specific key wins: "cu-O0", "cu", "O0", "*"."""
    fb = kernel.get("fallbacks", [])
    if isinstance(fb, list):
        return set(fb)
    for key in ("%s-O%s" % (lang, opt), lang, "O" + opt, "*"):
        if key in fb:
            return set(fb[key])
    return set()


SLOW = []  # (seconds, command) of every tool run, for --slowest


# Limits of one tool run.  CPU seconds (prlimit --cpu: the kernel sends SIGXCPU)
# catch a runaway analysis however busy the machine is; the wall-clock limit is
# only a hang guard, far above what a loaded 2-core machine takes.
CPU_LIMIT_S = 600
HANG_GUARD_S = 3600


def run(cmd):
    t0 = time.monotonic()
    limited = ["prlimit", "--cpu=%d" % CPU_LIMIT_S, "--"] + cmd
    try:
        p = subprocess.run(limited, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=HANG_GUARD_S)
    except subprocess.TimeoutExpired:
        raise Failure("hung: no end after %d s of wall-clock time: %s" % (HANG_GUARD_S, " ".join(cmd)))
    dt = time.monotonic() - t0
    SLOW.append((dt, " ".join(os.path.relpath(c) if os.path.exists(c) else c for c in cmd)))
    if p.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise Failure("used more than its %d s of CPU time (killed by signal %d): %s"
                      % (CPU_LIMIT_S, -p.returncode, " ".join(cmd)))
    if p.returncode != 0:
        raise Failure("exit %d: %s\n%s" % (p.returncode, " ".join(cmd), (p.stderr or p.stdout).strip()[-2000:]))
    return p.stdout, dt


def finite_positive(x):
    return isinstance(x, (int, float)) and math.isfinite(x) and x > 0


def check_predict(j, what):
    t, c, b = j.get("time_us"), j.get("cycles"), j.get("bounds", {})
    if not finite_positive(t) or not finite_positive(c):
        raise Failure("%s: time %r us, %r cycles: not a positive finite number" % (what, t, c))
    best, worst = b.get("best_us"), b.get("worst_us")
    if not finite_positive(best) or not finite_positive(worst):
        raise Failure("%s: bounds %r..%r us are not positive finite numbers" % (what, best, worst))
    if not (best <= t * (1 + 1e-6) and t <= worst * (1 + 1e-6)):
        raise Failure("%s: time %.4g us outside its bounds %.4g..%.4g us" % (what, t, best, worst))
    occ = j.get("occupancy", {})
    if not occ.get("active_warps_per_sm", 0) > 0 or not occ.get("registers_per_thread", 0) > 0:
        raise Failure("%s: occupancy %r" % (what, occ))
    for key, v in j.get("breakdown", {}).items():
        if isinstance(v, (int, float)) and not (math.isfinite(v) and v >= 0):
            raise Failure("%s: breakdown %s = %r" % (what, key, v))
    # a time resting on a loop that never ended is said beside it, never only in passing
    kinds = {f.get("kind") for f in j.get("fallbacks", [])}
    if "unended-loop" in kinds and (j.get("trusted") is not False or not j.get("untrusted")):
        raise Failure("%s: a loop did not end but the time is not marked untrusted" % what)


def check_analyze(j, what):
    w = j.get("warps", {})
    if not w.get("total", 0) > 0 or not w.get("distinct", 0) > 0:
        raise Failure("%s: warps %r" % (what, w))
    for cls, n in j.get("dynamic_instructions", {}).items():
        if not (math.isfinite(n) and n >= 0):
            raise Failure("%s: %s = %r dynamic instructions" % (what, cls, n))
    for m in j.get("memory_instructions", []):
        for key in ("executions", "sectors_per_request", "bank_conflict_degree", "l1_hit_rate", "l2_hit_rate"):
            v = m.get(key)
            if v is not None and not (math.isfinite(v) and v >= 0):
                raise Failure("%s: M%s %s = %r" % (what, m.get("id"), key, v))
            if key.endswith("hit_rate") and v is not None and v > 1 + 1e-9:
                raise Failure("%s: M%s %s = %r above 1" % (what, m.get("id"), key, v))


def check_fallbacks(j, want, what, observed):
    got = {f["kind"] for f in j.get("fallbacks", [])}
    observed.update(got)
    for f in j.get("fallbacks", []):
        if not f.get("where") or not f.get("assumed"):
            raise Failure("%s: fallback without place or assumption: %r" % (what, f))
    if want is not None and got != want:
        raise Failure("%s: fallbacks %s, the manifest expects %s (report: %s)" %
                      (what, sorted(got), sorted(want), "; ".join(f["where"] + ": " + f["assumed"]
                                                                   for f in j.get("fallbacks", []))))


def prune_command(wgprune, model, kernel, launch, prune):
    cmd = [wgprune, model, "--kernel", kernel["name"], "--json",
           "--global", ",".join(str(x) for x in prune.get("global", launch["global"]))]
    for name, v in launch.get("args", {}).items():
        cmd += ["--arg", "%s=%s" % (name, v)]
    for name, v in launch.get("buffers", {}).items():
        cmd += ["--buffer", "%s=%s" % (name, v if not isinstance(v, dict) else v["bytes"])]
    local_args = dict((n, str(v)) for n, v in launch.get("local_mem", {}).items())
    local_args.update(prune.get("local_args", {}))
    for name, expr in local_args.items():
        cmd += ["--local-arg", "%s=%s" % (name, expr)]
    return cmd


def check_prune(j, what):
    r = j.get("ranking", [])
    if not r:
        raise Failure("%s: empty ranking (%d candidates, %d valid)" %
                      (what, j.get("candidates_total", 0), j.get("candidates_valid", 0)))
    times = [e.get("time_us") for e in r]
    if not all(finite_positive(t) for t in times):
        raise Failure("%s: ranking times %r" % (what, times[:8]))
    if any(b < a * (1 - 1e-9) for a, b in zip(times, times[1:])):
        raise Failure("%s: ranking not sorted: %r" % (what, times[:8]))
    if not j.get("candidates_total", 0) >= j.get("simulated", 0) > 0:
        raise Failure("%s: candidates %r, simulated %r" % (what, j.get("candidates_total"), j.get("simulated")))


def run_program(prog, args, work):
    """Every check of one program; returns (lines, failures, timings, observed)."""
    lines, failures, timing, observed = [], [], {"extract": 0.0, "analyze": 0.0, "predict": 0.0, "wgprune": 0.0}, {}
    wgperf, wgprune = os.path.join(args.bin, "wgperf"), os.path.join(args.bin, "wgprune")
    for src in prog["sources"]:
        lang = src.rsplit(".", 1)[1]
        path = os.path.join(HERE, src)
        for opt in OPT_LEVELS:
            tag = "%s -O%s" % (src, opt)
            model = os.path.join(work, "%s.O%s.json" % (src.replace("/", "_"), opt))
            try:
                _, dt = run([wgperf, "extract", path, "-O", opt, "-o", model])
                timing["extract"] += dt
                with open(model) as f:
                    have = sorted(k["name"] for k in json.load(f)["kernels"])
                want = sorted(k["name"] for k in prog["kernels"])
                if have != want:
                    raise Failure("%s: model has kernels %s, the manifest lists %s" % (tag, have, want))
            except Failure as e:
                failures.append("%s: extract: %s" % (tag, e))
                continue
            for k in prog["kernels"]:
                what = "%s %s" % (tag, k["name"])
                launch_file = os.path.join(HERE, k.get("launch_" + lang, k["launch"]))
                want = expected_fallbacks(k, lang, opt) if not args.observe else None
                seen = observed.setdefault(k["name"], {}).setdefault("%s-O%s" % (lang, opt), set())
                base = [model, "--kernel", k["name"], "--launch", launch_file, "--json"]
                try:
                    out, dt = run([wgperf, "analyze"] + base)
                    timing["analyze"] += dt
                    j = json.loads(out)
                    check_analyze(j, what + " analyze")
                    check_fallbacks(j, want, what + " analyze", seen)
                    out, dt = run([wgperf, "predict"] + base)
                    timing["predict"] += dt
                    j = json.loads(out)
                    check_predict(j, what + " predict")
                    check_fallbacks(j, want, what + " predict", seen)
                    note = "%.4g us" % j["time_us"]
                    if opt == "2" and not args.no_prune:
                        with open(launch_file) as f:
                            launch = json.load(f)
                        cmd = prune_command(wgprune, model, k, launch, k.get("prune", {}))
                        out, dt = run(cmd)
                        timing["wgprune"] += dt
                        j = json.loads(out)
                        check_prune(j, what + " wgprune")
                        best = j["ranking"][0]
                        note += ", wgprune best %s of %d sizes (%.1f s)" % (
                            "x".join(str(x) for x in best["local"][:len(launch["global"])]),
                            j["candidates_total"], dt)
                    lines.append("ok    %-44s %s" % (what, note))
                except (Failure, ValueError, KeyError) as e:
                    failures.append("%s: %s" % (what, e))
                    lines.append("FAIL  %s" % what)
    return lines, failures, timing, observed


def markdown(m):
    out = ["| program | suite (origin) | kernels | pattern |", "|---|---|---|---|"]
    for p in m["programs"]:
        out.append("| %s | %s (%s) | %s | %s |" % (p["name"], p["suite"], p["origin"],
                                                  ", ".join("`%s`" % k["name"] for k in p["kernels"]), p["pattern"]))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description="run the wgperf kernel corpus")
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"), help="where wgperf and wgprune are")
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--no-prune", action="store_true", help="skip wgprune")
    ap.add_argument("--every", type=int, default=1, help="only every Nth program of the manifest (a quick sample)")
    ap.add_argument("--observe", action="store_true", help="print the fallbacks seen instead of checking them")
    ap.add_argument("--markdown", action="store_true", help="print the table of docs/corpus.md and stop")
    ap.add_argument("--work", default=None, help="directory for the models (default: a temporary one)")
    ap.add_argument("--slowest", type=int, default=10, help="list the N slowest tool runs (default 10)")
    args = ap.parse_args()
    m = load_manifest(args.manifest)
    if args.markdown:
        print(markdown(m))
        return 0
    progs = m["programs"]
    if args.only:
        only = set(args.only.split(","))
        unknown = only - {p["name"] for p in progs}
        if unknown:
            print("run.py: no program %s in the manifest" % ", ".join(sorted(unknown)), file=sys.stderr)
            return 2
        progs = [p for p in progs if p["name"] in only]
    if args.every > 1:
        progs = progs[::args.every]
    for tool in ("wgperf", "wgprune"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            print("run.py: %s not found in %s (--bin)" % (tool, args.bin), file=sys.stderr)
            return 2
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="wgperf-corpus-") as tmp:
        work = args.work or tmp
        os.makedirs(work, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda p: run_program(p, args, work), progs))
    wall = time.monotonic() - t0
    failures, totals, observed = [], {}, {}
    for (lines, fails, timing, obs), p in zip(results, progs):
        for l in lines:
            print(l)
        failures += fails
        for key, v in timing.items():
            totals[key] = totals.get(key, 0.0) + v
        observed[p["name"]] = obs
    nkernels = sum(len(p["kernels"]) for p in progs)
    nsources = sum(len(p["sources"]) for p in progs)
    print("\n%d programs, %d sources, %d kernels; wall %.1f s with %d jobs (tool time: %s)" %
          (len(progs), nsources, nkernels, wall, args.jobs,
           ", ".join("%s %.1f s" % (k, v) for k, v in totals.items())))
    if args.slowest > 0:
        print("\nslowest tool runs:")
        for dt, cmd in sorted(SLOW, reverse=True)[:args.slowest]:
            print("  %6.2f s  %s" % (dt, cmd))
    if args.observe:
        for name, ks in observed.items():
            for k, variants in ks.items():
                kinds = {v: sorted(s) for v, s in variants.items()}
                same = len({tuple(s) for s in kinds.values()}) == 1
                print("%s/%s: %s" % (name, k, json.dumps(next(iter(kinds.values())) if same else kinds)))
    if failures:
        print("\n%d failures:" % len(failures))
        for f in failures:
            print("  " + f.replace("\n", "\n    "))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
