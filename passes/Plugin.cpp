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
// themselves, so the plugin's warning would say it twice.  $WGPERF_SHARED_GATE=N:KERNEL
// (wgtune's compiles): a kernel that declares more than N bytes of static
// shared memory is modelled before the optimizer (SharedGatePass).
//
//===----------------------------------------------------------------------===//
#include "KernelModel.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
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

const char *const GatedName = "wgperf.modelled";

// Writes MM where the model of M goes (resolveOutput); false when it could
// not (an error emitted) or there is no kernel to write.
bool writeModel(Module &M, wgperf::ModuleModel &MM, const std::string &Output) {
  // which CUDA headers `wgperf extract` compiled the source against (driver/cuda_toolkit.c)
  const char *Headers = std::getenv("WGPERF_CUDA_HEADERS");
  if (Headers && *Headers && Triple(M.getTargetTriple()).getOS() == Triple::CUDA)
    MM.CudaHeaders = Headers;
  if (MM.Kernels.empty())
    return false;
  std::string Path = resolveOutput(M, Output);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    M.getContext().emitError("wgperf: cannot write kernel model to '" + Path + "': " + EC.message());
    return false;
  }
  wgperf::writeJSON(MM, OS);
  return true;
}

struct ExtractPass : PassInfoMixin<ExtractPass> {
  std::string Output;
  bool FromPipeline; // added by clang's pipeline: skip non-GPU modules quietly
  ExtractPass(std::string Output, bool FromPipeline) : Output(std::move(Output)), FromPipeline(FromPipeline) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (FromPipeline && !wgperf::isGPUModule(M))
      return PreservedAnalyses::all();
    if (M.getNamedMetadata(GatedName)) // modelled before the optimizer (SharedGatePass)
      return PreservedAnalyses::all();
    wgperf::ModuleModel MM = wgperf::extractModel(M, !envSet("WGPERF_NO_NORMALIZE"));
    report(MM);
    writeModel(M, MM, Output);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// wgtune's shortcut for code no GPU would run (WGPERF_SHARED_GATE=N:KERNEL, set
// only by wgtune's compiles through wgperf-cc, driver/cc_client.c).  When
// kernel KERNEL (its name or symbol) declares more than N bytes of static
// shared memory (N: the most a block may have, 49152 on every NVIDIA GPU;
// ptxas refuses the code, "uses too much shared data"), the optimizer's work
// would only be thrown away: KERNEL's model is made here, before the
// optimizer, from the plugin's own normalized clone (inlined, SROA, CSE,
// InstCombine, SimplifyCFG: what decides which shared arrays the kernel
// uses), with a note that says so, and the module's functions are emptied so
// that -O3 has nothing left to do.  Its arrays, arguments and launch
// attributes are what the optimized model would hold; its code is the
// unoptimized one, which no one estimates (wgtune refuses the code by its
// shared memory; its cache keys hold N and KERNEL).  The module's shared
// variables in use are summed first, without a clone: most modules stop there.
struct SharedGatePass : PassInfoMixin<SharedGatePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    const char *G = std::getenv("WGPERF_SHARED_GATE");
    char *End = nullptr;
    unsigned long long Gate = G && *G ? std::strtoull(G, &End, 10) : 0;
    if (!Gate || *End != ':' || !End[1] || !wgperf::isGPUModule(M) || wgperf::localBytesInUse(M) <= Gate)
      return PreservedAnalyses::all();
    std::string Kernel = End + 1;
    wgperf::ModuleModel MM = wgperf::extractModel(M, !envSet("WGPERF_NO_NORMALIZE"));
    auto It = llvm::find_if(MM.Kernels, [&](const wgperf::KernelInfo &K) { return K.Name == Kernel; });
    if (It == MM.Kernels.end())
      It = llvm::find_if(MM.Kernels, [&](const wgperf::KernelInfo &K) { return K.Symbol == Kernel; });
    if (It == MM.Kernels.end() || wgperf::staticLocalBytes(*It) <= Gate)
      return PreservedAnalyses::all();
    wgperf::KernelInfo K = std::move(*It);
    K.Diagnostics.push_back("note: modelled before optimization: more than the " + std::to_string(Gate) +
                            " bytes of static shared memory a block may have");
    MM.Kernels.clear();
    MM.Kernels.push_back(std::move(K));
    if (!writeModel(M, MM, ""))
      return PreservedAnalyses::all();
    M.getOrInsertNamedMetadata(GatedName);
    LLVMContext &C = M.getContext();
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      for (BasicBlock &BB : F)
        BB.dropAllReferences();
      while (!F.empty())
        F.back().eraseFromParent();
      new UnreachableInst(C, BasicBlock::Create(C, "", &F));
    }
    return PreservedAnalyses::none();
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

// libdevice's functions (__nv_sinf, __nv_sqrtf, __nv_min, ...) as clang's CUDA
// wrappers call them with -nocudalib: plain external functions, which the
// optimizer must assume read and write any memory and which it cannot fold,
// hoist or combine.  `wgperf extract` compiles that way so that the model sees
// one call per math function (libdevice's bodies are what nvcc inlines, and
// their slow paths are not what the model should count).  Before the optimizer
// runs, this pass gives the declarations what libdevice's definitions say
// (memory: none, or only their pointer arguments for sincos, frexp, modf,
// remquo, nan), and replaces the calls of the functions libdevice defines as one
// LLVM operation (min, max, abs, fabs, floor, sqrt, fma, popc, the bit casts,
// ...) by that operation: the IR the stand-in headers made, which the optimizer
// and the model both see through.
struct LibdeviceAttrsPass : PassInfoMixin<LibdeviceAttrsPass> {
  static std::optional<Intrinsic::ID> operation(StringRef N) {
    N.consume_front("__nv_");
    return StringSwitch<std::optional<Intrinsic::ID>>(N)
        .Cases("min", "llmin", Intrinsic::smin)
        .Cases("max", "llmax", Intrinsic::smax)
        .Cases("umin", "ullmin", Intrinsic::umin)
        .Cases("umax", "ullmax", Intrinsic::umax)
        .Cases("abs", "llabs", Intrinsic::abs)
        .Cases("fminf", "fmin", Intrinsic::minnum)
        .Cases("fmaxf", "fmax", Intrinsic::maxnum)
        .Cases("fabsf", "fabs", Intrinsic::fabs)
        .Cases("floorf", "floor", Intrinsic::floor)
        .Cases("ceilf", "ceil", Intrinsic::ceil)
        .Cases("truncf", "trunc", Intrinsic::trunc)
        .Cases("roundf", "round", Intrinsic::round)
        .Cases("rintf", "rint", Intrinsic::rint)
        .Cases("nearbyintf", "nearbyint", Intrinsic::nearbyint)
        .Cases("sqrtf", "sqrt", Intrinsic::sqrt)
        .Cases("fmaf", "fma", Intrinsic::fma)
        .Cases("copysignf", "copysign", Intrinsic::copysign)
        .Cases("ldexpf", "ldexp", Intrinsic::ldexp)
        .Cases("popc", "popcll", Intrinsic::ctpop)
        .Cases("clz", "clzll", Intrinsic::ctlz)
        .Cases("brev", "brevll", Intrinsic::bitreverse)
        .Default(std::nullopt);
  }

  // The call CI of F as the operation ID, or nullptr when its types do not fit.
  static Value *lower(CallInst *CI, Intrinsic::ID ID) {
    if (CI->arg_size() == 0)
      return nullptr;
    Type *ArgT = CI->getArgOperand(0)->getType(), *RetT = CI->getType();
    Module *M = CI->getModule();
    IRBuilder<> B(CI);
    SmallVector<Value *, 3> Args(CI->args());
    Function *Op = nullptr;
    if (ID == Intrinsic::ldexp)
      Op = Intrinsic::getDeclaration(M, ID, {ArgT, CI->getArgOperand(1)->getType()});
    else
      Op = Intrinsic::getDeclaration(M, ID, {ArgT});
    if (ID == Intrinsic::abs || ID == Intrinsic::ctlz)
      Args.push_back(B.getFalse()); // INT_MIN is no poison; ctlz(0) is the width
    if (Op->getFunctionType()->getNumParams() != Args.size())
      return nullptr;
    for (unsigned I = 0; I < Args.size(); I++)
      if (Args[I]->getType() != Op->getFunctionType()->getParamType(I))
        return nullptr;
    Value *V = B.CreateCall(Op, Args);
    if (V->getType() != RetT) // popcll, clzll: a 64-bit count returned as an int
      V = RetT->isIntegerTy() && V->getType()->isIntegerTy() ? B.CreateZExtOrTrunc(V, RetT) : nullptr;
    return V;
  }

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
      // the reinterpretations (__nv_float_as_int, ...): the same bits
      bool Cast = F.getName().contains("_as_") && F.arg_size() == 1;
      std::optional<Intrinsic::ID> ID = operation(F.getName());
      if (!Cast && !ID)
        continue;
      for (User *U : make_early_inc_range(F.users())) {
        auto *CI = dyn_cast<CallInst>(U);
        if (!CI || CI->getCalledFunction() != &F)
          continue;
        Value *V = nullptr;
        if (Cast && CI->getType()->getPrimitiveSizeInBits() == CI->getArgOperand(0)->getType()->getPrimitiveSizeInBits())
          V = IRBuilder<>(CI).CreateBitCast(CI->getArgOperand(0), CI->getType());
        else if (ID)
          V = lower(CI, *ID);
        if (!V)
          continue;
        V->takeName(CI);
        if (auto *I = dyn_cast<Instruction>(V))
          I->setDebugLoc(CI->getDebugLoc());
        CI->replaceAllUsesWith(V);
        CI->eraseFromParent();
      }
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
              MPM.addPass(SharedGatePass());
            });
            PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
              MPM.addPass(ExtractPass("", true));
            });
          }};
}
