//===- Emit.cpp - Write the kernel model as JSON or text -----------------===//
//
// Both forms are deterministic: fields in a fixed order, collections in id
// or name order, never in pointer order.
//
//===----------------------------------------------------------------------===//
#include "KernelModel.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wgperf {

static void strOrNull(json::OStream &J, StringRef Key, const std::string &V) {
  if (V.empty())
    J.attribute(Key, nullptr);
  else
    J.attribute(Key, V);
}

template <typename T> static void uintArray(json::OStream &J, StringRef Key, const std::vector<T> &V) {
  J.attributeArray(Key, [&] {
    for (auto X : V)
      J.value((int64_t)X);
  });
}

static void strArray(json::OStream &J, StringRef Key, const std::vector<std::string> &V) {
  J.attributeArray(Key, [&] {
    for (auto &X : V)
      J.value(X);
  });
}

static void countsObject(json::OStream &J, StringRef Key, const std::map<std::string, uint64_t> &C) {
  J.attributeObject(Key, [&] {
    for (auto &[K, N] : C)
      J.attribute(K, (int64_t)N);
  });
}

void writeJSON(const ModuleModel &MM, raw_ostream &OS) {
  json::OStream J(OS, 1);
  J.object([&] {
    J.attribute("format", "wgperf-kernel-model");
    J.attribute("version", ModelFormatVersion);
    J.attribute("producer", "wgperf " WGPERF_VERSION " (LLVM " LLVM_VERSION_STRING ")");
    J.attribute("module", MM.ModuleName);
    strOrNull(J, "source_file", MM.SourceFile);
    J.attribute("target", MM.Triple);
    if (!MM.CudaHeaders.empty())
      J.attribute("cuda_headers", MM.CudaHeaders);
    strArray(J, "diagnostics", MM.Diagnostics);
    J.attributeArray("kernels", [&] {
      for (const KernelInfo &K : MM.Kernels)
        J.object([&] {
          J.attribute("name", K.Name);
          J.attribute("symbol", K.Symbol);
          J.attribute("signature", K.Signature);
          J.attribute("language", K.Language);
          strOrNull(J, "source", K.Source);
          const LaunchAttrs &LA = K.Launch;
          if (LA.Reqd[0] || LA.MaxThreads || LA.MinBlocks)
            J.attributeObject("launch_attributes", [&] {
              if (LA.Reqd[0])
                J.attributeArray("reqd_work_group_size", [&] {
                  for (uint64_t D : LA.Reqd)
                    J.value((int64_t)D);
                });
              if (LA.MaxThreads)
                J.attribute("max_threads_per_block", (int64_t)LA.MaxThreads);
              if (LA.MinBlocks)
                J.attribute("min_blocks_per_sm", (int64_t)LA.MinBlocks);
              J.attribute("attribute", LA.From);
            });
          J.attributeArray("args", [&] {
            for (const ArgInfo &A : K.Args)
              J.object([&] {
                J.attribute("index", (int64_t)A.Index);
                J.attribute("name", A.Name);
                J.attribute("type", A.Type);
                J.attribute("kind", A.Kind);
                J.attribute("space", A.Space);
                J.attribute(A.Kind == "pointer" ? "elem_bytes" : "bytes", (int64_t)A.ElemBytes);
                if (A.Kind == "pointer") {
                  J.attribute("elem_bytes_from", A.ElemBytesSource);
                  J.attribute("const", A.IsConst);
                }
                if (A.Floating)
                  J.attribute("floating", true);
              });
          });
          J.attributeArray("arrays", [&] {
            for (const ArrayInfo &A : K.Arrays)
              J.object([&] {
                J.attribute("name", A.Name);
                J.attribute("space", A.Space);
                J.attribute("bytes", (int64_t)A.Bytes);
                J.attribute("elem_bytes", (int64_t)A.ElemBytes);
                uintArray(J, "dims", A.Dims);
                J.attribute("initialized", A.Initialized);
              });
          });
          J.attributeArray("blocks", [&] {
            for (const BlockInfo &B : K.Blocks)
              J.object([&] {
                J.attribute("id", (int64_t)B.Id);
                J.attribute("name", B.Name);
                strOrNull(J, "source", B.Source);
                if (B.Loop < 0)
                  J.attribute("loop", nullptr);
                else
                  J.attribute("loop", (int64_t)B.Loop);
                countsObject(J, "counts", B.Counts);
                if (!B.StrengthReducedAway.empty() || B.StrengthReductionSteps)
                  J.attributeObject("strength_reduced", [&] {
                    countsObject(J, "removes", B.StrengthReducedAway);
                    J.attribute("pointer_steps", (int64_t)B.StrengthReductionSteps);
                  });
                uintArray(J, "succs", B.Succs);
                uintArray(J, "back_edges", B.BackEdgeSuccs);
                uintArray(J, "memory", B.Memory);
                J.attribute("exit", B.Exit);
                if (!B.Branch) {
                  J.attribute("branch", nullptr);
                  return;
                }
                const BranchInfo &Br = *B.Branch;
                J.attributeObject("branch", [&] {
                  J.attribute("kind", Br.Kind);
                  J.attribute("cond", Br.Cond);
                  J.attribute("class", Br.Class);
                  strArray(J, "depends", Br.Depends);
                  uintArray(J, "targets", Br.Targets);
                  if (Br.Kind == "switch")
                    strArray(J, "case_values", Br.CaseValues);
                  strOrNull(J, "source", Br.Source);
                });
              });
          });
          J.attributeArray("loops", [&] {
            for (const LoopInfoRec &L : K.Loops)
              J.object([&] {
                J.attribute("id", (int64_t)L.Id);
                J.attribute("header", (int64_t)L.Header);
                if (L.Parent < 0)
                  J.attribute("parent", nullptr);
                else
                  J.attribute("parent", (int64_t)L.Parent);
                J.attribute("depth", (int64_t)L.Depth);
                uintArray(J, "blocks", L.Blocks);
                uintArray(J, "latches", L.Latches);
                uintArray(J, "exiting", L.Exiting);
                J.attribute("trip_kind", L.TripKind);
                strOrNull(J, "backedge_count", L.BackedgeCount);
                strOrNull(J, "trip_count", L.TripCount);
                strOrNull(J, "max_trip_count", L.MaxTripCount);
                strOrNull(J, "reason", L.Reason);
                J.attributeArray("recurrences", [&] {
                  for (const RecurrenceInfo &R : L.Recurrences)
                    J.object([&] {
                      J.attribute("sym", R.Sym);
                      J.attribute("init", R.Init);
                      J.attribute("next", R.Next);
                    });
                });
                J.attributeArray("exits", [&] {
                  for (const LoopExitInfo &E : L.Exits)
                    J.object([&] {
                      J.attribute("block", (int64_t)E.Block);
                      J.attribute("exit_when", E.ExitWhen);
                    });
                });
                strOrNull(J, "source", L.Source);
              });
          });
          J.attributeArray("memory", [&] {
            for (const MemInfo &M : K.Memory)
              J.object([&] {
                J.attribute("id", (int64_t)M.Id);
                J.attribute("block", (int64_t)M.Block);
                J.attribute("kind", M.Kind);
                J.attribute("space", M.Space);
                J.attribute("bytes", (int64_t)M.Bytes);
                J.attributeObject("base", [&] {
                  J.attribute("kind", M.BaseKind);
                  strOrNull(J, "name", M.BaseName);
                  if (M.BaseArg < 0)
                    J.attribute("arg", nullptr);
                  else
                    J.attribute("arg", (int64_t)M.BaseArg);
                });
                strOrNull(J, "offset", M.Offset);
                J.attribute("affine", M.Affine);
                strOrNull(J, "non_affine", M.NonAffine);
                if (!M.Atomic.empty())
                  J.attribute("atomic_op", M.Atomic);
                if (!M.Cache.empty())
                  J.attribute("cache", M.Cache);
                strOrNull(J, "source", M.Source);
              });
          });
          J.attributeArray("calls", [&] {
            for (const CallInfo &C : K.Calls)
              J.object([&] {
                J.attribute("block", (int64_t)C.Block);
                J.attribute("callee", C.Callee);
                J.attribute("reason", C.Reason);
                strOrNull(J, "source", C.Source);
              });
          });
          countsObject(J, "static_counts", K.Totals);
          J.attribute("irreducible", K.Irreducible);
          J.attribute("register_pressure", (int64_t)K.RegisterPressure);
          strArray(J, "diagnostics", K.Diagnostics);
        });
    });
  });
  OS << "\n";
}

static void printCounts(raw_ostream &OS, const std::map<std::string, uint64_t> &C) {
  bool First = true;
  for (auto &[K, N] : C) {
    OS << (First ? "" : " ") << K << "=" << N;
    First = false;
  }
  if (First)
    OS << "-";
}

template <typename T> static void printList(raw_ostream &OS, const std::vector<T> &V) {
  if (V.empty()) {
    OS << "-";
    return;
  }
  for (size_t I = 0; I < V.size(); ++I)
    OS << (I ? "," : "") << V[I];
}

void writeText(const ModuleModel &MM, raw_ostream &OS) {
  OS << "wgperf model of '" << MM.ModuleName << "' (" << MM.Triple << ")\n";
  for (const std::string &D : MM.Diagnostics)
    OS << D << "\n";
  for (const KernelInfo &K : MM.Kernels) {
    OS << "kernel " << K.Name << " (" << K.Language << ")";
    if (K.Signature != K.Name)
      OS << " " << K.Signature;
    if (!K.Source.empty())
      OS << " at " << K.Source;
    OS << "\n";
    if (!K.Launch.From.empty())
      OS << "  launch " << K.Launch.From << "\n";
    for (const ArgInfo &A : K.Args) {
      OS << "  arg " << A.Index << " " << A.Name << ": " << A.Kind << " " << A.Space << " '"
         << A.Type << "'";
      if (A.Kind == "pointer")
        OS << " elem=" << A.ElemBytes << " (" << A.ElemBytesSource << ")" << (A.IsConst ? " const" : "");
      else
        OS << " bytes=" << A.ElemBytes;
      OS << "\n";
    }
    for (const ArrayInfo &A : K.Arrays) {
      OS << "  array " << A.Name << ": " << A.Space << " " << A.Bytes << " bytes, elem=" << A.ElemBytes
         << " dims=";
      printList(OS, A.Dims);
      OS << (A.Initialized ? " initialized" : "") << "\n";
    }
    for (const BlockInfo &B : K.Blocks) {
      OS << "  block " << B.Id << " " << B.Name;
      if (B.Loop >= 0)
        OS << " loop=L" << B.Loop;
      if (!B.Source.empty())
        OS << " [" << B.Source << "]";
      OS << ": ";
      printCounts(OS, B.Counts);
      OS << " -> ";
      printList(OS, B.Succs);
      if (!B.BackEdgeSuccs.empty()) {
        OS << " back=";
        printList(OS, B.BackEdgeSuccs);
      }
      if (B.Exit)
        OS << " exit";
      if (!B.StrengthReducedAway.empty() || B.StrengthReductionSteps) {
        OS << " (strength reduced: -";
        printCounts(OS, B.StrengthReducedAway);
        OS << " +" << B.StrengthReductionSteps << " pointer steps)";
      }
      OS << "\n";
      if (B.Branch) {
        const BranchInfo &Br = *B.Branch;
        OS << "    " << (Br.Kind == "cond" ? "branch" : "switch") << " " << Br.Class << ": " << Br.Cond;
        if (Br.Kind == "cond")
          OS << " ? " << Br.Targets[0] << " : " << Br.Targets[1];
        else {
          OS << " default->" << Br.Targets[0];
          for (size_t I = 0; I < Br.CaseValues.size(); ++I)
            OS << " " << Br.CaseValues[I] << "->" << Br.Targets[I + 1];
        }
        OS << "\n";
      }
    }
    for (const LoopInfoRec &L : K.Loops) {
      OS << "  loop L" << L.Id << " header=" << L.Header << " depth=" << L.Depth;
      if (L.Parent >= 0)
        OS << " parent=L" << L.Parent;
      OS << " blocks=";
      printList(OS, L.Blocks);
      OS << " latches=";
      printList(OS, L.Latches);
      OS << " exiting=";
      printList(OS, L.Exiting);
      if (!L.Source.empty())
        OS << " [" << L.Source << "]";
      OS << "\n    trip " << L.TripKind << ": " << (L.TripCount.empty() ? "-" : L.TripCount);
      if (!L.MaxTripCount.empty() && L.MaxTripCount != L.TripCount)
        OS << " max " << L.MaxTripCount;
      OS << "\n";
      if (!L.Reason.empty())
        OS << "    reason: " << L.Reason << "\n";
      for (const RecurrenceInfo &R : L.Recurrences)
        OS << "    recurrence " << R.Sym << " = " << R.Init << " then " << R.Next << "\n";
      for (const LoopExitInfo &E : L.Exits)
        OS << "    exit at " << E.Block << " when " << E.ExitWhen << "\n";
    }
    for (const MemInfo &M : K.Memory) {
      OS << "  mem M" << M.Id << " " << M.Kind << " " << M.Space << " " << M.Bytes << "B block=" << M.Block
         << " base=" << M.BaseKind;
      if (!M.BaseName.empty())
        OS << ":" << M.BaseName;
      if (!M.Atomic.empty())
        OS << " op=" << M.Atomic;
      if (!M.Cache.empty())
        OS << " cache=" << M.Cache;
      OS << " offset=" << (M.Offset.empty() ? "?" : M.Offset) << (M.Affine ? " affine" : " non-affine");
      if (!M.NonAffine.empty())
        OS << " (" << M.NonAffine << ")";
      if (!M.Source.empty())
        OS << " [" << M.Source << "]";
      OS << "\n";
    }
    for (const CallInfo &C : K.Calls)
      OS << "  call " << C.Callee << " block=" << C.Block << ": " << C.Reason << "\n";
    OS << "  totals: ";
    printCounts(OS, K.Totals);
    OS << "\n";
    OS << "  register pressure: " << K.RegisterPressure << "\n";
    if (K.Irreducible)
      OS << "  irreducible control flow\n";
    for (const std::string &D : K.Diagnostics)
      OS << "  " << D << "\n";
  }
}

} // namespace wgperf
