//===- Backend.cpp - what the NVIDIA backend makes of the IR we count -----===//
//
// FMA contraction and shared-memory access vectorization, as Backend.h
// describes.  Runs as part of the wgperf-extract pass:
//   opt -load-pass-plugin=libwgperf.so -passes=wgperf-extract k.bc
//
//===----------------------------------------------------------------------===//
#include "Backend.h"
#include "Expr.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace wgperf {

static bool contractible(const Instruction &I) {
  auto *FP = dyn_cast<FPMathOperator>(&I);
  return FP && FP->hasAllowContract();
}

static bool isFAddSub(const Instruction &I) {
  return I.getOpcode() == Instruction::FAdd || I.getOpcode() == Instruction::FSub;
}

/// The fmul operand of fadd/fsub \p Add that the backend fuses, or null.
static const Instruction *fusedOperand(const Instruction &Add) {
  if (!isFAddSub(Add) || !contractible(Add))
    return nullptr;
  for (unsigned Op = 0; Op < 2; ++Op) {
    auto *Mul = dyn_cast<Instruction>(Add.getOperand(Op));
    if (Mul && Mul->getOpcode() == Instruction::FMul && contractible(*Mul) && Mul->hasOneUse() &&
        Mul->getParent() == Add.getParent() && Mul->getType() == Add.getType())
      return Mul;
  }
  return nullptr;
}

bool fusedIntoFma(const Instruction &I) {
  if (I.getOpcode() != Instruction::FMul || !I.hasOneUse())
    return false;
  auto *User = dyn_cast<Instruction>(*I.user_begin());
  return User && fusedOperand(*User) == &I;
}

bool absorbsFmul(const Instruction &I) { return fusedOperand(I) != nullptr; }

namespace {

struct Candidate {
  Instruction *I;
  const Value *Object; // the shared array (global) or __local argument
  const SCEV *Ptr;
  unsigned Bytes;
  Type *Ty;
  bool Store;
  unsigned Pos; // position in the block
};

} // namespace

/// The shared-memory object an access reaches, or null.
static const Value *sharedObject(const Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr->stripPointerCasts(), 12);
  if (auto *G = dyn_cast_or_null<GlobalVariable>(Obj))
    return G->getAddressSpace() == 3 ? G : nullptr;
  if (auto *A = dyn_cast_or_null<Argument>(Obj))
    return A->getType()->isPointerTy() && A->getType()->getPointerAddressSpace() == 3 ? A : nullptr;
  return nullptr;
}

/// Whether anything between positions \p From and \p To of \p Order may
/// write memory (for a load group) or touch it (for a store group), or
/// synchronize.
static bool blocked(const std::vector<Instruction *> &Order, unsigned From, unsigned To, bool Store,
                    const DenseSet<const Instruction *> &Group) {
  for (unsigned P = From + 1; P < To; ++P) {
    Instruction *I = Order[P];
    if (Group.count(I))
      continue;
    if (isa<CallBase>(I) && !isa<DbgInfoIntrinsic>(I))
      return true; // barriers, atomics, unknown calls
    if (I->mayWriteToMemory() || (Store && I->mayReadFromMemory()))
      return true;
  }
  return false;
}

VectorGroups findVectorGroups(Function &F, ScalarEvolution &SE) {
  VectorGroups VG;
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (BasicBlock &BB : F) {
    std::vector<Instruction *> Order;
    std::vector<Candidate> Cands;
    for (Instruction &I : BB) {
      unsigned Pos = Order.size();
      Order.push_back(&I);
      const Value *Ptr = nullptr;
      Type *Ty = nullptr;
      bool Store = false;
      if (auto *L = dyn_cast<LoadInst>(&I); L && L->isSimple()) {
        Ptr = L->getPointerOperand();
        Ty = L->getType();
      } else if (auto *S = dyn_cast<StoreInst>(&I); S && S->isSimple()) {
        Ptr = S->getPointerOperand();
        Ty = S->getValueOperand()->getType();
        Store = true;
      }
      if (!Ptr || !(Ty->isFloatingPointTy() || Ty->isIntegerTy()))
        continue;
      unsigned Bytes = DL.getTypeStoreSize(Ty);
      if (Bytes != 4 && Bytes != 8)
        continue;
      const Value *Obj = sharedObject(Ptr);
      if (!Obj)
        continue;
      const SCEV *PS = SE.getSCEV(const_cast<Value *>(Ptr));
      if (isa<SCEVCouldNotCompute>(PS))
        continue;
      Cands.push_back({&I, Obj, PS, Bytes, Ty, Store, Pos});
    }
    std::vector<bool> Used(Cands.size(), false);
    for (size_t A = 0; A < Cands.size(); ++A) {
      if (Used[A])
        continue;
      const Candidate &Lead = Cands[A];
      // The lead must start an aligned vector: its offset from the object
      // has enough trailing zero bits for 16 (or 8) bytes.
      const SCEV *Off = SE.removePointerBase(Lead.Ptr);
      if (isa<SCEVCouldNotCompute>(Off))
        continue;
      unsigned TZ = SE.getMinTrailingZeros(Off);
      // Members at +1, +2, ... elements, same kind and type.
      std::vector<size_t> Members(1, A);
      unsigned MaxBytes = TZ >= 4 ? 16 : TZ >= 3 ? 8 : 0;
      for (unsigned K = 1; MaxBytes && (K + 1) * Lead.Bytes <= MaxBytes; ++K) {
        size_t Found = Cands.size();
        for (size_t B = A + 1; B < Cands.size(); ++B) {
          const Candidate &C = Cands[B];
          if (Used[B] || C.Store != Lead.Store || C.Ty != Lead.Ty || C.Object != Lead.Object)
            continue;
          auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(C.Ptr, Lead.Ptr));
          if (D && D->getAPInt() == (int64_t)(K * Lead.Bytes)) {
            Found = B;
            break;
          }
        }
        if (Found == Cands.size())
          break;
        Members.push_back(Found);
      }
      // Only whole vectors: 4 x 4 B or 2 x 8 B (16 B), else 2 x 4 B (8 B).
      unsigned Width = Members.size() * Lead.Bytes;
      if (Width > 16)
        continue;
      if (Width != 16 && !(Width == 8 && TZ >= 3)) {
        if (Width >= 8 && TZ >= 3) {
          Members.resize(8 / Lead.Bytes);
          Width = 8;
        } else {
          continue;
        }
      }
      // Something in between that may alias (or a barrier) splits the group:
      // a 16-byte group that is blocked may still give an 8-byte one.
      auto Blocked = [&](const std::vector<size_t> &Ms) {
        DenseSet<const Instruction *> Group;
        unsigned First = Order.size(), Last = 0;
        for (size_t M : Ms) {
          Group.insert(Cands[M].I);
          First = std::min(First, Cands[M].Pos);
          Last = std::max(Last, Cands[M].Pos);
        }
        return blocked(Order, First, Last, Lead.Store, Group);
      };
      if (Members.size() >= 2 && Blocked(Members) && Width == 16 && Lead.Bytes == 4 && TZ >= 3) {
        Members.resize(2);
        Width = 8;
      }
      if (Members.size() < 2 || Blocked(Members))
        continue;
      // The lowest address stands for the group: its offset is the vector's.
      VG.LeaderBytes[Lead.I] = Width;
      for (size_t M : Members) {
        Used[M] = true;
        if (M != A)
          VG.Merged.insert(Cands[M].I);
      }
    }
  }
  return VG;
}

/// The pointer operand of a load or store, else null.
static const Value *accessPointer(const Instruction &I) {
  if (auto *L = dyn_cast<LoadInst>(&I))
    return L->getPointerOperand();
  if (auto *S = dyn_cast<StoreInst>(&I))
    return S->getPointerOperand();
  return nullptr;
}

/// Instructions that only compute an address: what the slice may contain.
static bool addressArithmetic(const Instruction &I) {
  if (isa<GetElementPtrInst>(I))
    return true;
  if (auto *C = dyn_cast<CastInst>(&I))
    return C->getOpcode() == Instruction::SExt || C->getOpcode() == Instruction::ZExt ||
           C->getOpcode() == Instruction::Trunc;
  switch (I.getOpcode()) {
  case Instruction::Add: case Instruction::Sub: case Instruction::Mul:
  case Instruction::Shl: case Instruction::Or:
    return true;
  default:
    return false;
  }
}

/// \p S in 64 bits with its extensions and truncations moved to the leaves,
/// as the backend computes an index whose arithmetic may not wrap (C's
/// signed int, nsw) directly in the address register: sext({a,+,b}) becomes
/// {sext a,+,sext b}, so the address is an add recurrence of its loop.
static const SCEV *widened(ScalarEvolution &SE, const SCEV *S, Type *Ty, unsigned Depth = 0) {
  if (Depth > 16)
    return SE.getTruncateOrSignExtend(S, Ty);
  if (auto *C = dyn_cast<SCEVConstant>(S))
    return SE.getConstant(Ty, C->getAPInt().getSExtValue(), true);
  if (auto *E = dyn_cast<SCEVCastExpr>(S))
    if (isa<SCEVSignExtendExpr>(E) || isa<SCEVZeroExtendExpr>(E) || isa<SCEVTruncateExpr>(E))
      return widened(SE, E->getOperand(0), Ty, Depth + 1);
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : A->operands())
      Ops.push_back(widened(SE, Op, Ty, Depth + 1));
    return SE.getAddExpr(Ops);
  }
  if (auto *M = dyn_cast<SCEVMulExpr>(S)) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : M->operands())
      Ops.push_back(widened(SE, Op, Ty, Depth + 1));
    return SE.getMulExpr(Ops);
  }
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && AR->isAffine())
    return SE.getAddRecExpr(widened(SE, AR->getStart(), Ty, Depth + 1),
                            widened(SE, AR->getStepRecurrence(SE), Ty, Depth + 1), AR->getLoop(),
                            SCEV::FlagAnyWrap);
  if (S->getType()->isPointerTy())
    return S;
  return SE.getTruncateOrSignExtend(S, Ty);
}

StrengthReduction findStrengthReduction(Function &F, LoopInfo &LI, ScalarEvolution &SE) {
  StrengthReduction R;
  for (Loop *L : LI.getLoopsInPreorder()) {
    // accesses of the loop's own blocks whose address is {start,+,step}<L>
    std::vector<const Instruction *> Acc;
    std::vector<const SCEV *> Addr;
    std::set<const Instruction *> Slice;
    for (BasicBlock *BB : L->blocks()) {
      if (LI.getLoopFor(BB) != L)
        continue;
      for (Instruction &I : *BB) {
        const Value *P = accessPointer(I);
        auto *PI = P ? dyn_cast<Instruction>(P) : nullptr;
        if (!PI || !L->contains(PI) || !SE.isSCEVable(P->getType()))
          continue;
        Type *Ty = F.getParent()->getDataLayout().getIndexType(P->getType());
        auto *AR = dyn_cast<SCEVAddRecExpr>(widened(SE, SE.getSCEV(const_cast<Value *>(P)), Ty));
        if (!AR || AR->getLoop() != L || !AR->isAffine() || !SE.isLoopInvariant(AR->getStepRecurrence(SE), L))
          continue;
        Acc.push_back(&I);
        Addr.push_back(AR);
        std::vector<const Instruction *> Work{PI};
        while (!Work.empty()) {
          const Instruction *X = Work.back();
          Work.pop_back();
          if (!L->contains(X) || !addressArithmetic(*X) || !Slice.insert(X).second)
            continue;
          for (const Value *Op : X->operands())
            if (auto *OI = dyn_cast<Instruction>(Op))
              Work.push_back(OI);
        }
      }
    }
    if (Acc.empty())
      continue;
    // an instruction goes only when every use is gone too: an address of
    // a reduced access, or another instruction that goes
    std::set<const Instruction *> Reduced(Acc.begin(), Acc.end());
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto It = Slice.begin(); It != Slice.end();) {
        bool Keep = true;
        for (const User *U : (*It)->users()) {
          auto *UI = dyn_cast<Instruction>(U);
          bool AsAddress = UI && Reduced.count(UI) && accessPointer(*UI) == *It;
          if (!UI || (!AsAddress && !Slice.count(UI))) {
            Keep = false;
            break;
          }
        }
        if (Keep) {
          ++It;
        } else {
          It = Slice.erase(It);
          Changed = true;
        }
      }
    }
    // streams: accesses whose addresses differ by a constant share a
    // pointer; one increment each where the arithmetic went
    std::vector<const SCEV *> Streams;
    for (size_t A = 0; A < Acc.size(); ++A) {
      auto *PI = cast<Instruction>(accessPointer(*Acc[A]));
      if (!Slice.count(PI))
        continue; // its address is computed some other way (kept)
      bool Known = false;
      for (const SCEV *S : Streams)
        if (isa<SCEVConstant>(SE.getMinusSCEV(Addr[A], S))) {
          Known = true;
          break;
        }
      if (!Known)
        Streams.push_back(Addr[A]);
    }
    if (Streams.empty())
      continue;
    for (const Instruction *X : Slice)
      R.Removed.insert(X);
    R.Steps[L->getHeader()] += Streams.size();
  }
  return R;
}

unsigned specialRegisterReads(const Function &F) {
  std::set<std::string> Regs;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      std::string S = classifyWorkItemCall(*CB).Symbol;
      if (S.rfind("gid.", 0) == 0) {
        Regs.insert("lid." + S.substr(4));
        Regs.insert("grp." + S.substr(4));
      } else if (S.rfind("lid.", 0) == 0 || S.rfind("grp.", 0) == 0 || S == "laneid") {
        Regs.insert(S);
      }
    }
  return Regs.size();
}

} // namespace wgperf
