#!/usr/bin/env bash
# ctest opencl.measure_plan: a tuning space's configurations timed from a plan on this
# machine's OpenCL device (PoCL on a CPU in CI), as a lent GPU would time the Kernel
# Tuner spaces: wgtune --plan writes the plan of an OpenCL space's sample,
# wgperf-measure --plan times it into a Kernel Tuner cache file, wgperf-validate
# --kernel-tuner reads that file against wgtune's ranking of the same sample. Checks
# the cache file's shape (keys in tune_params_keys order, a mean of positive times,
# not_a_gpu on a CPU), that a configuration the compiler refuses is
# CompilationFailedConfig and the run goes on, and that a stopped run leaves a valid
# file. A CPU's timings: a functional test only.
# Exits 77 (ctest: skipped) only when no OpenCL platform exists.
#   measure-plan.sh BIN_DIR SOURCE_DIR WORK_DIR
set -u
bin=${1:?usage: measure-plan.sh BIN_DIR SOURCE_DIR WORK_DIR}
src=${2:?usage}
work=${3:?usage}
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
export POCL_CACHE_DIR=$work/pocl-cache
in=$src/test/lit/Inputs/tune

"$bin/wgtune" "$in/scale.cl" --space "$in/scale_cl.json" --sample 8 --seed 3 --plan "$work/p.tsv" ||
  fail "wgtune --plan"
"$bin/wgperf-measure" --plan "$work/p.tsv" -o "$work/cache.json" --repeats 3 2>"$work/m.err"
rc=$?
cat "$work/m.err"
if [ $rc = 1 ] && grep -q "no OpenCL platform" "$work/m.err"; then
  echo "SKIP: no OpenCL platform on this machine (install pocl-opencl-icd, or a GPU driver)"
  exit 77
fi
[ $rc = 0 ] || fail "wgperf-measure --plan exited $rc"
python3 - "$work/cache.json" "$work/p.tsv" <<'PY' || fail "the cache file"
import json, sys
d = json.load(open(sys.argv[1]))
plan = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.startswith("config\t")]
assert d["tune_params_keys"] == ["block_size_x", "elems", "variant"], d["tune_params_keys"]
assert d["tune_params"]["elems"] == [1, 2, 4], d["tune_params"]
assert d["objective"] == "time" and d["kernel_name"] == "scale"
w = d["wgperf"]
assert w["planned"] == 8 and w["measured"] == 8 and w["repeats"] == 3, w
cache = d["cache"]
assert len(cache) == 8, len(cache)
for f in plan:
    key = ",".join(f[6:])
    e = cache[key]
    assert [e["block_size_x"], e["elems"], e["variant"]] == [int(v) for v in f[6:]], (key, e)
    assert len(e["times"]) == 3 and all(t > 0 for t in e["times"]), e
    assert abs(e["time"] - sum(e["times"]) / 3) <= 1e-6 * e["time"], e
    assert e["compile_time"] >= 0 and e["benchmark_time"] > 0, e
print("cache file: %d configurations, keys and means right, not_a_gpu %s" % (len(cache), w["not_a_gpu"]))
PY
if grep -q 'not a GPU' "$work/m.err"; then
  grep -q '"not_a_gpu": true' "$work/cache.json" || fail "a CPU's cache file must say not_a_gpu"
fi
# the comparison with the ranking of the same sample (a CPU's times: only that it reads them all)
"$bin/wgperf-validate" --kernel-tuner "$work/cache.json" --space "$in/scale_cl.json" "$in/scale.cl" --gpu h200 \
  --sample 8 --seed 3 --registers estimate --jobs 2 >"$work/v.out" 2>"$work/v.err" || fail "wgperf-validate: $(cat "$work/v.err")"
cat "$work/v.out"
grep -q 'predicted and measured: [1-8]$' "$work/v.out" || fail "wgperf-validate found no configuration of the cache"
grep -q 'not in the cache' "$work/v.out" && fail "a planned configuration is missing from the cache"
if grep -q '"not_a_gpu": true' "$work/cache.json"; then
  grep -q 'which is not a GPU' "$work/v.err" || fail "wgperf-validate must say the cache is not a GPU's"
fi

# a configuration the compiler refuses: CompilationFailedConfig, and the run goes on
python3 - "$work/p.tsv" "$work/bad.tsv" <<'PY' || fail "making the plan with a broken configuration"
import sys
lines = open(sys.argv[1]).read().split("\n")
out, done = [], False
for l in lines:
    f = l.split("\t")
    if f[0] == "config" and not done:
        f[-1] = "2 +"  # variant: "#if variant == 2 +" does not preprocess
        done = True
        l = "\t".join(f)
    out.append(l)
open(sys.argv[2], "w").write("\n".join(out))
PY
"$bin/wgperf-measure" --plan "$work/bad.tsv" -o "$work/bad.json" --repeats 1 2>"$work/bad.err" ||
  fail "wgperf-measure --plan must go on past a configuration that does not compile: $(tail -3 "$work/bad.err")"
python3 - "$work/bad.json" <<'PY' || fail "the refused configuration"
import json, sys
c = json.load(open(sys.argv[1]))["cache"]
bad = [e for e in c.values() if e["time"] == "CompilationFailedConfig"]
assert len(bad) == 1 and bad[0]["wgperf_reason"], bad
assert sum(1 for e in c.values() if isinstance(e["time"], float)) == 7, c
print("refused configuration: CompilationFailedConfig, the other 7 timed")
PY

# a budget spent at once: a valid cache file of what was done (here nothing after the first)
"$bin/wgperf-measure" --plan "$work/p.tsv" -o "$work/budget.json" --repeats 1 --budget-s 0.001 2>"$work/b.err" ||
  fail "--budget-s: $(cat "$work/b.err")"
grep -q 'budget-s 0.001 reached' "$work/b.err" || fail "--budget-s: no note"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['wgperf']['planned'] == 8 and len(d['cache']) == d['wgperf']['measured'] < 8" \
  "$work/budget.json" || fail "--budget-s: the cache file"
# the order: the plan's with --in-order, else a fixed shuffle of it (the same every run)
order() { sed -n 's/^wgperf-measure: [0-9]*\/8 scale \(.*\): .*/\1/p' "$1"; }
planned=$(awk -F'\t' '$1 == "config" { print "block_size_x=" $7 " elems=" $8 " variant=" $9 }' "$work/p.tsv")
"$bin/wgperf-measure" --plan "$work/p.tsv" -o "$work/o1.json" --repeats 1 --in-order 2>"$work/o1.err" || fail "--in-order"
[ "$(order "$work/o1.err")" = "$planned" ] || fail "--in-order did not keep the plan's order"
[ "$(order "$work/m.err")" != "$planned" ] || fail "the default order is the plan's, not shuffled"
[ "$(order "$work/m.err" | sort)" = "$(echo "$planned" | sort)" ] || fail "the shuffled order is not the same configurations"
"$bin/wgperf-measure" --plan "$work/p.tsv" -o "$work/o2.json" --repeats 1 2>"$work/o2.err" || fail "a second run"
[ "$(order "$work/o2.err")" = "$(order "$work/m.err")" ] || fail "the shuffle differs between runs"

# the kernel files looked for elsewhere (a plan made on another machine): found by base name, or named
"$bin/wgperf-measure" --plan "$work/p.tsv" -o "$work/kd.json" --repeats 1 --kernel-dir "$in" --jobs 1 2>"$work/kd.err" ||
  fail "--kernel-dir: $(cat "$work/kd.err")"
"$bin/wgperf-measure" --plan "$work/p.tsv" -o "$work/kd2.json" --kernel-dir "$work/nowhere" 2>"$work/kd2.err" &&
  fail "--kernel-dir without the files was taken"
grep -q "nowhere/scale.cl: cannot open (a kernel file of $work/p.tsv" "$work/kd2.err" || fail "--kernel-dir: $(cat "$work/kd2.err")"
echo "PASS"
