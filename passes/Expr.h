//===- Expr.h - Symbolic expressions of kernel values --------------------===//
//
// Turns IR values and SCEVs into the prefix expressions of the kernel model
// (grammar in docs/kernel-model.md), and classifies what a value depends on:
// kernel arguments only (uniform), work-item ids, loop iterations, or values
// loaded from memory.
//
//===----------------------------------------------------------------------===//
#ifndef WGPERF_PASSES_EXPR_H
#define WGPERF_PASSES_EXPR_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include <map>
#include <string>

namespace wgperf {

enum DepBits : unsigned {
  DepWorkItem = 1,
  DepLoop = 2,
  DepData = 4,
};

/// What a call to a work-item builtin (OpenCL or NVVM form) reads.
struct WorkItemQuery {
  std::string Symbol; // e.g. "lid.x", "lsz.y", "gid.z", "wdim"; empty if none
  bool VariesPerItem = false;
  bool UnknownDim = false;
};
WorkItemQuery classifyWorkItemCall(const llvm::CallBase &CB);

/// The name of a function without Itanium mangling of its parameters:
/// "_Z13get_global_idj" -> "get_global_id".
std::string plainName(llvm::StringRef Mangled);

class ExprBuilder {
public:
  ExprBuilder(llvm::ScalarEvolution &SE, llvm::LoopInfo &LI,
              llvm::DominatorTree &DT)
      : SE(SE), LI(LI), DT(DT) {}

  std::map<const llvm::Loop *, unsigned> LoopIds;
  std::map<const llvm::Instruction *, unsigned> MemIds;
  std::map<const llvm::Argument *, std::string> ArgNames;
  std::map<const llvm::PHINode *, std::string> RecurrenceSyms;

  std::string value(const llvm::Value *V);
  std::string scev(const llvm::SCEV *S);

  /// Bitmask of DepBits for a value; valid after computeDeps().
  unsigned deps(const llvm::Value *V);
  void computeDeps(const llvm::Function &F);

  /// Whether an offset SCEV is affine in the variables (work-item ids, loop
  /// iterations), treating arguments and launch sizes as parameters.  When
  /// it is not, \p Why says what breaks it.
  bool isAffine(const llvm::SCEV *S, std::string &Why);

  /// Names of memory accesses whose loaded value feeds \p S or \p V.
  void collectLoads(const llvm::Value *V, llvm::SmallPtrSetImpl<const llvm::Instruction *> &Out);

private:
  llvm::ScalarEvolution &SE;
  llvm::LoopInfo &LI;
  llvm::DominatorTree &DT;
  llvm::DenseMap<const llvm::Value *, std::string> ValueCache;
  llvm::DenseMap<const llvm::Value *, unsigned> DepCache;
  llvm::SmallPtrSet<const llvm::Value *, 16> InProgress;
  unsigned Depth = 0;

  std::string valueUncached(const llvm::Value *V);
  std::string instruction(const llvm::Instruction *I);
  unsigned transferDeps(const llvm::Instruction *I);
  bool scevHasVariable(const llvm::SCEV *S);
  std::string loopSym(const llvm::Loop *L);
};

/// Suffix ":N" for operations narrower than 64 bits.
std::string widthSuffix(const llvm::Type *T);

} // namespace wgperf

#endif
