"""Writes a variant of scale.json (argv[1]) to argv[3]: argv[2] names the change
to its Arguments or its kernel, as KTT's T1 schema allows them
(tune-ktt-args.test, tune-templates.test)."""
import json
import sys

space = json.load(open(sys.argv[1]))
spec = space["KernelSpecification"]
args = spec["Arguments"]
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
elif change == "symbol-noname":
    args.append({"Type": "float", "MemoryType": "Symbol", "Size": 16, "FillType": "Constant", "FillValue": 1.0})
elif change == "symbol":
    args.append({"Name": "coeffs", "Type": "float", "MemoryType": "Symbol", "Size": 16, "FillType": "Constant",
                 "FillValue": 1.0})
elif change == "typenames":  # the kernel as a template over its element type, instantiated by KTT
    spec.update({"KernelFile": "scale_template.cu", "KernelTypeNames": ["float"]})
elif change == "typenames-double":
    spec.update({"KernelFile": "scale_template.cu", "KernelTypeNames": ["double"]})
    for a in args:
        a["Type"] = "double" if a["Type"] == "float" else a["Type"]
elif change == "instance-name":  # Kernel Tuner's way: the instance as the kernel's name
    spec.update({"KernelFile": "scale_template.cu", "KernelName": "scale<float>"})
elif change == "param-instance":  # a template argument that is a parameter (its #define)
    spec.update({"KernelFile": "scale_template.cu", "KernelName": "scale_bs<float, block_size_x>"})
elif change == "typenames-opencl":
    spec.update({"Language": "OpenCL", "KernelFile": "scale.cl", "KernelTypeNames": ["float"]})
elif change == "typenames-string":
    spec.update({"KernelFile": "scale_template.cu", "KernelTypeNames": "float"})
elif change == "typenames-bad":
    spec.update({"KernelFile": "scale_template.cu", "KernelTypeNames": ["float; int x"]})
elif change == "symbol-as-constant":  # Kernel Tuner's cmem_args as a T1 file writes them: a Vector of MemType Constant
    for a in args:
        if a.get("MemoryType") == "Symbol":
            a.update({"MemoryType": "Vector", "MemType": "Constant"})
elif change == "two-constants":  # one more Constant buffer: neither count matches the kernel's
    args.insert(1, {"Name": "table", "Type": "float", "MemoryType": "Vector", "MemType": "Constant",
                    "FillType": "Constant", "Size": 16, "FillValue": 1.0})
    args.append({"Name": "extra", "Type": "float", "MemoryType": "Vector", "FillType": "Constant", "Size": 16,
                 "FillValue": 1.0})
elif change == "problem-scalar":  # one size as a number, as Kernel Tuner's problem_size=n (BAT's pnpoly space)
    spec["ProblemSize"] = spec["ProblemSize"][0]
elif change == "memorytype-constant":  # constant memory written as a MemoryType, which the schema has not
    args[1].update({"MemoryType": "Constant"})
elif change == "double-data":  # double data for the kernel's float* (TRIAD's T1 file in BAT)
    args[1].update({"Type": "double"})
elif change == "int-scalar-float":  # a Scalar of an integer Type for the kernel's float parameter
    args[3].update({"Type": "int32"})
elif change == "vector-data":  # float4 data for the kernel's float*: a vector of its scalar, no warning
    args[1].update({"Type": "float4", "Size": "ProblemSize[0] // 4"})
elif change == "fill-string":  # a Scalar's FillValue in quotes (BAT's builtin_vectors space)
    args[2].update({"FillValue": "1048576"})
elif change == "constraints":  # restrictions under another key than Conditions (BAT's builtin_vectors)
    space["ConfigurationSpace"]["Constraints"] = ["block_size_x <= 64"]
elif change == "constraints-empty":
    space["ConfigurationSpace"]["Constraints"] = []
elif change == "caret":  # 2^x for a power (BAT's Sort space)
    space["ConfigurationSpace"]["TuningParameters"][0]["Values"] = "[2^x for x in range(5, 8)]"
elif change == "double3":  # CUDA's double3: three doubles, 24 bytes (OpenCL's would take 32)
    args[1].update({"Type": "double3"})
else:
    sys.exit("unknown change " + change)
json.dump(space, open(sys.argv[3], "w"), indent=1)
