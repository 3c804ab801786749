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
