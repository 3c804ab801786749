"""Writes a variant of scale.json (argv[1]) to argv[3]: argv[2] names the change
to its Arguments, as KTT's T1 schema allows them (tune-ktt-args.test)."""
import json
import sys

space = json.load(open(sys.argv[1]))
args = space["KernelSpecification"]["Arguments"]
change = sys.argv[2]
if change == "binaryraw":   # the input read from a file
    args[1].update({"FillType": "BinaryRaw", "DataSource": "in.bin"})
elif change == "generator":
    args[1].update({"FillType": "Generator", "DataSource": "i * 0.5"})
elif change == "custom":    # 8-byte elements of the user's own type, half as many
    args[1].update({"Type": "custom", "TypeSize": 8, "Size": "ProblemSize[0] // 2"})
elif change == "custom-nosize":
    args[1].update({"Type": "custom"})
elif change == "unknown-fill":
    args[1].update({"FillType": "Sequence"})
elif change == "symbol":
    args.append({"Name": "coeffs", "Type": "float", "MemoryType": "Symbol", "Size": 16, "FillType": "Constant",
                 "FillValue": 1.0})
else:
    sys.exit("unknown change " + change)
json.dump(space, open(sys.argv[3], "w"), indent=1)
