"""Checks for test/lit/kt-repredict.test: `same A B` (the same configurations, each with
the same time and baselines, in the same order, for the same GPU); `failed A B` (a summary of what B, made from A, lists as failed)."""
import json
import sys

a, b = (json.load(open(p)) for p in sys.argv[2:4])
if sys.argv[1] == "same":
    ta = [(r["index"], r["time_us"]) for r in a["ranked"]]
    tb = [(r["index"], r["time_us"]) for r in b["ranked"]]
    if [i for i, _ in ta] != [i for i, _ in tb]:
        sys.exit("different configurations or order: %s / %s" % (ta, tb))
    for (i, x), (_, y) in zip(ta, tb):
        if abs(x - y) > 1e-6 * max(1.0, abs(x)):
            sys.exit("configuration %d: %r against %r" % (i, x, y))
    # the baselines of the GPU each ranking is for
    for ra, rb in zip(a["ranked"], b["ranked"]):
        ba, bb = ra.get("baselines", {}), rb.get("baselines", {})
        for k in ("bsp_lambda1_us", "roofline_us"):
            if k not in ba or k not in bb or abs(ba[k] - bb[k]) > 1e-6 * max(1.0, abs(ba[k])):
                sys.exit("configuration %d: baseline %s %r against %r" % (ra["index"], k, ba.get(k), bb.get(k)))
    if a["gpu"] != b["gpu"]:
        sys.exit("GPU %r against %r" % (a["gpu"], b["gpu"]))
    print("same: %d on %s" % (len(ta), a["gpu"]))
else:
    before = {c["index"] for c in a["cannot_run"]}
    failed = [c for c in b["cannot_run"] if c["index"] not in before]
    print("%d failed, %d cannot run, %d in all" % (len(failed), len(b["cannot_run"]) - len(failed), b["configurations"]))
    print(failed[0]["reason"] if failed else "")
