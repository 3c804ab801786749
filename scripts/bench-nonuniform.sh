#!/usr/bin/env bash
# Speed benchmark (prints figures; not a test): wgprune whole-space searches of
# 1-D kernels with --nonuniform, 1024 candidate sizes each (1 to 1024
# work-items), from source (.cu), extraction included, over the corpus'
# launch files of one global dimension (their arguments and buffers): wall
# seconds, sizes that can run, analyses, cache analyses, sizes simulated, the
# pruned share, the sizes left out for idle lanes and the best size.  The
# Rodinia programs by default, every corpus program with --all, or the launch
# files whose name contains one of the words given.  With --exact each search
# runs again with --partial-warps (every size searched, the best proven): its
# wall seconds, its best size and the predicted time of the default search's
# best over that of the exact one's.
#   bash scripts/bench-nonuniform.sh [build-dir] [--exact] [--all | WORD...]
set -euo pipefail
cd "$(dirname "$0")/.."
B=build
if [ $# -gt 0 ] && [ -d "$1" ]; then B=$1; shift; fi
exec python3 - "$B/bin/wgprune" "$@" << 'PY'
import glob, json, os, subprocess, sys, time
wgprune, words = sys.argv[1], sys.argv[2:]
exact = "--exact" in words
words = [w for w in words if w != "--exact"]
every = words == ["--all"]
files = sorted(glob.glob("corpus/*/*.launch.json"))
total, n = 0.0, 0
print("wgprune --nonuniform, 1-D launches of corpus/, %d cores, %s" % (os.cpu_count(), time.strftime("%Y-%m-%d")))
print("%-44s %7s %6s %6s %6s %6s %6s %7s %5s" % ("launch file", "wall s", "run", "idle", "anal.", "cache", "sim.", "pruned",
      "best") + ("  %7s %5s %7s" % ("exact s", "best", "ratio") if exact else ""))
worst = 1.0
for f in files:
    launch = json.load(open(f))
    name = os.path.basename(f)
    if len(launch["global"]) != 1:
        continue
    if every or not words:
        if not every and "/rodinia/" not in f:
            continue
    elif not any(w in name for w in words):
        continue
    stem, kernel = name.split(".")[0], name.split(".")[1]
    cmd = [wgprune, os.path.join(os.path.dirname(f), stem + ".cu"), "--kernel", kernel,
           "--global", str(launch["global"][0]), "--nonuniform", "--json"]
    for opt, key in (("--arg", "args"), ("--buffer", "buffers"), ("--local-mem", "local_mem"), ("--trip", "trip")):
        for k, v in launch.get(key, {}).items():
            cmd += [opt, "%s=%s" % (k, v)]
    def search(extra):
        t = time.time()
        p = subprocess.run(cmd + extra, capture_output=True, text=True)
        wall = time.time() - t
        if p.returncode:
            err = p.stderr.strip().splitlines()
            print("%-44s failed: %s" % (name, err[-1] if err else p.returncode))
            return None, wall
        return json.loads(p.stdout), wall
    j, wall = search([])
    if not j:
        continue
    total += wall
    n += 1
    line = "%-44s %7.2f %6d %6d %6d %6d %6d %6.1f%% %5d" % (name, wall, j["candidates_valid"], j["idle_lane_pruned"],
           j["analyses"], j["cache_analyses"], j["simulated"], j["pruned_percent"], j["ranking"][0]["local"][0])
    if exact:
        e, ewall = search(["--partial-warps"])
        if not e:
            continue
        ratio = j["ranking"][0]["time_us"] / e["ranking"][0]["time_us"]
        worst = max(worst, ratio)
        line += "  %7.2f %5d %7.4f" % (ewall, e["ranking"][0]["local"][0], ratio)
    print(line, flush=True)
if n:
    print("%d searches, %.1f s in all" % (n, total) + (", predicted time of the best over the exact best's at most %.4f"
          % worst if exact else ""))
PY
