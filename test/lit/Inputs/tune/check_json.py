#!/usr/bin/env python3
"""Checks of wgtune's outputs for the lit tests (tune-*.test).

  check_json.py ranking OUT.json     the --json is consistent: every configuration ranked or listed as
                                     cannot run once, ranks sorted by time then index, distinct = the
                                     codes listed, every field present
  check_json.py same A.json B.json   the two give the same ranking (shards merged against one process):
                                     every count but those of the work done, every ranked entry, every
                                     configuration that cannot run
  check_json.py t4 T4.json [N]       a T4 results file as the schema (results-schema.json 1.0.0) wants
                                     it, with N results
  check_json.py list OUT.json        one line per configuration in the space's order: index, params,
                                     grid, block, and 'ranked' or the reason
  check_json.py code OUT.json INDEX  the code hash of configuration INDEX
  check_json.py prefix PRUNED.json FULL.json
                                     a --prune ranking against the whole one: its first prune_top ranks
                                     are the whole ranking's, it ranks every configuration whose time is
                                     at most the threshold, each configuration's bounds hold the whole
                                     ranking's time, and each pruned one is slower than the threshold
Exit status 1 with the reason when a check fails.
"""
import json
import sys

RANKED_KEYS = ["rank", "index", "params", "time_us", "best_us", "worst_us", "limiter", "bottleneck", "bound",
               "occupancy_warps", "groups_per_sm", "registers", "registers_from", "grid", "block", "code"]


def fail(msg):
    print("check_json: " + msg)
    sys.exit(1)


def load(path):
    with open(path) as f:
        return json.load(f)


def ranking(path):
    j = load(path)
    for k in ["configurations_total", "distinct", "ranked", "cannot_run", "wall_ms", "parameters", "configurations"]:
        if k not in j:
            fail(f"{path}: no '{k}'")
    seen = set()
    for e in j["ranked"]:
        missing = [k for k in RANKED_KEYS if k not in e]
        if missing:
            fail(f"{path}: ranked entry {e.get('index')} lacks {missing}")
        if set(e["params"]) != set(j["parameters"]):
            fail(f"{path}: ranked entry {e['index']} has params {sorted(e['params'])}")
        if not (e["best_us"] <= e["time_us"] * (1 + 1e-9) and e["time_us"] <= e["worst_us"] * (1 + 1e-9)):
            fail(f"{path}: entry {e['index']}: time {e['time_us']} outside its bounds {e['best_us']}..{e['worst_us']}")
        seen.add(e["index"])
    for a, b in zip(j["ranked"], j["ranked"][1:]):
        if (a["time_us"], a["index"]) > (b["time_us"], b["index"]):
            fail(f"{path}: rank {a['rank']} ({a['time_us']}) after rank {b['rank']} ({b['time_us']})")
    for i, e in enumerate(j["ranked"]):
        if e["rank"] != i + 1:
            fail(f"{path}: rank {e['rank']} at position {i + 1}")
    for e in j["cannot_run"]:
        if not e.get("reason"):
            fail(f"{path}: cannot_run entry {e['index']} without a reason")
        if e["index"] in seen:
            fail(f"{path}: configuration {e['index']} both ranked and cannot run")
        seen.add(e["index"])
    pruned = j.get("pruned", [])
    if j.get("prune_top"):
        # --prune: the bounds of every configuration, the threshold between the ranked and the pruned
        t = j["prune_threshold_us"]
        t = float("inf") if t is None else t
        if len(j["ranked"]) >= j["prune_top"] and t != j["ranked"][j["prune_top"] - 1]["time_us"]:
            fail(f"{path}: prune_threshold_us {t} is not the time of rank {j['prune_top']}")
        for e in j["ranked"]:
            if not (e["lower_us"] <= e["time_us"] * (1 + 1e-9) and e["time_us"] <= e["upper_us"] * (1 + 1e-9)):
                fail(f"{path}: entry {e['index']}: time {e['time_us']} outside {e['lower_us']}..{e['upper_us']}")
            if e["lower_us"] > t:
                fail(f"{path}: entry {e['index']} ranked with a lower bound {e['lower_us']} above {t}")
        for e in pruned:
            if not e["lower_us"] > t or not e["lower_us"] <= e["upper_us"]:
                fail(f"{path}: pruned entry {e['index']}: bounds {e['lower_us']}..{e['upper_us']}, threshold {t}")
            if e["index"] in seen:
                fail(f"{path}: configuration {e['index']} pruned and listed elsewhere")
            seen.add(e["index"])
    elif pruned:
        fail(f"{path}: pruned entries without prune_top")
    n = len(j["ranked"]) + len(j["cannot_run"]) + len(pruned)
    if len(seen) != j["configurations"] or n != j["configurations"]:
        fail(f"{path}: {len(seen)} configurations listed, 'configurations' says {j['configurations']}")
    codes = {e["code"] for e in j["ranked"] + j["cannot_run"] + pruned if e["code"]}
    if len(codes) != j["distinct"]:
        fail(f"{path}: {len(codes)} codes listed, 'distinct' says {j['distinct']}")
    extra = f", {len(pruned)} pruned" if j.get("prune_top") else ""
    print(f"ranking ok: {len(j['ranked'])} ranked, {len(j['cannot_run'])} cannot run{extra}, {j['distinct']} distinct")


def same(pa, pb):
    a, b = load(pa), load(pb)
    for k in ["configurations_raw", "configurations_total", "configurations", "distinct", "parameters", "kernel",
              "gpu", "space"]:
        if a.get(k) != b.get(k):
            fail(f"'{k}' differs: {a.get(k)} and {b.get(k)}")
    if len(a["ranked"]) != len(b["ranked"]):
        fail(f"{len(a['ranked'])} and {len(b['ranked'])} ranked")
    for x, y in zip(a["ranked"], b["ranked"]):
        for k in RANKED_KEYS:
            if x[k] != y[k]:
                fail(f"rank {x['rank']}: '{k}' differs: {x[k]} and {y[k]}")
    ca = sorted((e["index"], e["reason"]) for e in a["cannot_run"])
    cb = sorted((e["index"], e["reason"]) for e in b["cannot_run"])
    if ca != cb:
        fail(f"cannot_run differs: {ca[:3]}... and {cb[:3]}...")
    if a.get("prune_top") != b.get("prune_top") or a.get("prune_threshold_us") != b.get("prune_threshold_us"):
        fail(f"prune_top or prune_threshold_us differ")
    pa = sorted((e["index"], e["lower_us"], e["upper_us"]) for e in a.get("pruned", []))
    pb = sorted((e["index"], e["lower_us"], e["upper_us"]) for e in b.get("pruned", []))
    if pa != pb:
        fail(f"pruned differs: {pa[:3]}... and {pb[:3]}...")
    extra = f", {len(pa)} pruned" if a.get("prune_top") else ""
    print(f"same ranking: {len(a['ranked'])} ranked, {len(ca)} cannot run{extra}")


def prefix(pp, pf):
    p, f = load(pp), load(pf)
    k = p.get("prune_top")
    if not k or f.get("prune_top"):
        fail(f"{pp} must be made with --prune, {pf} without")
    if len(p["ranked"]) < min(k, len(f["ranked"])):
        fail(f"{len(p['ranked'])} ranked, fewer than the {k} asked for")
    for x, y in zip(p["ranked"][:k], f["ranked"][:k]):
        for key in RANKED_KEYS:
            if x[key] != y[key]:
                fail(f"rank {x['rank']}: '{key}' differs: {x[key]} and {y[key]}")
    t = p["prune_threshold_us"]
    t = float("inf") if t is None else t
    ranked = {e["index"] for e in p["ranked"]}
    bounds = {e["index"]: (e["lower_us"], e["upper_us"]) for e in p["ranked"] + p["pruned"]}
    for e in f["ranked"]:
        lo, hi = bounds[e["index"]]
        if not (lo <= e["time_us"] * (1 + 1e-9) and e["time_us"] <= hi * (1 + 1e-9)):
            fail(f"configuration {e['index']}: its time {e['time_us']} is outside its bounds {lo}..{hi}")
        if e["time_us"] <= t and e["index"] not in ranked:
            fail(f"configuration {e['index']} ({e['time_us']} us, at most {t}) is not ranked")
    print(f"prefix ok: the first {min(k, len(f['ranked']))} ranks, {len(p['pruned'])} of {len(f['ranked'])} pruned")


def t4(path, n=None):
    j = load(path)
    if not isinstance(j.get("schema_version"), str) or len(j["schema_version"].split(".")) != 3:
        fail("schema_version is not major.minor.patch")
    if not isinstance(j.get("results"), list):
        fail("no results array")
    kinds = {}
    for r in j["results"]:
        for k in ["configuration", "times", "invalidity", "correctness"]:
            if k not in r:
                fail(f"a result without '{k}' (required)")
        if not isinstance(r["configuration"], dict) or not isinstance(r["times"], dict):
            fail("configuration and times must be objects")
        if r["invalidity"] not in ["timeout", "compile", "runtime", "correctness", "constraints", "correct"]:
            fail(f"invalidity '{r['invalidity']}' is not in the schema's enum")
        if not isinstance(r["correctness"], (int, float)):
            fail("correctness must be a number")
        for m in r.get("measurements", []):
            if not isinstance(m.get("name"), str) or not isinstance(m.get("unit"), str) or \
                    not isinstance(m.get("value"), (int, float, str, list)):
                fail(f"a malformed measurement {m}")
        if "objectives" in r and not isinstance(r["objectives"], list):
            fail("objectives must be an array")
        if not isinstance(r["times"].get("runtimes", []), list):
            fail("times.runtimes must be an array")
        kinds[r["invalidity"]] = kinds.get(r["invalidity"], 0) + 1
        if r["invalidity"] == "correct" and not any(m["name"] == "time" and m["unit"] == "ms"
                                                    for m in r.get("measurements", [])):
            fail("a correct result without a time in ms")
    if n is not None and len(j["results"]) != int(n):
        fail(f"{len(j['results'])} results, expected {n}")
    print("t4 ok: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))


def listing(path):
    j = load(path)
    rows = [(e["index"], e, "ranked") for e in j["ranked"]] + [(e["index"], e, e["reason"]) for e in j["cannot_run"]]
    for i, e, what in sorted(rows, key=lambda r: r[0]):
        params = " ".join(f"{k}={e['params'][k]}" for k in j["parameters"])
        grid = "x".join(str(d) for d in e["grid"])
        block = "x".join(str(d) for d in e["block"])
        print(f"{i}: {params} grid {grid} block {block}: {what}")


def code(path, index):
    j = load(path)
    for e in j["ranked"] + j["cannot_run"] + j.get("pruned", []):
        if e["index"] == int(index):
            print(e["code"])
            return
    fail(f"no configuration {index}")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "ranking":
        ranking(sys.argv[2])
    elif cmd == "same":
        same(sys.argv[2], sys.argv[3])
    elif cmd == "t4":
        t4(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif cmd == "list":
        listing(sys.argv[2])
    elif cmd == "code":
        code(sys.argv[2], sys.argv[3])
    elif cmd == "prefix":
        prefix(sys.argv[2], sys.argv[3])
    else:
        fail("unknown check " + cmd)
