"""Prints what tune-kt-defines.test checks of the unroll space's ranking
(argv[1], wgtune --json) against the same kernel without its pragma (argv[2])."""
import json
import sys

d = json.load(open(sys.argv[1]))
none = json.load(open(sys.argv[2]))
by = {r["params"]["loop_unroll_factor_k"]: r for r in d["ranked"]}
print("distinct", d["distinct"], "ranked", len(d["ranked"]))
print("0 is the kernel without the pragma:", by[0]["time_us"] == none["ranked"][0]["time_us"])
print("0 differs from 1:", by[0]["time_us"] != by[1]["time_us"])
