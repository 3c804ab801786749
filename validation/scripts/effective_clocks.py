#!/usr/bin/env python3
"""The SM clock each GPU of amaris-nvprof ran at, from nvprof's own counters.

nvprof's elapsed_cycles_sm counts SM cycles summed over the SMs; divided by the
SM count and the kernel's duration it gives the clock the SMs ran at.  GPU Boost
moves that clock away from deviceQuery's max_clock_rate_mhz (the GTX Titan ran
at 836 MHz against 876, the GTX 750 at 1166 against 1110), and every cycle
figure of a prediction turns into time through it, so the shipped Kepler and
Maxwell descriptions carry the measured clock (gpus/*.json chip.core_clock_mhz).

Only the four matMul kernels count, launches of 1 ms or more: every SM is busy
from start to end there (memory-bound kernels leave SMs idle at the end, which
elapsed_cycles_sm does not count at the same rate).

  effective_clocks.py MEASUREMENTS.csv GPUS.csv            print the table
  effective_clocks.py MEASUREMENTS.csv GPUS.csv --check DIR
      also compare with DIR/<description>.json; exit 1 when one differs by
      more than 0.05 MHz, 77 when the measurements are missing
"""
import csv
import json
import os
import statistics
import sys

# the amaris-nvprof GPU folder names and the shipped descriptions
DESCRIPTIONS = {
    "GTX-680": "gtx-680",
    "GTX-750": "gtx-750",
    "GTX-980": "gtx-980",
    "Quadro": "quadro-k5200",
    "Tesla-K40": "tesla-k40",
    "Titan": "titan",
    "TitanBlack": "titan-black",
}
MIN_DURATION_S = 1e-3


def clocks(measurements, gpus):
    sms = {}
    with open(gpus, newline="") as f:
        for r in csv.DictReader(f):
            sms[r["gpu"]] = (int(r["sm_count"]), float(r["max_clock_rate_mhz"]))
    seen = {}
    with open(measurements, newline="") as f:
        for r in csv.DictReader(f):
            if not r["kernel"].startswith("matMul") or r["gpu"] not in sms:
                continue
            try:
                cycles, dur = float(r["elapsed_cycles_sm"]), float(r["duration_s"])
            except ValueError:
                continue
            if dur < MIN_DURATION_S or cycles <= 0:
                continue
            seen.setdefault(r["gpu"], []).append(cycles / sms[r["gpu"]][0] / dur / 1e6)
    out = {}
    for gpu, v in seen.items():
        v.sort()
        out[gpu] = (statistics.median(v), len(v), v[len(v) // 4], v[3 * len(v) // 4], sms[gpu][1])
    return out


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--check"):
        print(__doc__, file=sys.stderr)
        return 2
    if not os.path.exists(argv[1]) or not os.path.exists(argv[2]):
        print("effective_clocks.py: %s or %s not found: nothing to check" % (argv[1], argv[2]))
        return 77
    table = clocks(argv[1], argv[2])
    bad = 0
    print("%-11s %9s %6s %15s %9s %12s" % ("gpu", "MHz", "n", "quartiles", "nominal", "description"))
    for gpu in sorted(table):
        mhz, n, q1, q3, nominal = table[gpu]
        shipped = ""
        if len(argv) == 5 and gpu in DESCRIPTIONS:
            path = os.path.join(argv[4], DESCRIPTIONS[gpu] + ".json")
            with open(path) as f:
                value = json.load(f)["chip"]["core_clock_mhz"]["value"]
            shipped = "%.1f" % value
            if abs(value - round(mhz, 1)) > 0.05:
                print("%s: chip.core_clock_mhz is %s, the measurements give %.1f MHz" % (path, value, mhz))
                bad += 1
        print("%-11s %9.1f %6d %7.0f-%-7.0f %9.0f %12s" % (gpu, mhz, n, q1, q3, nominal, shipped))
    if len(argv) == 5:
        missing = sorted(set(DESCRIPTIONS) - set(table))
        for gpu in missing:
            print("%s: no matMul launch of 1 ms or more with elapsed_cycles_sm" % gpu)
        bad += len(missing)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
