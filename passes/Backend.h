//===- Backend.h - what the NVIDIA backend makes of the IR we count -------===//
//
// The model counts IR instructions, but a GPU executes what the backend
// (NVVM/ptxas, or LLVM's NVPTX backend) makes of them.  Two of its
// transformations change counts and memory costs enough to matter, and both
// are decided by local, checkable facts of the IR:
//
//  * FMA contraction: an fmul whose only use is an fadd/fsub of the same
//    block, both allowed to contract (CUDA's default, and OpenCL's
//    llvm.fmuladd), becomes one FFMA.
//  * Loop strength reduction: in a loop, the address of an access that
//    advances by a loop-invariant step each iteration (an affine add
//    recurrence of the loop) is kept in a register and incremented; the
//    index arithmetic that computed it anew each iteration (sign
//    extensions, multiplies by the row length, adds of the unrolled
//    copies' offsets, the GEP) is gone.  Accesses whose addresses differ by
//    a constant share one pointer (the difference becomes an immediate
//    offset), so each such stream costs one 64-bit add per iteration.
//    nvcc 13.0's SASS for a naive matrix multiply runs about 4 instructions
//    per k where the IR has 9.75 (docs/kernel-model.md).  The model keeps
//    both counts (a block's `strength_reduced`): the GPU description says
//    which its compiler does (Kepler-era nvcc did not: 11.5 instructions
//    per k in the amaris inst_executed data).
//  * Vectorization of shared-memory accesses: a thread's accesses to
//    consecutive elements of one __shared__/__local array in straight-line
//    code (an unrolled loop over a tile row) become one 8 or 16 byte access
//    when the first is aligned to that size, as nvcc does (LDS.64/LDS.128):
//    Nsight Compute counts 320 shared loads per warp for a 16x16-tiled matrix
//    multiply of 256 k-steps, not 512 (microbench/results/h100-2026-11-22/ncu).
//    Shared arrays are taken to be 16-byte aligned (nvcc places them so);
//    global accesses are left alone (a float* says nothing about alignment).
//
// And some machine instructions have no IR instruction at all:
//
//  * every thread reads each special register it uses (threadIdx, blockIdx,
//    lane id) once with S2R (`sreg`); blockDim and gridDim are constant-bank
//    operands and cost nothing;
//  * the kernel sets up its stack pointer on entry and executes EXIT at each
//    return (`other`, one each);
//  * a branch whose condition can differ between the lanes of a warp is
//    bracketed by a reconvergence pair (SSY/SYNC before Volta, BSSY/BSYNC
//    since) unless it only leaves a loop (`reconverge`, two).
// Checked against nvprof's inst_executed: a vector add and a matrix sum run 19
// and 25 warp instructions on a Tesla K40 where their IR has 11 and 16, and the
// expansions of the GPU description (ops.addr.instructions: 64-bit addresses
// take two instructions before Volta) bring them to 19 and 25.
//
//===----------------------------------------------------------------------===//
#ifndef WGPERF_PASSES_BACKEND_H
#define WGPERF_PASSES_BACKEND_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

namespace wgperf {

/// Whether the fmul \p I is contracted into its fadd/fsub user (the user then
/// counts as one FMA and \p I as nothing).
bool fusedIntoFma(const llvm::Instruction &I);

/// Whether the fadd/fsub \p I absorbs one of its operands' fmul (an FMA).
bool absorbsFmul(const llvm::Instruction &I);

/// Shared-memory accesses the backend merges: the first of each group keeps
/// its place with the group's width, the others disappear.
struct VectorGroups {
  llvm::DenseMap<const llvm::Instruction *, unsigned> LeaderBytes;
  llvm::DenseSet<const llvm::Instruction *> Merged;
};

VectorGroups findVectorGroups(llvm::Function &F, llvm::ScalarEvolution &SE);

/// What loop strength reduction does to the IR we count: the integer and
/// address instructions it makes unnecessary, and the pointer increments it
/// adds, per loop header.
struct StrengthReduction {
  llvm::DenseSet<const llvm::Instruction *> Removed;
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> Steps;
};

StrengthReduction findStrengthReduction(llvm::Function &F, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE);

/// Distinct special registers \p F reads (threadIdx.x..z, blockIdx.x..z,
/// lane id; OpenCL's get_global_id(d) reads two).
unsigned specialRegisterReads(const llvm::Function &F);

} // namespace wgperf

#endif
