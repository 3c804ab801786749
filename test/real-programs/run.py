#!/usr/bin/env python3
"""Coverage of real CUDA programs (test/real-programs/manifest.json; docs/cuda.md).

Every .cu file of ../shared/data/real-programs/ that its program's Makefile compiles is
extracted as a user would: `wgperf extract FILE` run in the Makefile's folder with the
Makefile's -I and -D flags and nothing else.  For each file the manifest says what must
happen:
  - "kernels": the model holds exactly these kernels, and `wgperf predict --json` with
    the launch written for each answers a positive, finite time;
  - "no_kernels": the file compiles and defines no kernel (extract says so, exit 1);
  - "fails": extract fails with this cause (the error output holds "match"): a known
    failure, listed in the docs; if it starts to pass, the manifest must say so.
Fragments (files another file of the program #includes, which its Makefile does not
compile by themselves) either extract or fail with an error that names the file to
extract instead.  Every .cu file under the root must be in the manifest (as a file, a
fragment or one no Makefile compiles), and at least min_extract_percent of the files a
Makefile compiles must extract: a check fails when coverage drops below either.

  python3 test/real-programs/run.py [--bin build/bin] [--root DIR] [--jobs 2]
                                    [--only SUBSTRING] [--sample] [--markdown] [--standins] [--ptxas]

--sample (the ctest test real-programs.coverage) checks one file of each kind instead
of all of them, by this rule: the files are grouped by suite (the first folder: rodinia-cuda,
polybench-cuda), outcome (kernels, no_kernels, fails), whether the Makefile gives flags,
whether a flag names a variable (${SDK_COMMON}), and whether a Makefile compiles the file;
the first file of each group in the manifest's order is checked, and the first fragment of
each suite.  The check that every .cu file is in the manifest still covers the whole
tree; the min_extract_percent check needs the whole set (no --sample).

--root defaults to ../shared/data/real-programs beside the project.  --markdown prints
the table of docs/cuda.md; --standins runs the extractions against wgperf's
stand-in headers (WGPERF_CUDA_PATH=) and only reports what extracts (the figure before
real headers).  Registers come from the IR estimate unless --ptxas (the compile for
ptxas doubles the work; lit's tests check that path).  Exit 0 when every check passed, 1 otherwise, 2 on bad usage, 77 (skip)
when the programs or a CUDA toolkit clang 19 reads are missing.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(PROJECT, "scripts"))
import wgp_manifest  # noqa: E402
SKIP = 77


def entry_name(e):
    """A manifest entry's name: DIR/FILE."""
    return e["dir"] + "/" + e["file"]


def load_manifest(path):
    m = wgp_manifest.load(path, "wgperf-real-programs")
    for e in wgp_manifest.each_once(m["files"], entry_name):
        name = entry_name(e)
        outcomes = [k for k in ("kernels", "no_kernels", "fails") if k in e]
        if len(outcomes) != 1:
            raise SystemExit("run.py: %s: give exactly one of kernels, no_kernels, fails" % name)
    if not isinstance(m.get("min_extract_percent"), (int, float)):
        raise SystemExit("run.py: %s: no min_extract_percent" % path)
    return m


def unlisted(m, root):
    """The .cu files under ROOT that the manifest does not name."""
    listed = {entry_name(e) for e in m["files"]}
    listed |= {f["file"] for f in m["fragments"]} | {f["file"] for f in m["not_compiled"]}
    found = set()
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".cu"):
                found.add(os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/"))
    return sorted(found - listed), sorted(listed - found)


def samples_common(cuda_path):
    """The CUDA samples' Common/ folder (the old SDK's common/inc), or None."""
    cands = [os.environ.get("CUDA_SAMPLES_COMMON", ""),
             "/usr/local/share/wgperf/cuda-samples-11.8/Common",  # scripts/install-deps.sh
             "/usr/share/doc/nvidia-cuda-toolkit/examples/Common",  # Debian's nvidia-cuda-samples
             os.path.join(cuda_path, "samples", "common", "inc") if cuda_path else ""]
    for c in cands:
        if c and os.path.isfile(os.path.join(c, "helper_cuda.h")):
            return c
    return None


def expand(flags, variables):
    out = []
    for f in flags:
        for name, value in variables.items():
            f = f.replace("${%s}" % name, value)
        if "${" in f:
            return None  # a variable without a value here
        out.append(f)
    return out


def run(cmd, cwd, env):
    # no time limit of its own: ctest's TIMEOUT (WGPERF_HANG_GUARD_S) is the hang guard
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def launch_args(launch):
    args = []
    if "grid" in launch:
        args += ["--grid", ",".join(map(str, launch["grid"])), "--block", ",".join(map(str, launch["block"]))]
    else:
        args += ["--global", ",".join(map(str, launch["global"])), "--local", ",".join(map(str, launch["local"]))]
    for k, v in sorted(launch.get("args", {}).items()):
        args += ["--arg", "%s=%s" % (k, v)]
    for k, v in sorted(launch.get("buffers", {}).items()):
        args += ["--buffer", "%s=%s" % (k, v)]
    for k, v in sorted(launch.get("local_mem", {}).items()):
        args += ["--local-mem", "%s=%s" % (k, v)]
    if launch.get("nonuniform"):
        args.append("--nonuniform")
    return args


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def sample(files, fragments):
    """One file of each kind (the rule above, --sample), and the first fragment of each suite."""
    seen, picked = set(), []
    for e in files:
        flags = e.get("flags", [])
        kind = (e["dir"].split("/")[0], next(k for k in ("kernels", "no_kernels", "fails") if k in e), bool(flags),
                any("${" in f for f in flags), e.get("makefile", True) is not False)
        if kind not in seen:
            seen.add(kind)
            picked.append(e)
    suites, frags = set(), []
    for f in fragments:
        if f["file"].split("/")[0] not in suites:
            suites.add(f["file"].split("/")[0])
            frags.append(f)
    return picked, frags


def check_file(e, root, wgperf, variables, work, env, standins):
    """One file: (result, detail, kernel count, extracted); result is ok, no-kernels, fails
    or FAIL; extracted says whether the extraction did what the manifest says."""
    r = check_file1(e, root, wgperf, variables, work, env, standins)
    return r if len(r) == 4 else r + (r[0] in ("ok", "no-kernels", "fails"),)


def check_file1(e, root, wgperf, variables, work, env, standins):
    make_dir = os.path.join(root, e["dir"])
    flags = expand(e.get("flags", []), variables)
    if flags is None:
        return "FAIL", "a flag names a variable this machine has no value for: %s" % e.get("flags"), 0
    model = os.path.join(work, re.sub(r"[^A-Za-z0-9_.-]", "_", entry_name(e)) + ".json")
    rc, out, err = run([wgperf, "extract", e["file"], "-o", model] + flags, make_dir, env)
    kernels = [m.group(1) for m in re.finditer(r"^kernel (.*) \(cuda, ", out, re.M)]
    if standins:
        if rc == 0:
            return "ok", "", len(kernels)
        if "no kernels found" in err:
            return "no-kernels", "", 0
        return "fails", first_error(err), 0
    if "fails" in e:
        if rc == 0:
            return "FAIL", "extracts now (%d kernels): update the manifest" % len(kernels), len(kernels)
        if e["fails"]["match"] not in err:
            return "FAIL", "fails differently: %s" % first_error(err), 0
        return "fails", e["fails"]["cause"], 0
    if "no_kernels" in e:
        if rc == 1 and "no kernels found" in err:
            return "no-kernels", "", 0
        return "FAIL", "expected no kernels, got exit %d: %s" % (rc, first_error(err) or kernels), len(kernels)
    if rc != 0:
        return "FAIL", "extract failed: %s" % first_error(err), 0
    want = sorted(e["kernels"])
    if sorted(kernels) != want:
        return "FAIL", "kernels %s, the manifest lists %s" % (sorted(kernels), want), len(kernels)
    for name in want:
        launch = e["kernels"][name]
        prc, pout, perr = run([wgperf, "predict", model, "--kernel", name, "--json"] + launch_args(launch), make_dir, env)
        if prc != 0:
            return "FAIL", "predict %s: %s" % (name, first_error(perr)), len(kernels), True
        try:
            t = json.loads(pout)["time_us"]
        except (ValueError, KeyError, TypeError):
            return "FAIL", "predict %s: no time in its --json output" % name, len(kernels), True
        if not (isinstance(t, (int, float)) and math.isfinite(t) and t > 0):
            return "FAIL", "predict %s: time %r" % (name, t), len(kernels), True
    return "ok", "", len(kernels)


def check_fragment(fr, root, wgperf, work, env):
    path = os.path.join(root, fr["file"])
    model = os.path.join(work, "fragment-" + re.sub(r"[^A-Za-z0-9_.-]", "_", fr["file"]) + ".json")
    rc, out, err = run([wgperf, "extract", os.path.basename(path), "-o", model], os.path.dirname(path), env)
    if rc == 0 or (rc == 1 and "no kernels found" in err):
        return "ok", "compiles by itself"
    want = "extract %s instead" % fr["extract"]
    if want not in err:
        return "FAIL", "its error does not say '%s': %s" % (want, first_error(err))
    return "ok", "points at %s" % fr["extract"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(PROJECT, "build", "bin"))
    ap.add_argument("--root", default=os.path.join(os.path.dirname(PROJECT), "shared", "data", "real-programs"))
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--sample", action="store_true", help="one file of each kind (the rule above)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--standins", action="store_true")
    ap.add_argument("--ptxas", action="store_true", help="count registers with ptxas (slower)")
    a = ap.parse_args()
    m = load_manifest(a.manifest)
    wgperf = os.path.abspath(os.path.join(a.bin, "wgperf"))
    if not os.access(wgperf, os.X_OK):
        print("run.py: %s: no wgperf there (--bin)" % wgperf, file=sys.stderr)
        return 2
    if not os.path.isdir(a.root):
        print("run.py: skipped: %s: no real programs here (--root)" % a.root)
        return SKIP
    env = dict(os.environ)
    if not a.ptxas:
        env["WGPERF_PTXAS"] = ""  # registers from the IR estimate: half the compiles
    if a.standins:
        env["WGPERF_CUDA_PATH"] = ""
    version = subprocess.run([wgperf, "--version"], capture_output=True, text=True, env=env).stdout
    toolkit = re.search(r"^CUDA headers: CUDA \S+ at (\S+)", version, re.M)
    if not toolkit and not a.standins:
        print("run.py: skipped: no CUDA toolkit that clang 19 reads (scripts/install-deps.sh sets up "
              "Debian's CUDA 11.8); wgperf --version says: %s" % " / ".join(version.strip().splitlines()[1:]))
        return SKIP
    variables = {}
    common = samples_common(toolkit.group(1) if toolkit else "")
    if common:
        variables["SDK_COMMON"] = common
    files = [e for e in m["files"] if a.only in entry_name(e)]
    fragments = [f for f in m["fragments"] if a.only in f["file"]]
    if a.sample:
        files, fragments = sample(files, fragments)
    failed = 0
    if not a.only:
        extra, gone = unlisted(m, a.root)
        for name in extra:
            print("%-60s FAIL not in the manifest: say what extracting it must do" % name)
        for name in gone:
            print("%-60s FAIL in the manifest but not under %s" % (name, a.root))
        failed += len(extra) + len(gone)
    with tempfile.TemporaryDirectory(prefix="wgperf-real-") as work:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            results = list(pool.map(lambda e: check_file(e, a.root, wgperf, variables, work, env, a.standins), files))
            frag = [] if a.standins else list(pool.map(lambda f: check_fragment(f, a.root, wgperf, work, env), fragments))
    counted = [(e, r) for e, r in zip(files, results) if e.get("makefile", True) is not False]
    extracted = sum(1 for e, r in counted if r[3] and r[0] != "fails")
    kernels = sum(r[2] for e, r in zip(files, results) if r[0] == "ok")
    if a.markdown:
        print("| file | flags (the Makefile's) | kernels | result |")
        print("|---|---|---|---|")
    for e, (res, detail, nk, _) in zip(files, results):
        name = entry_name(e)
        if a.markdown:
            flags = " ".join(e.get("flags", [])) or "none"
            note = "" if e.get("makefile", True) is not False else " (no Makefile here)"
            shown = {"ok": "extracts, %d predicted" % nk, "no-kernels": "compiles, defines no kernel",
                     "fails": "fails: " + detail}.get(res, res + ": " + detail)
            print("| `%s`%s | `%s` | %s | %s |" % (name, note, flags, nk if res == "ok" else "-", shown))
        elif res == "FAIL" or a.standins:
            print("%-60s %s %s" % (name, res, detail))
        failed += res == "FAIL"
    for f, (res, detail) in zip(fragments, frag):
        if res == "FAIL":
            print("%-60s FAIL (fragment) %s" % (f["file"], detail))
            failed += 1
    what = "stand-in headers" if a.standins else "CUDA headers of %s" % (toolkit.group(1) if toolkit else "?")
    summary = ("%s%d of %d files its Makefile compiles extract (%.1f%%) against the %s; %d kernels %s; "
               "%d fragments checked; %d failed checks" %
               ("sample (one file of each kind, --sample): " if a.sample else "",
                extracted, len(counted), 100.0 * extracted / max(1, len(counted)), what, kernels,
                "found" if a.standins else "predicted", len(frag), failed))
    print(("\n" if a.markdown else "") + summary)
    percent = 100.0 * extracted / max(1, len(counted))
    if not a.only and not a.sample and not a.standins and percent < m["min_extract_percent"]:
        print("FAIL: %.1f%% extract, below the manifest's min_extract_percent %s" % (percent, m["min_extract_percent"]))
        failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
