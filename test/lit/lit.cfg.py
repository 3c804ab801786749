# lit configuration for wgperf's end-to-end tests.
import os
import lit.formats

config.name = "wgperf"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".cl", ".cu", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.wgperf_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.wgperf_bin, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["WGPERF_QUIET"] = ""
for var in ("WGPERF_OUTPUT", "WGPERF_NO_NORMALIZE", "WGPERF_TOOL", "WGPERF_CACHE_MAX_MB"):
    config.environment.pop(var, None)
# The model cache of every compile the tests run (never the user's ~/.cache):
# CMake's WGPERF_TEST_CACHE_DIR (default <build>/test-model-cache, which the
# sanitized build's suite shares), or --param model_cache=DIR.  A test that
# needs the compilers to run (a fake compiler that logs, a count of compiles)
# says so with WGPERF_CACHE_DIR= or --no-cache; %model_cache is the folder.
config.environment["WGPERF_CACHE_DIR"] = lit_config.params.get("model_cache", config.model_cache)
config.substitutions.append(("%model_cache", config.environment["WGPERF_CACHE_DIR"]))
# WGPERF_CUDA_PATH= (empty) in lit's environment runs the suite against the stand-in
# headers, as on a machine without a CUDA toolkit
if "WGPERF_CUDA_PATH" in os.environ:
    config.environment["WGPERF_CUDA_PATH"] = os.environ["WGPERF_CUDA_PATH"]
# and WGPERF_PTXAS=PATH the ptxas that counts registers (CI's is Debian's 11.8)
if os.environ.get("WGPERF_PTXAS"):
    config.environment["WGPERF_PTXAS"] = os.environ["WGPERF_PTXAS"]

inc = os.path.join(config.wgperf_src_root, "include", "wgperf")
cl_flags = "-x cl -cl-std=CL1.2 -Xclang -finclude-default-header -cl-kernel-arg-info -fno-discard-value-names -target nvptx64-nvidia-nvcl"
cu_flags = "-x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib --cuda-feature=+ptx78 -Wno-unknown-cuda-version -fno-discard-value-names -include %s/cuda_compat.h -isystem %s/cuda" % (inc, inc)

config.substitutions.append(("%plugin", config.wgperf_plugin))
config.substitutions.append(("%opt", os.path.join(config.llvm_tools_dir, "opt")))
config.substitutions.append(("%clang_cl", "%s %s" % (config.clang, cl_flags)))
config.substitutions.append(("%clang_cu", "%s %s" % (config.clang, cu_flags)))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%libclc", config.libclc))
config.substitutions.append(("%src", config.wgperf_src_root))
config.substitutions.append(("%{wgperf_bin}", config.wgperf_bin))
config.substitutions.append(("%wgperf", os.path.join(config.wgperf_bin, "wgperf")))

# What a .cu file compiles against here (wgperf --version says): a CUDA toolkit's
# headers (feature cuda-toolkit; %cuda_hdrs is TOOLKIT) or wgperf's stand-ins
# (STANDIN).  A test whose expectations differ between the two checks both with
# --check-prefixes=CHECK,%cuda_hdrs; WGPERF_CUDA_PATH= (empty) forces the stand-ins.
import subprocess
try:
    # in the environment the tests run in (lit passes them none of CUDA_PATH and the like)
    version = subprocess.run([os.path.join(config.wgperf_bin, "wgperf"), "--version"], capture_output=True,
                             text=True, env=dict(config.environment)).stdout
except OSError:
    version = ""
cuda_toolkit = "CUDA headers: CUDA " in version
config.substitutions.append(("%cuda_hdrs", "TOOLKIT" if cuda_toolkit else "STANDIN"))
if cuda_toolkit:
    config.available_features.add("cuda-toolkit")

if config.libclc:
    config.available_features.add("libclc")
# clang kept running by the tools (driver/cc_server.cpp), built where libclang-19-dev is
if os.path.exists(os.path.join(config.wgperf_bin, "wgperf-cc")):
    config.available_features.add("wgperf-cc")
if config.ptxas:
    config.available_features.add("ptxas")


def nvcc_compiles(ptxas):
    """Whether the nvcc beside PTXAS (as wgperf's driver finds it) compiles a
    kernel to a cubin, plainly or, where the toolkit refuses the system's host
    compiler, with -allow-unsupported-compiler -ccbin /usr/bin/g++ (as the
    driver then retries)."""
    import subprocess
    import tempfile
    nvcc = os.environ.get("WGPERF_NVCC")
    if nvcc is None:
        real = os.path.realpath(ptxas)
        for d in (os.path.dirname(ptxas), os.path.dirname(real)):
            if os.access(os.path.join(d, "nvcc"), os.X_OK):
                nvcc = os.path.join(d, "nvcc")
                break
    if not nvcc:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.cu")
        with open(src, "w") as f:
            f.write("__global__ void k(float *a) { a[threadIdx.x] = 1; }\n")
        for extra in ([], ["-allow-unsupported-compiler", "-ccbin", "/usr/bin/g++"]):
            try:
                r = subprocess.run([nvcc] + extra + ["-cubin", "-arch=sm_75", "-o", os.path.join(tmp, "k.cubin"), src],
                                   capture_output=True, timeout=120)
            except (OSError, subprocess.TimeoutExpired):
                return False
            if r.returncode == 0:
                return True
    return False


if config.ptxas and nvcc_compiles(config.ptxas):
    config.available_features.add("nvcc")
