#!/usr/bin/env python3
"""A fixed seeded sample of a shared Kernel Tuner space ranked by wgtune from the kernel files
where they lie, checked for properties that do not depend on predicted times (ctest
tune.convolution_sample and tune.gemm_sample):

  - the space is Kernel Tuner's: as many configurations as its cache files hold, each one of them, and
    (convolution, whose cache files keep the brute force's order) configuration i of wgtune's order is
    the i-th key of the cache file;
  - each configuration's launch follows Kernel Tuner's rules (block, grid = ceil(problem / grid_div));
  - the ranking is consistent (every configuration ranked or listed with a reason, sorted, distinct);
  - convolution: a configuration cannot run because of its static shared memory exactly when its
    shared array passes 48 KiB (the whole of Kernel Tuner's CompilationFailedConfig on both GPUs);
    configurations that differ only in use_padding where the kernel adds no padding share a code;
  - wgtune --prune --top 3 from the same cache ranks the same first 3, every configuration's bounds
    holding its estimate;
  - wgperf-validate --kernel-tuner compares the same sample with the measurements and accounts for
    every configuration.

  check_sample.py --bin BUILD/bin --space convolution|gemm --sample N [--seed S] --work DIR
Exit 77 (skipped) without ../shared/data/kernel-tuner.
"""
import argparse
import gzip
import json
import math
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
data = os.path.join(root, "..", "shared", "data", "kernel-tuner")
sys.path.insert(0, os.path.join(root, "test", "lit", "Inputs", "tune"))
import check_json  # noqa: E402


def fail(msg):
    print("check_sample: FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--space", required=True, choices=["convolution", "gemm"])
    ap.add_argument("--sample", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    if not os.path.isdir(data):
        print(f"check_sample: {data} not found: skipped")
        sys.exit(77)
    os.makedirs(a.work, exist_ok=True)
    if a.space == "convolution":
        files = [os.path.join(data, "kernels", "convolution.cu")]
        t1 = os.path.join(data, "kernels", "convolution.json")
        problem, griddiv = (4096, 4096), (("block_size_x", "tile_size_x"), ("block_size_y", "tile_size_y"))
        block = ("block_size_x", "block_size_y")
    else:
        files = [os.path.join(data, "kernels", "gemm", f) for f in
                 ["common.opencl", "xgemm_part1.opencl", "xgemm_part2.opencl", "xgemm_part3.opencl"]]
        t1 = os.path.join(root, "test", "lit", "Inputs", "tune", "gemm.json")
        problem, griddiv, block = (4096, 4096), (("MWG",), ("NWG",)), ("MDIMC", "NDIMC")
    caches = sorted(f for f in os.listdir(os.path.join(data, "measurements")) if f.startswith(a.space + "-"))
    env = dict(os.environ, WGPERF_PTXAS="")  # the IR estimate: the same with or without a CUDA toolkit
    out = os.path.join(a.work, "rank.json")
    cache_dir = os.path.join(a.work, "cache")
    cmd = [os.path.join(a.bin, "wgtune")] + files + ["--space", t1, "--gpu", "rtx-3090", "--sample", str(a.sample),
                                                     "--seed", str(a.seed), "--jobs", "2", "--cache", cache_dir,
                                                     "--json"]
    with open(out, "w") as f:
        rc = subprocess.run(cmd, stdout=f, env=env).returncode
    if rc != 0:
        fail(f"wgtune exited {rc}: {' '.join(cmd)}")
    check_json.ranking(out)
    # --prune from the same cache: its first ranks are the whole ranking's, its bounds hold every estimate
    pruned = os.path.join(a.work, "pruned.json")
    with open(pruned, "w") as f:
        rc = subprocess.run(cmd + ["--prune", "--top", "3"], stdout=f, env=env).returncode
    if rc != 0:
        fail(f"wgtune --prune exited {rc}")
    check_json.ranking(pruned)
    check_json.prefix(pruned, out)
    j = json.load(open(out))
    kt = json.load(gzip.open(os.path.join(data, "measurements", caches[0])))
    keys = list(kt["cache"])
    keyset = set(keys)
    # the convolution caches list the configurations in Kernel Tuner's brute-force order (the Cartesian
    # product, the first parameter slowest), which is wgtune's; the gemm ones in another order, where
    # only the set can be compared
    in_order = a.space == "convolution"
    if j["configurations_total"] != len(keys):
        fail(f"{j['configurations_total']} configurations, Kernel Tuner measured {len(keys)}")
    if j["configurations"] != a.sample:
        fail(f"{j['configurations']} configurations ranked or listed, --sample {a.sample}")
    entries = j["ranked"] + j["cannot_run"]
    for e in entries:
        key = ",".join(str(e["params"][k]) for k in kt["tune_params_keys"])
        if in_order and keys[e["index"]] != key:
            fail(f"configuration {e['index']} is {key}, Kernel Tuner's {e['index']}th is {keys[e['index']]}")
        if key not in keyset:
            fail(f"configuration {e['index']} ({key}) is not one Kernel Tuner measured")
        p = e["params"]
        want_block = [p[block[0]], p[block[1]], 1]
        want_grid = [math.ceil(problem[d] / math.prod(p[n] for n in griddiv[d])) for d in range(2)] + [1]
        if e["block"] != want_block or e["grid"] != want_grid:
            fail(f"configuration {e['index']}: grid {e['grid']} block {e['block']}, Kernel Tuner's {want_grid} "
                 f"{want_block}")
    if a.space == "convolution":
        def shared_bytes(p):
            bx, by, tx, ty = p["block_size_x"], p["block_size_y"], p["tile_size_x"], p["tile_size_y"]
            w = bx * tx + 14
            padded = p["use_padding"] == 1 and bx % 32 != 0 and (w - bx) % 32 != 0
            if padded:
                w += (32 - (14 + bx * tx - bx)) & 31
            return (by * ty + 14) * w * 4, padded
        reasons = {e["index"]: e["reason"] for e in j["cannot_run"]}
        over = 0
        for e in entries:
            b, _ = shared_bytes(e["params"])
            by_shared = "shared" in reasons.get(e["index"], "")
            if (b > 49152) != by_shared:
                fail(f"configuration {e['index']} ({b} bytes of shared memory): "
                     f"{reasons.get(e['index'], 'ranked')}")
            over += b > 49152
        codes = {}
        for e in entries:
            _, padded = shared_bytes(e["params"])
            rest = tuple((k, v) for k, v in sorted(e["params"].items()) if k != "use_padding") + (padded,)
            codes.setdefault(rest, set()).add(e["code"])
        if any(len(c) > 1 for c in codes.values()):
            fail("configurations that preprocess alike got different codes")
        print(f"shared memory: {over} of {len(entries)} past 48 KiB, all listed as cannot run, no other")
    # the validation of the same sample against each GPU's measurements
    for c in caches:
        cmd = [os.path.join(a.bin, "wgperf-validate"), "--kernel-tuner", os.path.join(data, "measurements", c),
               "--space", t1] + files + ["--sample", str(a.sample), "--seed", str(a.seed), "--jobs", "2", "--cache",
                                         cache_dir, "--json", "--quiet"]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, env=env, text=True)
        if r.returncode != 0:
            fail(f"wgperf-validate exited {r.returncode}: {' '.join(cmd)}")
        v = json.loads(r.stdout)
        total = v["both"] + v["we_rank_gpu_failed"] + v["we_cannot_gpu_ran"] + v["both_cannot"] + v["not_in_cache"]
        if total != a.sample or v["configurations"] != a.sample:
            fail(f"{c}: the validation accounts for {total} of {a.sample} configurations")
        if v["not_in_cache"] != 0:
            fail(f"{c}: {v['not_in_cache']} configurations not found in the cache")
        if v["both"] >= 3 and not (-1 <= v["spearman"] <= 1 and v["pick_ratio"] >= 1 and v["top1_best_ratio"] >= 1
                                   and 0 <= v["top1_in_top5"] <= 1):
            fail(f"{c}: figures out of their range: {v}")
        print(f"{c}: {v['both']} predicted and measured, MAPE {v['mape']:.1f}%, rho {v['spearman']:.2f}")
    print("check_sample: ok")


if __name__ == "__main__":
    main()
