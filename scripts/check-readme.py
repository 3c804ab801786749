#!/usr/bin/env python3
"""Runs what the README tells a newcomer to type, as they would type it.

check-readme.py README.md --src SRC --bin BIN --plugin LIBWGPERF.so

Every ```sh block after the first two (the install-and-build commands, which
CI itself runs) is run with bash, block after block in one scratch directory
laid out like a checkout with its build: build/bin and build/lib point at the
tools and the plugin under test, examples/, include/, test/ and gpus/ at the
source tree. Each command must succeed, and every file the README says a
command writes (--plot FILE, -o FILE, "# writes FILE") must then exist.

Every ``` block of output whose first line is "$ COMMAND" runs COMMAND the same
way and compares the first line of its output with the README's (the rest
depends on the machine: ptxas or not, wall times).

Prints one line per block and exits 1 on the first difference.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def blocks(text):
    """(line number, info string, body) for every fenced block."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if m:
            start = i + 1
            j = start
            while j < len(lines) and lines[j].rstrip() != "```":
                j += 1
            if j == len(lines):
                raise SystemExit("README: unterminated block at line %d" % (i + 1))
            out.append((i + 1, m.group(1), "\n".join(lines[start:j])))
            i = j + 1
        else:
            i += 1
    return out


def written_files(body):
    files = []
    for m in re.finditer(r"(?:--plot|-o)\s+(\S+)", body):
        files.append(m.group(1))
    for m in re.finditer(r"#\s*writes\s+(\S+)", body):
        files.append(m.group(1))
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("readme")
    ap.add_argument("--src", required=True, help="the source tree")
    ap.add_argument("--bin", required=True, help="the directory of the built tools")
    ap.add_argument("--plugin", required=True, help="the built libwgperf.so")
    a = ap.parse_args()
    try:
        text = open(a.readme, encoding="utf-8").read()
    except OSError as e:
        print("check-readme: %s: %s" % (a.readme, e.strerror))
        return 2
    name = os.path.basename(a.readme)
    bl = blocks(text)
    sh = [b for b in bl if b[1] == "sh"]
    if len(sh) < 2 or not all(b[2].startswith("bash scripts/install-deps.sh") for b in sh[:2]):
        print("check-readme: %s: the first two sh blocks are not the install-and-build commands" % a.readme)
        return 1
    with tempfile.TemporaryDirectory(prefix="wgperf-readme-") as tmp:
        os.makedirs(os.path.join(tmp, "build"))
        os.symlink(os.path.abspath(a.bin), os.path.join(tmp, "build", "bin"))
        os.symlink(os.path.dirname(os.path.abspath(a.plugin)), os.path.join(tmp, "build", "lib"))
        for d in ("examples", "include", "test", "gpus"):
            os.symlink(os.path.join(os.path.abspath(a.src), d), os.path.join(tmp, d))
        env = dict(os.environ)
        env.pop("WGPERF_OUTPUT", None)
        ran = 0
        for line, info, body in bl:
            if info == "sh" and body.startswith("bash scripts/install-deps.sh"):
                continue
            if info == "sh":
                r = subprocess.run(["bash", "-e", "-c", body], cwd=tmp, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                if r.returncode != 0:
                    print("%s:%d: the block failed (exit %d):\n%s" % (name, line, r.returncode, r.stdout[-3000:]))
                    return 1
                for f in written_files(body):
                    if not os.path.isfile(os.path.join(tmp, f)):
                        print("%s:%d: the block should have written %s" % (name, line, f))
                        return 1
                print("%s:%d: sh block ran, %d lines" % (name, line, body.count("\n") + 1))
                ran += 1
            elif body.startswith("$ "):
                first = body.split("\n")
                cmd = first[0][2:]
                r = subprocess.run(["bash", "-e", "-c", cmd], cwd=tmp, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                got = r.stdout.split("\n")[0] if r.stdout else ""
                want = first[1] if len(first) > 1 else ""
                if r.returncode != 0 or got != want:
                    print("%s:%d: '%s' (exit %d) printed\n  %s\nwhere the README shows\n  %s"
                          % (name, line, cmd, r.returncode, got, want))
                    return 1
                for f in written_files(cmd):
                    if not os.path.isfile(os.path.join(tmp, f)):
                        print("%s:%d: '%s' should have written %s" % (name, line, cmd, f))
                        return 1
                print("%s:%d: output block's command ran, first line as shown" % (name, line))
                ran += 1
        print("check-readme: %d blocks ran as the README shows" % ran)
    return 0


if __name__ == "__main__":
    sys.exit(main())
