//===- Plugin.cpp - The wgperf pass plugin -------------------------------===//
//
//   opt-19 -load-pass-plugin=libwgperf.so -passes=wgperf-extract in.bc -disable-output
//   opt-19 -load-pass-plugin=libwgperf.so -passes='print<wgperf>' in.ll -disable-output
//   clang-19 -fpass-plugin=libwgperf.so ...   (runs wgperf-extract at any -O level,
//                                               and wgperf-libdevice-attrs first)
//   opt-19 -load-pass-plugin=libwgperf.so -passes=wgperf-libdevice-attrs in.ll -S
//
// Where the model goes, first match wins:
//   wgperf-extract<output=PATH>, -wgperf-output=PATH (opt), $WGPERF_OUTPUT,
//   else "<source stem>.wgperf.json" in the current directory.  A PATH that
//   names a directory (or ends in '/') receives "<source stem>.wgperf.json".
// $WGPERF_QUIET=1 silences warnings; $WGPERF_NO_NORMALIZE=1 analyses the IR
// as given (no inlining or mem2reg on the private clone).  The wgperf tools
// run the plugin with $WGPERF_TOOL=1: they report a module without kernels
// themselves, so the plugin's warning would say it twice.
//
//===----------------------------------------------------------------------===//
#include "KernelModel.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdlib>

using namespace llvm;

static cl::opt<std::string> OutputOpt("wgperf-output",
                                      cl::desc("where wgperf-extract writes the kernel model"),
                                      cl::value_desc("path"), cl::init(""));

namespace {

bool envSet(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && std::string(V) != "0";
}

void report(const wgperf::ModuleModel &MM) {
  if (envSet("WGPERF_QUIET"))
    return;
  bool Tool = envSet("WGPERF_TOOL");
  for (const std::string &D : MM.Diagnostics)
    if (!(Tool && MM.Kernels.empty() && StringRef(D).starts_with("warning: no kernels found")))
      errs() << "wgperf: " << D << "\n";
  for (const wgperf::KernelInfo &K : MM.Kernels)
    for (const std::string &D : K.Diagnostics)
      if (StringRef(D).starts_with("warning:"))
        errs() << "wgperf: " << D.substr(0, 9) << "kernel '" << K.Name << "': " << D.substr(9) << "\n";
}

std::string defaultName(const Module &M) {
  StringRef Src = M.getSourceFileName();
  if (Src.empty() || Src == "-" || Src == "<stdin>")
    Src = M.getModuleIdentifier();
  if (Src.empty() || Src == "-" || Src == "<stdin>")
    Src = "module";
  return (sys::path::stem(Src) + ".wgperf.json").str();
}

std::string resolveOutput(const Module &M, const std::string &Param) {
  std::string P = Param;
  if (P.empty())
    P = OutputOpt;
  if (P.empty())
    if (const char *E = std::getenv("WGPERF_OUTPUT"))
      P = E;
  if (P.empty())
    return defaultName(M);
  if (StringRef(P).ends_with("/") || sys::fs::is_directory(P)) {
    SmallString<256> Full(P);
    sys::path::append(Full, defaultName(M));
    return std::string(Full);
  }
  return P;
}

struct ExtractPass : PassInfoMixin<ExtractPass> {
  std::string Output;
  bool FromPipeline; // added by clang's pipeline: skip non-GPU modules quietly
  ExtractPass(std::string Output, bool FromPipeline) : Output(std::move(Output)), FromPipeline(FromPipeline) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (FromPipeline && !wgperf::isGPUModule(M))
      return PreservedAnalyses::all();
    wgperf::ModuleModel MM = wgperf::extractModel(M, !envSet("WGPERF_NO_NORMALIZE"));
    report(MM);
    if (MM.Kernels.empty())
      return PreservedAnalyses::all();
    std::string Path = resolveOutput(M, Output);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
    if (EC) {
      M.getContext().emitError("wgperf: cannot write kernel model to '" + Path + "': " + EC.message());
      return PreservedAnalyses::all();
    }
    wgperf::writeJSON(MM, OS);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

struct PrintPass : PassInfoMixin<PrintPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    wgperf::ModuleModel MM = wgperf::extractModel(M, !envSet("WGPERF_NO_NORMALIZE"));
    wgperf::writeText(MM, outs());
    outs().flush();
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// libdevice's math functions (__nv_sinf, __nv_sqrtf, ...) as clang's CUDA
// wrappers declare them: plain external functions, which the optimizer must
// assume may read and write any memory, so that no load moves or merges across
// a call to sinf.  libdevice defines them as pure functions (only sincos,
// frexp, modf, remquo and nan touch memory, through their pointer arguments),
// nvcc inlines them, and `wgperf extract` compiles with -nocudalib so that the
// model sees one call per function: the declarations get what libdevice's
// definitions say, before the optimizer runs.
struct LibdeviceAttrsPass : PassInfoMixin<LibdeviceAttrsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!Triple(M.getTargetTriple()).isNVPTX())
      return PreservedAnalyses::all();
    bool Changed = false;
    for (Function &F : M) {
      if (!F.isDeclaration() || F.isIntrinsic() || !F.getName().starts_with("__nv_"))
        continue;
      bool Pointers = F.getReturnType()->isPointerTy();
      for (const Argument &A : F.args())
        Pointers = Pointers || A.getType()->isPointerTy();
      F.setMemoryEffects(Pointers ? MemoryEffects::argMemOnly() : MemoryEffects::none());
      F.setDoesNotThrow();
      F.setWillReturn();
      F.setDoesNotFreeMemory();
      Changed = true;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

bool parseExtract(StringRef Name, ModulePassManager &MPM) {
  if (Name == "wgperf-libdevice-attrs") {
    MPM.addPass(LibdeviceAttrsPass());
    return true;
  }
  if (Name == "wgperf-extract") {
    MPM.addPass(ExtractPass("", false));
    return true;
  }
  if (Name.consume_front("wgperf-extract<") && Name.consume_back(">")) {
    if (!Name.consume_front("output="))
      return false;
    MPM.addPass(ExtractPass(Name.str(), false));
    return true;
  }
  if (Name == "print<wgperf>") {
    MPM.addPass(PrintPass());
    return true;
  }
  return false;
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "wgperf", WGPERF_VERSION, [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
                  return parseExtract(Name, MPM);
                });
            PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
              MPM.addPass(LibdeviceAttrsPass());
            });
            PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
              MPM.addPass(ExtractPass("", true));
            });
          }};
}
