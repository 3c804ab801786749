#!/usr/bin/env python3
"""Drives wgperf-cc (driver/cc_server.cpp) with clang -E requests, one per
-D set given, and checks each text and its dependencies against the same
command run as a clang process.  Prints, per request, the server's status and
whether the text was made with the precompiled -include files ("served"), or
the first difference.

  ppserver.py WGPERF_CC CLANG WORKDIR SOURCE 'CLANG FLAGS' 'DEFINES' ['DEFINES'...]
"""
import os
import shlex
import subprocess
import sys


def deps(path):
    """The prerequisites of the make rule clang -MD wrote (a set)."""
    text = open(path).read().replace("\\\n", " ")
    rule = text.split(": ", 1)[1] if ": " in text else ""
    words, w, i = set(), "", 0
    while i < len(rule):
        c = rule[i]
        if c == "\\" and i + 1 < len(rule) and rule[i + 1] == " ":
            w += " "
            i += 2
            continue
        if c == "$" and i + 1 < len(rule) and rule[i + 1] == "$":
            w += "$"
            i += 2
            continue
        if c.isspace():
            if w:
                words.add(w)
            w = ""
        else:
            w += c
        i += 1
    if w:
        words.add(w)
    return words


def main():
    cc, clang, work, source, flags = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    pchdir = os.path.join(work, "pch")
    os.makedirs(pchdir, exist_ok=True)
    server = subprocess.Popen([cc, clang, pchdir], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for n, defines in enumerate(sys.argv[6:]):
        args = shlex.split(flags) + ["-E", "-MD"]
        out, dep, log = (os.path.join(work, f"{n}.{x}") for x in ("i", "d", "log"))
        sargs = [clang] + args + ["-MF", dep, "-o", out, source] + shlex.split(defines)
        server.stdin.write(f"R 0 {len(sargs)} {log}\n" + "".join(a + "\n" for a in sargs))
        server.stdin.flush()
        reply = server.stdout.readline().split()
        status, served = int(reply[1]), int(reply[2])
        ref, rdep = out + ".ref", dep + ".ref"
        proc = subprocess.run([clang] + args + ["-MF", rdep, "-o", ref, source] + shlex.split(defines),
                              capture_output=True, text=True)
        what = f"{n}: {defines}: status {status} served {served}"
        if (status == 0) != (proc.returncode == 0):
            print(f"{what}: clang's status {proc.returncode}")
            continue
        if status != 0:
            first = next((l for l in open(log) if "error:" in l), "").strip()
            print(f"{what}: {os.path.basename(first.split(': ', 1)[0]) if first else ''}: "
                  f"{first.split('error: ', 1)[-1] if first else 'no message'}")
            continue
        a, b = open(out, "rb").read(), open(ref, "rb").read()
        if a != b:
            at = next(i for i in range(min(len(a), len(b)) + 1) if i == min(len(a), len(b)) or a[i] != b[i])
            print(f"{what}: texts differ at byte {at}: {a[at - 40:at + 40]!r} / {b[at - 40:at + 40]!r}")
            continue
        d, r = deps(dep), deps(rdep)
        extra = sorted(x for x in d - r if x.endswith(".pch") or "pp-empty" in x)
        if not r <= d or extra:
            print(f"{what}: dependencies: missing {sorted(r - d)}, extra {extra}")
            continue
        print(f"{what}: same text and dependencies")
    server.stdin.close()
    server.wait()


if __name__ == "__main__":
    main()
