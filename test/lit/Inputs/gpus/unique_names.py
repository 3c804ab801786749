"""Every name a shipped GPU description goes by (file name, identity.name with or
without 'NVIDIA', identity.aliases), compared as wgp_gpu_find compares them (case,
'-', '_' and spaces ignored), must name one description only."""
import glob
import json
import os
import sys


def norm(s):
    return "".join(c.lower() for c in s if c not in "-_ \t")


owner, clashes = {}, []
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.json")))
for path in files:
    stem = os.path.basename(path)[:-5]
    ident = json.load(open(path))["identity"]
    name = norm(ident["name"]["value"])
    names = {norm(stem), name, name[6:] if name.startswith("nvidia") else name}
    names |= {norm(a) for a in ident.get("aliases", {}).get("value", [])}
    for n in sorted(names):
        if n in owner and owner[n] != stem:
            clashes.append("'%s' names %s and %s" % (n, owner[n], stem))
        owner.setdefault(n, stem)
for c in clashes:
    print(c)
print("%d descriptions, %d names, %d clashes" % (len(files), len(owner), len(clashes)))
sys.exit(1 if clashes else 0)
