#!/usr/bin/env python3
"""The tail of wgperf's running times (scripts/bench-tail.sh; docs/speed.md).

Every (source, kernel, launch) found is extracted at each -O level, then
`wgperf analyze --json` and `wgperf predict --json` run on the model, one
process at a time unless --jobs says otherwise.  Each run's wall and CPU
seconds (user + system of the process, from wait4) are recorded; the report
gives per command the count, p50, p90, p99 and max of both, the runs over 2 s
and over 0.5 s, and the slowest runs with their command lines.  A run that
fails or passes --timeout is listed with its cause and counted at the time it
took; the benchmark does not stop.

Where the runs come from:
  default        corpus/manifest.json: every program's sources and every
                 kernel's launch file (its launch_cl / launch_cu if given)
  --dir FOLDER   every STEM.KERNEL.launch.json in FOLDER (recursively) with
                 STEM.cl and/or STEM.cu beside it
  --launches DIR with --dir: launch files named STEM.KERNEL.launch.json kept
                 in DIR, for sources found anywhere under the --dir folders
                 (read in place)

Each predict's answer is also checked against what a user should never get
silently: a time above the worst-case bound, or a report without the
fallback that says a loop did not end (`--sanity` lists every prediction's
time, bounds and fallback kinds).
"""
import argparse
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def corpus_runs(manifest):
    with open(manifest) as f:
        m = json.load(f)
    base = os.path.dirname(os.path.abspath(manifest))
    runs = []
    for p in m["programs"]:
        for src in p["sources"]:
            lang = src.rsplit(".", 1)[1]
            for k in p["kernels"]:
                launch = k.get("launch_" + lang, k["launch"])
                runs.append((os.path.join(base, src), k["name"], os.path.join(base, launch)))
    return runs


def folder_runs(folders, launches):
    """(source, kernel, launch) for the launch files of LAUNCHES (or of the
    folders themselves) whose STEM names a .cl/.cu source of the folders."""
    sources = {}
    for d in folders:
        for dirpath, _, files in os.walk(d):
            for f in sorted(files):
                stem, ext = os.path.splitext(f)
                if ext in (".cl", ".cu"):
                    sources.setdefault((dirpath if not launches else None, stem), []).append(os.path.join(dirpath, f))
    runs = []
    for d in ([launches] if launches else folders):
        for dirpath, _, files in os.walk(d):
            for f in sorted(files):
                if not f.endswith(".launch.json") or f.count(".") < 3:
                    continue
                stem, kernel = f.split(".")[0], f.split(".")[1]
                key = (None if launches else dirpath, stem)
                for src in sources.get(key, []):
                    runs.append((src, kernel, os.path.join(dirpath, f)))
    return sorted(set(runs))


def timed(cmd, timeout):
    """(exit status or 'timeout', wall s, cpu s, stdout, stderr) of CMD."""
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True)
    status, cpu = None, 0.0
    while True:
        pid, st, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(st)
            cpu = ru.ru_utime + ru.ru_stime
            p.returncode = status
            break
        if time.monotonic() - t0 > timeout:
            os.killpg(p.pid, signal.SIGKILL)
            _, st, ru = os.wait4(p.pid, 0)
            p.returncode = -9
            status, cpu = "timeout", ru.ru_utime + ru.ru_stime
            break
        time.sleep(0.002 if time.monotonic() - t0 < 0.2 else 0.02)
    wall = time.monotonic() - t0
    out.seek(0), err.seek(0)
    o, e = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    out.close(), err.close()
    return status, wall, cpu, o, e


def pct(sorted_values, q):
    """Nearest-rank percentile of a sorted list."""
    if not sorted_values:
        return float("nan")
    i = max(0, min(len(sorted_values) - 1, int(-(-q * len(sorted_values) // 100)) - 1))
    return sorted_values[i]


def rel(path):
    r = os.path.relpath(path)
    return r if not r.startswith("../../") else path


def main():
    ap = argparse.ArgumentParser(description="tail latency of wgperf analyze/predict over kernels with launch files")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--dir", action="append", default=[], help="a folder of sources with launch files (repeatable)")
    ap.add_argument("--launches", default=None, help="launch files kept apart from the --dir sources")
    ap.add_argument("--manifest", default=os.path.join(ROOT, "corpus", "manifest.json"))
    ap.add_argument("--opt", default="0,2", help="-O levels (default 0,2)")
    ap.add_argument("--commands", default="analyze,predict")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (default 1: timings of an idle machine)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run before it is stopped (default 600)")
    ap.add_argument("--top", type=int, default=10, help="slowest runs listed (default 10)")
    ap.add_argument("--only", default="", help="comma-separated words; runs whose source or kernel contains one")
    ap.add_argument("--gpu", default=None)
    ap.add_argument("--sanity", action="store_true", help="print every prediction's time, bounds and fallbacks")
    ap.add_argument("--json", default=None, help="write every run's record to this file")
    ap.add_argument("--work", default=None, help="directory for the models (default: a temporary one)")
    args = ap.parse_args()
    wgperf = os.path.join(args.bin, "wgperf")
    if not os.access(wgperf, os.X_OK):
        print("bench-tail: %s not found (build first, or give the build directory)" % wgperf, file=sys.stderr)
        return 2
    if args.launches and not args.dir:
        print("bench-tail: --launches needs --dir (where the sources are)", file=sys.stderr)
        return 2
    runs = folder_runs(args.dir, args.launches) if args.dir else corpus_runs(args.manifest)
    if args.only:
        words = args.only.split(",")
        runs = [r for r in runs if any(w in r[0] or w == r[1] or w in r[1] for w in words)]
    if not runs:
        print("bench-tail: no source with a launch file found", file=sys.stderr)
        return 2
    opts = args.opt.split(",")
    commands = args.commands.split(",")
    extra = ["--gpu", args.gpu] if args.gpu else []
    records = []
    tmp = tempfile.TemporaryDirectory(prefix="wgperf-tail-")
    work = args.work or tmp.name
    os.makedirs(work, exist_ok=True)

    def extract(src, opt):
        model = os.path.join(work, "%s.O%s.json" % (rel(src).replace("/", "_").lstrip("._"), opt))
        cmd = [wgperf, "extract", src, "-O", opt, "-o", model]
        st, wall, cpu, _, e = timed(cmd, args.timeout)
        records.append({"command": "extract", "cmd": cmd, "status": st, "wall": wall, "cpu": cpu,
                        "error": e.strip().splitlines()[-1] if st != 0 and e.strip() else ""})
        return model if st == 0 else None

    def one(model, src, kernel, launch, opt, command):
        cmd = [wgperf, command, model, "--kernel", kernel, "--launch", launch, "--json"] + extra
        st, wall, cpu, o, e = timed(cmd, args.timeout)
        # the command as a user would type it: the source, not our model
        shown = [os.path.basename(wgperf), command, rel(src), "-O" + opt, "--kernel", kernel, "--launch", rel(launch)]
        rec = {"command": command, "cmd": cmd, "shown": shown, "status": st, "wall": wall, "cpu": cpu, "source": rel(src),
               "kernel": kernel, "opt": opt, "error": ""}
        if st != 0:
            rec["error"] = "timed out" if st == "timeout" else (e.strip().splitlines() or ["exit %s" % st])[-1]
        elif command == "predict":
            try:
                j = json.loads(o)
                rec["time_us"] = j.get("time_us")
                rec["bounds"] = j.get("bounds", {})
                rec["fallbacks"] = sorted({f.get("kind") for f in j.get("fallbacks", [])})
                rec["assumed"] = list(j.get("assumptions", []))
            except ValueError:
                rec["error"] = "output is not JSON"
        return rec

    t0 = time.monotonic()
    sources = sorted({r[0] for r in runs})
    models = {}
    for src in sources:
        for opt in opts:
            models[(src, opt)] = extract(src, opt)
    jobs = [(models[(src, opt)], src, kernel, launch, opt, c) for src, kernel, launch in runs for opt in opts
            for c in commands if models[(src, opt)]]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        records += list(pool.map(lambda j: one(*j), jobs))
    total = time.monotonic() - t0

    print("wgperf tail benchmark, %s, %d cores, load average %.2f at the end, %s, jobs %d" %
          (time.strftime("%Y-%m-%d %H:%M"), os.cpu_count(), os.getloadavg()[0], rel(args.bin), args.jobs))
    print("%d sources, %d kernel launches, -O %s: %d runs in %.0f s" %
          (len(sources), len(runs), ",".join(opts), len(records), total))
    print()
    print("%-8s %5s | %8s %8s %8s %8s | %8s %8s %8s %8s | %5s %5s %5s" %
          ("command", "runs", "p50 wall", "p90", "p99", "max", "p50 cpu", "p90", "p99", "max", ">2s", ">0.5s", "fail"))
    for c in ["extract"] + commands:
        rs = [r for r in records if r["command"] == c]
        if not rs:
            continue
        w = sorted(r["wall"] for r in rs)
        u = sorted(r["cpu"] for r in rs)
        print("%-8s %5d | %8.3f %8.3f %8.3f %8.3f | %8.3f %8.3f %8.3f %8.3f | %5d %5d %5d" %
              (c, len(rs), pct(w, 50), pct(w, 90), pct(w, 99), w[-1], pct(u, 50), pct(u, 90), pct(u, 99), u[-1],
               sum(x > 2 for x in w), sum(x > 0.5 for x in w), sum(r["status"] != 0 for r in rs)))
    for c in commands:
        rs = sorted((r for r in records if r["command"] == c), key=lambda r: -r["wall"])[:args.top]
        if not rs:
            continue
        print("\nslowest %s runs (wall s, cpu s, command):" % c)
        for r in rs:
            cmd = " ".join(r["shown"])
            print("  %7.2f %7.2f  %s%s" % (r["wall"], r["cpu"], cmd, "  [%s]" % r["error"] if r["error"] else ""))
    failed = [r for r in records if r["status"] != 0]
    if failed:
        print("\n%d runs failed:" % len(failed))
        for r in failed:
            print("  %s: %s" % (" ".join(r.get("shown", r["cmd"])), r["error"]))
    # answers a user should not get silently
    preds = [r for r in records if r["command"] == "predict" and r["status"] == 0 and "time_us" in r]
    above = [r for r in preds if r["time_us"] and r["bounds"].get("worst_us") and
             r["time_us"] > r["bounds"]["worst_us"] * (1 + 1e-6)]
    unended = [r for r in preds if any("did not end" in a for a in r["assumed"])]
    print("\npredictions: %d, above their worst-case bound: %d, with a loop that did not end: %d" %
          (len(preds), len(above), len(unended)))
    for r in above + unended:
        print("  %s %s -O%s: %.4g us (bounds %.4g..%.4g); %s" %
              (r["source"], r["kernel"], r["opt"], r["time_us"], r["bounds"].get("best_us", 0),
               r["bounds"].get("worst_us", 0), "; ".join(a for a in r["assumed"] if "did not end" in a)[:200]))
    if args.sanity:
        print("\nevery prediction (time us, best..worst us, fallback kinds):")
        for r in sorted(preds, key=lambda r: -(r["time_us"] or 0)):
            print("  %-40s %-24s -O%s %11.4g  %10.4g..%-10.4g %s" %
                  (r["source"], r["kernel"], r["opt"], r["time_us"], r["bounds"].get("best_us", 0),
                   r["bounds"].get("worst_us", 0), ",".join(r["fallbacks"])))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
