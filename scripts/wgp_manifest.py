"""wgp_manifest.py - reading the JSON manifests of corpus/run.py and
test/real-programs/run.py, which both import it (from scripts/).

load() opens a manifest and checks its format and version; each_once() walks
its entries, refusing a name listed twice.  Both exit with a message that names
the file or the entry (SystemExit), as the scripts' own checks do.
"""
import json


def load(path, fmt, version=1):
    """The manifest at PATH; exits unless its "format" is FMT and "version" VERSION."""
    with open(path) as f:
        m = json.load(f)
    if m.get("format") != fmt or m.get("version") != version:
        raise SystemExit("run.py: %s: not a %s manifest of version %d" % (path, fmt, version))
    return m


def each_once(entries, name_of, what=""):
    """ENTRIES in order; exits at the first whose name (NAME_OF(entry)) an
    earlier one had: "run.py: WHATNAME listed twice"."""
    seen = set()
    for e in entries:
        name = name_of(e)
        if name in seen:
            raise SystemExit("run.py: %s%s listed twice" % (what, name))
        seen.add(name)
        yield e
