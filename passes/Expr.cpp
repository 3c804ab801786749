//===- Expr.cpp - Symbolic expressions of kernel values ------------------===//
//
// Expressions are built from ScalarEvolution first (exact: it keeps casts,
// wrap flags and loop recurrences), and from the IR where SCEV has nothing
// to say (loaded values, compares, selects, divisions it cannot model).
// Anything that cannot be expressed becomes a '?' symbol so the analyzer
// never silently treats it as known.
//
//===----------------------------------------------------------------------===//
#include "Expr.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#include <cmath>

using namespace llvm;

namespace wgperf {

static const unsigned MaxDepth = 64;
// Shared subexpressions are printed in full, so a DAG could grow the text
// exponentially; past this size an expression is reported as unknown.
static const size_t MaxExprChars = 4096;

static std::string capped(std::string S) {
  return S.size() > MaxExprChars ? std::string("?large") : S;
}

// "_Z5clampiii" -> Base "clamp", Params "iii"; false when not a plain
// Itanium-mangled function name.
static bool splitMangled(StringRef Name, StringRef &Base, StringRef &Params) {
  if (!Name.starts_with("_Z"))
    return false;
  StringRef Rest = Name.drop_front(2);
  unsigned Len = 0;
  size_t Digits = 0;
  while (Digits < Rest.size() && isDigit(Rest[Digits])) {
    Len = Len * 10 + (Rest[Digits] - '0');
    ++Digits;
    if (Len > 4096)
      return false;
  }
  if (Digits == 0 || Digits + Len > Rest.size())
    return false;
  Base = Rest.substr(Digits, Len);
  Params = Rest.substr(Digits + Len);
  return true;
}

std::string plainName(StringRef Name) {
  StringRef Base, Params;
  return splitMangled(Name, Base, Params) ? Base.str() : Name.str();
}

std::string widthSuffix(const Type *T) {
  if (T->isIntegerTy() && T->getIntegerBitWidth() < 64)
    return ":" + std::to_string(T->getIntegerBitWidth());
  return "";
}

static std::string dimName(const Value *V, bool &Unknown) {
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    switch (C->getZExtValue()) {
    case 0: return "x";
    case 1: return "y";
    case 2: return "z";
    }
  }
  Unknown = true;
  return "";
}

WorkItemQuery classifyWorkItemCall(const CallBase &CB) {
  WorkItemQuery Q;
  const Function *F = CB.getCalledFunction();
  if (!F)
    return Q;
  StringRef Name = F->getName();
  if (Name.starts_with("llvm.nvvm.read.ptx.sreg.")) {
    StringRef Reg = Name.drop_front(strlen("llvm.nvvm.read.ptx.sreg."));
    auto [Base, Dim] = Reg.split('.');
    static const struct { const char *Reg, *Sym; bool Varies; } Map[] = {
        {"tid", "lid", true},    {"ctaid", "grp", true},
        {"ntid", "lsz", false},  {"nctaid", "ngrp", false},
    };
    for (auto &E : Map)
      if (Base == E.Reg && (Dim == "x" || Dim == "y" || Dim == "z")) {
        Q.Symbol = std::string(E.Sym) + "." + Dim.str();
        Q.VariesPerItem = E.Varies;
        return Q;
      }
    if (Reg == "laneid") {
      Q.Symbol = "laneid";
      Q.VariesPerItem = true;
    } else if (Reg == "warpsize") {
      Q.Symbol = "warpsize";
    }
    return Q;
  }
  std::string P = plainName(Name);
  static const struct { const char *Fn, *Sym; bool Varies; } CLMap[] = {
      {"get_global_id", "gid", true},      {"get_local_id", "lid", true},
      {"get_group_id", "grp", true},       {"get_local_size", "lsz", false},
      {"get_enqueued_local_size", "lsz", false},
      {"get_num_groups", "ngrp", false},   {"get_global_size", "gsz", false},
      {"get_global_offset", "goff", false},
  };
  for (auto &E : CLMap)
    if (P == E.Fn && CB.arg_size() == 1) {
      std::string D = dimName(CB.getArgOperand(0), Q.UnknownDim);
      Q.VariesPerItem = E.Varies;
      Q.Symbol = Q.UnknownDim ? "" : std::string(E.Sym) + "." + D;
      return Q;
    }
  if (P == "get_work_dim" && CB.arg_size() == 0)
    Q.Symbol = "wdim";
  return Q;
}

std::string ExprBuilder::loopSym(const Loop *L) {
  auto It = LoopIds.find(L);
  if (It == LoopIds.end())
    return "?loop";
  return "it.L" + std::to_string(It->second);
}

static std::string join(StringRef Op, ArrayRef<std::string> Args) {
  std::string S = "(" + Op.str();
  for (auto &A : Args)
    S += " " + A;
  return S + ")";
}

static std::string flagSuffix(SCEV::NoWrapFlags F) {
  std::string S;
  if (F & SCEV::FlagNSW)
    S += ":nsw";
  if (F & SCEV::FlagNUW)
    S += ":nuw";
  return S;
}

std::string ExprBuilder::scev(const SCEV *S) {
  if (++Depth > MaxDepth) {
    --Depth;
    return "?deep";
  }
  std::string R;
  Type *T = S->getType();
  std::string W = widthSuffix(T);
  switch (S->getSCEVType()) {
  case scConstant: {
    const APInt &V = cast<SCEVConstant>(S)->getAPInt();
    if (V.getBitWidth() == 1)
      R = V.isZero() ? "0" : "1";
    else if (V.getSignificantBits() <= 64)
      R = std::to_string(V.getSExtValue());
    else
      R = "?bigconst";
    break;
  }
  case scVScale:
    R = "?vscale";
    break;
  case scPtrToInt:
    R = scev(cast<SCEVCastExpr>(S)->getOperand());
    break;
  case scTruncate:
  case scZeroExtend:
  case scSignExtend: {
    auto *C = cast<SCEVCastExpr>(S);
    const char *Op = S->getSCEVType() == scTruncate     ? "trunc"
                     : S->getSCEVType() == scZeroExtend ? "zext"
                                                        : "sext";
    Type *From = C->getOperand()->getType();
    unsigned FW = From->isIntegerTy() ? From->getIntegerBitWidth() : 64;
    unsigned TW = T->isIntegerTy() ? T->getIntegerBitWidth() : 64;
    R = "(" + std::string(Op) + ":" + std::to_string(FW) + ":" +
        std::to_string(TW) + " " + scev(C->getOperand()) + ")";
    break;
  }
  case scAddExpr:
  case scMulExpr: {
    auto *N = cast<SCEVNAryExpr>(S);
    std::vector<std::string> Ops;
    for (const SCEV *Op : N->operands())
      Ops.push_back(scev(Op));
    R = join((S->getSCEVType() == scAddExpr ? "add" : "mul") + W +
                 flagSuffix(N->getNoWrapFlags()),
             Ops);
    break;
  }
  case scUDivExpr: {
    auto *D = cast<SCEVUDivExpr>(S);
    R = join("udiv" + W, {scev(D->getLHS()), scev(D->getRHS())});
    break;
  }
  case scAddRecExpr: {
    auto *A = cast<SCEVAddRecExpr>(S);
    std::string It = loopSym(A->getLoop());
    std::string F = W + flagSuffix(A->getNoWrapFlags());
    if (A->isAffine()) {
      std::string Step = scev(A->getStepRecurrence(SE));
      std::string Start = scev(A->getStart());
      std::string Prod = Step == "1" ? It : join("mul" + F, {Step, It});
      R = Start == "0" ? Prod : join("add" + F, {Start, Prod});
    } else {
      std::vector<std::string> Ops;
      for (const SCEV *Op : A->operands())
        Ops.push_back(scev(Op));
      R = join("addrec" + W + " " + It, Ops);
    }
    break;
  }
  case scSMaxExpr:
  case scUMaxExpr:
  case scSMinExpr:
  case scUMinExpr:
  case scSequentialUMinExpr: {
    auto *N = cast<SCEVNAryExpr>(S);
    const char *Op = S->getSCEVType() == scSMaxExpr   ? "smax"
                     : S->getSCEVType() == scUMaxExpr ? "umax"
                     : S->getSCEVType() == scSMinExpr ? "smin"
                                                      : "umin";
    std::vector<std::string> Ops;
    for (const SCEV *Op2 : N->operands())
      Ops.push_back(scev(Op2));
    R = join(Op + W, Ops);
    break;
  }
  case scUnknown:
    R = valueUncached(cast<SCEVUnknown>(S)->getValue());
    break;
  case scCouldNotCompute:
    R = "?";
    break;
  }
  --Depth;
  return capped(std::move(R));
}

std::string ExprBuilder::value(const Value *V) {
  auto It = ValueCache.find(V);
  if (It != ValueCache.end())
    return It->second;
  if (InProgress.count(V))
    return "?cycle";
  InProgress.insert(V);
  std::string R;
  if (++Depth > MaxDepth) {
    R = "?deep";
  } else if (V->getType()->isIntegerTy() && SE.isSCEVable(V->getType())) {
    const SCEV *S = SE.getSCEV(const_cast<Value *>(V));
    if (auto *U = dyn_cast<SCEVUnknown>(S); U && U->getValue() == V)
      R = valueUncached(V);
    else
      R = scev(S);
  } else {
    R = valueUncached(V);
  }
  --Depth;
  InProgress.erase(V);
  R = capped(std::move(R));
  ValueCache[V] = R;
  return R;
}

std::string ExprBuilder::valueUncached(const Value *V) {
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    if (C->getBitWidth() == 1)
      return C->isZero() ? "0" : "1";
    if (C->getValue().getSignificantBits() <= 64)
      return std::to_string(C->getSExtValue());
    return "?bigconst";
  }
  if (isa<ConstantPointerNull>(V))
    return "0";
  if (isa<UndefValue>(V))
    return "?undef";
  if (auto *CF = dyn_cast<ConstantFP>(V)) {
    // A whole number a float holds exactly is written as the conversion of
    // that integer, which the analyzer evaluates in compares (beta == 0.0f
    // against a launch's --arg beta=1); any other stays an unknown constant.
    APFloat F = CF->getValueAPF();
    bool Lost = false;
    F.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &Lost);
    double D = F.convertToDouble();
    if (!Lost && std::isfinite(D) && D == std::trunc(D) && std::fabs(D) <= 16777216.0)
      return "(sitofp " + std::to_string(static_cast<long long>(D)) + ")";
    return "?fconst";
  }
  if (auto *A = dyn_cast<Argument>(V)) {
    auto It = ArgNames.find(A);
    return "arg." + (It != ArgNames.end() ? It->second
                                          : "arg" + std::to_string(A->getArgNo()));
  }
  if (auto *I = dyn_cast<Instruction>(V))
    return instruction(I);
  if (auto *G = dyn_cast<GlobalValue>(V))
    return "?global." + G->getName().str();
  return "?value";
}

static const char *predName(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_EQ: return "eq";
  case CmpInst::ICMP_NE: return "ne";
  case CmpInst::ICMP_SLT: return "slt";
  case CmpInst::ICMP_SLE: return "sle";
  case CmpInst::ICMP_SGT: return "sgt";
  case CmpInst::ICMP_SGE: return "sge";
  case CmpInst::ICMP_ULT: return "ult";
  case CmpInst::ICMP_ULE: return "ule";
  case CmpInst::ICMP_UGT: return "ugt";
  case CmpInst::ICMP_UGE: return "uge";
  default: return nullptr;
  }
}

std::string ExprBuilder::instruction(const Instruction *I) {
  if (auto *CB = dyn_cast<CallBase>(I)) {
    WorkItemQuery Q = classifyWorkItemCall(*CB);
    if (!Q.Symbol.empty())
      return Q.Symbol;
    if (Q.UnknownDim)
      return "?workitem.dim";
    if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::smin: return join("smin" + widthSuffix(I->getType()), {value(II->getArgOperand(0)), value(II->getArgOperand(1))});
      case Intrinsic::smax: return join("smax" + widthSuffix(I->getType()), {value(II->getArgOperand(0)), value(II->getArgOperand(1))});
      case Intrinsic::umin: return join("umin" + widthSuffix(I->getType()), {value(II->getArgOperand(0)), value(II->getArgOperand(1))});
      case Intrinsic::umax: return join("umax" + widthSuffix(I->getType()), {value(II->getArgOperand(0)), value(II->getArgOperand(1))});
      case Intrinsic::abs: return join("abs" + widthSuffix(I->getType()), {value(II->getArgOperand(0))});
      default: break;
      }
    }
    const Function *F = CB->getCalledFunction();
    // OpenCL's scalar integer min/max/clamp/abs (libclc is not linked into
    // the model, so they are calls): signedness from the mangled first
    // parameter (_Z5clampiii: int; j, m, t, h: unsigned).
    if (F && I->getType()->isIntegerTy() && CB->arg_size() >= 1) {
      StringRef Base, Params;
      std::string P = plainName(F->getName());
      char Ty = splitMangled(F->getName(), Base, Params) && !Params.empty() ? Params.front() : 0;
      bool Signed = Ty == 'a' || Ty == 'c' || Ty == 's' || Ty == 'i' || Ty == 'l';
      bool Unsigned = Ty == 'h' || Ty == 't' || Ty == 'j' || Ty == 'm';
      std::string W = widthSuffix(I->getType());
      if (Signed || Unsigned) {
        std::string Min = Signed ? "smin" : "umin", Max = Signed ? "smax" : "umax";
        if (P == "min" && CB->arg_size() == 2)
          return join(Min + W, {value(CB->getArgOperand(0)), value(CB->getArgOperand(1))});
        if (P == "max" && CB->arg_size() == 2)
          return join(Max + W, {value(CB->getArgOperand(0)), value(CB->getArgOperand(1))});
        if (P == "clamp" && CB->arg_size() == 3)
          return join(Min + W, {join(Max + W, {value(CB->getArgOperand(0)), value(CB->getArgOperand(1))}),
                                value(CB->getArgOperand(2))});
        if (P == "abs" && CB->arg_size() == 1 && Signed)
          return join("abs" + W, {value(CB->getArgOperand(0))});
      }
    }
    return "?call." + (F ? plainName(F->getName()) : std::string("indirect"));
  }
  if (auto *LI2 = dyn_cast<LoadInst>(I)) {
    auto It = MemIds.find(LI2);
    return It == MemIds.end() ? "?load" : "(load M" + std::to_string(It->second) + ")";
  }
  if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    std::string Op;
    switch (BO->getOpcode()) {
    case Instruction::Add: Op = "add"; break;
    case Instruction::Sub: Op = "sub"; break;
    case Instruction::Mul: Op = "mul"; break;
    case Instruction::UDiv: Op = "udiv"; break;
    case Instruction::SDiv: Op = "sdiv"; break;
    case Instruction::URem: Op = "urem"; break;
    case Instruction::SRem: Op = "srem"; break;
    case Instruction::Shl: Op = "shl"; break;
    case Instruction::LShr: Op = "lshr"; break;
    case Instruction::AShr: Op = "ashr"; break;
    case Instruction::And: Op = "and"; break;
    case Instruction::Or: Op = "or"; break;
    case Instruction::Xor: Op = "xor"; break;
    case Instruction::FAdd: Op = "fadd"; break;
    case Instruction::FSub: Op = "fsub"; break;
    case Instruction::FMul: Op = "fmul"; break;
    case Instruction::FDiv: Op = "fdiv"; break;
    case Instruction::FRem: Op = "frem"; break;
    default: return "?binop";
    }
    if (BO->getType()->isIntegerTy()) {
      Op += widthSuffix(BO->getType());
      if (isa<OverflowingBinaryOperator>(BO)) {
        if (BO->hasNoSignedWrap()) Op += ":nsw";
        if (BO->hasNoUnsignedWrap()) Op += ":nuw";
      }
    }
    return join(Op, {value(BO->getOperand(0)), value(BO->getOperand(1))});
  }
  if (auto *C = dyn_cast<CastInst>(I)) {
    Type *From = C->getSrcTy(), *To = C->getDestTy();
    switch (C->getOpcode()) {
    case Instruction::ZExt:
    case Instruction::SExt:
    case Instruction::Trunc:
      return "(" + std::string(C->getOpcode() == Instruction::ZExt ? "zext"
                               : C->getOpcode() == Instruction::SExt ? "sext" : "trunc") +
             ":" + std::to_string(From->getScalarSizeInBits()) + ":" +
             std::to_string(To->getScalarSizeInBits()) + " " + value(C->getOperand(0)) + ")";
    case Instruction::BitCast:
    case Instruction::AddrSpaceCast:
      return value(C->getOperand(0));
    case Instruction::SIToFP: return join("sitofp", {value(C->getOperand(0))});
    case Instruction::UIToFP: return join("uitofp", {value(C->getOperand(0))});
    case Instruction::FPToSI: return join("fptosi", {value(C->getOperand(0))});
    case Instruction::FPToUI: return join("fptoui", {value(C->getOperand(0))});
    case Instruction::FPExt:
    case Instruction::FPTrunc: return value(C->getOperand(0));
    default: return "?cast";
    }
  }
  if (auto *Cmp = dyn_cast<ICmpInst>(I)) {
    const char *P = predName(Cmp->getPredicate());
    if (!P)
      return "?icmp";
    return join(P + widthSuffix(Cmp->getOperand(0)->getType()),
                {value(Cmp->getOperand(0)), value(Cmp->getOperand(1))});
  }
  if (auto *FC = dyn_cast<FCmpInst>(I)) {
    std::string P = CmpInst::getPredicateName(FC->getPredicate()).str();
    return join("f" + P, {value(FC->getOperand(0)), value(FC->getOperand(1))});
  }
  if (auto *S = dyn_cast<SelectInst>(I))
    return join("select", {value(S->getCondition()), value(S->getTrueValue()),
                           value(S->getFalseValue())});
  if (auto *Fr = dyn_cast<FreezeInst>(I))
    return value(Fr->getOperand(0));
  if (auto *PN = dyn_cast<PHINode>(I)) {
    auto It = RecurrenceSyms.find(PN);
    if (It != RecurrenceSyms.end())
      return It->second;
    // A merge of identical values is that value.
    std::string First;
    bool Same = PN->getNumIncomingValues() > 0;
    for (const Value *In : PN->incoming_values()) {
      std::string E = value(In);
      if (First.empty())
        First = E;
      else if (E != First)
        Same = false;
    }
    if (Same)
      return First;
    // Two paths chosen by one branch: (select cond if-true if-false), with a
    // value computed inside a loop taken at its exit (SCEV at the phi's scope).
    if (PN->getNumIncomingValues() == 2) {
      BasicBlock *Dom = DT.findNearestCommonDominator(PN->getIncomingBlock(0), PN->getIncomingBlock(1));
      auto *Br = Dom ? dyn_cast<BranchInst>(Dom->getTerminator()) : nullptr;
      if (Br && Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1)) {
        auto Via = [&](unsigned Succ, unsigned K) {
          BasicBlockEdge E(Dom, Br->getSuccessor(Succ));
          BasicBlock *In = PN->getIncomingBlock(K);
          if (In == Dom)
            return E.getEnd() == PN->getParent();
          return DT.dominates(E, In);
        };
        const Loop *Scope = LI.getLoopFor(PN->getParent());
        auto AtScope = [&](const Value *In) {
          if (In->getType()->isIntegerTy() && SE.isSCEVable(In->getType())) {
            const SCEV *S = SE.getSCEVAtScope(const_cast<Value *>(In), const_cast<Loop *>(Scope));
            if (!isa<SCEVCouldNotCompute>(S))
              return scev(S);
          }
          return value(In);
        };
        int TrueK = Via(0, 0) && Via(1, 1) ? 0 : Via(0, 1) && Via(1, 0) ? 1 : -1;
        if (TrueK >= 0)
          return join("select", {value(Br->getCondition()), AtScope(PN->getIncomingValue(TrueK)),
                                 AtScope(PN->getIncomingValue(1 - TrueK))});
      }
    }
    return "?phi";
  }
  return "?" + std::string(I->getOpcodeName());
}

unsigned ExprBuilder::deps(const Value *V) {
  auto It = DepCache.find(V);
  return It == DepCache.end() ? 0 : It->second;
}

void ExprBuilder::computeDeps(const Function &F) {
  // Monotone fixed point over the function: a value depends on whatever its
  // operands depend on; loop-header phis add the loop; other phis add the
  // branch that decides which value arrives (control dependence).
  DepCache.clear();
  bool Changed = true;
  for (unsigned Round = 0; Changed && Round < 64; ++Round) {
    Changed = false;
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB) {
        unsigned D = transferDeps(&I);
        unsigned &Slot = DepCache[&I];
        if ((Slot | D) != Slot) {
          Slot |= D;
          Changed = true;
        }
      }
  }
}

unsigned ExprBuilder::transferDeps(const Instruction *I) {
  if (auto *CB = dyn_cast<CallBase>(I)) {
    WorkItemQuery Q = classifyWorkItemCall(*CB);
    if (!Q.Symbol.empty() || Q.UnknownDim)
      return Q.VariesPerItem || Q.UnknownDim ? (unsigned)DepWorkItem : 0u;
    const Function *F = CB->getCalledFunction();
    unsigned D = 0;
    for (const Value *A : CB->args())
      D |= deps(A);
    // A call we cannot see into may return anything.
    if (!F || (!F->isIntrinsic() && F->isDeclaration() && !F->doesNotAccessMemory()))
      D |= DepData;
    return D;
  }
  if (isa<LoadInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return DepData;
  unsigned D = 0;
  if (auto *PN = dyn_cast<PHINode>(I)) {
    const Loop *L = LI.getLoopFor(PN->getParent());
    if (L && L->getHeader() == PN->getParent())
      D |= DepLoop;
    else if (PN->getNumIncomingValues() > 1) {
      BasicBlock *Dom = PN->getIncomingBlock(0);
      for (unsigned K = 1; K < PN->getNumIncomingValues() && Dom; ++K)
        Dom = DT.findNearestCommonDominator(Dom, PN->getIncomingBlock(K));
      if (Dom)
        if (auto *Br = dyn_cast<BranchInst>(Dom->getTerminator()); Br && Br->isConditional())
          D |= deps(Br->getCondition());
    }
    for (const Value *In : PN->incoming_values())
      D |= deps(In);
    return D;
  }
  for (const Value *Op : I->operands())
    D |= deps(Op);
  return D;
}

void ExprBuilder::collectLoads(const Value *V, SmallPtrSetImpl<const Instruction *> &Out) {
  SmallVector<const Value *, 16> Work{V};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second || Seen.size() > 512)
      continue;
    auto *I = dyn_cast<Instruction>(X);
    if (!I)
      continue;
    if (isa<LoadInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
      Out.insert(I);
      continue;
    }
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
}

bool ExprBuilder::scevHasVariable(const SCEV *S) {
  return SCEVExprContains(S, [&](const SCEV *X) {
    if (isa<SCEVAddRecExpr>(X))
      return true;
    if (auto *U = dyn_cast<SCEVUnknown>(X))
      return deps(U->getValue()) != 0;
    return false;
  });
}

bool ExprBuilder::isAffine(const SCEV *S, std::string &Why) {
  bool Ok = true;
  SCEVExprContains(S, [&](const SCEV *X) {
    if (!Ok)
      return true;
    if (auto *U = dyn_cast<SCEVUnknown>(X)) {
      const Value *V = U->getValue();
      // A phi that merges one value computed on two paths is that value.
      if (auto *PN = dyn_cast<PHINode>(V); PN && PN->getNumIncomingValues() > 0 &&
                                           SE.isSCEVable(PN->getType())) {
        std::string First = value(PN->getIncomingValue(0));
        bool Same = First.find('?') == std::string::npos;
        for (const Value *In : PN->incoming_values())
          Same = Same && value(In) == First;
        if (Same) {
          const SCEV *Inner = SE.getSCEV(const_cast<Value *>(PN->getIncomingValue(0)));
          if (Inner != X && !isAffine(Inner, Why))
            Ok = false;
          return !Ok;
        }
      }
      unsigned D = deps(V);
      if (D & DepData) {
        SmallPtrSet<const Instruction *, 4> Loads;
        collectLoads(V, Loads);
        std::string Names;
        std::vector<unsigned> Ids;
        for (auto *L : Loads) {
          auto It = MemIds.find(L);
          if (It != MemIds.end())
            Ids.push_back(It->second);
        }
        llvm::sort(Ids);
        for (unsigned Id : Ids)
          Names += (Names.empty() ? "M" : ", M") + std::to_string(Id);
        Why = "indirect: depends on values loaded by " + (Names.empty() ? std::string("unknown memory") : Names);
        Ok = false;
        return true;
      }
      std::string E = value(V);
      if (E.find('?') != std::string::npos) {
        Why = "not expressible: " + E;
        Ok = false;
        return true;
      }
      // A SCEVUnknown that varies (e.g. srem of a work-item id) is non-linear;
      // one whose expression names only arguments and sizes is a parameter.
      auto Names = [&](const char *Sym) { return E.find(Sym) != std::string::npos; };
      bool Varies = Names("lid.") || Names("grp.") || Names("gid.") || Names("it.L") ||
                    Names("rv.L") || Names("laneid");
      if (D != 0 && Varies && E.find('(') != std::string::npos) {
        Why = "non-linear operation on a work-item or loop variable: " + E;
        Ok = false;
        return true;
      }
    }
    if (auto *M = dyn_cast<SCEVMulExpr>(X)) {
      unsigned Vars = 0;
      for (const SCEV *Op : M->operands())
        Vars += scevHasVariable(Op);
      if (Vars > 1) {
        Why = "non-linear: product of variables";
        Ok = false;
        return true;
      }
    }
    if (auto *A = dyn_cast<SCEVAddRecExpr>(X); A && !A->isAffine()) {
      Why = "non-linear: polynomial recurrence";
      Ok = false;
      return true;
    }
    if (auto *D = dyn_cast<SCEVUDivExpr>(X); D && scevHasVariable(D->getRHS())) {
      Why = "non-linear: division by a variable";
      Ok = false;
      return true;
    }
    if (isa<SCEVMinMaxExpr>(X) || isa<SCEVSequentialMinMaxExpr>(X)) {
      if (scevHasVariable(X)) {
        Why = "non-linear: min/max of variables";
        Ok = false;
        return true;
      }
    }
    return false;
  });
  return Ok;
}

} // namespace wgperf
