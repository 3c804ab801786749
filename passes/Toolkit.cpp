//===- Toolkit.cpp - what the CUDA toolkit's headers compile to ----------===//
//
// Classes libdevice calls and inline PTX (Toolkit.h).  The sequences are
// libdevice 11.8's definitions (llvm-dis of nvvm/libdevice/libdevice.10.bc)
// and what nvcc makes of the PTX for sm_80:
//   __nv_hadd     and, xor, ashr, add        (int_logic 3, int_add 1)
//   __nv_float2int_rn and the other X2Y_rZ: one cvt (conv)
//   __nv_fadd_rn, __nv_fmul_rz, ...: the operation with a rounding mode
//   __nv_float_as_int and the other reinterpretations: no instruction
//   add.f16x2, fma.rn.f16x2: one HADD2/HFMA2 for two lanes (fp16_add x2 as
//     the model counts a <2 x half> operation); mov.b32 {lo,hi} packs or
//     unpacks registers (no instruction: ptxas allocates half registers)
//   vadd4, vset4, vmax2, ...: a sequence of 4 to 11 instructions on sm_80
//     (counted from nvcc 13.0's cubin, cuda_compat_intrinsics.h): once per
//     lane; vabsdiff4 is one VABSDIFF4
//
//===----------------------------------------------------------------------===//
#include "Toolkit.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace llvm;

namespace wgperf {

namespace {

// fp32, fp64 and the half types by a name's or a PTX type's spelling
const char *fpOp(StringRef Type, StringRef Op) {
  static const char *const F32[] = {"fp32_add", "fp32_mul", "fp32_fma", "fp32_div"};
  static const char *const F64[] = {"fp64_add", "fp64_mul", "fp64_fma", "fp64_div"};
  static const char *const F16[] = {"fp16_add", "fp16_mul", "fp16_fma", "fp16_div"};
  int I = StringSwitch<int>(Op).Case("add", 0).Case("mul", 1).Case("fma", 2).Case("div", 3).Default(-1);
  if (I < 0)
    return nullptr;
  if (Type.starts_with("f64") || Type == "d")
    return F64[I];
  if (Type.starts_with("f16") || Type.starts_with("bf16"))
    return F16[I];
  return F32[I];
}

CostSequence one(const char *Class, unsigned N = 1) { return CostSequence{{Class, N}}; }

// X2Y_rZ, X2Y: int2float_rn, double2ull_rz, float2half_rn, half2float, ...
bool isConversion(StringRef N) {
  static const char *const Types[] = {"float", "double", "int", "uint", "ll", "ull", "half"};
  size_t Two = N.find('2');
  if (Two == StringRef::npos || Two == 0)
    return false;
  StringRef From = N.take_front(Two), To = N.drop_front(Two + 1);
  To = To.take_until([](char C) { return C == '_'; });
  bool F = false, T = false;
  for (const char *Ty : Types) {
    F = F || From == Ty;
    T = T || To == Ty;
  }
  return F && T;
}

} // namespace

std::optional<CostSequence> libdeviceCost(StringRef Name) {
  if (!Name.consume_front("__nv_"))
    return std::nullopt;
  // reinterpretations: the same bits in another register type
  if (Name.contains("_as_"))
    return CostSequence{};
  if (Name == "double2hiint" || Name == "double2loint" || Name == "hiloint2double")
    return CostSequence{}; // one half of a register pair, or the pair
  if (isConversion(Name))
    return one("conv");
  // the rounding-mode arithmetic: __nv_fadd_rn, __nv_dmul_rz, __nv_fmaf_ieee_rd, ...
  StringRef Base = Name.take_until([](char C) { return C == '_'; });
  StringRef Mode = Name.drop_front(Base.size());
  if (Mode == "_rn" || Mode == "_rz" || Mode == "_ru" || Mode == "_rd" || Mode.starts_with("_ieee_")) {
    StringRef Ty = Base.starts_with("d") ? "f64" : "f32";
    StringRef Op = Base;
    if (Op.consume_front("f") || Op.consume_front("d")) {
      if (Op == "add" || Op == "sub")
        return one(fpOp(Ty, "add"));
      if (Op == "mul")
        return one(fpOp(Ty, "mul"));
      if (Op == "div" || Op == "rcp")
        return one(fpOp(Ty, "div"));
      if (Op == "maf" || Op == "ma") // fmaf_rn, fma_rn
        return one(fpOp(Base == "fma" ? "f64" : "f32", "fma"));
      if (Op == "sqrt")
        return one(Ty == "f64" ? "fp64_special" : "sfu_sqrt");
      if (Op == "rsqrt")
        return one("sfu_rsqrt");
    }
  }
  return StringSwitch<std::optional<CostSequence>>(Name)
      // bit and integer intrinsics: one instruction each
      .Cases("popc", "popcll", "clz", "clzll", "brev", "brevll", one("int_logic"))
      .Case("byte_perm", one("int_logic", 2)) // the selector's mask, PRMT
      .Case("ffs", CostSequence{{"int_logic", 2}, {"int_add", 1}}) // brev, bfind, add
      .Case("ffsll", CostSequence{{"int64_add", 1}, {"int_logic", 2}, {"int_add", 1}})
      .Cases("mulhi", "umulhi", "mul24", "umul24", one("int_mul"))
      .Cases("mul64hi", "umul64hi", one("int64_mul"))
      .Cases("sad", "usad", "umin", "umax", one("int_add"))
      .Cases("llabs", "llmin", "llmax", "ullmin", "ullmax", one("int64_add"))
      // the fast intrinsics (__expf, __powf, ...): libdevice's MUFU instructions and
      // the multiplies beside them, as the stand-ins write them
      .Cases("fast_expf", "fast_exp10f", "fast_logf", "fast_log10f", CostSequence{{"fp32_mul", 1}, {"sfu_fast", 1}})
      .Cases("fast_log2f", "fast_sinf", "fast_cosf", "fast_fdividef", one("sfu_fast"))
      .Case("fast_powf", CostSequence{{"fp32_mul", 1}, {"sfu_fast", 2}})
      .Case("fast_sincosf", one("sfu_fast", 2))
      .Case("fast_tanf", one("sfu_fast", 3)) // sin, cos, div.approx
      // the halving adds: and/or, xor, shift, add/sub
      .Cases("hadd", "rhadd", "uhadd", "urhadd", CostSequence{{"int_logic", 3}, {"int_add", 1}})
      // classification: a compare, or the sign bit's shift
      .Cases("isnanf", "isinff", "finitef", one("cmp_select"))
      // double: the high word's exponent bits, then the compare
      .Cases("isnand", "isinfd", "isfinited", CostSequence{{"int_logic", 1}, {"cmp_select", 1}})
      .Cases("signbitf", "signbitd", one("int_logic"))
      .Case("saturatef", one("fp32_add")) // FADD.SAT
      .Case("rcp64h", one("fp64_special"))
      // a quiet NaN: a constant
      .Cases("nanf", "nan", CostSequence{})
      // the rest of the math library mathClass does not name
      .Cases("scalbnf", "frexpf", one("fp32_add", 2))
      .Cases("scalbn", "frexp", one("fp64_add", 2))
      .Case("modff", one("fp32_add", 2)) // trunc and subtract
      .Case("modf", one("fp64_add", 2))
      .Case("remquof", one("fp32_div"))
      .Case("remquo", one("fp64_div"))
      .Case("powif", one("sfu_pow"))
      .Case("powi", one("fp64_special"))
      .Cases("jnf", "ynf", one("sfu_sin"))
      .Cases("jn", "yn", one("fp64_special"))
      .Case("normf", one("sfu_sqrt"))
      .Case("rnormf", one("sfu_rsqrt"))
      .Cases("norm", "rnorm", one("fp64_special"))
      .Default(std::nullopt);
}

namespace {

// A PTX type suffix and the lanes of its packed forms (f16x2: 2).
unsigned packedLanes(StringRef Type) { return Type.ends_with("x2") ? 2 : 1; }

bool isFloatType(StringRef T) { return T.starts_with("f") || T.starts_with("bf"); }

// The cost of one PTX instruction, or std::nullopt.
std::optional<CostSequence> instructionCost(StringRef Insn) {
  if (Insn.starts_with("@"))
    return std::nullopt; // predicated: control flow the model cannot follow
  StringRef Op = Insn.take_until([](char C) { return C == ' ' || C == '\t'; });
  StringRef Operands = Insn.drop_front(Op.size());
  // special registers (%laneid, %clock, %envreg1) are not register arithmetic;
  // the operands clang writes are $0, $1, ...
  if (Operands.contains('%'))
    return std::nullopt;
  SmallVector<StringRef, 6> Parts;
  Op.split(Parts, '.');
  StringRef Base = Parts[0], Type = Parts.back();
  unsigned Lanes = packedLanes(Type);
  if (Base == "mov")
    return CostSequence{}; // packing or unpacking registers
  if (Base == "cvt")
    return one("conv");
  if (Base == "add" || Base == "sub" || Base == "neg" || Base == "abs" || Base == "min" || Base == "max" ||
      Base == "copysign") {
    if (isFloatType(Type))
      return one(fpOp(Type, "add"), Lanes);
    return one(Type.ends_with("64") ? "int64_add" : "int_add");
  }
  if (Base == "mul" && isFloatType(Type))
    return one(fpOp(Type, "mul"), Lanes);
  if (Base == "fma" && isFloatType(Type))
    return one(fpOp(Type, "fma"), Lanes);
  if ((Base == "mul" || Base == "mad" || Base == "mul24" || Base == "mad24") && !isFloatType(Type))
    return one(Type.ends_with("64") ? "int64_mul" : "int_mul");
  if ((Base == "div" || Base == "rcp") && isFloatType(Type) && !is_contained(Parts, "approx"))
    return one(fpOp(Type, "div"), Lanes);
  if (Base == "ex2" || Base == "lg2" || Base == "sin" || Base == "cos" || Base == "tanh" || Base == "rsqrt" ||
      Base == "sqrt" || Base == "rcp" || Base == "div") {
    if (is_contained(Parts, "approx"))
      return one(Type == "f64" ? "fp64_special" : "sfu_fast", Lanes);
    if (Base == "sqrt")
      return one(Type == "f64" ? "fp64_special" : "sfu_sqrt", Lanes);
    return std::nullopt;
  }
  if (Base == "set" || Base == "setp" || Base == "selp" || Base == "slct" || Base == "testp")
    return one("cmp_select", Lanes);
  if (Base == "and" || Base == "or" || Base == "xor" || Base == "not" || Base == "cnot" || Base == "shl" ||
      Base == "shr" || Base == "shf" || Base == "lop3" || Base == "prmt" || Base == "bfe" || Base == "bfi" ||
      Base == "brev" || Base == "popc" || Base == "clz" || Base == "bfind")
    return one("int_logic");
  if (Base == "shfl")
    return one("shfl"); // a half2 moved across lanes as one 32-bit word
  if (Base == "dp4a" || Base == "dp2a")
    return one("int_mul");
  if (Base == "sad")
    return one("int_add");
  // SIMD within a word: one lane each, but VABSDIFF4 is one instruction on sm_80
  if (Base.size() > 1 && Base.front() == 'v' && (Base.back() == '2' || Base.back() == '4')) {
    StringRef Kind = Base.drop_front().drop_back();
    unsigned N = Base.back() - '0';
    if (Base == "vabsdiff4")
      return one("int_add");
    if (Kind == "set")
      return one("cmp_select", N);
    if (Kind == "add" || Kind == "sub" || Kind == "avrg" || Kind == "absdiff" || Kind == "min" || Kind == "max")
      return one("int_add", N);
  }
  return std::nullopt;
}

} // namespace

std::optional<CostSequence> ptxCost(StringRef Asm, StringRef Constraints) {
  if (Constraints.contains("~{memory}") || Constraints.contains('*'))
    return std::nullopt;
  CostSequence Total;
  bool Any = false;
  while (!Asm.empty()) {
    size_t End = Asm.find_first_of(";\n");
    StringRef P = Asm.take_front(End).trim(" \t\r{}");
    Asm = Asm.drop_front(End == StringRef::npos ? Asm.size() : End + 1);
    if (P.empty() || P.starts_with("//") || P.starts_with(".reg"))
      continue;
    if (P.starts_with(".") || P.ends_with(":"))
      return std::nullopt; // another directive, or a label
    std::optional<CostSequence> C = instructionCost(P);
    if (!C)
      return std::nullopt;
    Any = true;
    for (const auto &[Class, N] : *C) {
      if (!Class)
        return std::nullopt;
      auto It = std::find_if(Total.begin(), Total.end(), [&](const auto &E) { return StringRef(E.first) == Class; });
      if (It == Total.end())
        Total.push_back({Class, N});
      else
        It->second += N;
    }
  }
  if (!Any)
    return std::nullopt;
  return Total;
}

// The one instruction of ASM, each statement trimmed of TRIM; std::nullopt
// for more than one.
static std::optional<StringRef> onlyInstruction(StringRef Asm, StringRef Trim) {
  StringRef Insn;
  while (!Asm.empty()) {
    size_t End = Asm.find_first_of(";\n");
    StringRef P = Asm.take_front(End).trim(Trim);
    Asm = Asm.drop_front(End == StringRef::npos ? Asm.size() : End + 1);
    if (P.empty())
      continue;
    if (!Insn.empty())
      return std::nullopt; // more than the one instruction
    Insn = P;
  }
  return Insn;
}

std::optional<std::string> ptxAtomic(StringRef Asm, StringRef Constraints) {
  std::optional<StringRef> One = onlyInstruction(Asm, " \t\r{}");
  if (!One)
    return std::nullopt;
  StringRef Insn = *One;
  if (!Insn.starts_with("atom.") && !Insn.starts_with("red."))
    return std::nullopt;
  // the address is the first input: $1 after one output ($0), $0 for red
  unsigned Outputs = 0;
  SmallVector<StringRef, 6> Cons;
  Constraints.split(Cons, ',');
  for (StringRef C : Cons)
    Outputs += C.starts_with("=");
  std::string Addr = "[$" + std::to_string(Outputs) + "]";
  if (Outputs > 1 || !Insn.contains(Addr))
    return std::nullopt;
  StringRef Op = Insn.take_until([](char C) { return C == ' ' || C == '\t'; });
  SmallVector<StringRef, 8> Parts;
  Op.split(Parts, '.');
  StringRef Type = Parts.back();
  for (StringRef P : ArrayRef<StringRef>(Parts).drop_front()) {
    if (P == "add")
      return std::string(isFloatType(Type) ? "fadd" : "add");
    if (P == "exch")
      return std::string("xchg");
    if (P == "cas")
      return std::string("cmpxchg");
    if (P == "min" || P == "max")
      return std::string(Type.starts_with("u") ? "u" : "") + P.str();
    if (P == "and" || P == "or" || P == "xor" || P == "inc" || P == "dec")
      return P.str();
  }
  return std::nullopt;
}

// "$N" as an operand number
static std::optional<unsigned> operandNumber(StringRef S) {
  unsigned N;
  S = S.trim();
  if (!S.consume_front("$") || S.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

std::optional<PtxAccess> ptxGlobalAccess(StringRef Asm, StringRef Constraints) {
  std::optional<StringRef> One = onlyInstruction(Asm, " \t\r"); // braces: a vector's registers
  if (!One)
    return std::nullopt;
  StringRef Insn = *One;
  size_t Sp = Insn.find_first_of(" \t");
  if (Sp == StringRef::npos)
    return std::nullopt;
  StringRef Op = Insn.take_front(Sp), Rest = Insn.drop_front(Sp).trim();
  SmallVector<StringRef, 8> Parts;
  Op.split(Parts, '.');
  PtxAccess A;
  if (Parts.size() < 3 || (Parts[0] != "ld" && Parts[0] != "st"))
    return std::nullopt;
  A.Store = Parts[0] == "st";
  // the memory model's semantics and scope before the state space: weak is a
  // plain access; relaxed, acquire (loads) and release (stores) at the scope
  // of the GPU, its cluster or the system, and volatile (relaxed at the
  // system's), must see other SMs' writes: L1 is not coherent, so such a load
  // reads L2, as .cv does (the ordering it also makes is not modelled); at a
  // group's scope (cta) L1 serves
  size_t At = 1;
  bool Coherent = false;
  if (Parts[At] == "weak") {
    ++At;
  } else if (Parts[At] == "volatile") {
    Coherent = true, ++At;
  } else if (Parts[At] == "relaxed" || Parts[At] == (A.Store ? "release" : "acquire")) {
    StringRef Scope = Parts.size() > At + 1 ? Parts[At + 1] : "";
    if (Scope != "cta" && Scope != "cluster" && Scope != "gpu" && Scope != "sys")
      return std::nullopt;
    Coherent = Scope != "cta";
    At += 2;
  }
  if (Parts.size() < At + 2 || Parts[At] != "global")
    return std::nullopt;
  StringRef Type = Parts.back();
  bool NoL1 = false, EvictFirst = false;
  for (StringRef Q : ArrayRef<StringRef>(Parts).slice(At + 1, Parts.size() - At - 2)) {
    bool LoadOp = Q == "ca" || Q == "cg" || Q == "cs" || Q == "lu" || Q == "cv" || Q == "nc";
    bool StoreOp = Q == "wb" || Q == "cg" || Q == "cs" || Q == "wt";
    if ((A.Store ? StoreOp : LoadOp) && A.Cache.empty())
      A.Cache = Q.str();
    else if (Q == "L1::evict_first" && !A.Store)
      EvictFirst = true;
    else if (Q == "L1::no_allocate" && !A.Store)
      NoL1 = true;
    else if (Q == "L1::evict_normal" || Q == "L1::evict_last" || Q == "L1::evict_unchanged" ||
             (A.Store && Q.starts_with("L1::")) || Q.starts_with("L2::evict_") || Q == "L2::64B" ||
             Q == "L2::128B" || Q == "L2::256B")
      continue; // L1's normal policy (a store allocates in no L1), L2's priorities (not
                // modelled), or how much L2 fetches on a miss
    else if (Q.size() == 2 && Q[0] == 'v' && (Q[1] == '2' || Q[1] == '4' || Q[1] == '8') && A.Lanes == 1)
      A.Lanes = Q[1] - '0';
    else
      return std::nullopt; // a scope, an ordering, a state space or a policy operand
  }
  // an L1 eviction priority: not kept in L1 as .cg (the read-only path's
  // loads too), first out of it as .cs
  if (Coherent && !A.Store)
    A.Cache = "cv";
  else if (NoL1)
    A.Cache = "cg";
  else if (EvictFirst && (A.Cache.empty() || A.Cache == "ca"))
    A.Cache = "cs";
  if (Type.size() < 2 || !StringRef("bfsu").contains(Type[0]) || Type.drop_front().getAsInteger(10, A.Bits) ||
      (A.Bits != 8 && A.Bits != 16 && A.Bits != 32 && A.Bits != 64 && A.Bits != 128) ||
      (Type[0] == 'f' && A.Bits != 32 && A.Bits != 64) || (A.Bits == 128 && (Type[0] != 'b' || A.Lanes > 1)))
    return std::nullopt;
  A.Type = Type[0];
  // the operands: "DEST, [ADDR]" or "[ADDR], SRC", a destination or source
  // a register or a braced list of one per lane
  size_t Open = Rest.find('['), Close = Rest.find(']');
  if (Open == StringRef::npos || Close == StringRef::npos || Close < Open)
    return std::nullopt;
  StringRef Addr = Rest.slice(Open + 1, Close).trim(), Regs;
  if (A.Store) {
    if (Open != 0)
      return std::nullopt;
    Regs = Rest.drop_front(Close + 1).trim();
    if (!Regs.consume_front(","))
      return std::nullopt;
  } else {
    Regs = Rest.take_front(Open).trim();
    if (!Regs.consume_back(",") || !Rest.drop_front(Close + 1).trim().empty())
      return std::nullopt;
  }
  Regs = Regs.trim();
  if (A.Lanes > 1 && !(Regs.consume_front("{") && Regs.consume_back("}")))
    return std::nullopt;
  SmallVector<StringRef, 8> Lanes;
  Regs.split(Lanes, ',');
  if (Lanes.size() != A.Lanes)
    return std::nullopt;
  for (StringRef L : Lanes) {
    std::optional<unsigned> N = operandNumber(L);
    if (!N)
      return std::nullopt;
    A.Values.push_back(*N);
  }
  size_t Plus = Addr.find_first_of("+-");
  std::optional<unsigned> Base = operandNumber(Addr.take_front(Plus));
  if (!Base)
    return std::nullopt;
  A.Address = *Base;
  if (Plus != StringRef::npos) {
    StringRef Off = Addr.drop_front(Plus + 1).trim();
    if (Off.getAsInteger(0, A.Offset))
      return std::nullopt;
    A.Offset = Addr[Plus] == '-' ? -A.Offset : A.Offset;
  }
  // the constraints: outputs first, no memory operands, the address 64 bits
  SmallVector<StringRef, 8> Cons;
  Constraints.split(Cons, ',');
  unsigned Outputs = 0, Operands = 0;
  for (StringRef C : Cons) {
    if (C.starts_with("~"))
      continue;
    if (C.contains('*'))
      return std::nullopt;
    Outputs += C.starts_with("=");
    ++Operands;
  }
  if (A.Address >= Operands || Cons[A.Address] != "l" || Outputs != (A.Store ? 0u : A.Lanes))
    return std::nullopt;
  for (unsigned V : A.Values)
    if (V >= Operands || V == A.Address || (A.Store ? V < Outputs : V >= Outputs))
      return std::nullopt;
  return A;
}

} // namespace wgperf
