//===- KernelModel.h - The kernel model extracted from GPU bitcode -------===//
//
// Plain data describing one module's kernels, independent of any launch or
// GPU.  Filled by extractModel() (Extract.cpp), written as JSON or text by
// Emit.cpp.  The format is documented in docs/kernel-model.md.
//
//===----------------------------------------------------------------------===//
#ifndef WGPERF_PASSES_KERNELMODEL_H
#define WGPERF_PASSES_KERNELMODEL_H

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wgperf {

constexpr int ModelFormatVersion = 1;

struct ArgInfo {
  unsigned Index = 0;
  std::string Name;
  std::string Type;     // source-level type when known, else the IR type
  std::string Kind;     // "pointer" or "scalar"
  std::string Space;    // pointers: global/local/constant/private; scalars: "private"
  uint64_t ElemBytes = 0; // pointee size (pointers) or value size (scalars); 0 unknown
  std::string ElemBytesSource; // "type", "accesses" or "unknown"
  bool IsConst = false;
  bool Floating = false; // a scalar whose IR type is floating point (whatever its typedef)
};

struct ArrayInfo {
  std::string Name;
  std::string Space; // "local" or "constant"
  uint64_t Bytes = 0;
  uint64_t ElemBytes = 0;
  std::vector<uint64_t> Dims;
  bool Initialized = false;
};

struct BranchInfo {
  std::string Kind;  // "cond" or "switch"
  std::string Cond;  // expression
  std::string Class; // uniform / work-item / loop-variable / data-dependent
  std::vector<std::string> Depends;
  std::vector<unsigned> Targets;            // cond: [true, false]; switch: default first
  std::vector<std::string> CaseValues;      // switch only, parallel to Targets[1..]
  std::string Source;
};

struct BlockInfo {
  unsigned Id = 0;
  std::string Name;
  std::string Source;
  int Loop = -1; // innermost loop id or -1
  std::map<std::string, uint64_t> Counts;
  // after loop strength reduction (Backend.h): the counted instructions it
  // makes unnecessary, and the pointer increments (64-bit adds) it adds
  std::map<std::string, uint64_t> StrengthReducedAway;
  unsigned StrengthReductionSteps = 0;
  std::vector<unsigned> Succs;
  std::vector<unsigned> BackEdgeSuccs;
  std::optional<BranchInfo> Branch;
  std::vector<unsigned> Memory; // memory access ids, in program order
  bool Exit = false;            // ends in ret
};

struct RecurrenceInfo {
  std::string Sym;  // rv.L<loop>.<k>
  std::string Init; // value on loop entry
  std::string Next; // value for the next iteration, in terms of Sym
};

struct LoopExitInfo {
  unsigned Block = 0;  // exiting block
  std::string ExitWhen; // expression that is non-zero when the loop is left here
};

struct LoopInfoRec {
  unsigned Id = 0;
  unsigned Header = 0;
  int Parent = -1;
  unsigned Depth = 1;
  std::vector<unsigned> Blocks, Latches, Exiting;
  std::string TripKind; // exact / max / data-dependent / recurrence / unknown
  std::string BackedgeCount; // expression or empty
  std::string TripCount;     // header executions per entry = backedges + 1
  std::string MaxTripCount;  // upper bound when known
  std::string Reason;
  std::vector<RecurrenceInfo> Recurrences;
  std::vector<LoopExitInfo> Exits;
  std::string Source;
};

struct MemInfo {
  unsigned Id = 0;
  unsigned Block = 0;
  std::string Kind;  // load / store / atomic
  std::string Space; // global / local / constant / private
  unsigned Bytes = 0;
  std::string BaseKind; // arg / array / private / indirect / unknown
  std::string BaseName;
  int BaseArg = -1;
  std::string Offset; // bytes from the base, expression; empty if unknown
  bool Affine = false;
  std::string NonAffine; // what keeps it from being affine
  std::string Atomic;    // atomic operation name
  std::string Cache;     // PTX cache operator (ca cg cs lu cv nc; wb cg cs wt), "" for the default
  std::string Source;
};

struct CallInfo {
  unsigned Block = 0;
  std::string Callee;
  std::string Reason;
  std::string Source;
};

// What the source says about the sizes a kernel may be launched with
// (docs/kernel-model.md, "Launch attributes"); 0 where it says nothing.
struct LaunchAttrs {
  uint64_t Reqd[3] = {0, 0, 0}; // OpenCL reqd_work_group_size(X,Y,Z), nvvm reqntid
  uint64_t MaxThreads = 0;      // CUDA __launch_bounds__(MAXT, ...), nvvm maxntid (x*y*z)
  uint64_t MinBlocks = 0;       // CUDA __launch_bounds__(MAXT, MINB), nvvm minctasm
  std::string From;             // the attribute as the source spells it
};

struct KernelInfo {
  std::string Name;      // what users type: "vadd"
  std::string Symbol;    // the IR symbol: "_Z4vaddPKfS0_Pfi"
  std::string Signature; // demangled: "vadd(float const*, float const*, float*, int)"
  std::string Language; // opencl / cuda
  std::string Source;
  LaunchAttrs Launch;
  std::vector<ArgInfo> Args;
  std::vector<ArrayInfo> Arrays;
  std::vector<BlockInfo> Blocks;
  std::vector<LoopInfoRec> Loops;
  std::vector<MemInfo> Memory;
  std::vector<CallInfo> Calls;
  std::vector<std::string> Diagnostics; // "warning: ..." / "note: ..."
  bool Irreducible = false;
  unsigned RegisterPressure = 0; // max live 32-bit values (IR estimate)
  std::map<std::string, uint64_t> Totals; // static counts over all blocks
};

struct ModuleModel {
  std::string ModuleName;
  std::string SourceFile;
  std::string Triple;
  /// The headers a CUDA source compiled against, as `wgperf extract` says them
  /// ($WGPERF_CUDA_HEADERS: "CUDA 11.8 at DIR (ORIGIN)" or wgperf's stand-ins);
  /// empty when not told (written as no key).
  std::string CudaHeaders;
  std::vector<KernelInfo> Kernels;
  std::vector<std::string> Diagnostics;
};

/// Builds the model.  Works on a normalized clone of \p M so the input module
/// is never changed and -O0 input is analysed like optimized input.
ModuleModel extractModel(llvm::Module &M, bool Normalize);

/// True when the module's target is a GPU we model (nvptx, spir, amdgcn).
bool isGPUModule(const llvm::Module &M);

/// The bytes of the module's shared (OpenCL local) variables that some
/// instruction uses, directly or through constant expressions: at least
/// what any kernel of the module declares (a kernel's own set is a subset).
uint64_t localBytesInUse(const llvm::Module &M);

/// The bytes of \p K's static shared (local) arrays, as the analyzer sums
/// them (wgp_kernel_static_local_bytes).
uint64_t staticLocalBytes(const KernelInfo &K);

void writeJSON(const ModuleModel &MM, llvm::raw_ostream &OS);
void writeText(const ModuleModel &MM, llvm::raw_ostream &OS);

} // namespace wgperf

#endif
