#!/usr/bin/env python3
"""make_kt_cache.py RANK.json OUT [--gzip]: a Kernel Tuner cache file for the space of wgtune's
--json RANK.json whose measurements are known functions of the predictions, so that
wgperf-validate --kernel-tuner's figures are exact whatever the model predicts: every ranked
configuration measured at twice its prediction (MAPE 50%, geometric-mean error 100%, rho 1, the
predicted best is the measured best) but the slowest, which failed at launch
(RuntimeFailedConfig); those wgtune cannot run failed to compile (CompilationFailedConfig), but the
first, which the cache lacks."""
import gzip
import json
import sys

rank = json.load(open(sys.argv[1]))
names = rank["parameters"]
entries = {}
ranked = rank["ranked"]
for i, e in enumerate(ranked):
    t = "RuntimeFailedConfig" if i == len(ranked) - 1 else 2 * e["time_us"] / 1e3
    entries[e["index"]] = dict(e["params"], time=t, compile_time=100.0, benchmark_time=20.0, framework_time=5.0)
for i, e in enumerate(rank["cannot_run"]):
    if i == 0:
        continue
    entries[e["index"]] = dict(e["params"], time="CompilationFailedConfig", compile_time=50.0, benchmark_time=0,
                               framework_time=1.0)
cache = {",".join(str(v[n]) for n in names): v for _, v in sorted(entries.items())}
doc = {"device_name": "NVIDIA GeForce RTX 3090", "kernel_name": rank["kernel"], "tune_params_keys": names,
       "cache": cache}
text = json.dumps(doc)
if "--gzip" in sys.argv:
    with gzip.open(sys.argv[2], "wt") as f:
        f.write(text)
else:
    open(sys.argv[2], "w").write(text)
