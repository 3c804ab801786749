"""Recomputes the baselines' figures of wgperf-validate --kernel-tuner from
its --csv (one row per configuration) and checks them against its --json:
MAPE, Spearman rho and the pick of BSP (lambda fitted on one configuration,
whose error must then be 0) and of the roofline.

usage: check_kt_baselines.py V.csv V.json
"""
import csv
import importlib.util
import json
import os
import sys


# the rank correlation of scripts/kt-eval.py (Python, independent of the C code under test)
_spec = importlib.util.spec_from_file_location(
    "kt_eval", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts", "kt-eval.py"))
_kt_eval = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kt_eval)
spearman = _kt_eval.spearman


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["our_rank"]]
summary = json.load(open(sys.argv[2]))["baselines"]
bad = []
for name, col in (("bsp", "bsp_ms"), ("roofline", "roofline_ms")):
    have = [r for r in rows if r[col]]
    p = [float(r[col]) for r in have]
    m = [float(r["measured_ms"]) for r in have]
    f = summary[name]
    if f["configurations"] != len(have) or not have:
        bad.append("%s: %s configurations in the JSON, %d in the CSV" % (name, f["configurations"], len(have)))
        continue
    mape = 100 * sum(abs(a - b) / b for a, b in zip(p, m)) / len(p)
    if not close(mape, f["mape"]):
        bad.append("%s: MAPE %.6g from the CSV, %.6g in the JSON" % (name, mape, f["mape"]))
    if f["spearman"] is None:
        if len(set(p)) > 1:
            bad.append("%s: no rho in the JSON though its times vary" % name)
    elif not close(spearman(p, m), f["spearman"]):
        rho = spearman(p, m)
        bad.append("%s: rho %.6g from the CSV, %.6g in the JSON" % (name, rho, f["spearman"]))
    pick = min(range(len(p)), key=lambda i: (p[i], int(have[i]["index"])))
    if not close(m[pick] / min(m), f["pick_ratio"]):
        bad.append("%s: pick %.6g from the CSV, %.6g in the JSON" % (name, m[pick] / min(m), f["pick_ratio"]))
fit = [r for r in rows if r["index"] == str(summary["bsp"]["fitted_on_index"])]
if len(fit) != 1 or not close(float(fit[0]["bsp_ms"]), float(fit[0]["measured_ms"])):
    bad.append("bsp: the configuration lambda was fitted on does not predict its own measurement")
print("\n".join(bad) if bad else "baselines ok")
sys.exit(1 if bad else 0)
