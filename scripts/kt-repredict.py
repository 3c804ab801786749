#!/usr/bin/env python3
"""Estimate a wgtune ranking again from the models in its cache, with another build.

A developer tool (not a test): wgtune's cache is keyed by its own executable, so a
rebuilt wgtune compiles the whole space again.  A change to the analyzer or the
simulator does not change the models, so this script takes each configuration of a
`wgtune --json` ranking, estimates it with `BUILD/bin/wgperf predict MODEL.json` from
the cache the ranking was made with, and writes the ranking again, sorted by the new
times, for `wgperf-validate --kernel-tuner ... --ranking OUT.json`.

  scripts/kt-repredict.py RANKING.json --cache DIR --out OUT.json
                          [--build DIR] [--gpu NAME] [--every N] [--jobs N] [--env NAME=VALUE]...
                          [--arg NAME=VALUE]...

--every N keeps every N-th configuration of the space (by index), for a quicker look;
--env sets a variable for wgperf (a switch under study); --arg gives a scalar argument
that the space's Arguments set (gemm: kSizeM=4096 kSizeN=4096 kSizeK=4096 arg_beta=1);
--gpu defaults to the ranking's own; the ranking written names the GPU it was estimated for,
with that GPU's baselines (BSP, roofline).  Used for docs/accuracy.md ("Groups out of step,
constant operands, loads hoisted by registers", "Refilled groups").
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys


def name_value(option, kv):
    """NAME=VALUE of OPTION as (NAME, VALUE); exits naming it when it is not."""
    k, eq, v = kv.partition("=")
    if not eq or not k:
        sys.exit(f"kt-repredict: {option} {kv}: NAME=VALUE expected")
    return k, v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ranking")
    ap.add_argument("--cache", required=True, help="the --cache folder the ranking was made with")
    ap.add_argument("--out", required=True)
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    ap.add_argument("--gpu")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--arg", action="append", default=[], help="NAME=VALUE for wgperf predict --arg (a scalar argument)")
    a = ap.parse_args()
    if a.every < 1 or a.jobs < 1:
        sys.exit("kt-repredict: --every and --jobs take a positive number")
    env = dict(os.environ)
    for kv in a.env:
        k, v = name_value("--env", kv)
        env[k] = v
    for kv in a.arg:
        name_value("--arg", kv)
    wgperf = os.path.join(a.build, "bin", "wgperf")
    if not os.access(wgperf, os.X_OK):
        sys.exit(f"kt-repredict: {wgperf}: not built")
    try:
        with open(a.ranking) as f:
            d = json.load(f)
        ranked, kernel = d["ranked"], d["kernel"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"kt-repredict: {a.ranking}: not a wgtune --json ranking ({e})")
    if d.get("prune_top"):
        sys.exit(f"kt-repredict: {a.ranking}: made with wgtune --prune (its pruned configurations have no model "
                 "estimate to redo): use a ranking without --prune")
    gpu = a.gpu or d.get("gpu")
    if not isinstance(gpu, str) or not isinstance(ranked, list) or not isinstance(d.get("cannot_run"), list):
        sys.exit(f"kt-repredict: {a.ranking}: not a wgtune --json ranking (gpu, ranked, cannot_run)")
    for r in ranked:
        if not isinstance(r, dict) or not all(k in r for k in ("index", "params", "grid", "block", "code")):
            sys.exit(f"kt-repredict: {a.ranking}: a ranked configuration without index, params, grid, block and code")
    if not all(isinstance(c, dict) and isinstance(c.get("index"), int) for c in d["cannot_run"]):
        sys.exit(f"kt-repredict: {a.ranking}: a cannot_run entry without an index")
    keep = [r for r in ranked if r["index"] % a.every == 0]

    def one(r):
        model = os.path.join(a.cache, "models", r["code"][:2], r["code"] + ".json")
        cmd = [wgperf, "predict", model, "--kernel", kernel, "--gpu", gpu, "--json", "--baselines",
               "--grid", ",".join(map(str, r["grid"])), "--block", ",".join(map(str, r["block"]))]
        for kv in a.arg:
            cmd += ["--arg", kv]
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode != 0:
            return r, None, p.stderr.strip() or f"exit {p.returncode}"
        try:
            return r, json.loads(p.stdout), None
        except ValueError as e:
            return r, None, f"wgperf predict --json printed no JSON ({e})"

    out, failed = [], []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for r, j, err in ex.map(one, keep):
            if j is not None and isinstance(j.get("gpu"), str):
                d["gpu"] = j["gpu"]  # the name of the GPU estimated for (--gpu)
            if j is None:
                failed.append({k: r[k] for k in ("index", "params", "grid", "block", "code")} | {"reason": err})
                continue
            r = dict(r)
            r["time_us"] = j["time_us"]
            r["best_us"] = j["bounds"]["best_us"]
            r["worst_us"] = j["bounds"]["worst_us"]
            # the baselines of this GPU too, not those of the ranking's
            if isinstance(j.get("baselines"), dict):
                r["baselines"] = j["baselines"]
            else:
                r.pop("baselines", None)
            out.append(r)
    out.sort(key=lambda r: (r["time_us"], r["index"]))
    for i, r in enumerate(out):
        r["rank"] = i + 1
    d["ranked"] = out
    d["cannot_run"] = [c for c in d["cannot_run"] if c["index"] % a.every == 0] + failed
    d["configurations"] = len(d["ranked"]) + len(d["cannot_run"])
    with open(a.out, "w") as f:
        json.dump(d, f)
    print(f"kt-repredict: {len(out)} estimated again, {len(failed)} failed -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
