"""A field whose source says it is carried from another description ("as
gpus/BASE.json (...): ..." or "estimate: as gpus/BASE.json ...") must hold BASE's
value: the per-SM figures a description shares with the shipped one of its compute
capability stay the same when either is edited."""
import glob
import json
import os
import re
import sys

CARRIED = re.compile(r"^(?:estimate: )?as gpus/([a-z0-9-]+)\.json \(")


def fields(d, path=""):
    for k, v in d.items():
        if isinstance(v, dict) and "value" in v and "source" in v:
            yield path + k, v
        elif isinstance(v, dict):
            yield from fields(v, path + k + ".")


def get(d, path):
    for p in path.split("."):
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


gpus = sys.argv[1]
checked, wrong = 0, []
for path in sorted(glob.glob(os.path.join(gpus, "*.json"))):
    stem = os.path.basename(path)[:-5]
    g = json.load(open(path))
    for key, f in fields({k: v for k, v in g.items() if isinstance(v, dict)}):
        m = CARRIED.match(f["source"])
        if not m:
            continue
        base = json.load(open(os.path.join(gpus, m.group(1) + ".json")))
        b = get(base, key)
        checked += 1
        if b is None or b.get("value") != f["value"]:
            wrong.append("%s: %s is %r, gpus/%s.json has %r" % (stem, key, f["value"], m.group(1), b and b.get("value")))
for w in wrong:
    print(w)
print("%d carried fields, %d differ from their base" % (checked, len(wrong)))
sys.exit(1 if wrong else 0)
