#!/usr/bin/env python3
"""kt-eval.py - wgperf's accuracy over Kernel Tuner brute-force caches.

A developer tool (Python 3 standard library only) until `wgperf-validate
--kernel-tuner` covers the same ground.  For each cache file given (gzip JSON,
../shared/data/kernel-tuner/README.md), it draws a fixed seeded sample of the
configurations that ran on every GPU of the files of one kernel, extracts each
configuration's model once (`wgperf extract`, every tuning parameter as -D,
with register counts for every GPU's architecture), predicts it for each GPU
(`wgperf predict --json`) and prints per file: MAPE, Spearman rho, the measured
time of our fastest pick over the measured best, the best measured of our top
1% over the measured best, the BSP (seeds/003, lambda fitted on one row) and
roofline baselines on the same rows, the configurations we refused, and the
worst-predicted ones.

Launch semantics (Kernel Tuner): grid = ceil(problem_size / product(grid_div))
per dimension; block = (block_size_x, block_size_y) or the script's
block_size_names.  The two kernels it knows are those of the shared folder:
convolution.cu (CUDA) and CLBlast's Xgemm (OpenCL: common.opencl and
xgemm_part1..3 concatenated, written once to the work directory).

    python3 scripts/kt-eval.py ../shared/data/kernel-tuner/measurements/convolution-rtx-2080-ti.json.gz \
        --sample 100 --seed 1 --jobs 2

Extracted models are kept in --work (default /tmp/kt-eval) keyed by the
source text, the defines and the wgperf binaries' modification times, so a
change to the analyzer or simulator only re-predicts.
"""
import argparse
import concurrent.futures
import gzip
import hashlib
import json
import math
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "data", "kernel-tuner", "kernels")

# What each known kernel needs: source, kernel name, launch, arguments.
SPACES = {
    "convolution_kernel": {
        "files": ["convolution.cu"],
        "suffix": ".cu",
        "kernel": "convolution_kernel",
        "grid_div": (["block_size_x", "tile_size_x"], ["block_size_y", "tile_size_y"]),
        "block": ("block_size_x", "block_size_y"),
        "args": {},
        "buffers": {"output": 4096 * 4096 * 4, "input": 4110 * 4110 * 4, "filter": 15 * 15 * 4},
    },
    "Xgemm": {
        "files": ["gemm/common.opencl", "gemm/xgemm_part1.opencl", "gemm/xgemm_part2.opencl",
                  "gemm/xgemm_part3.opencl"],
        "suffix": ".cl",
        "kernel": "Xgemm",
        "grid_div": (["MWG"], ["NWG"]),
        "block": ("MDIMC", "NDIMC"),
        # gemm.py: alpha = beta = 1.0 (the kernel tests beta == 0)
        "args": {"kSizeM": 4096, "kSizeN": 4096, "kSizeK": 4096, "arg_alpha": 1, "arg_beta": 1},
        "buffers": {"agm": 4096 * 4096 * 4, "bgm": 4096 * 4096 * 4, "cgm": 4096 * 4096 * 4},
    },
}

# Kernel Tuner's device names to wgperf's GPU descriptions.
EXTRACT_GPU = BASELINES = False

GPUS = {"NVIDIA GeForce RTX 3090": "rtx-3090", "NVIDIA GeForce RTX 2080 Ti": "rtx-2080-ti"}


def load_cache(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def source_file(space, kernels_dir, work):
    """The kernel source as Kernel Tuner compiled it (a concatenation for gemm)."""
    files = [os.path.join(kernels_dir, f) for f in space["files"]]
    if len(files) == 1:
        return files[0]
    text = "".join(open(f).read() for f in files)
    digest = hashlib.sha1(text.encode()).hexdigest()[:12]
    out = os.path.join(work, "%s-%s%s" % (space["kernel"], digest, space["suffix"]))
    if not os.path.exists(out):
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    return out


def launch(space, cfg, problem):
    grid = []
    for d, divs in enumerate(space["grid_div"]):
        div = 1
        for name in divs:
            div *= int(cfg[name])
        grid.append(-(-int(problem[d]) // div))
    block = [int(cfg[n]) for n in space["block"]]
    return grid, block


def tool_stamp(bindir):
    parts = []
    for name in ("wgperf", "../lib/libwgperf.so"):
        p = os.path.join(bindir, name)
        if os.path.exists(p):
            parts.append("%s:%d" % (name, os.stat(p).st_mtime_ns))
    return ";".join(parts)


def supports(bindir, command, option):
    """Whether the usage of `wgperf COMMAND` lists OPTION (older builds lack some)."""
    r = subprocess.run([os.path.join(bindir, "wgperf"), "--help"], capture_output=True, text=True)
    usage, on = "", False
    for line in (r.stdout + r.stderr).splitlines():
        if line.strip().startswith("wgperf ") or line.startswith("usage:"):
            on = (" wgperf %s " % command) in (" " + line.replace("usage:", "").strip() + " ")
        elif not line.startswith(" "):
            on = False
        if on:
            usage += line
    return option in usage


def extract(bindir, src, defines, gpus, work, stamp):
    key = hashlib.sha1((open(src).read() + repr(sorted(defines.items())) + repr(sorted(gpus)) + stamp)
                       .encode()).hexdigest()[:20]
    out = os.path.join(work, "models", key + ".wgperf.json")
    if os.path.exists(out):
        return out, ""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = [os.path.join(bindir, "wgperf"), "extract", src, "-o", out + ".tmp.json"]
    if EXTRACT_GPU:
        for g in gpus:
            cmd += ["--gpu", g]
    cmd += ["-D%s=%s" % (k, v) for k, v in defines.items()]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(out + ".tmp.json"):
        return None, r.stderr.strip()
    os.replace(out + ".tmp.json", out)
    return out, r.stderr.strip()


def predict(bindir, model, space, gpu, grid, block):
    cmd = [os.path.join(bindir, "wgperf"), "predict", model, "--kernel", space["kernel"], "--gpu", gpu,
           "--grid", ",".join(map(str, grid)), "--block", ",".join(map(str, block)), "--json", "--jobs", "1"]
    if BASELINES:
        cmd.append("--baselines")
    for k, v in space["args"].items():
        cmd += ["--arg", "%s=%d" % (k, v)]
    for k, v in space["buffers"].items():
        cmd += ["--buffer", "%s=%d" % (k, v)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
    return json.loads(r.stdout), r.stderr.strip()


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 3:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb) if va and vb else float("nan")


def figures(meas, pred):
    """MAPE (%), Spearman rho, pick ratio, top-1% ratio of predictions PRED
    against measurements MEAS (same order)."""
    n = len(meas)
    mape = 100.0 * sum(abs(p - m) / m for m, p in zip(meas, pred)) / n
    rho = spearman(meas, pred)
    best = min(meas)
    order = sorted(range(n), key=lambda i: (pred[i], i))
    pick = meas[order[0]] / best
    top = max(1, int(math.ceil(0.01 * n)))
    top1 = min(meas[i] for i in order[:top]) / best
    return mape, rho, pick, top1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("caches", nargs="+", help="Kernel Tuner cache files (.json.gz)")
    ap.add_argument("--sample", type=int, default=100, help="configurations per kernel (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--kernels", default=SHARED, help="the folder of the kernels")
    ap.add_argument("--work", default="/tmp/kt-eval")
    ap.add_argument("--worst", type=int, default=8, help="worst-predicted configurations to list")
    ap.add_argument("--failed", action="store_true",
                    help="also predict the configurations that failed at run time (should be refused)")
    ap.add_argument("--csv", help="write every prediction to this file")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    stamp = tool_stamp(args.bin)
    global EXTRACT_GPU, BASELINES
    EXTRACT_GPU = supports(args.bin, "extract", "--gpu")
    BASELINES = supports(args.bin, "predict", "--baselines")

    by_kernel = {}
    for path in args.caches:
        d = load_cache(path)
        if d["kernel_name"] not in SPACES:
            sys.exit("kt-eval: %s: kernel '%s' is not one this script knows" % (path, d["kernel_name"]))
        if d["device_name"] not in GPUS:
            sys.exit("kt-eval: %s: no GPU description for '%s'" % (path, d["device_name"]))
        by_kernel.setdefault(d["kernel_name"], []).append((path, d))

    summary = {}
    csv_rows = []
    for kname, files in by_kernel.items():
        space = SPACES[kname]
        src = source_file(space, args.kernels, args.work)
        keys = None
        for _, d in files:
            ok = {k for k, v in d["cache"].items() if isinstance(v["time"], (int, float))}
            keys = ok if keys is None else keys & ok
        keys = sorted(keys)
        sample = keys if not args.sample or args.sample >= len(keys) else \
            sorted(random.Random(args.seed).sample(keys, args.sample))
        failed = []
        if args.failed:
            for _, d in files:
                failed += [k for k, v in d["cache"].items() if v["time"] == "RuntimeFailedConfig"]
            failed = sorted(set(failed))
        todo = sample + [k for k in failed if k not in sample]
        params = files[0][1]["tune_params_keys"]
        gpus = sorted({GPUS[d["device_name"]] for _, d in files})
        print("%s: %d configurations ran on every GPU, %d sampled (seed %d)%s; GPUs %s" %
              (kname, len(keys), len(sample), args.seed,
               ", %d failed at run time" % len(failed) if failed else "", ", ".join(gpus)), flush=True)

        def one(key):
            cfg = dict(zip(params, key.split(",")))
            defines = {k: cfg[k] for k in params}
            model, err = extract(args.bin, src, defines, gpus, args.work, stamp)
            res = {}
            for _, d in files:
                g = GPUS[d["device_name"]]
                if model is None:
                    res[g] = (None, "extract failed: " + err.splitlines()[-1] if err else "extract failed")
                    continue
                grid, block = launch(space, cfg, d["problem_size"])
                res[g] = predict(args.bin, model, space, g, grid, block)
            return key, res

        results = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for i, (key, res) in enumerate(pool.map(one, todo)):
                results[key] = res
                if sys.stderr.isatty():
                    print("\r  %d/%d" % (i + 1, len(todo)), end="", file=sys.stderr, flush=True)
        if sys.stderr.isatty():
            print(file=sys.stderr)

        for path, d in files:
            g = GPUS[d["device_name"]]
            meas, pred, bsp1, roof, rows, refused, warned = [], [], [], [], [], [], 0
            for key in sample:
                m = d["cache"][key]["time"] * 1e3  # us
                out, err = results[key][g]
                if out is None:
                    refused.append((key, err))
                    continue
                if "register" in err and "not asked" in err:
                    warned += 1
                p = out["time_us"]
                b = out.get("baselines", {})
                meas.append(m)
                pred.append(p)
                bsp1.append(b.get("bsp_lambda1_us", float("nan")))
                roof.append(b.get("roofline_us", float("nan")))
                rows.append((key, m, p, out))
                csv_rows.append((os.path.basename(path), key, m, p, bsp1[-1], roof[-1], out.get("breakdown", {}).get("bound", "")))
            name = os.path.basename(path)
            if not meas:
                print("%s: nothing predicted%s" % (name, "; first refusal: %s: %s" % refused[0] if refused else ""))
                continue
            mape, rho, pick, top1 = figures(meas, pred)
            # BSP: lambda fitted on one row (seeds/003 fits it per kernel and GPU on one
            # measurement): the sampled row of median measured time, left out of its figures
            fit = sorted(range(len(meas)), key=lambda i: meas[i])[len(meas) // 2]
            lam = bsp1[fit] / meas[fit] if meas[fit] and bsp1[fit] == bsp1[fit] else float("nan")
            keep = [i for i in range(len(meas)) if i != fit]
            bsp = figures([meas[i] for i in keep], [bsp1[i] / lam for i in keep]) if lam == lam else None
            rf = figures(meas, roof) if all(x == x for x in roof) else None
            summary[name] = {"n": len(meas), "refused": len(refused), "mape": mape, "rho": rho, "pick": pick,
                             "top1": top1, "bsp": bsp, "roofline": rf}
            print("%s (%s): %d predicted, %d refused" % (name, g, len(meas), len(refused)))
            print("  wgperf    MAPE %6.1f%%  rho %5.2f  pick %5.2fx  top-1%% %5.2fx" % (mape, rho, pick, top1))
            if bsp:
                print("  BSP       MAPE %6.1f%%  rho %5.2f  pick %5.2fx  top-1%% %5.2fx" % bsp)
            if rf:
                print("  roofline  MAPE %6.1f%%  rho %5.2f  pick %5.2fx  top-1%% %5.2fx" % rf)
            for key, err in refused[:args.worst]:
                print("  refused %s (measured %.3f ms): %s" % (key, d["cache"][key]["time"], err))
            worst = sorted(rows, key=lambda r: -abs(math.log(r[2] / r[1])))[:args.worst]
            for key, m, p, out in worst:
                occ = out.get("occupancy", {})
                print("  %-40s measured %9.1f us predicted %9.1f (%5.2fx) %s regs %s warps %s" %
                      (key, m, p, p / m, out.get("breakdown", {}).get("bound", ""), occ.get("registers_per_thread", "?"),
                       occ.get("active_warps_per_sm", "?")))
            if failed:
                fk = [k for k in failed if isinstance(d["cache"].get(k, {}).get("time"), str)
                      and d["cache"][k]["time"] == "RuntimeFailedConfig"]
                ref = sum(1 for k in fk if results[k][g][0] is None)
                print("  of %d configurations that failed at run time, %d refused" % (len(fk), ref))
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("file,config,measured_us,predicted_us,bsp_lambda1_us,roofline_us,bound\n")
            for r in csv_rows:
                f.write('%s,"%s",%.3f,%.3f,%.3f,%.3f,%s\n' % r)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
