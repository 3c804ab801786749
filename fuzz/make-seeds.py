#!/usr/bin/env python3
"""Regenerates fuzz/data/probe.json and the seed corpora in fuzz/corpus/.

    python3 fuzz/make-seeds.py [BUILD_DIR] [--only T1,T2]     (default: build; every target)

Seeds are compact JSON made from the project's own models, kernels and GPU
descriptions, plus hand-made adversarial inputs (huge and negative sizes, a
zero work-group size, trip counts near 2^63, division by zero in symbolic
expressions, cycles in the loop nest, ...).  The output is deterministic.
Run from the repository root; needs BUILD_DIR/bin/wgperf (to extract models).
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = sys.argv[1:]
ONLY = None
if "--only" in ARGS:
    i = ARGS.index("--only")
    ONLY = set(ARGS[i + 1].split(","))
    del ARGS[i:i + 2]
BUILD = ARGS[0] if ARGS else os.path.join(ROOT, "build")
WGPERF = os.path.join(BUILD, "bin", "wgperf")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), sort_keys=False)


def extract(src, *flags):
    with tempfile.TemporaryDirectory() as t:
        out = os.path.join(t, "m.json")
        cmd = [WGPERF, "extract", src, "-o", out]
        if flags:
            cmd += ["--"] + list(flags)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT,
                       env=dict(os.environ, WGPERF_PTXAS=""))
        m = json.load(open(out))
    # file names relative to the repository, whatever the checkout path
    return json.loads(json.dumps(m).replace(ROOT + "/", ""))


def single(model, kernel):
    m = copy.deepcopy(model)
    m["kernels"] = [k for k in m["kernels"] if k["name"] == kernel]
    assert m["kernels"], kernel
    return m


def shrink_gpu(g):
    """Sources are required but their text does not matter to the fuzzer."""
    g = copy.deepcopy(g)
    for sec in g.values():
        if isinstance(sec, dict):
            for f in sec.values():
                if isinstance(f, dict) and "source" in f:
                    f["source"] = "s"
                    f.pop("note", None)
                elif isinstance(f, dict):
                    for ff in f.values():
                        if isinstance(ff, dict) and "source" in ff:
                            ff["source"] = "s"
                            ff.pop("note", None)
    return g


seeds = {t: {} for t in ("model", "gpu", "launch_json", "launch_cli", "expr", "estimate", "space", "plan")}


def add(target, name, text):
    if isinstance(text, str):
        text = text.encode()
    seeds[target][name] = text


# ---- models ----------------------------------------------------------------
probe = extract("fuzz/data/probe.cl")
with open(os.path.join(ROOT, "fuzz", "data", "probe.json") if ONLY is None else os.devnull, "w") as f:
    json.dump(probe, f, indent=1)
    f.write("\n")
models = {"probe": probe}
for src, name, flags in [
    ("examples/matmul_tiled.cl", "matmul_tiled", []),
    ("examples/vadd.cu", "vadd_cu", []),
    ("validation/kernels/bitonic.cu", "bitonic", []),
    ("validation/kernels/quicksort.cl", "quicksort", []),
    ("validation/kernels/subSeqMax.cu", "subSeqMax", []),
    ("validation/kernels/matMul_gpu_sharedmem.cu", "matmul_shared", ["-DTW=16"]),
    ("test/lit/stencil3d.cu", "stencil3d", []),
    ("test/lit/switch.cl", "switch", []),
    ("test/lit/spmv-csr.cl", "spmv", []),
    ("test/lit/irreducible.ll", "irreducible", []),
]:
    models[name] = extract(src, *flags)
for f in ("trace_kernels.json", "mem_kernels.json", "pipeline_kernels.json", "minimal.json"):
    models[f[:-5]] = json.load(open(os.path.join(ROOT, "test", "unit", "data", f)))
for name, m in models.items():
    add("model", name, compact(m))

# adversarial models, each a small change to a probe kernel
tri = single(probe, "triangle")
red = single(probe, "reduce")
sten = single(probe, "stencil2d")
adv = {}
m = copy.deepcopy(tri); m["kernels"][0]["loops"][0]["trip_count"] = "9223372036854775807"
m["kernels"][0]["loops"][0]["backedge_count"] = "9223372036854775806"; adv["trip-2p63"] = m
m = copy.deepcopy(tri); m["kernels"][0]["loops"][0]["trip_count"] = "-5"; adv["trip-negative"] = m
m = copy.deepcopy(tri); m["kernels"][0]["loops"][0]["trip_count"] = "(udiv 100 (sub arg.n arg.n))"; adv["trip-div0"] = m
m = copy.deepcopy(tri); m["kernels"][0]["loops"][0]["trip_count"] = "1099511627776"; adv["trip-2p40"] = m
m = copy.deepcopy(tri); m["kernels"][0]["loops"][1]["parent"] = 1; adv["loop-self-parent"] = m
m = copy.deepcopy(tri); lp = m["kernels"][0]["loops"]; lp[0]["parent"] = 2; adv["loop-cycle"] = m
m = copy.deepcopy(sten)
for a in m["kernels"][0]["memory"]:
    a["offset"] = "(sdiv (mul 4 gid.x) (srem arg.n 1))"
adv["offset-div0"] = m
m = copy.deepcopy(sten)
for a in m["kernels"][0]["memory"]:
    a["offset"] = "(mul 9223372036854775807 gid.x)"
adv["offset-huge"] = m
m = copy.deepcopy(red)
for b in m["kernels"][0]["blocks"]:
    if b["branch"]:
        b["branch"]["cond"] = "(urem lid.x 0)"
adv["cond-div0"] = m
m = copy.deepcopy(red); m["kernels"][0]["arrays"] = [
    {"name": "reduce.big", "space": "local", "bytes": 9223372036854775807, "elem_bytes": 4,
     "dims": [2305843009213693951], "initialized": False}]
adv["array-huge"] = m
m = copy.deepcopy(tri); m["kernels"][0]["blocks"][1]["succs"] = [1]; adv["self-loop-block"] = m
m = copy.deepcopy(red); m["kernels"][0]["register_pressure"] = 4000000000; adv["regs-huge"] = m
for name, m in adv.items():
    add("model", "adv-" + name, compact(m))

# ---- GPU descriptions ------------------------------------------------------
gpus = {}
for g in ("h100-sxm", "a100", "tesla-k20", "gtx-750"):
    gpus[g] = shrink_gpu(json.load(open(os.path.join(ROOT, "gpus", g + ".json"))))
    add("gpu", g, compact(gpus[g]))
g = copy.deepcopy(gpus["h100-sxm"]); g["chip"]["warp_size"]["value"] = 1; g["chip"]["sm_count"]["value"] = 1
add("gpu", "adv-warp1", compact(g))
g = copy.deepcopy(gpus["h100-sxm"]); g["chip"]["warp_size"]["value"] = 64
add("gpu", "adv-warp64", compact(g))
g = copy.deepcopy(gpus["h100-sxm"]); g["chip"]["core_clock_mhz"]["value"] = 1e-300
g["memory"]["dram_bandwidth_gbps"]["value"] = 1e308
add("gpu", "adv-extreme-reals", compact(g))
g = copy.deepcopy(gpus["tesla-k20"]); g["limits"]["max_warps_per_sm"]["value"] = 4294967295
add("gpu", "adv-uint-max", compact(g))

# ---- launches --------------------------------------------------------------
launches = {
    "small": {"global": [4096], "local": [128], "args": {"n": 8}, "local_mem": {"scratch": 512}},
    "2d": {"global": [64, 64], "local": [16, 8], "args": {"n": 16}, "buffers": {"a": "4MiB", "b": {"bytes": 4096, "align": 512}},
           "local_mem": {"scratch": "2KiB"}},
    "3d": {"global": [64, 16, 4], "local": [8, 4, 2], "offset": [1, 2, 3], "args": {"n": 7}, "local_mem": {"scratch": 64}},
    "grid": {"grid": [30], "block": [96], "args": {"n": 5}, "local_mem": {"scratch": 384}, "nonuniform": True},
    "nonuniform": {"global": [1000], "local": [64], "args": {"n": -3}, "local_mem": {"scratch": 256}, "nonuniform": True},
    "huge": {"global": [4294967296], "local": [1024], "args": {"n": 40}, "local_mem": {"scratch": 4096}},
    "zero-local": {"global": [1024], "local": [0], "args": {"n": 1}, "local_mem": {"scratch": 4}},
    "negative": {"global": [-1], "local": [-32], "args": {"n": -9223372036854775808}, "local_mem": {"scratch": -1}},
}
for name, l in launches.items():
    add("launch_json", name, compact(l))
add("launch_cli", "small", "--global\n4096\n--local\n128\n--arg\nn=8\n--local-mem\nscratch=512")
add("launch_cli", "cuda", "--grid\n8,4\n--block\n32,8\n--arg\nn=0x10\n--local-mem\nscratch=1KiB\n--buffer\na=1MiB@1024")
add("launch_cli", "3d", "--global\n64,16,4\n--local\n8,4,2\n--offset\n1,2,3\n--arg\nn=7\n--local-mem\nscratch=64\n--nonuniform")
add("launch_cli", "huge", "--global\n4294967296\n--local\n1024\n--arg\nn=40\n--local-mem\nscratch=48KiB")
add("launch_cli", "bad", "--global\n0\n--local\n-1\n--arg\nn\n--buffer\nb=1GiB@3\n--local-mem\nscratch=99999999999999999999")

# ---- expressions -----------------------------------------------------------
exprs = set()


def collect(m):
    for k in m["kernels"]:
        for b in k["blocks"]:
            if b["branch"]:
                exprs.add(b["branch"]["cond"])
        for lp in k["loops"]:
            for key in ("backedge_count", "trip_count", "max_trip_count"):
                if lp.get(key):
                    exprs.add(lp[key])
            for r in lp.get("recurrences", []):
                exprs.add(r["init"]); exprs.add(r["next"])
            for e in lp.get("exits", []):
                exprs.add(e["exit_when"])
        for a in k["memory"]:
            if a.get("offset"):
                exprs.add(a["offset"])


for m in models.values():
    collect(m)
exprs |= {
    "(sdiv:32 -2147483648 -1)", "(udiv 1 0)", "(srem -9223372036854775808 -1)", "(shl:32 1 32)",
    "(add 9223372036854775807 1)", "(mul:nsw:nuw -1 -1)", "(addrec it.L0 1 2 3 4 5 6 7 8)",
    "(abs -9223372036854775808)", "(select (load M3) 5 5)", "(zext:1:64 (trunc:64:1 -1))",
    "(smin:8 127 -128 (sext:8:64 200))", "?large", "(fogt (sitofp arg.x) ?fconst)",
    "(umax:16 lid.x lid.y lid.z grp.x ngrp.y gsz.z goff.x wdim laneid warpsize)",
}
# values: mode byte, then 8 bytes per value
values = [b"\x00", b"\x01" + (2**63 - 1).to_bytes(8, "little") + (2**64 - 1).to_bytes(8, "little"),
          b"\x02" + (7).to_bytes(8, "little") + (0).to_bytes(8, "little") + (2**31).to_bytes(8, "little"),
          b"\x04" + (1).to_bytes(8, "little")]
for i, e in enumerate(sorted(exprs)):
    add("expr", "e%03d" % i, e.encode() + b"\n" + values[i % len(values)])

# ---- estimate: options, launch, model ---------------------------------------


def est(name, opts, launch, model):
    head = ("#" + opts + "\n") if opts else ""
    add("estimate", name, head + compact(launch) + "\n" + compact(model))


small = launches["small"]
for k in probe["kernels"]:
    est("probe-" + k["name"], "", small, single(probe, k["name"]))
est("probe-triangle-2d", "gpu=a100 regs=64", launches["2d"], tri)
est("probe-reduce-3d", "gpu=tesla-k20", launches["3d"], red)
est("probe-gather-hints", "trip=L0:1000 taken=B2:0.25", small, single(probe, "gather"))
est("probe-stencil-grid", "gpu=gtx-750", launches["grid"], sten)
est("probe-stencil-huge", "", launches["huge"], sten)
est("matmul_tiled", "", {"global": [64, 64], "local": [16, 16], "args": {"N": 64}}, models["matmul_tiled"])
est("vadd_cu", "gpu=v100", {"grid": [64], "block": [256], "args": {"n": 16384}}, models["vadd_cu"])
est("stencil3d", "", {"global": [32, 32, 16], "local": [8, 8, 4],
                      "args": {k["name"]: 32 for k in models["stencil3d"]["kernels"][0]["args"] if k["kind"] == "scalar"}},
    models["stencil3d"])
for name in ("trip-2p63", "trip-negative", "trip-div0", "trip-2p40", "loop-self-parent", "loop-cycle",
             "self-loop-block"):
    est("adv-" + name, "", small, adv[name])
for name in ("offset-div0", "offset-huge"):
    est("adv-" + name, "", small, adv[name])
est("adv-cond-div0", "", small, adv["cond-div0"])
est("adv-array-huge", "", small, adv["array-huge"])
est("adv-regs-huge", "", small, adv["regs-huge"])

# ---- space: T1 tuning spaces (fuzz_space.c) -------------------------------
# the lit tests' own spaces (never the third-party ones in ../shared), compact
TUNE = os.path.join(ROOT, "test", "lit", "Inputs", "tune")
for sub in ("", "errors"):
    d = os.path.join(TUNE, sub)
    for f in sorted(os.listdir(d)):
        if f.endswith(".json"):
            with open(os.path.join(d, f)) as fh:
                try:
                    obj = json.load(fh)
                except ValueError:
                    continue  # malformed.json: a JSON seed of its own kind below
            add("space", (sub + "-" if sub else "") + f[:-5], compact(obj))
with open(os.path.join(TUNE, "scale.json")) as fh:
    scale = json.load(fh)


def space(name, params, conds, **spec):
    t = copy.deepcopy(scale)
    t["ConfigurationSpace"]["TuningParameters"] = params
    t["ConfigurationSpace"]["Conditions"] = [{"Expression": c, "Parameters": []} for c in conds]
    t["KernelSpecification"].update(spec)
    add("space", "adv-" + name, compact(t))


def par(name, values):
    return {"Name": name, "Type": "int", "Values": values, "Default": 0}


space("list-equality", [par("a", "[1, 2]")], ["[[0] * 100] * 100 == [[0] * 100] * 100"])
space("late-reject", [par("a", "range(300)"), par("b", "range(300)"), par("c", "range(300)")], ["c < 0"])
space("nested-comp", [par("a", "[x * y for x in range(1, 40) for y in range(1, 40) if x % y == 0]")],
      ["a in [i ** 2 for i in range(30)] or a % 7 == 3"])
space("grid-expr", [par("block_size_x", "[32, 64, 96]"), par("t", "[1, 3]")], ["block_size_x * t <= 192"],
      LocalSize={"X": "block_size_x", "Y": "max(t)", "Z": "1"}, GridDivX=["block_size_x", "t"],
      ProblemSize=["2 ** 20 + 1", 3])
space("floats", [par("a", "[0.5, 1.5, 2.0]"), par("b", "[True, False, None]")], ["a * 2 > 1"])
ktt = copy.deepcopy(scale["KernelSpecification"]["Arguments"])  # KTT's schema: custom types, data from elsewhere
ktt[0].update({"Type": "custom", "TypeSize": 12})
ktt[1].update({"FillType": "BinaryRaw", "DataSource": "in.bin"})
ktt.insert(2, {"Name": "coeffs", "Type": "float", "MemoryType": "Symbol", "Size": 16, "FillType": "Random"})
space("ktt-args", [par("block_size_x", "[32, 64]")], [], Arguments=ktt)
space("ktt-typenames", [par("block_size_x", "[32, 64]")], [], KernelTypeNames=["float", "4", "unsigned int"])
add("space", "adv-not-an-object", "[1, 2, 3]")
add("space", "adv-truncated", compact(scale)[:200])

# ---- plan: measurement plans (fuzz_plan.c) --------------------------------
# wgtune --plan of the lit tests' own spaces (file paths relative to the
# repository), and plans broken the ways a hand edit or a cut transfer breaks them
def plan_of(space, *opts):
    out = subprocess.run([os.path.join(BUILD, "bin", "wgtune"), "--space", space, "--plan", "-"] + list(opts),
                         check=True, capture_output=True, cwd=ROOT).stdout.decode()
    shared = os.path.realpath(os.path.join(ROOT, "..", "shared"))
    return out.replace(shared + "/", "../shared/").replace(ROOT + "/", "")


tune = os.path.join(ROOT, "test", "lit", "Inputs", "tune")
p_cl = plan_of(os.path.join(tune, "scale_cl.json"), "--sample", "6", "--seed", "3")
p_cu = plan_of(os.path.join(tune, "scale.json"), "--sample", "3")
p_gemm = plan_of(os.path.join(tune, "gemm.json"), "--sample", "4")
add("plan", "scale-cl", p_cl)
add("plan", "scale-cu", p_cu)
add("plan", "gemm", p_gemm)
lines = p_cl.split("\n")
add("plan", "adv-cut", "\n".join(lines[:-3]))
add("plan", "adv-crlf", p_cl.replace("\n", "\r\n"))
add("plan", "adv-fields", p_cl.replace("\t0,0\t", "\t0\t", 1))
add("plan", "adv-zero-grid", p_cl.replace("config\t", "config\t", 1).replace(",1,1\t", ",0,1\t", 1))
add("plan", "adv-huge", p_cl.replace("4194304", "18446744073709551615"))
add("plan", "adv-types", p_cl.replace("\tfloat\t", "\thalf3\t").replace("\tint32\t", "\tbfloat16\t"))
add("plan", "adv-many-params", "wgperf-plan\t1\nkernel\tk\nlanguage\tcuda\nfile\tk.cu\n" +
    "".join("param\tp%d\t1\n" % i for i in range(70)) + "configurations\t0\t0\n")
add("plan", "adv-version", p_cu.replace("wgperf-plan\t1", "wgperf-plan\t9"))
# Kernel Tuner's loop_unroll_factor rules (kt_source): a CUDA parameter at 0, 1 and 4
p_unroll = plan_of(os.path.join(tune, "kt", "unroll.json"))
add("plan", "kt-unroll", p_unroll)
add("plan", "adv-param-name", p_unroll.replace("param\tloop_unroll_factor_k", "param\tloop unroll", 1))

# ---- write -----------------------------------------------------------------
for target, files in seeds.items():
    if ONLY is not None and target not in ONLY:
        continue
    d = os.path.join(CORPUS, target)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    print("%-12s %3d seeds, %7d bytes" % (target, len(files), sum(len(v) for v in files.values())))
