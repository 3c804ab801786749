#!/usr/bin/env python3
"""The IR register estimate (`--registers estimate`, the kernel model's register_pressure) against
NVIDIA's ptxas count for sm_86 (RTX 3090) and sm_75 (RTX 2080 Ti), per configuration of a seeded
sample of a shared Kernel Tuner space (../shared/data/kernel-tuner: convolution.cu, or CLBlast's
gemm in OpenCL with the T1 space test/lit/Inputs/tune/gemm.json, as test/tune/check_sample.py sets
them up), ranked by wgtune from the kernel files where they lie.

Prints one line per configuration (index, parameters, the raw IR estimate before any cap, ptxas'
sm_86 and sm_75 counts), then per architecture: mean absolute error in registers, mean absolute
error as a share of ptxas' count, how many estimates are over / under ptxas by more than 25%, and
Spearman's rho between the two.  Configurations ptxas was not run for (static shared memory over
48 KiB: ptxas would refuse them) have no count and are left out of the figures.

ptxas' counts cost 2-6 s of CPU per configuration and architecture; they are saved in
WORK/ptxas-counts.json and reused by a later run with the same space, sample and seed (pass
--fresh to recompute), so that a before/after comparison of the estimate reruns the estimate alone.

  scripts/regs-compare.py --space convolution|gemm [--sample 50] [--seed 1] [--work DIR]
                          [--bin build/bin] [--jobs 2] [--fresh] [--quiet]
Exit 2 without the shared data or without ptxas (no CUDA toolkit).
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
data = os.path.join(root, "..", "shared", "data", "kernel-tuner")
spec = importlib.util.spec_from_file_location("kt_eval", os.path.join(here, "kt-eval.py"))
kt_eval = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kt_eval)

ARCHS = (("sm_86", "rtx-3090"), ("sm_75", "rtx-2080-ti"))


def inputs(space):
    """The kernel files (kt-eval.py's list for the space) and the T1 space file."""
    name = "convolution_kernel" if space == "convolution" else "Xgemm"
    files = [os.path.join(data, "kernels", f) for f in kt_eval.SPACES[name]["files"]]
    if space == "convolution":
        return files, os.path.join(data, "kernels", "convolution.json")
    return files, os.path.join(root, "test", "lit", "Inputs", "tune", "gemm.json")


def wgtune(a, gpu, registers, cache, out, env):
    files, t1 = inputs(a.space)
    cmd = [os.path.join(a.bin, "wgtune")] + files + ["--space", t1, "--gpu", gpu, "--sample", str(a.sample),
                                                     "--seed", str(a.seed), "--jobs", str(a.jobs), "--cache", cache,
                                                     "--registers", registers, "--json"]
    with open(out, "w") as f:
        rc = subprocess.run(cmd, stdout=f, env=env).returncode
    if rc != 0:
        sys.exit(f"regs-compare: wgtune exited {rc}: {' '.join(cmd)}")
    j = json.load(open(out))
    return j["ranked"] + j["cannot_run"]


def model(cache, code):
    path = os.path.join(cache, "models", code[:2], code + ".json")
    if not os.path.exists(path):
        return None  # not compiled (the compiler refuses it before the plugin runs)
    return json.load(open(path))["kernels"][0]


def figures(pairs):
    """pairs: (estimate, ptxas)"""
    n = len(pairs)
    if n == 0:
        return "no configuration with both"
    mae = sum(abs(e - p) for e, p in pairs) / n
    mape = 100 * sum(abs(e - p) / p for e, p in pairs) / n
    over = sum(e > 1.25 * p for e, p in pairs)
    under = sum(e < p / 1.25 for e, p in pairs)
    rho = kt_eval.spearman([e for e, _ in pairs], [p for _, p in pairs])
    return (f"{n} configurations: mean abs error {mae:.1f} registers ({mape:.1f}% of ptxas'), "
            f"over by >25% {over}, under by >25% {under}, Spearman rho {rho:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--space", required=True, choices=["convolution", "gemm"])
    ap.add_argument("--sample", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default=None)
    ap.add_argument("--bin", default=os.path.join(root, "build", "bin"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if not os.path.isdir(data):
        print(f"regs-compare: {data} not found", file=sys.stderr)
        sys.exit(2)
    work = a.work or f"/tmp/regs-compare-{a.space}-{a.sample}-{a.seed}"
    os.makedirs(work, exist_ok=True)
    counts_path = os.path.join(work, "ptxas-counts.json")
    key = {"space": a.space, "sample": a.sample, "seed": a.seed}
    counts = None
    if not a.fresh and os.path.exists(counts_path):
        saved = json.load(open(counts_path))
        if saved.get("key") == key:
            counts = saved["counts"]
    if counts is None:
        counts = {}
        env = dict(os.environ)
        for arch, gpu in ARCHS:
            cache = os.path.join(work, "cache-ptxas")
            for c in wgtune(a, gpu, "ptxas", cache, os.path.join(work, f"ptxas-{gpu}.json"), env):
                m = model(cache, c["code"]) if c.get("code") else None
                res = [r for r in (m or {}).get("resources", []) if r.get("arch") == arch]
                if res:
                    counts.setdefault(str(c["index"]), {})[arch] = res[0]["registers"]
        if not counts:
            print("regs-compare: ptxas gave no count: is a CUDA toolkit installed?", file=sys.stderr)
            sys.exit(2)
        json.dump({"key": key, "counts": counts}, open(counts_path, "w"), indent=1)
    # the estimate: fresh every time (the plugin is what is being compared)
    cache = os.path.join(work, "cache-estimate")
    subprocess.run(["rm", "-rf", cache], check=True)
    env = dict(os.environ, WGPERF_PTXAS="")
    rows = []
    for c in sorted(wgtune(a, "rtx-3090", "estimate", cache, os.path.join(work, "estimate.json"), env),
                    key=lambda c: c["index"]):
        m = model(cache, c["code"]) if c.get("code") else None
        est = m.get("register_pressure") if m else None
        cnt = counts.get(str(c["index"]), {})
        rows.append((c["index"], c["params"], est, cnt.get("sm_86"), cnt.get("sm_75")))
    if not a.quiet:
        print("index estimate sm_86 sm_75 parameters")
        for i, p, e, r86, r75 in rows:
            params = " ".join(f"{k}={v}" for k, v in p.items())
            print(f"{i:6d} {e if e is not None else '-':>8} {r86 if r86 is not None else '-':>5} "
                  f"{r75 if r75 is not None else '-':>5} {params}")
    for n, arch in ((3, "sm_86"), (4, "sm_75")):
        pairs = [(r[2], r[n]) for r in rows if r[2] is not None and r[n] is not None]
        print(f"{a.space} {arch}: " + figures(pairs))


if __name__ == "__main__":
    main()
