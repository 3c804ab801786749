"""corrupt.py CACHE EXT: damages every CACHE/XX/*.EXT of a model cache: the
.model and .out files get a byte flipped, the .deps files lose their last
half (model-cache.test: a damaged entry is a miss)."""
import glob
import os
import sys

cache, ext = sys.argv[1:3]
files = glob.glob(os.path.join(cache, "??", "*." + ext))
assert files, "no ." + ext + " files in " + cache
for f in files:
    data = bytearray(open(f, "rb").read())
    if ext == "deps":
        data = data[: len(data) // 2]
    elif data:
        data[len(data) // 2] ^= 0x20
    else:
        data = bytearray(b"E9\nx")
    open(f, "wb").write(bytes(data))
