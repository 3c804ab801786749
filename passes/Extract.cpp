//===- Extract.cpp - Build the kernel model of a module ------------------===//
//
//   opt-19 -load-pass-plugin=libwgperf.so -passes=wgperf-extract in.bc
//
// The model is extracted from a normalized clone of the module: helper
// functions are inlined and memory is promoted to registers, so -O0 and -O3
// input give the same loops and expressions (what ptxas sees after its own
// optimizations is closer to that than to -O0 IR).  Loops come from
// LoopInfo, trip counts from ScalarEvolution, with a recurrence fallback
// (seeds/004 sec. 4.1.2) for induction variables SCEV cannot describe, such
// as the halving stride of a tree reduction.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"
#include "Expr.h"
#include "KernelModel.h"
#include "Toolkit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LowerMemIntrinsics.h"
#include <functional>
#include <map>
#include <queue>
#include <set>

using namespace llvm;

namespace wgperf {

// ---------------------------------------------------------------------------
// Module and kernel discovery
// ---------------------------------------------------------------------------

bool isGPUModule(const Module &M) {
  Triple T(M.getTargetTriple());
  return T.isNVPTX() || (T.isSPIR() || T.isSPIRV()) || T.isAMDGPU();
}

static std::set<const Function *> annotatedKernels(const Module &M) {
  std::set<const Function *> Out;
  const NamedMDNode *NMD = M.getNamedMetadata("nvvm.annotations");
  if (!NMD)
    return Out;
  for (const MDNode *N : NMD->operands()) {
    if (N->getNumOperands() < 3)
      continue;
    auto *VM = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0));
    auto *Key = dyn_cast_or_null<MDString>(N->getOperand(1));
    auto *Val = dyn_cast_or_null<ConstantAsMetadata>(N->getOperand(2));
    if (!VM || !Key || !Val || Key->getString() != "kernel")
      continue;
    if (auto *F = dyn_cast<Function>(VM->getValue()))
      if (auto *CI = dyn_cast<ConstantInt>(Val->getValue()); CI && !CI->isZero())
        Out.insert(F);
  }
  return Out;
}

static bool isKernel(const Function &F, const std::set<const Function *> &Annotated) {
  if (F.isDeclaration())
    return false;
  CallingConv::ID CC = F.getCallingConv();
  return CC == CallingConv::PTX_Kernel || CC == CallingConv::SPIR_KERNEL ||
         CC == CallingConv::AMDGPU_KERNEL || Annotated.count(&F) ||
         F.hasMetadata("kernel_arg_addr_space");
}

static bool isOpenCL(const Module &M, const Function &F) {
  return M.getNamedMetadata("opencl.ocl.version") ||
         F.hasMetadata("kernel_arg_addr_space") ||
         F.getCallingConv() == CallingConv::SPIR_KERNEL;
}

// What the source says about the sizes kernel F may be launched with.  clang
// writes OpenCL's reqd_work_group_size(X,Y,Z) as function metadata and, in
// LLVM 19, CUDA's __launch_bounds__(MAXT, MINB) as nvvm.annotations
// "maxntidx" and "minctasm" (later LLVMs as the function attributes
// "nvvm.maxntid" and "nvvm.minctasm"; both are read).  IR from elsewhere
// may carry "maxntid{x,y,z}" or "reqntid{x,y,z}" annotations.
static LaunchAttrs launchAttrs(const Module &M, const Function &F, bool OpenCL) {
  LaunchAttrs A;
  uint64_t MaxNtid[3] = {0, 0, 0}, ReqNtid[3] = {0, 0, 0};
  if (MDNode *N = F.getMetadata("reqd_work_group_size"))
    for (unsigned I = 0; I < 3 && I < N->getNumOperands(); ++I)
      if (auto *C = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I)))
        A.Reqd[I] = C->getZExtValue();
  if (const NamedMDNode *NMD = M.getNamedMetadata("nvvm.annotations"))
    for (const MDNode *N : NMD->operands()) {
      auto *VM = N->getNumOperands() ? dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0)) : nullptr;
      if (!VM || VM->getValue() != &F)
        continue;
      // {ptr @f, !"key", i32 value, !"key", i32 value, ...}
      for (unsigned I = 1; I + 1 < N->getNumOperands(); I += 2) {
        auto *Key = dyn_cast_or_null<MDString>(N->getOperand(I));
        auto *Val = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I + 1));
        if (!Key || !Val)
          continue;
        StringRef K = Key->getString();
        uint64_t V = Val->getZExtValue();
        if (K.size() == 8 && K.starts_with("maxntid") && K[7] >= 'x' && K[7] <= 'z')
          MaxNtid[K[7] - 'x'] = V;
        else if (K.size() == 8 && K.starts_with("reqntid") && K[7] >= 'x' && K[7] <= 'z')
          ReqNtid[K[7] - 'x'] = V;
        else if (K == "minctasm")
          A.MinBlocks = V;
      }
    }
  auto ListAttr = [&](StringRef Name, uint64_t Out[3]) {
    Attribute At = F.getFnAttribute(Name);
    if (!At.isStringAttribute())
      return;
    SmallVector<StringRef, 3> Parts;
    At.getValueAsString().split(Parts, ',');
    for (unsigned I = 0; I < 3 && I < Parts.size(); ++I) {
      uint64_t V;
      if (!Parts[I].trim().getAsInteger(10, V))
        Out[I] = V;
    }
  };
  ListAttr("nvvm.maxntid", MaxNtid);
  ListAttr("nvvm.reqntid", ReqNtid);
  uint64_t MinB[3] = {0, 0, 0};
  ListAttr("nvvm.minctasm", MinB);
  if (MinB[0])
    A.MinBlocks = MinB[0];
  if (MaxNtid[0] || MaxNtid[1] || MaxNtid[2]) {
    A.MaxThreads = 1;
    for (uint64_t D : MaxNtid)
      A.MaxThreads *= D ? D : 1;
  }
  if (!A.Reqd[0] && (ReqNtid[0] || ReqNtid[1] || ReqNtid[2]))
    for (unsigned I = 0; I < 3; ++I)
      A.Reqd[I] = ReqNtid[I] ? ReqNtid[I] : 1;
  // How the source spells it, for messages.
  raw_string_ostream OS(A.From);
  if (A.Reqd[0])
    OS << (OpenCL ? "reqd_work_group_size(" : "reqntid(") << A.Reqd[0] << ", " << (A.Reqd[1] ? A.Reqd[1] : 1)
       << ", " << (A.Reqd[2] ? A.Reqd[2] : 1) << ")";
  if (A.MaxThreads) {
    OS << (A.Reqd[0] ? ", " : "");
    if (!OpenCL && !MaxNtid[1] && !MaxNtid[2])
      OS << "__launch_bounds__(" << A.MaxThreads;
    else
      OS << "maxntid(" << (MaxNtid[0] ? MaxNtid[0] : 1) << ", " << (MaxNtid[1] ? MaxNtid[1] : 1) << ", "
         << (MaxNtid[2] ? MaxNtid[2] : 1);
    if (A.MinBlocks)
      OS << ", " << A.MinBlocks;
    OS << ")";
  } else if (A.MinBlocks) {
    OS << (A.Reqd[0] ? ", " : "") << "minctasm(" << A.MinBlocks << ")";
  }
  if (A.Reqd[0])
    for (uint64_t &D : A.Reqd)
      D = D ? D : 1;
  return A;
}

// Address spaces differ between targets; map to the OpenCL names.
static std::string spaceName(const Module &M, unsigned AS) {
  Triple T(M.getTargetTriple());
  if ((T.isSPIR() || T.isSPIRV())) {
    switch (AS) {
    case 1: return "global";
    case 2: return "constant";
    case 3: return "local";
    case 4: return "generic";
    default: return "private";
    }
  }
  if (T.isAMDGPU()) {
    switch (AS) {
    case 1: return "global";
    case 3: return "local";
    case 4: return "constant";
    case 5: return "private";
    default: return "generic";
    }
  }
  switch (AS) { // NVPTX
  case 1: return "global";
  case 3: return "local";
  case 4: return "constant";
  case 5: return "private";
  default: return "generic";
  }
}

// The first instruction of an inline assembly string (braces, declarations
// such as .reg and comments skipped), on one line and short enough for a
// diagnostic, with "..." when more follows.
static std::string asmSummary(StringRef Asm) {
  std::string S;
  bool More = false;
  while (!Asm.empty()) {
    size_t End = Asm.find_first_of(";\n");
    StringRef P = Asm.take_front(End).trim(" \t\r{}");
    Asm = Asm.drop_front(End == StringRef::npos ? Asm.size() : End + 1);
    if (P.empty() || P.starts_with(".") || P.starts_with("//"))
      continue;
    if (!S.empty()) {
      More = true;
      break;
    }
    for (char Ch : P)
      if (!isSpace(Ch) || S.back() != ' ')
        S += isSpace(Ch) ? ' ' : Ch;
  }
  const size_t Max = 48;
  if (S.size() > Max) {
    S.resize(Max);
    More = true;
  }
  return More ? S + " ..." : S;
}

// The outermost location of an inlined instruction: the line in the kernel
// that called the helper, which is what a user wants a report to point at.
static std::string srcLoc(const DebugLoc &DL) {
  if (!DL)
    return "";
  const DILocation *Loc = DL.get();
  while (Loc && Loc->getInlinedAt())
    Loc = Loc->getInlinedAt();
  if (!Loc || Loc->getLine() == 0)
    return "";
  return Loc->getFilename().str() + ":" + std::to_string(Loc->getLine());
}

static std::string blockSource(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (std::string S = srcLoc(I.getDebugLoc()); !S.empty())
      return S;
  return "";
}

// "reverse(float*)::buf" -> "reverse::buf": a function-local static named
// by its kernel, the way a user writes it.
static std::string scopedName(const std::string &Demangled) {
  std::string Out;
  for (size_t I = 0; I < Demangled.size(); ++I) {
    if (Demangled[I] == '(') {
      int Depth = 0;
      size_t J = I;
      for (; J < Demangled.size(); ++J) {
        Depth += Demangled[J] == '(' ? 1 : Demangled[J] == ')' ? -1 : 0;
        if (Depth == 0)
          break;
      }
      if (J < Demangled.size() && Demangled.compare(J + 1, 2, "::") == 0) {
        I = J;
        continue;
      }
    }
    Out += Demangled[I];
  }
  return Out;
}

// ---------------------------------------------------------------------------
// Normalization
// ---------------------------------------------------------------------------

static bool isWorkItemBuiltinName(StringRef Name) {
  if (Name.starts_with("llvm.nvvm.read.ptx.sreg."))
    return true;
  std::string P = plainName(Name);
  return StringRef(P).starts_with("get_") &&
         (P == "get_global_id" || P == "get_local_id" || P == "get_group_id" ||
          P == "get_local_size" || P == "get_enqueued_local_size" || P == "get_num_groups" ||
          P == "get_global_size" || P == "get_global_offset" || P == "get_work_dim");
}

// memset, memcpy and memmove as the NVPTX backend emits them: up to 128
// bytes of constant length as loads and stores as wide as the alignment allows
// (SelectionDAG), longer or unknown lengths as a loop copying a byte at a time
// (NVPTXLowerAggrCopies with the default lowering type).  clang -O3 makes a
// memset of five stores of -1 to out[5 * g + 0..4] (subSeqMax).
static void lowerMemIntrinsics(Module &M) {
  std::vector<MemIntrinsic *> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *MI = dyn_cast<MemIntrinsic>(&I); MI && !MI->isVolatile())
        Calls.push_back(MI);
  if (Calls.empty())
    return;
  TargetTransformInfo TTI(M.getDataLayout());
  for (MemIntrinsic *MI : Calls) {
    auto *Len = dyn_cast<ConstantInt>(MI->getLength());
    if (Len && Len->getZExtValue() <= 128) {
      uint64_t N = Len->getZExtValue();
      IRBuilder<> B(MI);
      Align DA = MI->getDestAlign().valueOrOne();
      Align SA = isa<MemTransferInst>(MI) ? cast<MemTransferInst>(MI)->getSourceAlign().valueOrOne() : DA;
      uint64_t W = std::min<uint64_t>({std::min(DA, SA).value(), 16});
      // the pieces: W bytes at a time, then what remains in smaller powers of two
      std::vector<std::pair<uint64_t, uint64_t>> Pieces; // offset, bytes
      for (uint64_t Off = 0, Step = W; Off < N;) {
        while (Step > N - Off)
          Step /= 2;
        Pieces.push_back({Off, Step});
        Off += Step;
      }
      auto Piece = [&](Value *Base, uint64_t Off) {
        return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Off);
      };
      auto TypeOf = [&](uint64_t Bytes) -> Type * {
        return Bytes == 16 ? (Type *)FixedVectorType::get(B.getInt32Ty(), 4) : B.getIntNTy(8 * Bytes);
      };
      if (auto *MS = dyn_cast<MemSetInst>(MI)) {
        for (auto [Off, Bytes] : Pieces) {
          unsigned Lane = Bytes == 16 ? 4 : Bytes;
          Value *Byte = B.CreateZExt(MS->getValue(), B.getIntNTy(8 * Lane));
          Value *V = B.CreateMul(Byte, ConstantInt::get(B.getIntNTy(8 * Lane), APInt::getSplat(8 * Lane, APInt(8, 1))));
          if (Bytes == 16)
            V = B.CreateVectorSplat(4, V);
          B.CreateAlignedStore(V, Piece(MS->getDest(), Off), commonAlignment(DA, Off));
        }
      } else {
        auto *MT = cast<MemTransferInst>(MI);
        std::vector<Value *> Loaded; // all loads first: a memmove may overlap
        for (auto [Off, Bytes] : Pieces)
          Loaded.push_back(B.CreateAlignedLoad(TypeOf(Bytes), Piece(MT->getSource(), Off), commonAlignment(SA, Off)));
        for (size_t J = 0; J < Pieces.size(); ++J)
          B.CreateAlignedStore(Loaded[J], Piece(MT->getDest(), Pieces[J].first), commonAlignment(DA, Pieces[J].first));
      }
    } else if (auto *MS = dyn_cast<MemSetInst>(MI)) {
      expandMemSetAsLoop(MS);
    } else if (auto *MC = dyn_cast<MemCpyInst>(MI)) {
      expandMemCpyAsLoop(MC, TTI);
    } else if (auto *MM = dyn_cast<MemMoveInst>(MI)) {
      if (!expandMemMoveAsLoop(MM, TTI))
        continue;
    } else {
      continue;
    }
    MI->eraseFromParent();
  }
}

// __ldg and __ldu as clang 19's CUDA headers write them (llvm.nvvm.ldg.global.*,
// llvm.nvvm.ldu.global.*: the pointer and its alignment) become the loads they
// are, marked invariant as LLVM 20's clang emits __ldg: to the model a global
// load like any other, whose address and width the analyses read as usual.
static void lowerReadOnlyLoads(Module &M) {
  for (Function &Fn : M) {
    if (!Fn.isIntrinsic() ||
        !(Fn.getName().starts_with("llvm.nvvm.ldg.global.") || Fn.getName().starts_with("llvm.nvvm.ldu.global.")))
      continue;
    for (User *U : make_early_inc_range(Fn.users())) {
      auto *CI = dyn_cast<CallInst>(U);
      if (!CI || CI->getCalledFunction() != &Fn || CI->arg_size() != 2)
        continue;
      auto *AlignC = dyn_cast<ConstantInt>(CI->getArgOperand(1));
      uint64_t A = AlignC && isPowerOf2_64(AlignC->getZExtValue()) ? AlignC->getZExtValue() : 1;
      IRBuilder<> B(CI);
      LoadInst *L = B.CreateAlignedLoad(CI->getType(), CI->getArgOperand(0), Align(A));
      L->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(M.getContext(), {}));
      L->takeName(CI);
      L->setDebugLoc(CI->getDebugLoc());
      CI->replaceAllUsesWith(L);
      CI->eraseFromParent();
    }
  }
}

// The inline PTX loads and stores of global memory (ptxGlobalAccess: the
// cache-hinted __ldcg, __stcs and the rest as the toolkit's and our CUDA
// headers write them, and a kernel's own) become the volatile accesses they
// are (an asm volatile is never merged, moved or removed), of the width its
// PTX type says, marked with their cache operator (!wgperf.cache): to the
// model an access like any other, whose address, width and data the
// analyses read as usual.  A value loaded into a wider register is extended
// as its type says (s: sign, else zero); a wider register stored is
// truncated to the access.
static void lowerAsmAccesses(Module &M) {
  LLVMContext &Ctx = M.getContext();
  for (Function &F : M)
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      auto *CI = dyn_cast<CallInst>(&I);
      const auto *IA = CI ? dyn_cast<InlineAsm>(CI->getCalledOperand()) : nullptr;
      if (!IA)
        continue;
      std::optional<PtxAccess> A = ptxGlobalAccess(IA->getAsmString(), IA->getConstraintString());
      if (!A)
        continue;
      unsigned Outputs = A->Store ? 0 : A->Lanes;
      auto Operand = [&](unsigned N) { return CI->getArgOperand(N - Outputs); };
      // the register each lane takes, and the lane's type in memory
      Type *Ret = CI->getType();
      SmallVector<Type *, 8> Regs;
      if (A->Store)
        for (unsigned V : A->Values)
          Regs.push_back(Operand(V)->getType());
      else if (auto *ST = dyn_cast<StructType>(Ret); ST && ST->getNumElements() == A->Lanes)
        Regs.append(ST->element_begin(), ST->element_end());
      else if (A->Lanes == 1)
        Regs.push_back(Ret);
      Type *Lane = A->Type == 'f' ? (A->Bits == 64 ? Type::getDoubleTy(Ctx) : Type::getFloatTy(Ctx))
                                  : (Type *)IntegerType::get(Ctx, A->Bits);
      bool Ok = Regs.size() == A->Lanes && Operand(A->Address)->getType()->isPointerTy();
      for (Type *R : Regs)
        Ok = Ok && (R->isIntegerTy() || R->isFloatingPointTy()) && R->getPrimitiveSizeInBits() >= A->Bits;
      if (!Ok)
        continue;
      IRBuilder<> B(CI);
      Value *Ptr = Operand(A->Address); // generic: a global address, as a kernel argument's
      if (A->Offset)
        Ptr = B.CreateConstGEP1_64(B.getInt8Ty(), Ptr, A->Offset);
      Type *Mem = A->Lanes > 1 ? (Type *)FixedVectorType::get(Lane, A->Lanes) : Lane;
      Align Al(A->Lanes * A->Bits / 8);
      // a register of one lane as the lane's type in memory, and back
      auto ToLane = [&](Value *V) -> Value * {
        if (V->getType()->getPrimitiveSizeInBits() != A->Bits)
          V = B.CreateTruncOrBitCast(B.CreateBitCast(V, IntegerType::get(Ctx, V->getType()->getPrimitiveSizeInBits())),
                                     IntegerType::get(Ctx, A->Bits));
        return B.CreateBitCast(V, Lane);
      };
      auto FromLane = [&](Value *V, Type *R) -> Value * {
        unsigned RB = R->getPrimitiveSizeInBits();
        if (RB == A->Bits)
          return B.CreateBitCast(V, R);
        V = B.CreateBitCast(V, IntegerType::get(Ctx, A->Bits));
        V = A->Type == 's' ? B.CreateSExt(V, IntegerType::get(Ctx, RB)) : B.CreateZExt(V, IntegerType::get(Ctx, RB));
        return B.CreateBitCast(V, R);
      };
      Instruction *Access;
      if (A->Store) {
        Value *Val = A->Lanes > 1 ? (Value *)PoisonValue::get(Mem) : nullptr;
        for (unsigned L = 0; L < A->Lanes; ++L) {
          Value *X = ToLane(Operand(A->Values[L]));
          Val = A->Lanes > 1 ? B.CreateInsertElement(Val, X, L) : X;
        }
        Access = B.CreateAlignedStore(Val, Ptr, Al, /*isVolatile=*/true);
      } else {
        LoadInst *Ld = B.CreateAlignedLoad(Mem, Ptr, Al, /*isVolatile=*/true);
        Access = Ld;
        Value *Out = A->Lanes > 1 || Ret->isStructTy() ? (Value *)PoisonValue::get(Ret) : nullptr;
        for (unsigned L = 0; L < A->Lanes; ++L) {
          Value *X = FromLane(A->Lanes > 1 ? B.CreateExtractElement(Ld, L) : Ld, Regs[L]);
          Out = Out ? B.CreateInsertValue(Out, X, L) : X;
        }
        CI->replaceAllUsesWith(Out);
      }
      if (!A->Cache.empty())
        Access->setMetadata("wgperf.cache", MDNode::get(Ctx, MDString::get(Ctx, A->Cache)));
      Access->setDebugLoc(CI->getDebugLoc());
      CI->eraseFromParent();
    }
}

// A private variable the kernel writes once and reads back without taking
// its address (CLBlast's `volatile int tid = get_local_id(0) + MDIMC *
// get_local_id(1)`, kept in memory so that the compiler does not cache it)
// holds the value written: no other work-item can write a thread's private
// memory, volatile or not.  Its loads stay accesses of local memory (the
// GPU executes them), but what they load is the stored value: the
// addresses built from `tid` are the work-item's own, not data
// (docs/kernel-model.md, "Private variables written once").  Before, a
// group's tile loads through `tid` were taken as gathers at hashed places.
static void forwardPrivateStores(Module &M) {
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    DominatorTree DT(F);
    for (Instruction &I : instructions(F)) {
      auto *AI = dyn_cast<AllocaInst>(&I);
      if (!AI)
        continue;
      StoreInst *Only = nullptr;
      bool Ok = true;
      SmallVector<LoadInst *, 8> Loads;
      for (User *U : AI->users()) {
        if (auto *LI = dyn_cast<LoadInst>(U)) {
          Loads.push_back(LI);
        } else if (auto *SI = dyn_cast<StoreInst>(U); SI && SI->getPointerOperand() == AI && !Only) {
          Only = SI;
        } else if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd()) {
          continue;
        } else {
          Ok = false;
          break;
        }
      }
      if (!Ok || !Only)
        continue;
      Value *V = Only->getValueOperand();
      for (LoadInst *LI : Loads)
        if (LI->getType() == V->getType() && DT.dominates(Only, LI))
          LI->replaceAllUsesWith(V);
    }
  }
}

// The clone's load/store vectorizer, made cheaper without changing what it
// does.  Before merging a chain of loads, LLVM 19's vectorizer checks, for
// each load of the chain in block order, every instruction between it and
// the chain's first load for a write that may alias it, unless the load is
// marked !invariant.load: for a fully unrolled stencil (the convolution's
// 225 filter loads and thousands of shared loads, chains that span the
// whole block) that is a scan of the block per load, a twentieth of a
// compile.  In a block where no instruction between its first and last
// simple load reads or writes memory other than a load, every such check
// passes whatever the marks, so the loads are marked for the vectorizer
// (and the marks removed after it, from the merged loads too).  Stores: the
// vectorizer sinks a store past the loads between it and its chain's last
// store unless they may alias, skipping marked loads; a chain of stores
// spans the block's loads only if stores lie on both sides of them, and
// such a block is left unmarked.  A function with marks of its own is left
// alone.  The result is the vectorizer's without the marks, instruction for
// instruction.
static const char *const LsvMarked = "wgperf-lsv-marked";

struct MarkLoadsForLsv : PassInfoMixin<MarkLoadsForLsv> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    for (Instruction &I : instructions(F))
      if (I.hasMetadata(LLVMContext::MD_invariant_load))
        return PreservedAnalyses::all();
    MDNode *Empty = MDNode::get(F.getContext(), {});
    bool Any = false;
    for (BasicBlock &BB : F) {
      Instruction *First = nullptr, *Last = nullptr;
      for (Instruction &I : BB)
        if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isSimple())
          First = First ? First : LI, Last = LI;
      if (!First || First == Last)
        continue;
      int Phase = 0; // before the first load, from it to the last, after
      bool Blocked = false, StoreBefore = false, StoreAfter = false;
      for (Instruction &I : BB) {
        if (&I == First)
          Phase = 1;
        if (Phase == 1 && !isa<LoadInst>(&I) && I.mayReadOrWriteMemory())
          Blocked = true;
        if (isa<StoreInst>(&I))
          (Phase == 0 ? StoreBefore : StoreAfter) = true;
        if (&I == Last)
          Phase = 2;
      }
      if (Blocked || (StoreBefore && StoreAfter))
        continue;
      for (Instruction &I : BB)
        if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isSimple())
          LI->setMetadata(LLVMContext::MD_invariant_load, Empty), Any = true;
    }
    if (Any)
      F.addFnAttr(LsvMarked);
    return PreservedAnalyses::all();
  }
};

struct UnmarkLoadsAfterLsv : PassInfoMixin<UnmarkLoadsAfterLsv> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    if (!F.hasFnAttribute(LsvMarked))
      return PreservedAnalyses::all();
    F.removeFnAttr(LsvMarked);
    for (Instruction &I : instructions(F))
      I.setMetadata(LLVMContext::MD_invariant_load, nullptr);
    return PreservedAnalyses::all();
  }
};

static std::string normalizeClone(Module &M, const std::set<std::string> &KernelNames) {
  // Work-item builtins are pure: say so, so CSE and LICM treat them as the
  // loop invariants they are (a grid-stride loop is then an affine recurrence).
  for (Function &F : M)
    if (F.isDeclaration() && isWorkItemBuiltinName(F.getName())) {
      F.setDoesNotAccessMemory();
      F.setDoesNotThrow();
      F.removeFnAttr(Attribute::Convergent);
      F.addFnAttr(Attribute::WillReturn);
      F.addFnAttr(Attribute::Speculatable);
      F.addFnAttr(Attribute::NoSync);
    }
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.removeFnAttr(Attribute::OptimizeNone);
    F.removeFnAttr(Attribute::NoInline);
    if (!KernelNames.count(F.getName().str()))
      F.addFnAttr(Attribute::AlwaysInline);
  }
  lowerReadOnlyLoads(M);
  lowerAsmAccesses(M);
  lowerMemIntrinsics(M);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "wgperf-lsv-mark")
          FPM.addPass(MarkLoadsForLsv());
        else if (Name == "wgperf-lsv-unmark")
          FPM.addPass(UnmarkLoadsAfterLsv());
        else
          return false;
        return true;
      });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  const char *Pipeline =
      "always-inline,function(sroa,early-cse,instcombine<no-verify-fixpoint>,"
      "simplifycfg,loop-mssa(loop-rotate,licm),sroa,instcombine<no-verify-fixpoint>,"
      "simplifycfg,wgperf-lsv-mark,load-store-vectorizer,wgperf-lsv-unmark,loop-simplify,lcssa)";
  if (auto Err = PB.parsePassPipeline(MPM, Pipeline))
    return toString(std::move(Err));
  MPM.run(M, MAM);
  forwardPrivateStores(M);
  return "";
}

// ---------------------------------------------------------------------------
// Instruction cost classes
// ---------------------------------------------------------------------------

static const char *fpClass(Type *T, const char *Op) {
  static std::set<std::string> Interned;
  Type *S = T->getScalarType();
  std::string Prefix = S->isDoubleTy() ? "fp64_" : S->isHalfTy() || S->isBFloatTy() ? "fp16_" : "fp32_";
  return Interned.insert(Prefix + Op).first->c_str();
}

static unsigned lanes(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements();
  return 1;
}

struct MathFn {
  const char *Name;
  const char *Class; // class for fp32; fp64 maps to fp64_special unless noted
};

// The class of an inline assembly statement that is one integer ALU instruction
// nvcc itself emits through inline PTX (CUDA's headers write __dp4a, the funnel
// shifts and __vabsdiffu4 so, as do clang's CUDA headers; cuda_compat_intrinsics.h
// writes __dp4a so for the stand-ins): a register
// operation without memory, one machine instruction on sm_61 and later.  Null for
// anything else, which stays an unmodelled call.
static const char *asmClass(const InlineAsm &IA) {
  if (StringRef(IA.getConstraintString()).contains("~{memory}") ||
      StringRef(IA.getConstraintString()).contains('*'))
    return nullptr;
  StringRef Asm = IA.getAsmString();
  StringRef Insn;
  while (!Asm.empty()) {
    size_t End = Asm.find_first_of(";\n");
    StringRef P = Asm.take_front(End).trim(" \t\r");
    Asm = Asm.drop_front(End == StringRef::npos ? Asm.size() : End + 1);
    if (P.empty() || P.starts_with("//"))
      continue;
    if (!Insn.empty() || P.contains('{') || P.contains('}') || P.starts_with(".") || P.starts_with("@"))
      return nullptr; // a block, a declaration, a predicate or a second instruction
    Insn = P;
  }
  StringRef Opcode = Insn.take_until([](char C) { return C == '.' || isSpace(C); });
  static const MathFn Table[] = {
      {"dp4a", "int_mul"},   {"dp2a", "int_mul"},      {"shf", "int_logic"},
      {"prmt", "int_logic"}, {"bfe", "int_logic"},     {"bfi", "int_logic"},
      {"lop3", "int_logic"}, {"brev", "int_logic"},    {"popc", "int_logic"},
      {"clz", "int_logic"},  {"bfind", "int_logic"},   {"sad", "int_add"},
      {"vabsdiff4", "int_add"}, {"vabsdiff2", "int_add"},
  };
  for (const MathFn &E : Table)
    if (Opcode == E.Name)
      return E.Class;
  return nullptr;
}

// Names after stripping Itanium mangling and CUDA/libdevice prefixes.
// APPROX: a float call that may be approximated (its afn flag: CUDA's
// -ffast-math, OpenCL's -cl-fast-relaxed-math; approxCall): a function nvcc's
// -use_fast_math replaces by its intrinsic (__sinf, __expf, __powf, ...:
// CUDA's programming guide, "Intrinsic Functions") is the fast class too;
// clang's own CUDA headers do so for a few (sinf, cosf, logf, log2f),
// NVIDIA's compilers for all of these.
static const char *mathClass(StringRef N, Type *T, bool Approx = false) {
  bool F64 = T->getScalarType()->isDoubleTy();
  static const MathFn Table[] = {
      {"sqrt", "sfu_sqrt"},   {"rsqrt", "sfu_rsqrt"}, {"sin", "sfu_sin"},
      {"cos", "sfu_cos"},     {"tan", "sfu_tan"},     {"exp", "sfu_exp"},
      {"exp2", "sfu_exp"},    {"exp10", "sfu_exp"},   {"expm1", "sfu_exp"},
      {"log", "sfu_log"},     {"log2", "sfu_log"},    {"log10", "sfu_log"},
      {"log1p", "sfu_log"},   {"pow", "sfu_pow"},     {"powr", "sfu_pow"},
      {"pown", "sfu_pow"},    {"cbrt", "sfu_pow"},    {"rcp", "div"},
      {"divide", "div"},      {"fdividef", "div"},    {"fdiv_rn", "div"},
      {"sincos", "sfu_sin"},  {"atan", "sfu_tan"},    {"atan2", "sfu_tan"},
      {"asin", "sfu_tan"},    {"acos", "sfu_tan"},    {"tanh", "sfu_exp"},
      {"erf", "sfu_exp"},     {"erfc", "sfu_exp"},    {"erfinv", "sfu_exp"},
      {"erfcinv", "sfu_exp"}, {"sinh", "sfu_exp"},    {"cosh", "sfu_exp"},
      {"asinh", "sfu_log"},   {"acosh", "sfu_log"},   {"atanh", "sfu_log"},
      {"lgamma", "sfu_log"},  {"tgamma", "sfu_exp"},  {"logb", "sfu_log"},
      {"hypot", "sfu_sqrt"},  {"remainder", "div"},
      // CUDA's and OpenCL's other functions of the same kinds: the trigonometric
      // functions of pi*x, roots, reciprocals and norms, the normal distribution
      // and the Bessel functions (Y and J through sin/cos, I through exp)
      {"sinpi", "sfu_sin"},   {"cospi", "sfu_cos"},   {"sincospi", "sfu_sin"},
      {"tanpi", "sfu_tan"},   {"asinpi", "sfu_tan"},  {"acospi", "sfu_tan"},
      {"atanpi", "sfu_tan"},  {"atan2pi", "sfu_tan"}, {"rootn", "sfu_pow"},
      {"rcbrt", "sfu_pow"},   {"recip", "div"},       {"rhypot", "sfu_rsqrt"},
      {"norm3d", "sfu_sqrt"}, {"norm4d", "sfu_sqrt"}, {"rnorm3d", "sfu_rsqrt"},
      {"rnorm4d", "sfu_rsqrt"}, {"normcdf", "sfu_exp"}, {"normcdfinv", "sfu_exp"},
      {"erfcx", "sfu_exp"},   {"cyl_bessel_i0", "sfu_exp"}, {"cyl_bessel_i1", "sfu_exp"},
      {"j0", "sfu_sin"},      {"j1", "sfu_sin"},      {"y0", "sfu_sin"},
      {"y1", "sfu_sin"},      {"ilogb", "sfu_log"},
  };
  // The fast intrinsics: OpenCL's native_ and half_ functions, CUDA's __sinf,
  // __expf, __fdividef ... (libdevice's __nv_fast_*): one MUFU instruction with
  // at most an FMUL beside, not the precise function's sequence (sfu_fast).
  // CUDA's rounded __fdiv_rn, __fsqrt_rn ... are precise; __nv_sinf is sinf.
  bool Fast = N.starts_with("native_") || N.starts_with("half_") || N.starts_with("__nv_fast_") ||
              (N.starts_with("__") && !N.starts_with("__nv_") && !N.ends_with("_rn") && !N.ends_with("_rz") &&
               !N.ends_with("_ru") && !N.ends_with("_rd"));
  StringRef Base = N;
  for (StringRef P : {"native_", "half_", "__nv_", "__", "fast_"})
    Base.consume_front(P);
  auto Lookup = [&](StringRef B) -> const char * {
    bool Intrinsic = false;
    for (StringRef I : {"sin", "cos", "sincos", "tan", "exp", "exp10", "log", "log2", "log10", "pow"})
      Intrinsic = Intrinsic || (Approx && B == I);
    for (const MathFn &E : Table)
      if (B == E.Name) {
        if ((Fast || Intrinsic) && !F64 && StringRef(E.Class) != "sfu_rsqrt")
          return "sfu_fast";
        if (StringRef(E.Class) == "div")
          return F64 ? "fp64_div" : "fp32_div";
        return F64 ? "fp64_special" : E.Class;
      }
    return nullptr;
  };
  if (const char *C = Lookup(Base))
    return C;
  if (Base.ends_with("f") && Base.size() > 2) {
    if (const char *C = Lookup(Base.drop_back())) // sinf -> sin
      return C;
    Base = Base.drop_back();
  }
  // rounding to an integer: one cvt.rni/cvt.rzi (lrintf, llroundf, ...)
  for (StringRef ConvName : {"lrint", "llrint", "lround", "llround"})
    if (Base == ConvName)
      return "conv";
  for (StringRef FmaName : {"fma", "mad", "fmaf", "mad24", "mad_sat"})
    if (Base == FmaName || N == FmaName)
      return T->isIntegerTy() ? "int_mul" : (F64 ? "fp64_fma" : "fp32_fma");
  for (StringRef AddLike : {"fabs", "fmin", "fmax", "min", "max", "clamp", "floor",
                            "ceil", "trunc", "round", "rint", "copysign", "fmod",
                            "abs", "mix", "sign", "fdim", "nextafter", "ldexp", "nearbyint",
                            "maxmag", "minmag"})
    if (Base == AddLike)
      return T->isIntegerTy() ? "int_add" : (F64 ? "fp64_add" : "fp32_add");
  return nullptr;
}

// OpenCL C lets a float division be 2.5 ulp off and sqrt 3 ulp (clang marks
// both with !fpmath unless -cl-fp32-correctly-rounded-divide-sqrt is given):
// NVIDIA's OpenCL compiler then emits a reciprocal and a multiply, or one
// MUFU, not CUDA's IEEE sequence. Measured on the H100 through OpenCL
// (microbench/results/h100-2026-11-25): x / y 45.6 cycles and 13.9 per cycle
// per SM, sqrt 39.4 and 15.7, against CUDA's IEEE 57.7 / 7.0 and 55.6 / 10.9;
// the fast classes measure 43.1 / 15.6 (__expf: MUFU and FMUL) and 39.1 /
// 15.9 (rsqrt: one MUFU). So an operation allowed 2 ulp or more takes those.
// So does every float division and square root of a function compiled with
// -ffast-math (CUDA's nvcc -use_fast_math, which wgtune passes so, or
// OpenCL's -cl-fast-relaxed-math): its "unsafe-fp-math" is what makes the
// NVPTX back end emit div.approx.f32 and sqrt.approx.f32 (getDivF32Level,
// usePrecSqrtF32), as nvcc's -prec-div=false -prec-sqrt=false do.
static bool fastMathFunction(const Instruction &I) {
  const Function *F = I.getFunction();
  return F && F->getFnAttribute("unsafe-fp-math").getValueAsBool();
}

static bool relaxedAccuracy(const Instruction &I) {
  const auto *FP = dyn_cast<FPMathOperator>(&I);
  return FP && I.getType()->getScalarType()->isFloatTy() && (FP->getFPAccuracy() >= 2.0f || fastMathFunction(I));
}

// A float call that may be approximated (mathClass's APPROX).
static bool approxCall(const Instruction &I) {
  const auto *FP = dyn_cast<FPMathOperator>(&I);
  return FP && I.getType()->getScalarType()->isFloatTy() && (FP->hasApproxFunc() || fastMathFunction(I));
}

// The NVPTX back end's float division: 2 IEEE (div.rn.f32, the default), 1
// div.full.f32, 0 div.approx.f32.  nvcc's -prec-div=false makes div.full.f32;
// wgperf's command line passes it as clang's -mllvm -nvptx-prec-divf32=1,
// read here from LLVM's registry of options, where the back end linked into
// clang and opt registers it (its type there: cl::opt<int>).
static int nvptxPrecDivF32() {
  const auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find("nvptx-prec-divf32");
  return It == Opts.end() ? 2 : static_cast<const cl::opt<int> *>(It->second)->getValue();
}

// The NVPTX back end's float square root: true sqrt.rn.f32 (the default),
// false sqrt.approx.f32.  nvcc's -prec-sqrt=false makes the approximate one;
// wgperf's command line passes it as clang's -mllvm -nvptx-prec-sqrtf32=0,
// read here as -nvptx-prec-divf32 is (its type there: cl::opt<bool>).
static bool nvptxPrecSqrtF32() {
  const auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find("nvptx-prec-sqrtf32");
  return It == Opts.end() || static_cast<const cl::opt<bool> *>(It->second)->getValue();
}

static const char *relaxedClass(const Instruction &I, const char *Class) {
  bool F32 = I.getType()->getScalarType()->isFloatTy();
  /* div.full.f32: a reciprocal and a multiply, as the relaxed division */
  if (Class && StringRef(Class) == "fp32_div" && F32 && nvptxPrecDivF32() < 2)
    return "sfu_fast";
  /* sqrt.approx.f32: the relaxed square root */
  if (Class && StringRef(Class) == "sfu_sqrt" && F32 && !nvptxPrecSqrtF32())
    return "sfu_rsqrt";
  if (!Class || !relaxedAccuracy(I))
    return Class;
  if (StringRef(Class) == "sfu_sqrt")
    return "sfu_rsqrt";
  if (StringRef(Class) == "fp32_div")
    return "sfu_fast";
  return Class;
}

enum class CallKind { Ignore, Counted, Barrier, Atomic, Unresolved };

struct CallClass {
  CallKind Kind = CallKind::Unresolved;
  const char *Class = nullptr;
  std::string Atomic;
  CostSequence Sequence; // counted instead of Class (Toolkit.h)
  CallClass(CallKind Kind = CallKind::Unresolved, const char *Class = nullptr, std::string Atomic = "")
      : Kind(Kind), Class(Class), Atomic(std::move(Atomic)) {}
};

// A call whose cost is a sequence of instructions: free when it is empty.
static CallClass sequenceCall(CostSequence S) {
  CallClass R;
  R.Kind = S.empty() ? CallKind::Ignore : CallKind::Counted;
  R.Sequence = std::move(S);
  return R;
}

static CallClass classifyCall(const CallBase &CB) {
  CallClass R;
  const Function *F = CB.getCalledFunction();
  if (!F) {
    if (const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand())) {
      if (const char *C = asmClass(*IA))
        return {CallKind::Counted, C, ""};
      if (std::optional<std::string> Op = ptxAtomic(IA->getAsmString(), IA->getConstraintString()))
        return {CallKind::Atomic, nullptr, *Op};
      if (std::optional<CostSequence> S = ptxCost(IA->getAsmString(), IA->getConstraintString()))
        return sequenceCall(std::move(*S));
    }
    R.Class = "call";
    return R;
  }
  StringRef Name = F->getName();
  Type *T = CB.getType();
  Type *ArgT = CB.arg_size() ? CB.getArgOperand(0)->getType() : T;
  if (!classifyWorkItemCall(CB).Symbol.empty() || Name.starts_with("llvm.nvvm.read.ptx.sreg."))
    return {CallKind::Ignore, nullptr, ""};
  if (F->isIntrinsic()) {
    switch (F->getIntrinsicID()) {
    case Intrinsic::fma:
    case Intrinsic::fmuladd:
      return {CallKind::Counted, fpClass(T, "fma"), ""};
    case Intrinsic::sqrt:
      return {CallKind::Counted, relaxedClass(CB, T->getScalarType()->isDoubleTy() ? "fp64_special" : "sfu_sqrt"), ""};
    case Intrinsic::sin: case Intrinsic::cos: case Intrinsic::exp: case Intrinsic::exp2:
    case Intrinsic::exp10: case Intrinsic::log: case Intrinsic::log2: case Intrinsic::log10:
    case Intrinsic::pow: case Intrinsic::powi: {
      StringRef Base = Name.drop_front(5).split('.').first; // llvm.sin.f32 -> sin
      return {CallKind::Counted, mathClass(Base, T, approxCall(CB)), ""};
    }
    case Intrinsic::fabs: case Intrinsic::copysign: case Intrinsic::minnum:
    case Intrinsic::maxnum: case Intrinsic::minimum: case Intrinsic::maximum:
    case Intrinsic::floor: case Intrinsic::ceil: case Intrinsic::trunc:
    case Intrinsic::rint: case Intrinsic::nearbyint: case Intrinsic::round:
    case Intrinsic::roundeven:
      return {CallKind::Counted, fpClass(T, "add"), ""};
    case Intrinsic::smin: case Intrinsic::smax: case Intrinsic::umin:
    case Intrinsic::umax: case Intrinsic::abs: case Intrinsic::sadd_sat:
    case Intrinsic::uadd_sat: case Intrinsic::ssub_sat: case Intrinsic::usub_sat:
      return {CallKind::Counted, T->getScalarSizeInBits() > 32 ? "int64_add" : "int_add", ""};
    case Intrinsic::ctpop: case Intrinsic::ctlz: case Intrinsic::cttz:
    case Intrinsic::bitreverse: case Intrinsic::bswap: case Intrinsic::fshl:
    case Intrinsic::fshr:
      return {CallKind::Counted, "int_logic", ""};
    case Intrinsic::memcpy: case Intrinsic::memmove: case Intrinsic::memset:
      R.Class = "call";
      return R;
    default:
      break;
    }
    if (Name.starts_with("llvm.nvvm.")) {
      StringRef N = Name.drop_front(strlen("llvm.nvvm."));
      // __syncwarp: the lanes of one warp, not the block's barrier
      if (N.starts_with("bar.warp"))
        return {CallKind::Counted, "other", ""};
      // warp shuffles cross the lanes through the shared-memory crossbar
      if (N.starts_with("shfl"))
        return {CallKind::Counted, "shfl", ""};
      // votes (__ballot_sync, __any_sync, __all_sync), __activemask, __match_*_sync,
      // __reduce_*_sync: one instruction each (VOTE, MATCH, REDUX)
      if (N.starts_with("vote") || N.starts_with("activemask") || N.starts_with("match") ||
          N.starts_with("redux"))
        return {CallKind::Counted, "int_logic", ""};
      // __syncthreads_count/_and/_or: one BAR.RED, a barrier whose result is a
      // block-wide reduction, counted as a REDUX's is
      if (N.starts_with("barrier0.popc") || N.starts_with("barrier0.and") || N.starts_with("barrier0.or"))
        return {CallKind::Barrier, "int_logic", ""};
      if (N.starts_with("barrier") || N.starts_with("bar."))
        return {CallKind::Barrier, "barrier", ""};
      // __byte_perm (PRMT), __sad/__usad, __mul64hi/__umul64hi: one instruction each
      if (N.starts_with("prmt"))
        return {CallKind::Counted, "int_logic", ""};
      if (N.starts_with("sad."))
        return {CallKind::Counted, T->getScalarSizeInBits() > 32 ? "int64_add" : "int_add", ""};
      if (N.starts_with("mulhi.") || N.starts_with("mul24."))
        return {CallKind::Counted, T->getScalarSizeInBits() > 32 ? "int64_mul" : "int_mul", ""};
      if (N.starts_with("membar") || N.starts_with("fence"))
        return {CallKind::Counted, "fence", ""};
      // the approximate forms (sqrt.approx, div.approx, div.full = __fdividef,
      // rcp.approx) are MUFU instructions, the IEEE-rounded ones sequences
      if ((N.starts_with("sqrt.approx") || N.starts_with("div.approx") || N.starts_with("div.full") ||
           N.starts_with("rcp.approx")) && !N.ends_with(".d"))
        return {CallKind::Counted, "sfu_fast", ""};
      if (N.starts_with("sqrt")) return {CallKind::Counted, N.ends_with(".d") ? "fp64_special" : "sfu_sqrt", ""};
      if (N.starts_with("rsqrt")) return {CallKind::Counted, N.ends_with(".d") ? "fp64_special" : "sfu_rsqrt", ""};
      // sin.approx, cos.approx, ex2.approx, lg2.approx: one MUFU each
      if (N.starts_with("sin") || N.starts_with("cos") || N.starts_with("ex2") || N.starts_with("lg2"))
        return {CallKind::Counted, N.ends_with(".d") ? "fp64_special" : "sfu_fast", ""};
      if (N.starts_with("div") || N.starts_with("rcp"))
        return {CallKind::Counted, N.ends_with(".d") ? "fp64_div" : "fp32_div", ""};
      if (N.starts_with("fma")) return {CallKind::Counted, N.ends_with(".d") ? "fp64_fma" : "fp32_fma", ""};
      if (N.starts_with("fmin") || N.starts_with("fmax") || N.starts_with("fabs"))
        return {CallKind::Counted, N.ends_with(".d") ? "fp64_add" : "fp32_add", ""};
      if (N.starts_with("atomic")) {
        // atomic.load.inc.32.p0 (atomicInc), atomic.add.gen.f.cta.f32.p0
        // (atomicAdd_block on a float): the operation, as an atomicrmw names it
        StringRef Op = N.drop_front(strlen("atomic"));
        Op.consume_front(".");
        Op.consume_front("load.");
        Op = Op.take_until([](char C) { return C == '.'; });
        bool Float = N.contains(".f.") || N.contains(".f32") || N.contains(".f64");
        return {CallKind::Atomic, nullptr, (Float && Op == "add" ? "fadd" : Op.str())};
      }
      if (N.starts_with("ldg") || N.starts_with("ldu"))
        return {CallKind::Counted, nullptr, ""}; // loads after normalization (lowerReadOnlyLoads)
      return {CallKind::Counted, "other", ""};
    }
    // Annotations and debug intrinsics cost nothing.
    return {CallKind::Ignore, nullptr, ""};
  }
  if (std::optional<CostSequence> S = libdeviceCost(Name))
    return sequenceCall(std::move(*S));
  std::string P = plainName(Name);
  StringRef PN(P);
  if (PN == "barrier" || PN == "work_group_barrier" || PN == "__syncthreads")
    return {CallKind::Barrier, "barrier", ""};
  if (PN == "mem_fence" || PN == "read_mem_fence" || PN == "write_mem_fence" ||
      PN == "atomic_work_item_fence" || PN == "__threadfence")
    return {CallKind::Counted, "fence", ""};
  if (PN.starts_with("atomic_") || PN.starts_with("atom_") || PN.starts_with("atomic"))
    return {CallKind::Atomic, nullptr, PN.str()};
  // CUDA's device printf (lowered to vprintf) and failed assert: the driver's
  // own calls, a call's issue slot each; what they write is not modelled
  if (PN == "vprintf" || PN == "__assertfail")
    return {CallKind::Counted, "call", ""};
  if (const char *C = mathClass(PN, T->isVoidTy() ? ArgT : T, approxCall(CB)))
    return {CallKind::Counted, relaxedClass(CB, C), ""};
  // OpenCL conversions (convert_float4, convert_uchar4_sat, ...): libclc
  // is not linked into the model, so they arrive as calls; one conversion
  // per element, as the backend emits them.
  if (PN.starts_with("convert_"))
    return {CallKind::Counted, "conv", ""};
  // OpenCL's integer and relational built-ins (libclc is not linked into the
  // model): one instruction of their class per lane, as the backend emits
  // most of them (a 32-bit mul_hi is one IMAD.HI, popcount one POPC, a
  // select one SEL)
  {
    static const MathFn Table[] = {
        {"select", "cmp_select"},  {"bitselect", "int_logic"}, {"popcount", "int_logic"},
        {"clz", "int_logic"},      {"ctz", "int_logic"},       {"rotate", "int_logic"},
        {"upsample", "int_logic"}, {"abs_diff", "int_add"},    {"add_sat", "int_add"},
        {"sub_sat", "int_add"},    {"hadd", "int_add"},        {"rhadd", "int_add"},
        {"mul_hi", "int_mul"},     {"mad_hi", "int_mul"},      {"mad_sat", "int_mul"},
        {"mul24", "int_mul"},      {"step", "cmp_select"},     {"isnan", "cmp_select"},
        {"isinf", "cmp_select"},   {"isfinite", "cmp_select"}, {"signbit", "int_logic"},
        {"any", "int_logic"},      {"all", "int_logic"},       {"isequal", "cmp_select"},
        {"isnotequal", "cmp_select"}, {"isgreater", "cmp_select"}, {"isgreaterequal", "cmp_select"},
        {"isless", "cmp_select"},  {"islessequal", "cmp_select"}, {"islessgreater", "cmp_select"},
        {"isordered", "cmp_select"}, {"isunordered", "cmp_select"}, {"isnormal", "cmp_select"},
        {"nan", "int_logic"},
    };
    for (const MathFn &B : Table)
      if (PN == B.Name)
        return {CallKind::Counted, B.Class, ""};
    if (PN == "degrees" || PN == "radians")
      return {CallKind::Counted, fpClass(T, "mul"), ""};
    if (PN == "smoothstep" || PN == "fract")
      return {CallKind::Counted, fpClass(T, "fma"), ""};
  }
  R.Class = "call";
  return R;
}

static void bump(std::map<std::string, uint64_t> &Counts, const std::string &K, uint64_t N = 1) {
  Counts[K] += N;
}

/// Counts \p I; \p VectorBytes is the width the backend gives a merged
/// shared-memory access (0: the access's own).
static void classifyInstruction(const Instruction &I, const std::string &Space,
                                std::map<std::string, uint64_t> &Counts, unsigned VectorBytes = 0) {
  Type *T = I.getType();
  unsigned N = lanes(T);
  if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
    bool Wide = T->getScalarSizeInBits() > 32;
    switch (BO->getOpcode()) {
    case Instruction::FAdd: case Instruction::FSub:
      bump(Counts, fpClass(T, wgperf::absorbsFmul(I) ? "fma" : "add"), N);
      return;
    case Instruction::FMul:
      if (!wgperf::fusedIntoFma(I))
        bump(Counts, fpClass(T, "mul"), N);
      return;
    case Instruction::FDiv: case Instruction::FRem: bump(Counts, relaxedClass(I, fpClass(T, "div")), N); return;
    case Instruction::Add: case Instruction::Sub:
      bump(Counts, T->getScalarSizeInBits() == 1 ? "int_logic" : Wide ? "int64_add" : "int_add", N);
      return;
    case Instruction::Mul: bump(Counts, Wide ? "int64_mul" : "int_mul", N); return;
    case Instruction::UDiv: case Instruction::SDiv: case Instruction::URem:
    case Instruction::SRem: {
      // ptxas turns division by a constant into shifts or a multiply-high.
      if (auto *C = dyn_cast<ConstantInt>(BO->getOperand(1))) {
        bump(Counts, C->getValue().isPowerOf2() ? "int_logic" : (Wide ? "int64_mul" : "int_mul"), N);
        return;
      }
      bump(Counts, Wide ? "int64_div" : "int_div", N);
      return;
    }
    case Instruction::Shl:
      // (x << k) >> k is a sign or zero extension: free, like sext/zext.
      if (BO->hasOneUse())
        if (auto *U = dyn_cast<BinaryOperator>(*BO->user_begin()))
          if ((U->getOpcode() == Instruction::AShr || U->getOpcode() == Instruction::LShr) &&
              U->getOperand(1) == BO->getOperand(1) && isa<ConstantInt>(BO->getOperand(1)))
            return;
      bump(Counts, "int_logic", N);
      return;
    case Instruction::AShr:
    case Instruction::LShr:
      if (auto *Sh = dyn_cast<BinaryOperator>(BO->getOperand(0)))
        if (Sh->getOpcode() == Instruction::Shl && Sh->hasOneUse() &&
            Sh->getOperand(1) == BO->getOperand(1) && isa<ConstantInt>(BO->getOperand(1)))
          return;
      bump(Counts, "int_logic", N);
      return;
    default: bump(Counts, "int_logic", N); return;
    }
  }
  // Building and splitting vectors is register naming, not work.
  if (isa<InsertElementInst>(I) || isa<ExtractElementInst>(I) || isa<ShuffleVectorInst>(I) ||
      isa<InsertValueInst>(I) || isa<ExtractValueInst>(I))
    return;
  if (isa<UnaryOperator>(I)) { bump(Counts, fpClass(T, "add"), N); return; }
  if (isa<CmpInst>(I) || isa<SelectInst>(I)) { bump(Counts, "cmp_select", N); return; }
  if (auto *C = dyn_cast<CastInst>(&I)) {
    switch (C->getOpcode()) {
    case Instruction::SIToFP: case Instruction::UIToFP: case Instruction::FPToSI:
    case Instruction::FPToUI: case Instruction::FPExt: case Instruction::FPTrunc:
      bump(Counts, "conv", N);
      return;
    default: return; // extensions, truncations and casts fold into their users
    }
  }
  if (auto *GEP = dyn_cast<GetElementPtrInst>(&I)) {
    if (!GEP->hasAllConstantIndices())
      bump(Counts, "addr");
    return;
  }
  if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
    const Value *V = isa<StoreInst>(I) ? cast<StoreInst>(I).getValueOperand() : &I;
    unsigned Bits =
        VectorBytes ? 8 * VectorBytes : I.getModule()->getDataLayout().getTypeStoreSizeInBits(V->getType());
    bump(Counts, std::string(isa<LoadInst>(I) ? "ld." : "st.") + Space + "." + std::to_string(Bits));
    return;
  }
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
    bump(Counts, "atom." + Space);
    return;
  }
  if (auto *Br = dyn_cast<BranchInst>(&I)) {
    if (Br->isConditional())
      bump(Counts, "branch");
    return;
  }
  if (isa<SwitchInst>(I)) { bump(Counts, "branch"); return; }
  if (isa<PHINode>(I) || isa<ReturnInst>(I) || isa<UnreachableInst>(I) ||
      isa<AllocaInst>(I) || isa<FreezeInst>(I) || I.isDebugOrPseudoInst())
    return;
  bump(Counts, "other", N);
}

// ---------------------------------------------------------------------------
// Kernel arguments
// ---------------------------------------------------------------------------

static uint64_t clTypeBytes(StringRef Ty) {
  Ty = Ty.trim();
  Ty.consume_front("const ");
  Ty.consume_front("unsigned ");
  Ty.consume_front("signed ");
  static const struct { const char *N; uint64_t B; } Base[] = {
      {"char", 1}, {"uchar", 1}, {"bool", 1},  {"short", 2}, {"ushort", 2},
      {"half", 2}, {"int", 4},   {"uint", 4},  {"float", 4}, {"long", 8},
      {"ulong", 8}, {"double", 8}, {"size_t", 8}, {"intptr_t", 8},
  };
  size_t NumStart = Ty.find_first_of("0123456789");
  StringRef Name = Ty.substr(0, NumStart);
  uint64_t Width = 1;
  if (NumStart != StringRef::npos) {
    if (Ty.substr(NumStart).getAsInteger(10, Width))
      return 0;
    if (Width == 3)
      Width = 4; // OpenCL 3-vectors are stored as 4
  }
  for (auto &E : Base)
    if (Name == E.N)
      return E.B * Width;
  return 0;
}

static std::string mdString(const Function &F, const char *Kind, unsigned Idx) {
  if (MDNode *N = F.getMetadata(Kind))
    if (Idx < N->getNumOperands())
      if (auto *S = dyn_cast_or_null<MDString>(N->getOperand(Idx)))
        return S->getString().str();
  return "";
}

static int mdInt(const Function &F, const char *Kind, unsigned Idx) {
  if (MDNode *N = F.getMetadata(Kind))
    if (Idx < N->getNumOperands())
      if (auto *C = dyn_cast_or_null<ConstantAsMetadata>(N->getOperand(Idx)))
        if (auto *CI = dyn_cast<ConstantInt>(C->getValue()))
          return (int)CI->getSExtValue();
  return -1;
}

static const DILocalVariable *argDebugVar(const Function &F, unsigned ArgNo) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      for (const DbgVariableRecord &DVR : filterDbgVars(I.getDbgRecordRange()))
        if (DVR.getVariable()->getArg() == ArgNo + 1)
          return DVR.getVariable();
      if (auto *DVI = dyn_cast<DbgVariableIntrinsic>(&I))
        if (DVI->getVariable()->getArg() == ArgNo + 1)
          return DVI->getVariable();
    }
  if (DISubprogram *SP = F.getSubprogram())
    for (const DINode *N : SP->getRetainedNodes())
      if (auto *V = dyn_cast<DILocalVariable>(N); V && V->getArg() == ArgNo + 1)
        return V;
  return nullptr;
}

static std::string diTypeName(const DIType *T, uint64_t &PointeeBytes, bool &Const) {
  std::string Suffix;
  while (T) {
    if (auto *D = dyn_cast<DIDerivedType>(T)) {
      switch (D->getTag()) {
      case dwarf::DW_TAG_pointer_type:
        Suffix = "*" + Suffix;
        if (const DIType *B = D->getBaseType()) {
          const DIType *S = B;
          while (auto *DD = dyn_cast_or_null<DIDerivedType>(S)) {
            if (DD->getTag() == dwarf::DW_TAG_const_type)
              Const = true;
            if (DD->getTag() != dwarf::DW_TAG_const_type && DD->getTag() != dwarf::DW_TAG_volatile_type &&
                DD->getTag() != dwarf::DW_TAG_typedef && DD->getTag() != dwarf::DW_TAG_restrict_type)
              break;
            S = DD->getBaseType();
          }
          if (S && PointeeBytes == 0)
            PointeeBytes = S->getSizeInBits() / 8;
        }
        T = D->getBaseType();
        continue;
      case dwarf::DW_TAG_const_type:
        T = D->getBaseType();
        continue;
      case dwarf::DW_TAG_typedef:
        return D->getName().str() + Suffix;
      default:
        T = D->getBaseType();
        continue;
      }
    }
    return T->getName().str() + Suffix;
  }
  return "void" + Suffix;
}

// Parameter types from a demangled C++ signature: "k(float const*, int)".
static std::vector<std::string> signatureParams(const std::string &Sig) {
  std::vector<std::string> Out;
  size_t Open = Sig.find('(');
  if (Open == std::string::npos || Sig.empty() || Sig.back() != ')')
    return Out;
  int Depth = 0;
  std::string Cur;
  for (size_t I = Open + 1; I + 1 < Sig.size(); ++I) {
    char C = Sig[I];
    if (C == '(' || C == '<') ++Depth;
    if (C == ')' || C == '>') --Depth;
    if (C == ',' && Depth == 0) {
      Out.push_back(StringRef(Cur).trim().str());
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  if (!StringRef(Cur).trim().empty())
    Out.push_back(StringRef(Cur).trim().str());
  return Out;
}

static std::vector<ArgInfo> collectArgs(const Module &M, const Function &F, bool CL) {
  std::vector<ArgInfo> Out;
  std::vector<std::string> SigTypes = signatureParams(demangle(F.getName().str()));
  if (SigTypes.size() != F.arg_size())
    SigTypes.clear();
  const DataLayout &DL = M.getDataLayout();
  for (const Argument &A : F.args()) {
    ArgInfo AI;
    AI.Index = A.getArgNo();
    const DILocalVariable *DV = argDebugVar(F, AI.Index);
    AI.Name = mdString(F, "kernel_arg_name", AI.Index);
    if (AI.Name.empty() && A.hasName())
      AI.Name = A.getName().str();
    if (AI.Name.empty() && DV)
      AI.Name = DV->getName().str();
    if (AI.Name.empty())
      AI.Name = "arg" + std::to_string(AI.Index);
    AI.Type = mdString(F, "kernel_arg_type", AI.Index);
    uint64_t DIBytes = 0;
    const DIType *DT = DV ? DV->getType() : nullptr;
    if (!DT)
      if (const DISubprogram *SP = F.getSubprogram())
        if (const DISubroutineType *ST = SP->getType()) {
          DITypeRefArray Types = ST->getTypeArray(); // [return, params...]
          if (AI.Index + 1 < Types.size())
            DT = Types[AI.Index + 1];
        }
    if (AI.Type.empty() && DT)
      AI.Type = diTypeName(DT, DIBytes, AI.IsConst);
    if (AI.Type.empty() && !SigTypes.empty()) {
      // "float const*" -> "float*", const noted
      std::string T = SigTypes[AI.Index];
      for (const char *Q : {" const", "const ", " volatile", "volatile ", " __restrict", " restrict"})
        for (size_t P; (P = T.find(Q)) != std::string::npos;) {
          if (StringRef(Q).contains("const") && T.find('*') != std::string::npos && P < T.rfind('*'))
            AI.IsConst = true;
          T.erase(P, strlen(Q));
        }
      AI.Type = T;
    }
    if (mdString(F, "kernel_arg_type_qual", AI.Index).find("const") != std::string::npos)
      AI.IsConst = true;
    // OpenCL's opaque handles (image2d_t, sampler_t, ...) are pointers in the
    // IR, a sampler one in the private space: no memory the kernel indexes,
    // so a scalar of the handle's size (reading an image is an unresolved
    // call, said so)
    StringRef ClTy = CL ? StringRef(AI.Type) : StringRef();
    bool Handle = (ClTy.starts_with("image") && ClTy.ends_with("_t") && !ClTy.contains('*')) ||
                  ClTy == "sampler_t" || ClTy == "queue_t" || ClTy == "clk_event_t" || ClTy == "reserve_id_t" ||
                  (CL && mdString(F, "kernel_arg_type_qual", AI.Index).find("pipe") != std::string::npos) ||
                  (CL && A.getType()->isPointerTy() && !A.hasByValAttr() &&
                   mdInt(F, "kernel_arg_addr_space", AI.Index) == 0);
    if (Handle) {
      AI.Kind = "scalar";
      AI.Space = "private";
      AI.ElemBytes = DL.getTypeAllocSize(A.getType());
      AI.ElemBytesSource = "type";
    } else if (auto *PT = dyn_cast<PointerType>(A.getType())) {
      AI.Kind = "pointer";
      int ClAS = mdInt(F, "kernel_arg_addr_space", AI.Index);
      if (ClAS >= 0) {
        static const char *ClNames[] = {"private", "global", "constant", "local"};
        AI.Space = ClAS < 4 ? ClNames[ClAS] : "generic";
      } else {
        AI.Space = spaceName(M, PT->getAddressSpace());
      }
      if (AI.Space == "generic" || (!CL && AI.Space == "private"))
        AI.Space = "global"; // CUDA kernel pointers are global memory
      if (A.hasByValAttr())
        AI.Space = "global"; // a struct by value not flattened: its reads taken as global loads
      if (!AI.Type.empty()) {
        StringRef Ty(AI.Type);
        if (Ty.ends_with("*"))
          AI.ElemBytes = clTypeBytes(Ty.drop_back());
      }
      if (!AI.ElemBytes && DIBytes)
        AI.ElemBytes = DIBytes;
      AI.ElemBytesSource = AI.ElemBytes ? "type" : "unknown";
    } else {
      AI.Kind = "scalar";
      AI.Space = "private";
      AI.ElemBytes = DL.getTypeAllocSize(A.getType());
      AI.ElemBytesSource = "type";
      AI.Floating = A.getType()->isFloatingPointTy();
    }
    if (AI.Type.empty()) {
      std::string S;
      raw_string_ostream OS(S);
      A.getType()->print(OS);
      AI.Type = OS.str();
    }
    Out.push_back(AI);
  }
  return Out;
}

// ---------------------------------------------------------------------------
// Per-kernel extraction
// ---------------------------------------------------------------------------

namespace {

class KernelExtractor {
public:
  KernelExtractor(Module &M, Function &F, FunctionAnalysisManager &FAM, KernelInfo &K)
      : M(M), F(F), K(K), LI(FAM.getResult<LoopAnalysis>(F)),
        DT(FAM.getResult<DominatorTreeAnalysis>(F)),
        SE(FAM.getResult<ScalarEvolutionAnalysis>(F)), EB(SE, LI, DT) {}

  void run();

private:
  Module &M;
  Function &F;
  KernelInfo &K;
  LoopInfo &LI;
  DominatorTree &DT;
  ScalarEvolution &SE;
  ExprBuilder EB;
  wgperf::VectorGroups VG; // shared accesses the backend merges
  wgperf::StrengthReduction SR; // address arithmetic loop strength reduction replaces
  DenseMap<const BasicBlock *, unsigned> BlockIds;
  std::vector<const BasicBlock *> BlockById;
  std::vector<const Loop *> LoopOrder;

  void numberLoops();
  void assignRecurrences();
  const SCEV *inductionBackedgeCount(const Loop *L, std::string &Note);
  unsigned registerPressure();
  void collectMemory();
  void collectBlocks();
  void collectLoops();
  void collectArrays();
  void markBackEdges();
  std::string classOf(unsigned D, std::vector<std::string> &Deps);
  std::string accessSpace(const Value *Ptr, const Value *Base);
  void describeAccess(const Instruction &I, const Value *Ptr, MemInfo &MI);
  bool describeSelectedBase(const Value *Obj, const SCEV *PS, MemInfo &MI);
  bool describeOneObject(const Value *Obj, MemInfo &MI);
  bool arrayBase(const Value *Obj, MemInfo &MI);
  void warn(const std::string &Msg) { K.Diagnostics.push_back("warning: " + Msg); }
  void note(const std::string &Msg) { K.Diagnostics.push_back("note: " + Msg); }
};

} // namespace

void KernelExtractor::numberLoops() {
  // Preorder over the loop nest, siblings in block order: deterministic.
  std::vector<const Loop *> Top(LI.begin(), LI.end());
  auto ByHeader = [&](const Loop *A, const Loop *B) {
    return BlockIds[A->getHeader()] < BlockIds[B->getHeader()];
  };
  std::function<void(std::vector<const Loop *>)> Visit = [&](std::vector<const Loop *> Ls) {
    llvm::sort(Ls, ByHeader);
    for (const Loop *L : Ls) {
      EB.LoopIds[L] = LoopOrder.size();
      LoopOrder.push_back(L);
      Visit(std::vector<const Loop *>(L->begin(), L->end()));
    }
  };
  Visit(Top);
}

std::string KernelExtractor::classOf(unsigned D, std::vector<std::string> &Deps) {
  if (D & DepWorkItem) Deps.push_back("work-item");
  if (D & DepLoop) Deps.push_back("loop-variable");
  if (D & DepData) Deps.push_back("data");
  if (D & DepData) return "data-dependent";
  if (D & DepLoop) return "loop-variable";
  if (D & DepWorkItem) return "work-item";
  return "uniform";
}

void KernelExtractor::describeAccess(const Instruction &I, const Value *Ptr, MemInfo &MI) {
  MI.Source = srcLoc(I.getDebugLoc());
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  MI.Space = spaceName(M, AS);
  const SCEV *PS = SE.getSCEV(const_cast<Value *>(Ptr));
  const SCEV *BaseS = SE.getPointerBase(PS);
  const Value *BaseV = nullptr;
  if (auto *U = dyn_cast<SCEVUnknown>(BaseS))
    BaseV = U->getValue();
  const Value *Obj = BaseV ? getUnderlyingObject(BaseV->stripPointerCasts(), 12) : nullptr;
  if (auto *A = dyn_cast_or_null<Argument>(Obj)) {
    MI.BaseKind = "arg";
    MI.BaseArg = A->getArgNo();
    MI.BaseName = K.Args[A->getArgNo()].Name;
    if (MI.Space == "generic" || MI.Space == "private")
      MI.Space = K.Args[A->getArgNo()].Space;
  } else if (arrayBase(Obj, MI)) { // a global or private array: set
  } else if (auto *L = dyn_cast_or_null<LoadInst>(Obj)) {
    MI.BaseKind = "indirect";
    auto It = EB.MemIds.find(L);
    MI.BaseName = It != EB.MemIds.end() ? "M" + std::to_string(It->second) : "load";
    MI.NonAffine = "base pointer loaded from memory";
  } else if (describeSelectedBase(Obj, PS, MI)) {
    return;
  } else if (describeOneObject(Obj, MI)) {
    return;
  } else {
    MI.BaseKind = "unknown";
    MI.BaseName = "";
    MI.NonAffine = "base pointer not traceable to an argument or array";
  }
  if (MI.Space == "generic")
    MI.Space = "global";
  if (MI.BaseKind == "arg" || MI.BaseKind == "array" || MI.BaseKind == "private") {
    const SCEV *Off = SE.removePointerBase(PS);
    if (isa<SCEVCouldNotCompute>(Off)) {
      MI.NonAffine = "offset not computable";
      return;
    }
    // The base SCEV may be a cast of the object (addrspacecast); same address.
    MI.Offset = EB.scev(Off);
    std::string Why;
    MI.Affine = EB.isAffine(Off, Why);
    if (!MI.Affine)
      MI.NonAffine = Why;
  }
}

// OBJ as an access's base when it is a global array or a private one.
bool KernelExtractor::arrayBase(const Value *Obj, MemInfo &MI) {
  if (auto *G = dyn_cast_or_null<GlobalVariable>(Obj)) {
    MI.BaseKind = "array";
    MI.BaseName = scopedName(demangle(G->getName().str()));
    if (MI.Space == "generic")
      MI.Space = spaceName(M, G->getAddressSpace());
    return true;
  }
  if (isa_and_nonnull<AllocaInst>(Obj)) {
    MI.BaseKind = "private";
    MI.BaseName = Obj->hasName() ? Obj->getName().str() : "stack";
    MI.Space = "private";
    return true;
  }
  return false;
}

// A pointer chosen by control flow among places of one private or global
// array: `phi [%bodyAcc, ...], [%bodyAcc + 12, ...]`, which SROA makes of
// `bodyAcc[j]` in a loop over j that is not unrolled (BAT's nbody, a thread's
// accumulators passed to a device function).  The access stays in that array,
// at an offset the model cannot follow; before, it was taken as a global
// access at a place spread at random over an unknown buffer.
bool KernelExtractor::describeOneObject(const Value *Obj, MemInfo &MI) {
  if (!Obj || !(isa<PHINode>(Obj) || isa<SelectInst>(Obj)))
    return false;
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Obj, Objs, &LI, 12);
  if (Objs.size() != 1)
    return false;
  if (!arrayBase(Objs[0]->stripPointerCasts(), MI))
    return false;
  if (MI.Space == "generic")
    MI.Space = "global";
  MI.NonAffine = "a place in '" + MI.BaseName + "' chosen by control flow";
  if (!(EB.deps(Obj) & (DepWorkItem | DepData))) {
    // the same place for every lane (a loop's counter chose it): the lanes
    // read one element together (private arrays are lane-interleaved), which
    // the model prices at the array's first; without an offset every lane
    // would be a request of its own, spread over memory
    MI.Offset = "0";
    MI.NonAffine += ", the same for every lane (priced as its first element)";
  }
  return true;
}

// `c ? &a[i] : &b[i]` (an if/else storing to two buffers, merged by
// SimplifyCFG): the base is one of several arguments; keep the offset when
// every arm has the same one.
bool KernelExtractor::describeSelectedBase(const Value *Obj, const SCEV *PS, MemInfo &MI) {
  SmallVector<const Value *, 4> Arms;
  std::string Cond;
  if (auto *Sel = dyn_cast_or_null<SelectInst>(Obj)) {
    Arms = {Sel->getTrueValue(), Sel->getFalseValue()};
    Cond = EB.value(Sel->getCondition());
  } else if (auto *PN = dyn_cast_or_null<PHINode>(Obj); PN && PN->getNumIncomingValues() <= 4) {
    for (const Value *In : PN->incoming_values())
      Arms.push_back(In);
    Cond = "control flow";
  } else {
    return false;
  }
  std::string Names, Offset;
  std::string Space;
  bool SameOffset = true, Affine = true;
  for (const Value *Arm : Arms) {
    auto *A = dyn_cast<Argument>(getUnderlyingObject(Arm->stripPointerCasts(), 12));
    if (!A || !A->getType()->isPointerTy())
      return false;
    Names += (Names.empty() ? "" : "|") + K.Args[A->getArgNo()].Name;
    if (Space.empty())
      Space = K.Args[A->getArgNo()].Space;
    // Offset of the arm from its argument, plus the access's offset from the
    // selected pointer.
    const SCEV *ArmOff = SE.removePointerBase(SE.getSCEV(const_cast<Value *>(Arm)));
    const SCEV *AccOff = SE.removePointerBase(PS);
    const SCEV *Off = SE.getCouldNotCompute();
    if (!isa<SCEVCouldNotCompute>(ArmOff) && !isa<SCEVCouldNotCompute>(AccOff) &&
        ArmOff->getType() == AccOff->getType())
      Off = SE.getAddExpr(ArmOff, AccOff);
    std::string E = isa<SCEVCouldNotCompute>(Off) ? "" : EB.scev(Off);
    std::string Why;
    Affine = Affine && !E.empty() && EB.isAffine(Off, Why);
    if (Offset.empty())
      Offset = E;
    else if (E != Offset)
      SameOffset = false;
  }
  MI.BaseKind = "select";
  MI.BaseName = Names;
  if (MI.Space == "generic" || MI.Space == "private")
    MI.Space = Space;
  if (SameOffset && !Offset.empty()) {
    MI.Offset = Offset;
    MI.Affine = Affine;
  }
  MI.NonAffine = "base chosen per work-item by " + Cond;
  return true;
}

// Whether NVPTX makes LOAD an ld.global.nc, a load through the read-only
// data path (LLVM 19's instruction selection, canLowerToLDG): an invariant
// load (__ldg), or one of memory that only kernel arguments the kernel reads
// through and nothing else aliases (const __restrict__) or constant globals
// can hold.  Its own cache operator: -dlcm does not apply to it.
static bool readOnlyPath(const LoadInst &L) {
  if (L.isVolatile() || !L.isSimple())
    return false;
  if (L.hasMetadata(LLVMContext::MD_invariant_load))
    return true;
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(L.getPointerOperand(), Objs);
  return !Objs.empty() && all_of(Objs, [](const Value *V) {
    if (auto *A = dyn_cast<Argument>(V))
      return A->onlyReadsMemory() && A->hasNoAliasAttr();
    if (auto *GV = dyn_cast<GlobalVariable>(V))
      return GV->isConstant();
    return false;
  });
}

void KernelExtractor::collectMemory() {
  unsigned Next = 0;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (VG.Merged.count(&I))
        continue;
      if (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
        EB.MemIds[&I] = Next++;
      else if (auto *CB = dyn_cast<CallBase>(&I))
        if (classifyCall(*CB).Kind == CallKind::Atomic && CB->arg_size() &&
            CB->getArgOperand(0)->getType()->isPointerTy())
          EB.MemIds[&I] = Next++;
    }
  EB.computeDeps(F);
  K.Memory.resize(Next);
  for (auto &[I, Id] : EB.MemIds) {
    MemInfo &MI = K.Memory[Id];
    MI.Id = Id;
    MI.Block = BlockIds[I->getParent()];
    const DataLayout &DL = M.getDataLayout();
    const Value *Ptr = nullptr;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      MI.Kind = "load";
      Ptr = L->getPointerOperand();
      MI.Bytes = DL.getTypeStoreSize(L->getType());
    } else if (auto *S = dyn_cast<StoreInst>(I)) {
      MI.Kind = "store";
      Ptr = S->getPointerOperand();
      MI.Bytes = DL.getTypeStoreSize(S->getValueOperand()->getType());
    } else if (auto *A = dyn_cast<AtomicRMWInst>(I)) {
      MI.Kind = "atomic";
      Ptr = A->getPointerOperand();
      MI.Bytes = DL.getTypeStoreSize(A->getValOperand()->getType());
      MI.Atomic = AtomicRMWInst::getOperationName(A->getOperation()).str();
    } else if (auto *C = dyn_cast<AtomicCmpXchgInst>(I)) {
      MI.Kind = "atomic";
      Ptr = C->getPointerOperand();
      MI.Bytes = DL.getTypeStoreSize(C->getCompareOperand()->getType());
      MI.Atomic = "cmpxchg";
    } else {
      auto *CB = cast<CallBase>(I);
      MI.Kind = "atomic";
      Ptr = CB->getArgOperand(0);
      MI.Bytes = CB->getType()->isVoidTy() ? 4 : DL.getTypeStoreSize(CB->getType());
      MI.Atomic = classifyCall(*CB).Atomic;
    }
    if (auto It = VG.LeaderBytes.find(I); It != VG.LeaderBytes.end())
      MI.Bytes = It->second;
    describeAccess(*I, Ptr, MI);
    if (const MDNode *C = I->getMetadata("wgperf.cache"); C && C->getNumOperands() == 1)
      if (auto *S = dyn_cast<MDString>(C->getOperand(0)))
        MI.Cache = S->getString().str();
    if (auto *L = dyn_cast<LoadInst>(I); L && MI.Cache.empty() && MI.Space == "global" && readOnlyPath(*L))
      MI.Cache = "nc";
  }
  // Pointer arguments without a known element type take their access width.
  for (ArgInfo &A : K.Args) {
    if (A.Kind != "pointer" || A.ElemBytes)
      continue;
    std::map<unsigned, unsigned> Widths;
    for (const MemInfo &MI : K.Memory)
      if (MI.BaseKind == "arg" && MI.BaseArg == (int)A.Index)
        Widths[MI.Bytes]++;
    unsigned Best = 0, BestN = 0;
    for (auto &[W, N] : Widths)
      if (N > BestN)
        Best = W, BestN = N;
    if (Best) {
      A.ElemBytes = Best;
      A.ElemBytesSource = "accesses";
    }
  }
}

void KernelExtractor::markBackEdges() {
  // Iterative DFS; an edge to a block on the stack closes a cycle.
  std::vector<int> State(K.Blocks.size(), 0); // 0 new, 1 on stack, 2 done
  std::vector<std::pair<unsigned, unsigned>> Stack;
  State[0] = 1;
  Stack.push_back({0, 0});
  while (!Stack.empty()) {
    auto &[B, Next] = Stack.back();
    BlockInfo &BI = K.Blocks[B];
    if (Next < BI.Succs.size()) {
      unsigned S = BI.Succs[Next++];
      if (State[S] == 1) {
        BI.BackEdgeSuccs.push_back(S);
        const BasicBlock *From = BlockById[B], *To = BlockById[S];
        if (!DT.dominates(To, From))
          K.Irreducible = true;
      } else if (State[S] == 0) {
        State[S] = 1;
        Stack.push_back({S, 0});
      }
    } else {
      State[B] = 2;
      Stack.pop_back();
    }
  }
  if (K.Irreducible)
    warn("irreducible control flow: a cycle has more than one entry; its blocks are "
         "modelled without loop structure");
}

void KernelExtractor::collectBlocks() {
  for (BasicBlock &BB : F) {
    BlockInfo BI;
    BI.Id = BlockIds[&BB];
    BI.Name = BB.hasName() ? BB.getName().str() : "bb" + std::to_string(BI.Id);
    BI.Source = blockSource(BB);
    if (const Loop *L = LI.getLoopFor(&BB))
      BI.Loop = EB.LoopIds[L];
    for (const BasicBlock *S : successors(&BB))
      BI.Succs.push_back(BlockIds[S]);
    for (Instruction &I : BB) {
      if (VG.Merged.count(&I))
        continue;
      std::string Space;
      if (auto It = EB.MemIds.find(&I); It != EB.MemIds.end()) {
        BI.Memory.push_back(It->second);
        Space = K.Memory[It->second].Space;
      }
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        CallClass CC = classifyCall(*CB);
        switch (CC.Kind) {
        case CallKind::Ignore:
          break;
        case CallKind::Counted:
          if (CC.Class)
            bump(BI.Counts, CC.Class, lanes(CB->getType()));
          for (const auto &[Class, N] : CC.Sequence)
            bump(BI.Counts, Class, N);
          break;
        case CallKind::Barrier:
          bump(BI.Counts, "barrier");
          if (CC.Class && StringRef(CC.Class) != "barrier") // the reduction of a BAR.RED
            bump(BI.Counts, CC.Class);
          break;
        case CallKind::Atomic:
          bump(BI.Counts, "atom." + (Space.empty() ? std::string("global") : Space));
          break;
        case CallKind::Unresolved: {
          bump(BI.Counts, "call");
          const Function *Callee = CB->getCalledFunction();
          CallInfo C;
          C.Block = BI.Id;
          C.Callee = Callee ? demangle(Callee->getName().str()) : "<indirect>";
          C.Source = srcLoc(I.getDebugLoc());
          if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand())) {
            // asm("..."): the same issue slot as a call; the expressions
            // take its outputs as unknown values
            std::string Text = asmSummary(IA->getAsmString());
            C.Callee = "asm \"" + Text + "\"";
            C.Reason = "inline assembly";
            warn("inline assembly '" + Text + "'" + (C.Source.empty() ? "" : " at " + C.Source) +
                 " left unmodelled (counted as one instruction); its result and any memory it "
                 "accesses are not modelled");
            K.Calls.push_back(C);
            break;
          }
          if (!Callee)
            C.Reason = "indirect call";
          else if (Callee->isIntrinsic())
            C.Reason = "unsupported intrinsic";
          else if (Callee->isDeclaration())
            C.Reason = "unknown external function";
          else
            C.Reason = "not inlined (recursive)";
          warn("call to '" + C.Callee + "' left unresolved (" + C.Reason + ")" +
               (C.Source.empty() ? "" : " at " + C.Source) +
               "; its cost is not modelled");
          K.Calls.push_back(C);
          break;
        }
        }
        continue;
      }
      auto VB = VG.LeaderBytes.find(&I);
      classifyInstruction(I, Space, BI.Counts, VB == VG.LeaderBytes.end() ? 0 : VB->second);
      if (SR.Removed.count(&I))
        classifyInstruction(I, Space, BI.StrengthReducedAway);
    }
    if (auto It = SR.Steps.find(&BB); It != SR.Steps.end())
      BI.StrengthReductionSteps = It->second;
    Instruction *Term = BB.getTerminator();
    // Machine instructions without an IR instruction (Backend.h): the stack
    // pointer on entry, S2R of each special register, EXIT at each return.
    if (&BB == &F.getEntryBlock()) {
      bump(BI.Counts, "other");
      if (unsigned S = wgperf::specialRegisterReads(F))
        bump(BI.Counts, "sreg", S);
    }
    if (isa<ReturnInst>(Term)) {
      BI.Exit = true;
      bump(BI.Counts, "other");
    }
    if (auto *Br = dyn_cast<BranchInst>(Term); Br && Br->isConditional()) {
      BranchInfo B;
      B.Kind = "cond";
      B.Cond = EB.value(Br->getCondition());
      unsigned D = EB.deps(Br->getCondition());
      B.Class = classOf(D, B.Depends);
      // Lanes may go different ways: a reconvergence pair, unless the branch
      // only leaves a loop or one way just returns (a predicated EXIT).
      const Loop *L = LI.getLoopFor(&BB);
      bool Leaves = L && (!L->contains(Br->getSuccessor(0)) || !L->contains(Br->getSuccessor(1)));
      auto JustReturns = [](const BasicBlock *S) { return isa<ReturnInst>(S->getFirstNonPHIOrDbg()); };
      if ((D & (DepWorkItem | DepData)) && !Leaves && !JustReturns(Br->getSuccessor(0)) &&
          !JustReturns(Br->getSuccessor(1)))
        bump(BI.Counts, "reconverge", 2);
      B.Targets = {BlockIds[Br->getSuccessor(0)], BlockIds[Br->getSuccessor(1)]};
      B.Source = srcLoc(Br->getDebugLoc());
      BI.Branch = B;
    } else if (auto *Sw = dyn_cast<SwitchInst>(Term)) {
      BranchInfo B;
      B.Kind = "switch";
      B.Cond = EB.value(Sw->getCondition());
      B.Class = classOf(EB.deps(Sw->getCondition()), B.Depends);
      B.Targets.push_back(BlockIds[Sw->getDefaultDest()]);
      for (auto &C : Sw->cases()) {
        B.Targets.push_back(BlockIds[C.getCaseSuccessor()]);
        B.CaseValues.push_back(std::to_string(C.getCaseValue()->getSExtValue()));
      }
      B.Source = srcLoc(Sw->getDebugLoc());
      BI.Branch = B;
    } else if (isa<UnreachableInst>(Term)) {
      BI.Exit = true;
    }
    for (auto &[C, N] : BI.Counts)
      K.Totals[C] += N;
    K.Blocks.push_back(std::move(BI));
  }
}

static bool hasSymbol(const std::string &E, const char *Prefix) {
  return E.find(Prefix) != std::string::npos;
}

void KernelExtractor::assignRecurrences() {
  // Recurrence symbols first: expressions elsewhere may refer to them.
  for (const Loop *L : LoopOrder) {
    unsigned Id = EB.LoopIds[L];
    unsigned K2 = 0;
    for (PHINode &PN : L->getHeader()->phis()) {
      if (!PN.getType()->isIntegerTy())
        continue;
      if (isa<SCEVAddRecExpr>(SE.getSCEV(&PN)))
        continue;
      EB.RecurrenceSyms[&PN] = "rv.L" + std::to_string(Id) + "." + std::to_string(K2++);
    }
  }
}

// seeds/004 sec. 4.1.2: when ScalarEvolution gives up on an affine induction
// variable (typically a symbolic stride, as in a grid-stride loop), derive the
// count from start, step and bound: the back-edge is taken while
// start + step*it < bound, so it is taken ceil((bound - start) / step) times.
const SCEV *KernelExtractor::inductionBackedgeCount(const Loop *L, std::string &Note) {
  const SCEV *None = SE.getCouldNotCompute();
  BasicBlock *Exiting = L->getExitingBlock();
  if (!Exiting)
    return None;
  auto *Br = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!Br || !Br->isConditional())
    return None;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return None;
  CmpInst::Predicate Pred = Cmp->getPredicate();
  if (!L->contains(Br->getSuccessor(0)))
    Pred = CmpInst::getInversePredicate(Pred); // the predicate that continues
  const SCEV *A = SE.getSCEV(Cmp->getOperand(0));
  const SCEV *E = SE.getSCEV(Cmp->getOperand(1));
  if (!isa<SCEVAddRecExpr>(A)) {
    std::swap(A, E);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  auto *AR = dyn_cast<SCEVAddRecExpr>(A);
  if (!AR || AR->getLoop() != L || !AR->isAffine() || !SE.isLoopInvariant(E, L))
    return None;
  bool Signed = Pred == CmpInst::ICMP_SLT || Pred == CmpInst::ICMP_SLE;
  bool Unsigned = Pred == CmpInst::ICMP_ULT || Pred == CmpInst::ICMP_ULE;
  if (!Signed && !Unsigned)
    return None;
  const SCEV *Step = AR->getStepRecurrence(SE);
  if (!SE.isLoopInvariant(Step, L) || SE.isKnownNonPositive(Step))
    return None;
  Type *I64 = Type::getInt64Ty(M.getContext());
  auto Ext = [&](const SCEV *X) {
    return Signed ? SE.getNoopOrSignExtend(X, I64) : SE.getNoopOrZeroExtend(X, I64);
  };
  const SCEV *Start = Ext(AR->getStart()), *Bound = Ext(E), *S = Ext(Step);
  if (Pred == CmpInst::ICMP_SLE || Pred == CmpInst::ICMP_ULE)
    Bound = SE.getAddExpr(Bound, SE.getOne(I64));
  const SCEV *Num = Signed ? SE.getSMaxExpr(SE.getMinusSCEV(Bound, Start), SE.getZero(I64))
                           : SE.getMinusSCEV(SE.getUMaxExpr(Bound, Start), Start);
  const SCEV *Count =
      SE.getUDivExpr(SE.getAddExpr(Num, SE.getMinusSCEV(S, SE.getOne(I64))), S);
  Note = "computed from the induction variable: ceil((bound - start) / step)";
  if (!SE.isKnownPositive(Step))
    Note += ", assuming a positive step";
  return Count;
}

void KernelExtractor::collectLoops() {
  Type *I64 = Type::getInt64Ty(M.getContext());
  for (const Loop *L : LoopOrder) {
    LoopInfoRec R;
    R.Id = EB.LoopIds[L];
    R.Header = BlockIds[L->getHeader()];
    R.Depth = L->getLoopDepth();
    R.Parent = L->getParentLoop() ? (int)EB.LoopIds[L->getParentLoop()] : -1;
    R.Source = srcLoc(L->getStartLoc());
    for (const BasicBlock *B : L->blocks())
      R.Blocks.push_back(BlockIds[B]);
    llvm::sort(R.Blocks);
    SmallVector<BasicBlock *, 4> Latches, Exiting;
    L->getLoopLatches(Latches);
    L->getExitingBlocks(Exiting);
    for (auto *B : Latches) R.Latches.push_back(BlockIds[B]);
    for (auto *B : Exiting) R.Exiting.push_back(BlockIds[B]);
    llvm::sort(R.Latches);
    llvm::sort(R.Exiting);

    for (PHINode &PN : L->getHeader()->phis()) {
      auto It = EB.RecurrenceSyms.find(&PN);
      if (It == EB.RecurrenceSyms.end())
        continue;
      RecurrenceInfo RI;
      RI.Sym = It->second;
      BasicBlock *Pre = L->getLoopPreheader();
      BasicBlock *Latch = L->getLoopLatch();
      RI.Init = Pre && PN.getBasicBlockIndex(Pre) >= 0 ? EB.value(PN.getIncomingValueForBlock(Pre)) : "?";
      RI.Next = Latch && PN.getBasicBlockIndex(Latch) >= 0 ? EB.value(PN.getIncomingValueForBlock(Latch)) : "?";
      R.Recurrences.push_back(RI);
    }
    bool ExitOnData = false, ExitUnknown = false;
    SmallVector<BasicBlock *, 4> OnData; // exits whose condition needs a loaded value
    for (BasicBlock *B : Exiting) {
      auto *Br = dyn_cast<BranchInst>(B->getTerminator());
      LoopExitInfo E;
      E.Block = BlockIds[B];
      if (Br && Br->isConditional()) {
        std::string C = EB.value(Br->getCondition());
        E.ExitWhen = L->contains(Br->getSuccessor(0)) ? "(not " + C + ")" : C;
        unsigned D = EB.deps(Br->getCondition());
        if (D & DepData) {
          ExitOnData = true;
          OnData.push_back(B);
        }
        if (hasSymbol(C, "?"))
          ExitUnknown = true;
      } else {
        E.ExitWhen = "?";
        ExitUnknown = true;
      }
      R.Exits.push_back(E);
    }

    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    auto Trip = [&](const SCEV *S) {
      const SCEV *Wide = SE.getNoopOrZeroExtend(S, I64);
      return SE.getAddExpr(Wide, SE.getOne(I64));
    };
    // The loop's bound.  Where an exit compares with a loaded value, SCEV's
    // maximum for it may be only what the induction variable's type allows
    // (2147483645 for an int counted from 3 against a value it cannot know,
    // 1073741823 counted by 2, 8388607 by 256): no bound, and run as one it
    // made a window of a wavelet transform take ten days.  Such an exit's
    // maximum is kept where it is symbolic (`i < j && a[i] < p`: j - i) or a
    // constant below half of what the type's range allows at the loop's
    // largest step (a search of 10000 entries); the bound is the least of
    // the exits' kept, or none.
    const SCEV *Max = SE.getCouldNotCompute();
    if (!ExitOnData) {
      Max = SE.getSymbolicMaxBackedgeTakenCount(L);
    } else {
      uint64_t Step = 1; // the largest constant step of the loop's recurrences
      for (PHINode &PN : L->getHeader()->phis())
        if (SE.isSCEVable(PN.getType()))
          if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&PN)))
            if (AR->getLoop() == L)
              if (auto *SC = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE)))
                if (SC->getAPInt().getSignificantBits() <= 62)
                  Step = std::max<uint64_t>(Step, SC->getAPInt().abs().getZExtValue());
      for (BasicBlock *B : Exiting) {
        const SCEV *C = SE.getExitCount(L, B, ScalarEvolution::SymbolicMaximum);
        if (isa<SCEVCouldNotCompute>(C))
          continue;
        if (auto *K = dyn_cast<SCEVConstant>(C)) {
          unsigned Bits = K->getAPInt().getBitWidth();
          // 2^(Bits - 1) / (2 * Step): the signed range at that step, halved
          APInt Range = APInt::getOneBitSet(Bits, Bits - 1).udiv(APInt(Bits, std::min<uint64_t>(2 * Step, UINT64_C(1) << 62)));
          if (llvm::is_contained(OnData, B) && Bits > 2 && K->getAPInt().uge(Range))
            continue; // the type's range
        }
        Max = isa<SCEVCouldNotCompute>(Max) ? C : SE.getUMinFromMismatchedTypes(Max, C);
      }
    }
    if (!isa<SCEVCouldNotCompute>(Max))
      R.MaxTripCount = EB.scev(Trip(Max));
    std::string IVNote;
    if (isa<SCEVCouldNotCompute>(BTC) && !ExitOnData)
      BTC = inductionBackedgeCount(L, IVNote);
    if (!isa<SCEVCouldNotCompute>(BTC)) {
      R.BackedgeCount = EB.scev(BTC);
      if (!IVNote.empty())
        R.Reason = IVNote;
      R.TripCount = EB.scev(Trip(BTC));
      R.TripKind = hasSymbol(R.TripCount, "(load") ? "data-dependent" : "exact";
      if (R.TripKind == "data-dependent")
        R.Reason = "trip count depends on values loaded from memory";
    } else if (ExitOnData) {
      R.TripKind = "data-dependent";
      R.Reason = "exit condition depends on values loaded from memory";
    } else if (!R.Recurrences.empty() && !ExitUnknown) {
      // Exact per launch: the analyzer iterates the recurrences.
      R.TripKind = "recurrence";
      R.Reason = "induction variable is not affine; evaluate the recurrences until an exit holds";
    } else if (!R.MaxTripCount.empty()) {
      R.TripKind = "max";
      R.Reason = "ScalarEvolution gives only an upper bound";
    } else {
      R.TripKind = "unknown";
      R.Reason = ExitUnknown ? "exit condition not expressible" : "ScalarEvolution cannot compute the trip count";
    }
    if (R.TripKind == "unknown" || R.TripKind == "data-dependent")
      note("loop L" + std::to_string(R.Id) + (R.Source.empty() ? "" : " at " + R.Source) +
           ": " + R.TripKind + " trip count (" + R.Reason + ")");
    K.Loops.push_back(std::move(R));
  }
}

void KernelExtractor::collectArrays() {
  std::map<std::string, ArrayInfo> Found;
  const DataLayout &DL = M.getDataLayout();
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      for (const Use &U : I.operands()) {
        SmallVector<const Value *, 8> Work{U.get()};
        SmallPtrSet<const Value *, 8> Seen;
        while (!Work.empty()) {
          const Value *V = Work.pop_back_val();
          if (!Seen.insert(V).second)
            continue;
          if (auto *G = dyn_cast<GlobalVariable>(V)) {
            std::string Space = spaceName(M, G->getAddressSpace());
            // a global of the generic space (clang makes a function's constant
            // table, `int t[] = {...}` read at a place a loop computes, one:
            // @__const.f.t) lives in global memory, where its accesses are
            if (Space == "generic")
              Space = "global";
            if (Space != "local" && Space != "constant" && Space != "global")
              continue;
            ArrayInfo A;
            A.Name = scopedName(demangle(G->getName().str()));
            A.Space = Space;
            Type *T = G->getValueType();
            A.Bytes = DL.getTypeAllocSize(T);
            while (auto *AT = dyn_cast<ArrayType>(T)) {
              A.Dims.push_back(AT->getNumElements());
              T = AT->getElementType();
            }
            A.ElemBytes = DL.getTypeAllocSize(T);
            A.Initialized = G->hasInitializer() && !isa<UndefValue>(G->getInitializer());
            Found[A.Name] = A;
          } else if (auto *CE = dyn_cast<ConstantExpr>(V)) {
            for (const Value *Op : CE->operands())
              Work.push_back(Op);
          }
        }
      }
  for (auto &[N, A] : Found)
    K.Arrays.push_back(A);
}

// Register pressure before ptxas: the largest number of 32-bit registers
// live at once, from backward liveness over the normalized IR (64-bit values
// and pointers take two, vectors by their bits, small lanes packed).  ptxas usually needs a few
// more; `wgperf extract` replaces it with ptxas' count when a CUDA toolkit
// is installed.
// A pointer into shared (or private) memory is a 32-bit offset for ptxas
// once NVPTX's address-space inference has seen where it points, also when the
// IR still writes it as a generic pointer (a getelementptr of an
// addrspacecast of a __shared__ array).
static bool isWindowPointer(const Value *V) {
  unsigned AS = V->getType()->getPointerAddressSpace();
  if (AS == 3 || AS == 5)
    return true;
  if (AS != 0)
    return false;
  unsigned OAS = getUnderlyingObject(V)->getType()->getPointerAddressSpace(); // through casts
  return OAS == 3 || OAS == 5;
}

static unsigned regWeight(const Value *V) {
  Type *T = V->getType();
  if (T->isVoidTy() || T->isLabelTy() || T->isMetadataTy() || T->isTokenTy())
    return 0;
  if (T->isPointerTy())
    return isWindowPointer(V) ? 1 : 2;
  // vectors of 8- and 16-bit lanes are packed, as NVPTX holds v4i8 and v2f16
  // in one 32-bit register (a uchar4 load is one ld.u32)
  unsigned Bits = T->getPrimitiveSizeInBits().getFixedValue();
  if (T->isIntegerTy(1))
    return 0; // predicates live in predicate registers
  return std::max(1u, (Bits + 31) / 32);
}

static bool isRegisterValue(const Value *V) {
  return isa<Instruction>(V) && !isa<AllocaInst>(V) && regWeight(V) > 0;
}

// The order of BB's instructions in which the pressure is counted: the IR's,
// except that a value with one use later in its block, no side effects and,
// if it reads memory, no write to memory (store, atomic, barrier, call) before
// that use, is computed just before the use, after such operands of its own.
// That is where a scheduler that minimizes registers puts it, as ptxas does
// when registers are short: sobel, whose nine pixel loads and their channel
// conversions stand at the top of its block in the IR, counts 35 in the IR's
// order and 28 so (ptxas: 26).  It can also lengthen an operand's life (Parboil sgemm 25 -> 32,
// ptxas 40).
static std::vector<const Instruction *> pressureOrder(ArrayRef<const Instruction *> Insts,
                                                     DenseMap<const Instruction *, const Instruction *> *Sunk = nullptr) {
  DenseMap<const Instruction *, unsigned> Writes; // writes to memory before each instruction
  unsigned W = 0;
  for (const Instruction *I : Insts) {
    Writes[I] = W;
    W += I->mayWriteToMemory();
  }
  DenseMap<const Instruction *, const Instruction *> SinkTo;
  for (const Instruction *IP : Insts) {
    const Instruction &I = *IP;
    if (isa<PHINode>(I) || I.isTerminator() || !I.hasOneUse() || I.mayHaveSideEffects() || !isRegisterValue(&I))
      continue;
    auto *U = dyn_cast<Instruction>(*I.user_begin());
    if (!U || !Writes.count(U) || isa<PHINode>(U))
      continue;
    if (I.mayReadFromMemory() && Writes.lookup(U) != Writes.lookup(&I)) /* no side effects: I writes nothing */
      continue;
    SinkTo[&I] = U;
  }
  // Each instruction's sunk operands, in the order that needs the fewest
  // registers (Sethi and Ullman): the one whose own tree needs the most
  // beyond its result first; NEED is that tree's peak (operands computed
  // elsewhere are live anyway and not counted).  A sunk operand precedes its
  // user in the block, so one pass in block order has every NEED it reads.
  DenseMap<const Instruction *, unsigned> Need;
  DenseMap<const Instruction *, SmallVector<const Instruction *, 4>> Kids;
  for (const Instruction *IP : Insts) {
    const Instruction &I = *IP;
    SmallVector<const Instruction *, 4> K;
    for (const Value *Op : I.operands())
      if (auto *OI = dyn_cast<Instruction>(Op); OI && SinkTo.lookup(OI) == &I && !is_contained(K, OI))
        K.push_back(OI);
    std::stable_sort(K.begin(), K.end(), [&](const Instruction *A, const Instruction *B) {
      return (int)Need.lookup(A) - (int)regWeight(A) > (int)Need.lookup(B) - (int)regWeight(B);
    });
    unsigned Held = 0, Peak = 0;
    for (const Instruction *C : K) {
      Peak = std::max(Peak, Held + Need.lookup(C));
      Held += regWeight(C);
    }
    Need[&I] = std::max(Peak, Held + (isRegisterValue(&I) ? regWeight(&I) : 0));
    if (!K.empty())
      Kids[&I] = std::move(K);
  }
  if (Sunk)
    *Sunk = SinkTo;
  std::vector<const Instruction *> Order;
  Order.reserve(Insts.size());
  // post-order over the sunk operands, without recursion (an unrolled sum
  // is a chain as long as the loop)
  std::vector<std::pair<const Instruction *, unsigned>> Stack;
  for (const Instruction *I : Insts) {
    if (SinkTo.count(I))
      continue;
    Stack.push_back({I, 0});
    while (!Stack.empty()) {
      const Instruction *J = Stack.back().first;
      unsigned Next = Stack.back().second++;
      auto KI = Kids.find(J);
      if (KI != Kids.end() && Next < KI->second.size()) {
        Stack.push_back({KI->second[Next], 0});
        continue;
      }
      Order.push_back(J);
      Stack.pop_back();
    }
  }
  return Order;
}

// A load from __constant__ memory at an address fixed at compile time (a
// constant global in the constant address space plus a constant offset)
// that only arithmetic reads is, in SASS, an operand of that arithmetic:
// FFMA R0, R5, c[0x3][0x4], R0.  It takes no register.  The Kernel Tuner
// convolution's 225 filter weights d_filter[i * 15 + j], each read by every
// sum of a thread's tile, are such operands.
static bool isConstantBankOperand(const Instruction &I) {
  auto *L = dyn_cast<LoadInst>(&I);
  if (!L || L->isVolatile() || !isa<Constant>(L->getPointerOperand()))
    return false;
  auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(L->getPointerOperand()));
  if (!GV || GV->getAddressSpace() != 4 || L->getType()->isVectorTy() || regWeight(L) != 1)
    return false;
  return all_of(L->users(), [](const User *U) {
    auto *UI = dyn_cast<Instruction>(U);
    if (!UI || isa<PHINode>(UI) || UI->mayReadOrWriteMemory())
      return false;
    if (auto *CB = dyn_cast<CallBase>(UI)) {
      auto *II = dyn_cast<IntrinsicInst>(CB);
      return II && (II->getIntrinsicID() == Intrinsic::fma || II->getIntrinsicID() == Intrinsic::fmuladd);
    }
    return isa<BinaryOperator>(UI) || isa<CmpInst>(UI) || isa<SelectInst>(UI);
  });
}

// A second order of BB's instructions in which the pressure is counted: a
// top-down list schedule that keeps few registers live, as ptxas' scheduler
// does when registers are short.  It schedules pressureOrder's groups (an
// instruction with the single-use operands sunk into it, such as the product
// a contracted fadd fuses into an FFMA) in an order that keeps the block's
// order of memory writes, barriers and calls, and of loads against them.
// A fully unrolled tile is a set of accumulation chains (each sum's fadds or
// fmas, one after the other) that read the same loaded values at different
// places: the Kernel Tuner convolution (block 16x8, tile 1x5, 15x15 filter)
// reads each of its 705 shared values into up to 5 sums, sum yi at filter
// row r - 8 yi for shared row r.  The IR (and nvcc's PTX) keeps the sums'
// order, in which a value read by sum 1 at filter row 0 waits for sum 0 at
// row 8 (616 registers); ptxas (39 registers, sm_86) goes through the shared
// rows in order and feeds every sum from each value as it is loaded.  So each
// chain is shifted against the others by the difference most often seen
// between two chains' readers of one loaded value (here 8 filter rows), a
// link's time is its place in its chain plus its chain's shift, and a group's
// time is the earliest of the links it feeds: the schedule takes the ready
// group of the earliest time, then the one that adds the fewest registers
// (its result if a later instruction reads it, less the operands it reads
// for the last time), then the IR's order.  Memory orders a read after the
// last write that may write what it reads, and a write after the earlier
// reads of what it may write (MayAlias below): pressureOrder puts each sum
// with the store it ends in, and the next sum's shared loads must not wait
// for that store to the output.  That convolution counts 20
// (docs/accuracy.md, "The IR register estimate on the convolution").  BASE
// is pressureOrder's order of the block and SUNK its sunk operands; READS
// gives the registers an instruction reads, REG the value whose register it
// defines; LIVEOUT never dies in the block.
static std::vector<const Instruction *>
listOrder(const std::vector<const Instruction *> &Base,
          const DenseMap<const Instruction *, const Instruction *> &Sunk,
          const SmallPtrSetImpl<const Value *> &LiveOut,
          const std::function<void(const Instruction *, SmallVectorImpl<const Value *> &)> &Reads,
          const std::function<const Value *(const Value *)> &Reg) {
  // groups: a root and the small trees of operands sunk into it (at most
  // SMALL instructions: a product fused into an FFMA, a load and its
  // address); a longer tree, such as the rest of an unrolled sum whose
  // partial sum is sunk into the next addition, is a group of its own that
  // the schedule may put elsewhere
  const unsigned Small = 4;
  std::vector<const Instruction *> Order;
  DenseMap<const Instruction *, unsigned> Size, GroupOf;
  for (const Instruction *In : Base) {
    unsigned S = 1;
    for (const Value *Op : In->operands())
      if (auto *OI = dyn_cast<Instruction>(Op); OI && Sunk.lookup(OI) == In)
        S += Size.lookup(OI);
    Size[In] = S;
  }
  DenseMap<const Instruction *, const Instruction *> RootOf;
  for (auto It = Base.rbegin(); It != Base.rend(); ++It) {
    const Instruction *In = *It;
    auto S = Sunk.find(In);
    RootOf[In] = S == Sunk.end() || Size.lookup(In) > Small ? In : RootOf.lookup(S->second);
  }
  std::vector<SmallVector<unsigned, 4>> Groups; // members, indices into BASE in its order
  SmallVector<unsigned, 4> TermGroup;
  DenseMap<const Instruction *, unsigned> RootGroup;
  for (size_t I = 0; I < Base.size(); ++I) {
    const Instruction *In = Base[I];
    if (isa<PHINode>(In)) {
      Order.push_back(In);
      continue;
    }
    const Instruction *R = RootOf.lookup(In);
    if (R->isTerminator()) {
      TermGroup.push_back(I);
      continue;
    }
    auto [It, New] = RootGroup.try_emplace(R, Groups.size());
    if (New)
      Groups.emplace_back();
    Groups[It->second].push_back(I);
    GroupOf[In] = It->second;
  }
  // a group's place is its root's (members precede their root in BASE)
  std::vector<unsigned> ByRoot(Groups.size());
  for (size_t G = 0; G < Groups.size(); ++G)
    ByRoot[G] = G;
  std::sort(ByRoot.begin(), ByRoot.end(), [&](unsigned A, unsigned B) { return Groups[A].back() < Groups[B].back(); });
  {
    std::vector<SmallVector<unsigned, 4>> Sorted;
    for (unsigned G : ByRoot)
      Sorted.push_back(std::move(Groups[G]));
    Groups = std::move(Sorted);
    for (size_t G = 0; G < Groups.size(); ++G)
      for (unsigned J : Groups[G])
        GroupOf[Base[J]] = G;
  }
  size_t N = Groups.size();
  std::vector<SmallVector<unsigned, 4>> Succ(N), Pred(N);
  std::vector<SmallVector<unsigned, 4>> Feeds(N); // the groups that read a group's values
  std::set<std::pair<unsigned, unsigned>> Edges;
  auto Edge = [&](unsigned A, unsigned B) {
    if (A != B && Edges.insert({A, B}).second) {
      Succ[A].push_back(B);
      Pred[B].push_back(A);
    }
  };
  // The memory a group reads or writes: the objects its accesses are based
  // on, or "any" for an access based on something else or a call.  A
  // __shared__ or __constant__ variable is none of the global memory a kernel
  // argument points to, and two variables are two objects: the convolution's
  // shared loads do not wait for a sum's store to the output.
  struct Objects {
    bool Any = false;
    SmallVector<const Value *, 2> Of;
  };
  auto MayAlias = [](const Objects &A, const Objects &B) {
    if (A.Any || B.Any)
      return true;
    for (const Value *X : A.Of)
      for (const Value *Y : B.Of) {
        if (X == Y || (isa<Argument>(X) && isa<Argument>(Y)))
          return true;
        auto *GX = dyn_cast<GlobalVariable>(X), *GY = dyn_cast<GlobalVariable>(Y);
        if (GX && GY)
          continue;
        const GlobalVariable *GV = GX ? GX : GY;
        if (GV && GV->getAddressSpace() != 3 && GV->getAddressSpace() != 4)
          return true;
      }
    return false;
  };
  std::vector<Objects> Mem(N);
  std::vector<unsigned> Writers, Readers0; // writes in order; reads since the last write to any memory
  std::vector<const Value *> Def(N);
  std::vector<SmallVector<const Value *, 4>> Rd(N);
  for (size_t G = 0; G < N; ++G) {
    bool Writes = false, ReadsMemory = false;
    SmallPtrSet<const Value *, 8> Inside;
    for (unsigned J : Groups[G]) {
      const Instruction *In = Base[J];
      for (const Value *Op : In->operands())
        if (auto It = GroupOf.find(dyn_cast<Instruction>(Op)); It != GroupOf.end()) {
          Edge(It->second, G);
          if (It->second != G && !is_contained(Feeds[It->second], (unsigned)G))
            Feeds[It->second].push_back(G);
        }
      Writes |= In->mayHaveSideEffects() || In->mayWriteToMemory();
      ReadsMemory |= In->mayReadFromMemory();
      if (In->mayReadOrWriteMemory() || In->mayHaveSideEffects()) {
        const Value *Ptr = getLoadStorePointerOperand(In);
        const Value *Obj = Ptr ? getUnderlyingObject(Ptr) : nullptr;
        if (Obj && (isa<GlobalVariable>(Obj) || isa<Argument>(Obj))) {
          if (!is_contained(Mem[G].Of, Obj))
            Mem[G].Of.push_back(Obj);
        } else {
          Mem[G].Any = true;
        }
      }
      Reads(In, Rd[G]);
      Inside.insert(In);
    }
    // the group's own values are no operands of it
    Rd[G].erase(std::remove_if(Rd[G].begin(), Rd[G].end(), [&](const Value *V) { return Inside.count(V); }),
                Rd[G].end());
    const Instruction *Root = Base[Groups[G].back()];
    Def[G] = Reg(Root) == Root ? Root : nullptr;
    if (Writes) {
      // after the writes before it, and the reads of what it may write
      if (!Writers.empty())
        Edge(Writers.back(), G);
      for (unsigned L : Readers0)
        if (MayAlias(Mem[L], Mem[G]))
          Edge(L, G);
      if (Mem[G].Any)
        Readers0.clear(); // ordered before G, hence before every later write
      Writers.push_back(G);
    } else if (ReadsMemory) {
      // after the last write that may write what it reads
      for (auto W = Writers.rbegin(); W != Writers.rend(); ++W)
        if (MayAlias(Mem[*W], Mem[G])) {
          Edge(*W, G);
          break;
        }
      Readers0.push_back(G);
    }
  }
  // the readers left in the block of each register
  DenseMap<const Value *, SmallVector<unsigned, 4>> Readers;
  DenseMap<const Value *, unsigned> Left;
  for (size_t G = 0; G < N; ++G)
    for (const Value *R : Rd[G]) {
      Readers[R].push_back(G);
      ++Left[R];
    }
  std::vector<unsigned> Waiting(N);
  for (size_t G = 0; G < N; ++G)
    Waiting[G] = Pred[G].size();
  std::vector<bool> Done(N, false);
  // the accumulation chains: a link is an fadd, fsub or fma whose operand
  // is the root of the chain's last link
  auto IsLink = [](const Instruction *I) {
    if (I->getOpcode() == Instruction::FAdd || I->getOpcode() == Instruction::FSub)
      return true;
    auto *II = dyn_cast<IntrinsicInst>(I);
    return II && (II->getIntrinsicID() == Intrinsic::fma || II->getIntrinsicID() == Intrinsic::fmuladd);
  };
  std::vector<int> ChainOf(N, -1), Pos(N, 0);
  std::vector<int> ChainLen;
  for (size_t G = 0; G < N; ++G) {
    const Instruction *Root = Base[Groups[G].back()];
    if (!IsLink(Root))
      continue;
    int Prev = -1;
    for (const Value *Op : Root->operands())
      if (auto It = GroupOf.find(dyn_cast<Instruction>(Op));
          It != GroupOf.end() && Base[Groups[It->second].back()] == Op && ChainOf[It->second] >= 0 &&
          Pos[It->second] + 1 == ChainLen[ChainOf[It->second]])
        Prev = It->second;
    if (Prev >= 0) {
      ChainOf[G] = ChainOf[Prev];
      Pos[G] = ChainLen[ChainOf[G]]++;
    } else {
      ChainOf[G] = ChainLen.size();
      ChainLen.push_back(1);
    }
  }
  // the shift of each chain: the difference most often found between two
  // chains' readers of one value, spread from chain to chain
  size_t NC = ChainLen.size();
  std::vector<long> Shift(NC, 0);
  std::vector<bool> Placed(NC, false);
  std::map<std::tuple<unsigned, unsigned, long>, unsigned> Votes;
  for (size_t G = 0; G < N; ++G) {
    if (!Def[G] || !isa<LoadInst>(Def[G])) // loaded values in registers (not constant-bank operands)
      continue;
    int C0 = -1;
    long K0 = 0;
    for (unsigned S : Feeds[G]) {
      int C = ChainOf[S];
      if (C < 0)
        continue;
      if (C0 < 0) {
        C0 = C;
        K0 = Pos[S];
      } else if (C != C0) {
        ++Votes[{(unsigned)C0, (unsigned)C, K0 - Pos[S]}];
        ++Votes[{(unsigned)C, (unsigned)C0, Pos[S] - K0}];
      }
    }
  }
  std::vector<SmallVector<std::pair<unsigned, long>, 4>> Rel(NC); // (other chain, its shift minus mine)
  {
    std::map<std::pair<unsigned, unsigned>, std::pair<unsigned, long>> Best;
    for (auto &[K, V] : Votes) {
      auto &B = Best[{std::get<0>(K), std::get<1>(K)}];
      if (V > B.first)
        B = {V, std::get<2>(K)};
    }
    for (auto &[K, B] : Best)
      Rel[K.first].push_back({K.second, B.second});
  }
  for (size_t C = 0; C < NC; ++C) {
    if (Placed[C])
      continue;
    Placed[C] = true;
    std::vector<unsigned> Work{(unsigned)C};
    while (!Work.empty()) {
      unsigned A = Work.back();
      Work.pop_back();
      for (auto [B, D] : Rel[A])
        if (!Placed[B]) {
          Placed[B] = true;
          Shift[B] = Shift[A] + D;
          Work.push_back(B);
        }
    }
  }
  const long Never = LONG_MAX / 2;
  std::vector<long> Time(N, Never);
  for (size_t G = N; G-- > 0;) {
    if (ChainOf[G] >= 0)
      Time[G] = Pos[G] + Shift[ChainOf[G]];
    for (unsigned S : Feeds[G]) // not a write that merely follows it
      Time[G] = std::min(Time[G], Time[S]);
  }
  // among the groups whose operands are computed: the earliest time, then
  // the fewest registers added (its result, if a later instruction reads it,
  // less the operands it reads for the last time), then the IR's order
  using Entry = std::tuple<long, int, unsigned>;
  auto Key = [&](unsigned G) {
    bool Held = Def[G] && (Left.lookup(Def[G]) > 0 || LiveOut.count(Def[G]));
    int Delta = Held ? (int)regWeight(Def[G]) : 0;
    for (const Value *R : Rd[G])
      if (Left.lookup(R) == 1 && !LiveOut.count(R))
        Delta -= (int)regWeight(R);
    return Entry(Time[G], Delta, G);
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> Ready;
  auto Push = [&](unsigned G) {
    if (!Done[G] && !Waiting[G])
      Ready.push(Key(G));
  };
  for (size_t G = 0; G < N; ++G)
    Push(G);
  std::vector<unsigned> Sched;
  Sched.reserve(N);
  while (!Ready.empty()) {
    Entry E = Ready.top();
    Ready.pop();
    unsigned G = std::get<2>(E);
    if (Done[G] || Key(G) != E)
      continue; // a later entry has its current key
    Done[G] = true;
    Sched.push_back(G);
    for (const Value *R : Rd[G])
      if (--Left[R] == 1)
        for (unsigned J : Readers[R])
          Push(J); // its last reader: reading it frees its register
    for (unsigned S : Succ[G])
      if (--Waiting[S] == 0)
        Push(S);
  }
  if (Sched.size() != N) // cannot happen: BASE's order is one schedule
    return Base;
  for (unsigned G : Sched)
    for (unsigned J : Groups[G])
      Order.push_back(Base[J]);
  for (unsigned J : TermGroup)
    Order.push_back(Base[J]);
  return Order;
}

// Addresses that take no register of their own: a getelementptr used only
// as the address of loads and stores whose address differs from another one of
// its block by a constant (ScalarEvolution's difference; LICM hoists a tiled
// multiply's 32 addresses &As[ty][k], &Bs[k][tx] out of the loop: 64 of its
// 78 registers; Parboil sad's 16 loads of a row cur[(y0 + y) * w + x0 + x]) is,
// for ptxas, that address with an immediate offset ([%r+64]).  So is a
// getelementptr with constant indices used only by loads, stores and other
// getelementptrs: its pointer plus an offset the final address absorbs.  The
// value standing for each: the first of its kind, the pointer (for constant
// indices), or null (an argument or a global: no register).
static DenseMap<const Value *, const Value *> addressClasses(const std::vector<const BasicBlock *> &Blocks,
                                                            ScalarEvolution &SE) {
  DenseMap<const Value *, const Value *> Rep;
  for (const BasicBlock *BB : Blocks) {
    std::map<std::vector<const void *>, const Value *> First;
    std::vector<std::pair<const SCEV *, const Value *>> Bases; // earlier addresses of the block
    for (const Instruction &I : *BB) {
      auto *G = dyn_cast<GetElementPtrInst>(&I);
      if (!G || G->use_empty())
        continue;
      // U uses G as the address it loads or stores (or, WITH_GEPS, builds on)
      auto AddressUse = [&](const User *U, bool WithGeps) {
        if (auto *L = dyn_cast<LoadInst>(U))
          return L->getPointerOperand() == G;
        if (auto *S = dyn_cast<StoreInst>(U))
          return S->getPointerOperand() == G;
        auto *UG = dyn_cast<GetElementPtrInst>(U);
        return WithGeps && UG && UG->getPointerOperand() == G;
      };
      const Value *P = G->getPointerOperand();
      if (G->hasAllConstantIndices()) {
        if (all_of(G->users(), [&](const User *U) { return AddressUse(U, true); })) {
          auto It = Rep.find(P);
          Rep[G] = It != Rep.end() ? It->second : isRegisterValue(P) ? P : nullptr;
        }
        continue;
      }
      if (!all_of(G->users(), [&](const User *U) { return AddressUse(U, false); }))
        continue;
      std::vector<const void *> Key{P, G->getSourceElementType()};
      for (unsigned J = 1; J < G->getNumOperands(); ++J)
        if (!isa<Constant>(G->getOperand(J)))
          Key.insert(Key.end(), {reinterpret_cast<const void *>(static_cast<uintptr_t>(J)), G->getOperand(J)});
      auto [It, New] = First.try_emplace(Key, G);
      if (!New) {
        Rep[G] = It->second;
        continue;
      }
      const SCEV *S = SE.getSCEV(const_cast<GetElementPtrInst *>(G));
      const Value *Same = nullptr;
      // the most recent few: unrolled copies stand next to each other
      for (size_t J = Bases.size(); J-- > 0 && J + 64 >= Bases.size() && !Same;) {
        const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(S, Bases[J].first));
        if (D && D->getAPInt().getSignificantBits() <= 24) // SASS: a 24-bit signed offset
          Same = Bases[J].second;
      }
      if (Same) {
        Rep[G] = Same;
        It->second = Same;
      } else {
        Bases.push_back({S, G});
      }
    }
  }
  return Rep;
}

// Registers a function's instruction sequence holds beyond its operands and
// result: the precise math functions' range reductions and slow paths, IEEE
// division's Newton steps and its rescaling path, integer division's
// reciprocal estimate.  ptxas 13.0 (sm_80) on out[i] = f(in[i]) less its count
// for out[i] = in[i] * 2 (10): sinf, cosf, tanf 11 (Payne-Hanek's reduction),
// atan2f 5, powf 6, sqrtf, expf, logf, erff 2, rsqrtf and the fast intrinsics
// 0, x / y 4; double x / y 13, sqrt, log 12, sin 18, exp 6; int x / y 2, long
// long 12; half division as float's (ptxas converts and divides in fp32).  A
// class stands for its functions (sfu_tan: tanf 11, atanf and asinf 0).
static unsigned sequenceTemporaries(const Instruction &I) {
  std::string C;
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    CallClass CC = classifyCall(*CB);
    if (CC.Kind == CallKind::Counted && CC.Class)
      C = CC.Class;
  } else if (I.isIntDivRem() || I.getOpcode() == Instruction::FDiv || I.getOpcode() == Instruction::FRem) {
    // the class the counts give it (a division by a constant is a multiply)
    std::map<std::string, uint64_t> Counts;
    classifyInstruction(I, "", Counts);
    if (Counts.size() == 1)
      C = Counts.begin()->first;
  }
  if (C.empty())
    return 0;
  static const std::pair<StringRef, unsigned> Table[] = {
      {"sfu_sin", 11}, {"sfu_cos", 11}, {"sfu_tan", 5},  {"sfu_pow", 6},       {"sfu_exp", 2},
      {"sfu_log", 2},  {"sfu_sqrt", 2}, {"fp32_div", 4}, {"fp16_div", 4}, {"fp64_div", 13},     {"fp64_special", 12},
      {"int_div", 2},  {"int64_div", 12}};
  for (const auto &[Name, N] : Table)
    if (Name == C)
      return N;
  return 0;
}

// Values LICM hoisted out of a loop that ptxas computes again inside it
// instead of holding them across it (rematerialization): integer arithmetic,
// extensions and addresses defined outside a loop and used only inside it, if
// the values they are computed from (their leaves) take fewer registers than
// they do.  subSeqMax's unrolled copy loop hoists 32 products (w + 4r) * seg,
// 32 shared addresses and 32 values chunk + m out of its outer loop: 96
// registers; ptxas holds w, seg and chunk (32 registers in all).  Each such
// value maps to its leaves; a loop's candidates go together or not at all.
static bool cheapToRecompute(const Instruction *I) {
  if (isa<BinaryOperator>(I))
    return I->getType()->isIntegerTy() && !I->isIntDivRem();
  if (auto *C = dyn_cast<CastInst>(I))
    return C->getOpcode() == Instruction::ZExt || C->getOpcode() == Instruction::SExt ||
           C->getOpcode() == Instruction::Trunc || C->getOpcode() == Instruction::AddrSpaceCast;
  return isa<GetElementPtrInst>(I);
}

static DenseMap<const Value *, SmallVector<const Value *, 4>>
rematerialized(Function &F, LoopInfo &LI, const std::function<const Value *(const Value *)> &Reg) {
  // the loop a value is hoisted out of: the one directly below its own loop
  // that holds its uses, or that the hoisted values using it are hoisted out
  // of ((w + 4r) is computed again with (w + 4r) * seg)
  DenseMap<const Instruction *, const Loop *> Hoisted;
  std::vector<BasicBlock *> Blocks;
  for (BasicBlock &BB : F)
    Blocks.push_back(&BB);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (BasicBlock *BB : reverse(Blocks))
      for (Instruction &I : reverse(*BB)) {
        if (Hoisted.count(&I) || !cheapToRecompute(&I) || I.use_empty() || !Reg(&I))
          continue;
        const Loop *Own = LI.getLoopFor(BB);
        const Loop *Into = nullptr;
        bool Ok = all_of(I.uses(), [&](const Use &U) {
          auto *UI = cast<Instruction>(U.getUser());
          const Loop *L;
          if (auto It = Hoisted.find(UI); It != Hoisted.end()) {
            L = It->second;
          } else {
            L = LI.getLoopFor(isa<PHINode>(UI) ? cast<PHINode>(UI)->getIncomingBlock(U) : UI->getParent());
            while (L && L->getParentLoop() != Own)
              L = L->getParentLoop();
          }
          if (!L || (Into && L != Into))
            return false;
          Into = L;
          return true;
        });
        if (Ok && Into) {
          Hoisted[&I] = Into;
          Grew = true;
        }
      }
  }
  DenseMap<const Loop *, SmallVector<const Instruction *, 16>> Groups;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto It = Hoisted.find(&I); It != Hoisted.end())
        Groups[It->second].push_back(&I);
  DenseMap<const Value *, SmallVector<const Value *, 4>> Leaves;
  for (auto &[L, Cands] : Groups) {
    auto InGroup = [&](const Value *V) {
      auto It = Hoisted.find(dyn_cast<Instruction>(V));
      return It != Hoisted.end() && It->second == L;
    };
    // leaves of each candidate, operands before users (block order within
    // the group is an order in which operands come first)
    DenseMap<const Value *, SmallVector<const Value *, 4>> Of;
    for (const Instruction *I : Cands) {
      SmallVector<const Value *, 4> Ls;
      for (const Value *Op : I->operands()) {
        if (InGroup(Op)) {
          for (const Value *X : Of[Op])
            if (!is_contained(Ls, X))
              Ls.push_back(X);
        } else if (const Value *R = Reg(Op); R && !is_contained(Ls, R)) {
          Ls.push_back(R);
        }
      }
      Of[I] = std::move(Ls);
    }
    // the candidates the loop reads (the others only feed them)
    SmallVector<const Instruction *, 16> Read;
    for (const Instruction *I : Cands)
      if (any_of(I->users(), [&](const User *U) { return !InGroup(U); }))
        Read.push_back(I);
    unsigned Keep = 0;
    SmallPtrSet<const Value *, 16> Need;
    for (const Instruction *I : Read) {
      Keep += regWeight(I);
      Need.insert(Of[I].begin(), Of[I].end());
    }
    unsigned Cost = 0;
    for (const Value *X : Need) {
      // a leaf the loop reads anyway costs nothing more
      bool Used = any_of(X->users(), [&](const User *U) {
        auto *UI = dyn_cast<Instruction>(U);
        return UI && !InGroup(UI) && L->contains(UI->getParent());
      });
      Cost += Used ? 0 : regWeight(X);
    }
    if (Cost >= Keep)
      continue;
    for (const Instruction *I : Read)
      Leaves[I] = Of[I];
  }
  return Leaves;
}

unsigned KernelExtractor::registerPressure() {
  std::vector<const BasicBlock *> Blocks = BlockById;
  DenseMap<const Value *, const Value *> Rep = addressClasses(Blocks, SE);
  for (const BasicBlock *BB : Blocks)
    for (const Instruction &I : *BB)
      if (isConstantBankOperand(I))
        Rep[&I] = nullptr; // an operand c[bank][offset], no register
  // the value whose register an operand occupies, null for none
  auto Reg = [&Rep](const Value *V) -> const Value * {
    // a representative may itself stand for another (a block laid out
    // after the one that uses it was classified later)
    for (auto It = Rep.find(V); V && It != Rep.end() && It->second != V; It = Rep.find(V))
      V = It->second;
    return V && isRegisterValue(V) ? V : nullptr;
  };
  // an address that is another plus an offset: not computed, so its operands
  // are not read
  auto Folded = [&](const Instruction *I) { return Rep.count(I) && Reg(I) != I; };
  DenseMap<const Value *, SmallVector<const Value *, 4>> Remat = rematerialized(F, LI, Reg);
  // the registers reading operand OP keeps live
  auto Reads = [&](const Value *Op, auto &&Insert) {
    if (auto It = Remat.find(Op); It != Remat.end()) {
      for (const Value *X : It->second)
        Insert(X);
    } else if (const Value *R = Reg(Op)) {
      Insert(R);
    }
  };
  // the registers instruction I reads (none for a phi, read on its edges, or
  // a folded address)
  auto ReadsAll = [&](const Instruction *I, auto &&Insert) {
    if (isa<PHINode>(I) || Folded(I))
      return;
    for (const Value *Op : I->operands())
      Reads(Op, Insert);
  };
  std::function<void(const Instruction *, SmallVectorImpl<const Value *> &)> ReadsOf =
      [&](const Instruction *I, SmallVectorImpl<const Value *> &Out) {
        ReadsAll(I, [&](const Value *R) {
          if (!is_contained(Out, R))
            Out.push_back(R);
        });
      };
  std::function<const Value *(const Value *)> RegOf = Reg;
  auto UsesInto = [&](const BasicBlock *From, const BasicBlock *To, SmallPtrSetImpl<const Value *> &Out) {
    for (const PHINode &PN : To->phis())
      if (int Idx = PN.getBasicBlockIndex(From); Idx >= 0)
        Reads(PN.getIncomingValue(Idx), [&](const Value *R) { Out.insert(R); });
  };
  // The peak over the blocks, each block's instructions taken from INSTS, in
  // the IR's order (first) and in the better of that and the list schedule
  // (second): the liveness and the IR's order are the same for both
  auto Estimate = [&](const DenseMap<const BasicBlock *, std::vector<const Instruction *>> &Insts) {
    DenseMap<const BasicBlock *, SmallPtrSet<const Value *, 32>> LiveIn, LiveOut;
    bool Changed = true;
    for (unsigned Round = 0; Changed && Round < 1000; ++Round) {
      Changed = false;
      for (auto It = Blocks.rbegin(); It != Blocks.rend(); ++It) {
        const BasicBlock *BB = *It;
        SmallPtrSet<const Value *, 32> Out;
        for (const BasicBlock *S : successors(BB)) {
          for (const Value *V : LiveIn[S])
            Out.insert(V);
          UsesInto(BB, S, Out);
        }
        SmallPtrSet<const Value *, 32> In = Out;
        const std::vector<const Instruction *> &L = Insts.find(BB)->second;
        for (auto I = L.rbegin(); I != L.rend(); ++I) {
          In.erase(*I);
          ReadsAll(*I, [&](const Value *R) { In.insert(R); });
        }
        for (const PHINode &PN : BB->phis())
          In.erase(&PN);
        if (In.size() != LiveIn[BB].size() || Out.size() != LiveOut[BB].size()) {
          Changed = true;
          LiveIn[BB] = In;
          LiveOut[BB] = Out;
        }
      }
    }
    // the most registers live at once in BB's instructions taken in ORDER
    auto Peak = [&](const BasicBlock *BB, const std::vector<const Instruction *> &Order) {
      SmallPtrSet<const Value *, 32> Live = LiveOut[BB];
      unsigned W = 0, Max = 0;
      for (const Value *V : Live)
        W += regWeight(V);
      Max = W;
      for (auto It = Order.rbegin(); It != Order.rend(); ++It) {
        const Instruction *I = *It;
        if (Reg(I) == I && Live.insert(I).second)
          W += regWeight(I); // defined here: occupies a register at its definition
        Max = std::max(Max, W + sequenceTemporaries(*I));
        if (Live.erase(I))
          W -= regWeight(I);
        ReadsAll(I, [&](const Value *R) {
          if (Live.insert(R).second)
            W += regWeight(R);
        });
      }
      return Max;
    };
    unsigned Max = 0, MaxShort = 0;
    for (const BasicBlock *BB : Blocks) {
      // ptxas' schedule needs no more than the better of the two orders
      DenseMap<const Instruction *, const Instruction *> Sunk;
      std::vector<const Instruction *> Base = pressureOrder(Insts.find(BB)->second, &Sunk);
      unsigned P = Peak(BB, Base);
      Max = std::max(Max, P);
      MaxShort = std::max(MaxShort, std::min(P, Peak(BB, listOrder(Base, Sunk, LiveOut[BB], ReadsOf, RegOf))));
    }
    return std::make_pair(Max, MaxShort);
  };
  // each block's own instructions
  DenseMap<const BasicBlock *, std::vector<const Instruction *>> Own, Hoisted;
  for (const BasicBlock *BB : Blocks)
    for (const Instruction &I : *BB)
      Own[BB].push_back(&I);
  // The same with the arithmetic that InstCombine sank into a block from
  // its only predecessor (an instruction whose one user is there) computed
  // before the predecessor's branch again, where nvcc's NVVM leaves it and
  // ptxas schedules it with the rest: the convolution's guarded stores
  // (if (y < image_height && x < image_width) output[...] = sum[yi][xi])
  // draw whole sums into their store's block, and every shared value they
  // read lives across the branch (block 16x8, tile 1x5: 113 values live out
  // of the block of the sums, against ptxas' 39 registers in all).  ptxas
  // needs no more than the better of the two.
  // (up the chain of only predecessors while no operand is computed in the
  // block it would leave: the guard y < image_height && x < image_width is
  // two branches)
  DenseMap<const BasicBlock *, std::vector<const Instruction *>> Moved;
  DenseMap<const Instruction *, const BasicBlock *> Up;
  auto Writes = [](const Instruction &I) { return I.mayWriteToMemory() || I.mayHaveSideEffects(); };
  for (const BasicBlock *BB : Blocks) {
    bool Written = false; // a load moves only above no write
    for (const Instruction &I : *BB) {
      Written |= Writes(I);
      if (isa<PHINode>(I) || I.isTerminator() || Writes(I) || (I.mayReadFromMemory() && Written) ||
          (isa<CallBase>(I) && !isa<IntrinsicInst>(I)) || isa<AllocaInst>(I))
        continue;
      const BasicBlock *To = BB;
      for (const BasicBlock *P = To->getUniquePredecessor(); P && P != To && P != BB; P = To->getUniquePredecessor()) {
        if (To != BB && I.mayReadFromMemory() && any_of(*To, Writes))
          break;
        if (any_of(I.operands(), [&](const Value *Op) {
              auto *OI = dyn_cast<Instruction>(Op);
              if (!OI)
                return false;
              auto It = Up.find(OI);
              return (It != Up.end() ? It->second : OI->getParent()) == To;
            }))
          break;
        To = P;
      }
      if (To != BB) {
        Up[&I] = To;
        Moved[To].push_back(&I);
      }
    }
  }
  for (const BasicBlock *BB : Blocks) {
    std::vector<const Instruction *> &L = Hoisted[BB];
    for (const Instruction &I : *BB) {
      if (I.isTerminator())
        L.insert(L.end(), Moved[BB].begin(), Moved[BB].end());
      if (!Up.count(&I))
        L.push_back(&I);
    }
  }
  auto [Max, L] = Estimate(Own);
  if (!Up.empty()) {
    auto [MaxHoisted, LHoisted] = Estimate(Hoisted);
    Max = std::min(Max, MaxHoisted);
    L = std::min(L, LHoisted);
  }
  // ptxas schedules for latency, which interleaves a block's independent
  // accumulation chains; the IR keeps each chain whole, one after the other.
  // Where chains read the same loaded values (the convolution's outputs of a
  // tile whose rows or columns overlap: block 48x2, tile 1x2), the IR's
  // order holds every value the first chain loads until the next chain
  // reads it again: 208 registers, where ptxas interleaves the two sums and
  // keeps 38.  The list schedule (listOrder) aligns the chains as ptxas does;
  // it is taken where the IR's order needs more than twice what it needs, a
  // sign of that artifact, or more than the 255 a thread may have (less the 4
  // reserved below).  Elsewhere ptxas holds more than the fewest a schedule
  // could, for latency (sobel: listOrder 18 + 4, ptxas 26; on the corpus the
  // IR's order is within 1.7x of the list schedule, at most 3 registers over
  // ptxas' count for sm_86), and the IR's order is kept.
  if (Max + 4 > 255 || Max > 2 * L)
    Max = std::min(Max, L);
  // ptxas 13.0 reports 4 registers for a kernel that does nothing: the
  // stack pointer R1 and the registers it reserves
  return Max + 4;
}

void KernelExtractor::run() {
  unsigned Id = 0;
  for (BasicBlock &BB : F) {
    BlockIds[&BB] = Id++;
    BlockById.push_back(&BB);
  }
  for (const ArgInfo &A : K.Args)
    EB.ArgNames[F.getArg(A.Index)] = A.Name;
  numberLoops();
  VG = wgperf::findVectorGroups(F, SE);
  SR = wgperf::findStrengthReduction(F, LI, SE);
  // Recurrence symbols and memory ids first: expressions refer to them.
  assignRecurrences();
  collectMemory();
  collectLoops();
  collectBlocks();
  markBackEdges();
  collectArrays();
  K.RegisterPressure = registerPressure();
  if (DISubprogram *SP = F.getSubprogram())
    K.Source = SP->getFilename().str() + ":" + std::to_string(SP->getLine());
}

// ---------------------------------------------------------------------------
// Struct arguments passed by value
// ---------------------------------------------------------------------------
//
// A kernel taking a struct by value (`__global__ void k(Params p)`) gets it as a
// byval pointer to parameter memory, and reads its fields with loads at constant
// offsets. Left so, the fields would be global loads, a bound `i < p.n` data-
// dependent and `p.x[i]` an access through a loaded pointer. On the clone, each
// field the kernel reads becomes an argument of its own, named after the member
// ("p.n", "p.x"; "p.8" without debug info), so a launch gives it with --arg or
// --buffer as any other. Arguments used otherwise (their address taken, indexed
// by a variable) are left as they are.

namespace {
struct FieldUse {
  uint64_t Offset;
  Type *Ty;
  std::vector<LoadInst *> Loads;
};
} // namespace

// The loads of byval argument P at constant offsets; false when P has another use.
static bool byvalFieldLoads(Argument &P, const DataLayout &DL, std::vector<FieldUse> &Fields,
                            std::vector<Instruction *> &Geps) {
  SmallVector<std::pair<Value *, uint64_t>, 8> Work{{&P, 0}};
  while (!Work.empty()) {
    auto [V, Base] = Work.pop_back_val();
    for (User *U : V->users()) {
      if (auto *L = dyn_cast<LoadInst>(U)) {
        if (!L->isSimple() || L->getType()->isAggregateType())
          return false;
        auto It = llvm::find_if(Fields, [&](const FieldUse &F) { return F.Offset == Base && F.Ty == L->getType(); });
        if (It == Fields.end())
          Fields.push_back({Base, L->getType(), {L}});
        else
          It->Loads.push_back(L);
        continue;
      }
      auto *G = dyn_cast<GetElementPtrInst>(U);
      if (!G || G->getPointerOperand() != V)
        return false;
      APInt Off(DL.getIndexTypeSizeInBits(G->getType()), 0);
      if (!G->accumulateConstantOffset(DL, Off) || Off.isNegative())
        return false;
      Geps.push_back(G);
      Work.push_back({G, Base + Off.getZExtValue()});
    }
  }
  return true;
}

static const DIType *stripDIType(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    unsigned Tag = D->getTag();
    if (Tag != dwarf::DW_TAG_typedef && Tag != dwarf::DW_TAG_const_type && Tag != dwarf::DW_TAG_volatile_type &&
        Tag != dwarf::DW_TAG_restrict_type)
      break;
    T = D->getBaseType();
  }
  return T;
}

// The member path of the field at OFFSET of BYTES bytes in struct T ("n", "in.x"), and
// the member's type; empty when the debug info does not say.
static std::string memberPath(const DIType *T, uint64_t Offset, uint64_t Bytes, const DIType *&Member) {
  auto *C = dyn_cast_or_null<DICompositeType>(stripDIType(T));
  if (!C)
    return "";
  for (const DINode *N : C->getElements()) {
    auto *M = dyn_cast<DIDerivedType>(N);
    if (!M || M->getTag() != dwarf::DW_TAG_member || M->isStaticMember())
      continue;
    uint64_t Start = M->getOffsetInBits() / 8, Size = M->getSizeInBits() / 8;
    if (Offset < Start || Offset + Bytes > Start + Size)
      continue;
    const DIType *MT = stripDIType(M->getBaseType());
    if (Offset == Start && Size == Bytes) {
      Member = M->getBaseType();
      return M->getName().str();
    }
    std::string Inner = memberPath(MT, Offset - Start, Bytes, Member);
    if (!Inner.empty())
      return M->getName().str() + "." + Inner;
    if (auto *Arr = dyn_cast_or_null<DICompositeType>(MT); Arr && Arr->getTag() == dwarf::DW_TAG_array_type) {
      const DIType *E = stripDIType(Arr->getBaseType());
      uint64_t EB = E ? E->getSizeInBits() / 8 : 0;
      if (EB && (Offset - Start) % EB == 0 && EB == Bytes) {
        Member = Arr->getBaseType();
        return M->getName().str() + "[" + std::to_string((Offset - Start) / EB) + "]";
      }
    }
  }
  return "";
}

// Flattens F's struct arguments; returns the kernel (F itself when none is) and sets ARGS
// to its arguments' descriptions (the debug info names the old function's arguments).
static Function *flattenByvalArgs(Module &M, Function &F, bool CL, std::vector<ArgInfo> &Args,
                                  std::vector<std::string> &Notes) {
  const DataLayout &DL = M.getDataLayout();
  struct Plan {
    bool Flat = false;
    std::vector<FieldUse> Fields;
    std::vector<Instruction *> Geps;
  };
  // An OpenCL kernel may call another: a call site would need its arguments rebuilt too.
  bool Called = llvm::any_of(F.users(), [](const User *U) { return isa<CallBase>(U); });
  std::vector<Plan> Plans(F.arg_size());
  bool Any = false;
  for (Argument &A : F.args()) {
    if (!A.hasByValAttr())
      continue;
    Plan &P = Plans[A.getArgNo()];
    if (!Called && byvalFieldLoads(A, DL, P.Fields, P.Geps)) {
      P.Flat = true;
      Any = true;
      llvm::sort(P.Fields, [](const FieldUse &X, const FieldUse &Y) { return X.Offset < Y.Offset; });
    }
  }
  std::vector<ArgInfo> Old = collectArgs(M, F, CL), New;
  for (Argument &A : F.args())
    if (A.hasByValAttr() && !Plans[A.getArgNo()].Flat)
      Notes.push_back("note: struct argument '" + Old[A.getArgNo()].Name +
                      "' is used other than by reading its fields (its address escapes, a variable indexes "
                      "it or another kernel calls this one): its loads are modelled as global memory");
  if (!Any) {
    Args = std::move(Old);
    return &F;
  }
  const DISubprogram *SP = F.getSubprogram();
  std::vector<Type *> Params;
  std::vector<AttributeSet> ParamAttrs;
  AttributeList AL = F.getAttributes();
  for (Argument &A : F.args()) {
    Plan &P = Plans[A.getArgNo()];
    if (!P.Flat) {
      ArgInfo AI = Old[A.getArgNo()];
      AI.Index = Params.size();
      New.push_back(AI);
      Params.push_back(A.getType());
      ParamAttrs.push_back(AL.getParamAttrs(A.getArgNo()));
      continue;
    }
    const DIType *DT = nullptr;
    if (const DILocalVariable *DV = argDebugVar(F, A.getArgNo()))
      DT = DV->getType();
    if (!DT && SP && SP->getType() && A.getArgNo() + 1 < SP->getType()->getTypeArray().size())
      DT = SP->getType()->getTypeArray()[A.getArgNo() + 1];
    std::set<std::string> Used;
    for (const FieldUse &Fd : P.Fields) {
      ArgInfo AI;
      AI.Index = Params.size();
      uint64_t Bytes = DL.getTypeStoreSize(Fd.Ty);
      const DIType *Member = nullptr;
      // one load of the whole struct (a wrapper such as __half): the argument itself
      bool Whole = Fd.Offset == 0 && Bytes == DL.getTypeAllocSize(A.getParamByValType());
      std::string Path = Whole ? "" : memberPath(DT, Fd.Offset, Bytes, Member);
      std::string Base = Old[A.getArgNo()].Name;
      if (!Whole)
        Base += "." + (Path.empty() ? std::to_string(Fd.Offset) : Path);
      AI.Name = Base;
      for (int N = 2; Used.count(AI.Name); N++)
        AI.Name = Base + "#" + std::to_string(N);
      Used.insert(AI.Name);
      uint64_t PointeeBytes = 0;
      if (Member)
        AI.Type = diTypeName(Member, PointeeBytes, AI.IsConst);
      else if (Whole)
        AI.Type = Old[A.getArgNo()].Type;
      if (Fd.Ty->isPointerTy()) {
        AI.Kind = "pointer";
        AI.Space = CL ? spaceName(M, Fd.Ty->getPointerAddressSpace()) : "global";
        if (AI.Space == "generic" || AI.Space == "private")
          AI.Space = "global";
        AI.ElemBytes = PointeeBytes;
        AI.ElemBytesSource = PointeeBytes ? "type" : "unknown";
      } else {
        AI.Kind = "scalar";
        AI.Space = "private";
        AI.IsConst = false;
        AI.ElemBytes = Bytes;
        AI.ElemBytesSource = "type";
        AI.Floating = Fd.Ty->isFloatingPointTy();
      }
      if (AI.Type.empty()) {
        raw_string_ostream OS(AI.Type);
        Fd.Ty->print(OS);
      }
      New.push_back(AI);
      Params.push_back(Fd.Ty);
      ParamAttrs.push_back(AttributeSet());
    }
  }
  FunctionType *FT = FunctionType::get(F.getReturnType(), Params, false);
  Function *NF = Function::Create(FT, F.getLinkage(), F.getAddressSpace(), "", &M);
  NF->setCallingConv(F.getCallingConv());
  NF->setAttributes(AttributeList::get(M.getContext(), AL.getFnAttrs(), AL.getRetAttrs(), ParamAttrs));
  NF->copyMetadata(&F, 0);
  NF->splice(NF->begin(), &F);
  unsigned J = 0;
  for (Argument &A : F.args()) {
    Plan &P = Plans[A.getArgNo()];
    if (!P.Flat) {
      Argument *NA = NF->getArg(J++);
      NA->takeName(&A);
      A.replaceAllUsesWith(NA);
      continue;
    }
    for (const FieldUse &Fd : P.Fields) {
      Argument *NA = NF->getArg(J++);
      NA->setName(New[NA->getArgNo()].Name);
      for (LoadInst *L : Fd.Loads) {
        L->replaceAllUsesWith(NA);
        L->eraseFromParent();
      }
    }
    for (auto It = P.Geps.rbegin(); It != P.Geps.rend(); ++It)
      (*It)->eraseFromParent();
    A.replaceAllUsesWith(PoisonValue::get(A.getType())); // debug records only
  }
  F.replaceAllUsesWith(NF); // nvvm.annotations
  NF->takeName(&F);
  F.eraseFromParent();
  Args = std::move(New);
  return NF;
}

// "_Z4vaddPKfS0_Pfi" -> "vadd"; "ns::k<int>(...)" keeps "ns::k<int>".
static std::string baseName(const std::string &Symbol) {
  ItaniumPartialDemangler D;
  if (D.partialDemangle(Symbol.c_str()))
    return Symbol;
  size_t N = 0;
  char *Buf = D.getFunctionName(nullptr, &N);
  std::string R = Buf ? Buf : Symbol;
  std::free(Buf);
  return R;
}

uint64_t localBytesInUse(const Module &M) {
  const DataLayout &DL = M.getDataLayout();
  uint64_t N = 0;
  for (const GlobalVariable &G : M.globals()) {
    if (spaceName(M, G.getAddressSpace()) != "local")
      continue;
    SmallVector<const User *, 8> Work(G.users());
    SmallPtrSet<const User *, 8> Seen;
    bool Used = false;
    while (!Work.empty() && !Used) {
      const User *U = Work.pop_back_val();
      if (!Seen.insert(U).second)
        continue;
      if (isa<Instruction>(U))
        Used = true;
      else if (isa<ConstantExpr>(U))
        Work.append(U->user_begin(), U->user_end());
    }
    if (Used)
      N += DL.getTypeAllocSize(G.getValueType());
  }
  return N;
}

uint64_t staticLocalBytes(const KernelInfo &K) {
  uint64_t N = 0;
  for (const ArrayInfo &A : K.Arrays)
    if (A.Space == "local")
      N += A.Bytes;
  return N;
}

// True when no instruction of F writes memory that outlives its work-group:
// no store or atomic to global (or generic, unless to a private variable)
// memory, no call that may write.  The optimizer then removed every
// computation whose result is not stored (a kernel whose store was left out
// or commented out runs as little more than its launch), which the model
// cannot see from the code that is left: it says so.
static bool storesNothingOutside(const Function &F) {
  // shared or local memory (isWindowPointer), or a private variable
  auto Inside = [](const Value *P) { return isWindowPointer(P) || isa<AllocaInst>(getUnderlyingObject(P)); };
  for (const Instruction &I : instructions(F)) {
    if (!I.mayWriteToMemory() || isa<FenceInst>(I))
      continue;
    const Value *P = nullptr; /* where a store or an atomic writes */
    if (auto *S = dyn_cast<StoreInst>(&I))
      P = S->getPointerOperand();
    else if (auto *A = dyn_cast<AtomicRMWInst>(&I))
      P = A->getPointerOperand();
    else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
      P = X->getPointerOperand();
    if (P) {
      if (Inside(P))
        continue;
      return false;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      if (II->isLifetimeStartOrEnd() || II->getIntrinsicID() == Intrinsic::assume || isa<DbgInfoIntrinsic>(II))
        continue;
      if (auto *MI = dyn_cast<MemIntrinsic>(II); MI && Inside(MI->getRawDest()))
        continue;
      StringRef N = II->getCalledFunction() ? II->getCalledFunction()->getName() : "";
      if (N.starts_with("llvm.nvvm.barrier") || N.starts_with("llvm.nvvm.bar.") || N.starts_with("llvm.nvvm.membar") ||
          N.starts_with("llvm.nvvm.fence"))
        continue;
    }
    return false; // a call, an intrinsic that writes, anything else
  }
  return true;
}

// The functions a kernel calls, directly or not, that the source marks
// __noinline__ (noinline without optnone: -O0 marks every function both),
// demangled, each once.  The model inlines every call (normalizeClone).
static std::vector<std::string> noinlineCallees(const Function &K) {
  std::vector<std::string> Out;
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work{&K};
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *C = CB->getCalledFunction(); C && !C->isDeclaration() && Seen.insert(C).second) {
          if (C->hasFnAttribute(Attribute::NoInline) && !C->hasFnAttribute(Attribute::OptimizeNone))
            Out.push_back(demangle(C->getName().str()));
          Work.push_back(C);
        }
  }
  return Out;
}

ModuleModel extractModel(Module &Orig, bool Normalize) {
  ModuleModel MM;
  MM.ModuleName = Orig.getModuleIdentifier();
  MM.SourceFile = Orig.getSourceFileName();
  MM.Triple = Orig.getTargetTriple();

  auto Annotated = annotatedKernels(Orig);
  std::set<std::string> KernelNames;
  for (const Function &F : Orig)
    if (isKernel(F, Annotated))
      KernelNames.insert(F.getName().str());
  if (KernelNames.empty()) {
    MM.Diagnostics.push_back("warning: no kernels found in module '" + MM.ModuleName + "'");
    return MM;
  }

  std::unique_ptr<Module> Clone = CloneModule(Orig);
  if (Normalize) {
    std::string Err = normalizeClone(*Clone, KernelNames);
    if (!Err.empty())
      MM.Diagnostics.push_back("warning: normalization failed: " + Err);
  }

  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  std::vector<Function *> Kernels;
  for (Function &F : *Clone)
    if (KernelNames.count(F.getName().str()) && !F.isDeclaration())
      Kernels.push_back(&F);
  std::vector<std::vector<ArgInfo>> Args(Kernels.size());
  std::vector<std::vector<std::string>> Notes(Kernels.size());
  for (size_t I = 0; I < Kernels.size(); I++)
    Kernels[I] = flattenByvalArgs(*Clone, *Kernels[I], isOpenCL(*Clone, *Kernels[I]), Args[I], Notes[I]);

  for (size_t I = 0; I < Kernels.size(); I++) {
    Function &F = *Kernels[I];
    KernelInfo K;
    K.Diagnostics = Notes[I];
    K.Symbol = F.getName().str();
    K.Signature = demangle(K.Symbol);
    K.Name = baseName(K.Symbol);
    K.Language = isOpenCL(*Clone, F) ? "opencl" : "cuda";
    if (const Function *OF = Orig.getFunction(K.Symbol))
      K.Launch = launchAttrs(Orig, *OF, K.Language == "opencl");
    K.Args = std::move(Args[I]);
    KernelExtractor X(*Clone, F, FAM, K);
    X.run();
    if (const Function *OF = Orig.getFunction(K.Symbol))
      for (const std::string &N : noinlineCallees(*OF))
        K.Diagnostics.push_back("warning: calls '" + N + "' (__noinline__), which the model takes as inlined: nvcc "
                                "keeps the call, whose cost (and arguments passed through local memory) is not "
                                "modelled");
    if (storesNothingOutside(F))
      K.Diagnostics.push_back("warning: stores nothing that outlives a work-group (no store to global memory, "
                              "atomic or call that may write): the optimizer removed the work whose results are "
                              "never stored, and what is predicted is what is left");
    MM.Kernels.push_back(std::move(K));
  }
  llvm::sort(MM.Kernels, [](const KernelInfo &A, const KernelInfo &B) { return A.Name < B.Name; });
  return MM;
}

} // namespace wgperf
