#!/usr/bin/env python3
"""accuracy-tables.py - Markdown tables of docs/accuracy.md from wgperf-validate --json.

    build/bin/wgperf-validate DATA.csv --jobs 2 --quiet --json > run.json
    python3 scripts/accuracy-tables.py run.json [per_gpu|per_kernel|counters]...

Prints, for each scope asked (default: per_gpu and per_kernel), one row per GPU or
kernel: rows, MAPE, geometric-mean error, Spearman rho, the launch-shape choice (best
predicted, within 1.05x, mean slowdown) and the two baselines' MAPE; 'counters' prints
each counter's rows, MAPE and rows within 5%. Figures wgperf-validate could not compute
are '-'. The overall line comes first.
"""
import json
import sys


def pct(x, digits=1):
    return "-" if x is None else "%.*f%%" % (digits, x)


def num(x, fmt="%.2f"):
    return "-" if x is None else fmt % x


def shape(sc):
    if not sc or not sc.get("groups"):
        return "-", "-", "-"
    g = sc["groups"]
    return ("%.1f%%" % (100.0 * sc["best_predicted"] / g), "%.1f%%" % (100.0 * sc["within_1_05"] / g),
            num(sc.get("mean_slowdown"), "%.3fx"))


def row(name, s):
    b = s.get("baselines", {})
    best, within, slow = shape(s.get("shape_choice"))
    return "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        name, s["rows"], pct(s["mape"]), pct(s["geomean_rel_error"]), num(s["spearman"]), best, within, slow,
        pct(b.get("bsp", {}).get("mape")), pct(b.get("roofline", {}).get("mape")))


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    d = json.load(open(argv[1]))
    scopes = argv[2:] or ["per_gpu", "per_kernel"]
    for scope in scopes:
        if scope == "counters":
            if not any(s["rows"] for s in d["counters"].values()):
                print("(no counter columns in %s)\n" % d.get("input", "the CSV"))
                continue
            print("| counter | rows | MAPE | within 5% |")
            print("|---|---:|---:|---:|")
            for c, s in d["counters"].items():
                if s["rows"]:
                    print("| `%s` | %d | %s | %.0f%% |" % (c, s["rows"], pct(s["mape"]), 100.0 * s["within_5pct"] / s["rows"]))
            print()
            continue
        what = {"per_gpu": "GPU", "per_kernel": "kernel"}[scope]
        print("| %s | rows | MAPE | geomean | rho | best shape | within 1.05x | mean slowdown | BSP MAPE | roofline MAPE |"
              % what)
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        print(row("all", d["overall"]))
        for name, s in d[scope].items():
            print(row(name, s))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
