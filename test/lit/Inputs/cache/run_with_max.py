"""run_with_max.py FACTOR CACHE CMD...: runs CMD with WGPERF_CACHE_MAX_MB set to
FACTOR times the bytes the entries of the model cache CACHE hold now (the
files of its XX/ folders), for model-cache.test's eviction."""
import os
import subprocess
import sys

factor, cache, cmd = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
total = 0
for sub in os.listdir(cache):
    d = os.path.join(cache, sub)
    if len(sub) == 2 and os.path.isdir(d):
        total += sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
env = dict(os.environ, WGPERF_CACHE_MAX_MB="%.9f" % (factor * total / 2**20))
sys.exit(subprocess.call(cmd, env=env))
