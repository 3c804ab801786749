"""Makes a CUDA toolkit that says it is another version: every entry of the real
toolkit's include/ (the one `wgperf --version` names) linked, but cuda.h and
cuda_runtime_api.h copied with CUDA_VERSION and CUDART_VERSION set to VERSION, and an
empty bin/ (clang 19 asks for the folder).

    fake_toolkit.py WGPERF OUT_DIR VERSION
"""
import os
import re
import subprocess
import sys

wgperf, out, version = sys.argv[1], sys.argv[2], sys.argv[3]
text = subprocess.run([wgperf, "--version"], capture_output=True, text=True, check=True).stdout
m = re.search(r"CUDA headers: CUDA [0-9.]+ at (\S+)", text)
if not m:
    sys.exit("fake_toolkit.py: `wgperf --version` names no CUDA toolkit:\n" + text)
real = os.path.join(m.group(1), "include")
os.makedirs(os.path.join(out, "bin"), exist_ok=True)
os.makedirs(os.path.join(out, "include"), exist_ok=True)
for name in os.listdir(real):
    dst = os.path.join(out, "include", name)
    if name in ("cuda.h", "cuda_runtime_api.h"):
        with open(os.path.join(real, name)) as f:
            src = f.read()
        src, k = re.subn(r"^#define (CUDA_VERSION|CUDART_VERSION)\s+\d+", r"#define \1 " + version, src,
                         flags=re.M)
        if k != 1:
            sys.exit("fake_toolkit.py: %s: no version line" % name)
        with open(dst, "w") as f:
            f.write(src)
    elif not os.path.lexists(dst):
        os.symlink(os.path.join(real, name), dst)
