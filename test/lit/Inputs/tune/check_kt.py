#!/usr/bin/env python3
"""check_kt.py KT.json RANK.json K: wgtune --emit-kernel-tuner wrote the K best of wgtune --json's
ranking: tune_params holds each parameter's values among them, the restriction (evaluated as Kernel
Tuner would, with Python) allows exactly those combinations, wgperf_ranking lists them in order."""
import itertools
import json
import sys

kt, rank, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
best = [e["params"] for e in rank["ranked"][:k]]
names = list(kt["tune_params"])
if names != rank["parameters"]:
    sys.exit(f"check_kt: parameters {names}, the ranking's {rank['parameters']}")
for p in names:
    if sorted(kt["tune_params"][p]) != sorted({b[p] for b in best}):
        sys.exit(f"check_kt: tune_params[{p}] = {kt['tune_params'][p]}")
allowed = []
for combo in itertools.product(*(kt["tune_params"][p] for p in names)):
    env = dict(zip(names, combo))
    if all(eval(r, {}, env) for r in kt["restrictions"]):
        allowed.append(combo)
want = sorted(tuple(b[p] for p in names) for b in best)
if sorted(allowed) != want:
    sys.exit(f"check_kt: the restrictions allow {sorted(allowed)}, the {k} best are {want}")
order = [tuple(w[p] for p in names) for w in kt["wgperf_ranking"]]
if order != [tuple(b[p] for p in names) for b in best]:
    sys.exit("check_kt: wgperf_ranking is not the ranking's order")
print(f"kernel tuner ok: {len(allowed)} configurations")
