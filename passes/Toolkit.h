//===- Toolkit.h - what the CUDA toolkit's headers compile to ------------===//
//
// A .cu file compiled against a real CUDA toolkit (clang's CUDA wrappers over
// the toolkit's headers, -nocudalib) reaches the plugin with two kinds of
// operation the stand-in headers never made:
//
//  * calls to libdevice's functions that are not math library functions
//    (which mathClass in Extract.cpp classes by name): the reinterpretations
//    (__float_as_int is __nv_float_as_int), the rounding-mode arithmetic and
//    conversions, the integer intrinsics (__popc, __mul24, __byte_perm, ...)
//    and the classification functions (isnan, signbit);
//  * inline PTX: cuda_fp16.hpp and cuda_bf16.hpp write each half-precision
//    operation as one (add.f16, fma.rn.f16x2, cvt.rn.f16.f32), often in a
//    block with register declarations and moves; sm_20_intrinsics.hpp the
//    SIMD-within-a-word intrinsics (vadd4, vset4.u32.u32.gt).
//
// Both are classed here into the cost classes of the GPU description, as a
// sequence of (class, count): what nvcc makes of them for sm_80.
//
//===----------------------------------------------------------------------===//
#ifndef WGPERF_TOOLKIT_H
#define WGPERF_TOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wgperf {

/// Instructions of one operation: each class that many times.
using CostSequence = std::vector<std::pair<const char *, unsigned>>;

/// The cost of calling libdevice's \p Name (with its __nv_ prefix), for the
/// functions that are not math library functions; an empty sequence for the
/// free ones (a reinterpretation is no instruction), std::nullopt for a name
/// this does not know.
std::optional<CostSequence> libdeviceCost(llvm::StringRef Name);

/// The cost of an inline assembly statement that is only register arithmetic
/// of kinds the toolkit's headers write (its instructions, declarations and
/// braces; \p Constraints its constraint string); std::nullopt when it touches
/// memory, branches, reads a special register or holds an instruction this
/// does not know, so that it stays a statement the model reports.
std::optional<CostSequence> ptxCost(llvm::StringRef Asm, llvm::StringRef Constraints);

/// The operation of an inline assembly statement that is one PTX atomic on the
/// address its first input holds, as cuda_fp16.hpp writes atomicAdd on a half
/// ("atom.add.noftz.f16 $0,[$1],$2"): "fadd", "add", "xchg", "cmpxchg", ...;
/// std::nullopt for anything else.
std::optional<std::string> ptxAtomic(llvm::StringRef Asm, llvm::StringRef Constraints);

/// One PTX load or store of global memory written as inline assembly, as the
/// toolkit's sm_32_intrinsics.hpp writes the cache-hinted __ldcg, __stcs and
/// the rest, and as hand-tuned kernels write their own ("ld.global.cg.v4.f32
/// {$0,$1,$2,$3}, [$4];").
struct PtxAccess {
  bool Store = false;
  std::string Cache;  // the cache operator: ca cg cs lu cv nc (loads), wb cg cs wt (stores); "" for none
  unsigned Lanes = 1; // .v2, .v4, .v8
  unsigned Bits = 0;  // of one lane: 8, 16, 32, 64, 128
  char Type = 'b';    // b, u, s or f
  unsigned Address = 0; // the operand ($N) that holds the address
  int64_t Offset = 0;   // bytes added to it ([$N+8])
  std::vector<unsigned> Values; // the operands loaded into or stored, one per lane
};

/// The access of an inline assembly statement that is one `ld.global` or
/// `st.global` with an optional cache operator, eviction priorities (a load's
/// L1::no_allocate taken as .cg, L1::evict_first as .cs; the others and L2's
/// not modelled) or L2 prefetch size, or the memory model's semantics and
/// scope (a load relaxed or acquire at the GPU's, cluster's or system's
/// scope, or volatile, reads L2: taken as .cv; weak and cta-scoped ones as
/// plain; the ordering is not modelled), a 64-bit address operand ("l") and
/// register operands, one per lane; std::nullopt for anything else (shared,
/// local or generic addresses, a cache policy operand, predicates, more than
/// one instruction).
std::optional<PtxAccess> ptxGlobalAccess(llvm::StringRef Asm, llvm::StringRef Constraints);

} // namespace wgperf

#endif
