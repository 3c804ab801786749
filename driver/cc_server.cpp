//===- cc_server.cpp - clang in one long-lived process ---------------------===//
//
//   wgperf-cc CLANG            (started by driver/cc_client.c, one per worker)
//
// Runs clang command lines one after the other in this process, as the
// clang driver runs its cc1 job in-process, so that a tuning space of
// thousands of configurations pays clang's start (loading and relocating
// libLLVM and libclang-cpp, registering their options: about 0.15 s of CPU
// each time here) once per worker instead of twice per configuration.  The
// command lines are the ones driver/preprocess.c and driver/cc_client.c
// would run as processes; what they produce is the same (the lit test
// tune-cache.test compares the models).
//
// Protocol, on stdin and stdout, one request at a time:
//   request:  "R <nenv> <nargs> <log>\n", then nenv lines NAME=VALUE, then
//             nargs lines, one argument each (argv[0] is the clang path)
//   reply:    "D <status>\n" (0: every job succeeded)
// The environment variables are set for the request only (the plugin reads
// WGPERF_OUTPUT); clang's diagnostics go to the file <log>.  One name is the
// request's own, not set: WGPERF_CC_PREPROCESSED=<file> says that <file> holds
// what `clang -E` made of the command's input with the same options
// (driver/preprocess.c), which each cc1 job then compiles instead of the input
// (preprocessedInput): the input's name stays the module's, and the line
// markers of <file> keep the input's file names and lines in the debug
// information and the messages.
//===----------------------------------------------------------------------===//
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/FrontendTool/Utils.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace clang;

namespace {

// cc1's arguments CC1 changed to compile PRE, the preprocessed text of
// their input, in place of the input: "-x LANG" becomes "-x LANG-cpp-output"
// (cc1 then neither expands macros nor includes anything again), the -include
// files and OpenCL's default header are left out (their text is in PRE), and
// "-remap-file INPUT;PRE" gives the input's name PRE's content, so that the
// module, its debug information and the CUDA ID derived from the name are the
// input's.  False (CC1 as it was) when the arguments are not as expected: one
// "-x", then the input, last.
bool preprocessedInput(std::vector<const char *> &CC1, const std::string &Pre, std::vector<std::string> &Keep) {
  size_t N = CC1.size();
  if (N < 3 || llvm::StringRef(CC1[N - 3]) != "-x" || llvm::StringRef(CC1[N - 2]).ends_with("-cpp-output"))
    return false;
  for (size_t I = 0; I + 3 < N; ++I)
    if (llvm::StringRef(CC1[I]) == "-x")
      return false;
  Keep.push_back(std::string(CC1[N - 2]) + "-cpp-output");
  Keep.push_back(std::string(CC1[N - 1]) + ";" + Pre);
  std::vector<const char *> Out;
  for (size_t I = 0; I + 3 < N; ++I) {
    llvm::StringRef A(CC1[I]);
    if (A == "-include" && I + 4 < N) {
      ++I;
      continue;
    }
    if (A == "-finclude-default-header")
      continue;
    Out.push_back(CC1[I]);
  }
  Out.push_back("-remap-file");
  Out.push_back(Keep[Keep.size() - 1].c_str());
  Out.push_back("-x");
  Out.push_back(Keep[Keep.size() - 2].c_str());
  Out.push_back(CC1[N - 1]);
  CC1 = Out;
  return true;
}

// Runs one clang command line ARGS in this process: the driver builds its
// jobs, each a cc1 job run through ExecuteCompilerInvocation as cc1_main
// does (each compiling PRE instead of its input when PRE is not empty).
// Returns 0 when every job succeeded.
int runClang(const std::vector<std::string> &Args, const std::string &Pre) {
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts = new DiagnosticOptions();
  auto *Printer = new TextDiagnosticPrinter(llvm::errs(), &*DiagOpts);
  DiagnosticsEngine Diags(IntrusiveRefCntPtr<DiagnosticIDs>(new DiagnosticIDs()), &*DiagOpts, Printer);
  driver::Driver D(Args[0], llvm::sys::getDefaultTargetTriple(), Diags);
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  std::unique_ptr<driver::Compilation> C(D.BuildCompilation(Argv));
  if (!C || C->containsError() || Diags.hasErrorOccurred())
    return 1;
  int Status = 0;
  for (const driver::Command &Job : C->getJobs()) {
    const llvm::opt::ArgStringList &JA = Job.getArguments();
    if (JA.empty() || llvm::StringRef(JA[0]) != "-cc1") {
      llvm::errs() << "wgperf-cc: a job other than clang's own: " << Job.getExecutable() << "\n";
      return 2;
    }
    // cc1's arguments, without -disable-free: this process goes on
    std::vector<const char *> CC1;
    for (size_t I = 1; I < JA.size(); ++I)
      if (llvm::StringRef(JA[I]) != "-disable-free")
        CC1.push_back(JA[I]);
    std::vector<std::string> Keep;
    if (!Pre.empty() && !preprocessedInput(CC1, Pre, Keep)) {
      llvm::errs() << "wgperf-cc: cannot compile the preprocessed text: a cc1 job not of the form expected\n";
      return 2;
    }
    // options given with -mllvm are parsed again for each job
    llvm::cl::ResetAllOptionOccurrences();
    std::unique_ptr<CompilerInstance> Clang(new CompilerInstance());
    IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs());
    IntrusiveRefCntPtr<DiagnosticOptions> BufOpts = new DiagnosticOptions();
    auto *Buffer = new TextDiagnosticBuffer;
    DiagnosticsEngine BufDiags(IDs, &*BufOpts, Buffer);
    bool Ok = CompilerInvocation::CreateFromArgs(Clang->getInvocation(), CC1, BufDiags, Args[0].c_str());
    Clang->createDiagnostics();
    if (!Clang->hasDiagnostics())
      return 1;
    Buffer->FlushDiagnostics(Clang->getDiagnostics());
    if (!Ok) {
      Status = 1;
      break;
    }
    Ok = ExecuteCompilerInvocation(Clang.get());
    llvm::errs().flush();
    if (!Ok) {
      Status = 1;
      break;
    }
  }
  return Status;
}

bool readLine(std::string &Out) {
  Out.clear();
  int C;
  while ((C = std::getchar()) != EOF && C != '\n')
    Out.push_back((char)C);
  return C != EOF || !Out.empty();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  llvm::InitializeAllAsmParsers();
  std::string Line;
  while (readLine(Line)) {
    unsigned NEnv = 0, NArgs = 0;
    char LogPath[4096] = "";
    if (std::sscanf(Line.c_str(), "R %u %u %4095[^\n]", &NEnv, &NArgs, LogPath) < 2)
      return 2;
    std::vector<std::pair<std::string, std::string>> Env;
    std::vector<std::string> Args;
    bool Ok = true;
    for (unsigned I = 0; I < NEnv && Ok; ++I) {
      Ok = readLine(Line);
      size_t Eq = Line.find('=');
      if (Eq != std::string::npos)
        Env.push_back({Line.substr(0, Eq), Line.substr(Eq + 1)});
    }
    for (unsigned I = 0; I < NArgs && Ok; ++I) {
      Ok = readLine(Line);
      Args.push_back(Line);
    }
    if (!Ok || Args.empty())
      return 2;
    std::vector<std::pair<std::string, const char *>> Old;
    std::string Pre;
    for (auto &E : Env) {
      if (E.first == "WGPERF_CC_PREPROCESSED") {
        Pre = E.second;
        continue;
      }
      const char *Was = getenv(E.first.c_str());
      Old.push_back({E.first, Was ? strdup(Was) : nullptr});
      setenv(E.first.c_str(), E.second.c_str(), 1);
    }
    std::fflush(stderr);
    int Saved = dup(2), Fd = *LogPath ? open(LogPath, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if (Fd >= 0)
      dup2(Fd, 2);
    int Status = runClang(Args, Pre);
    llvm::errs().flush();
    std::fflush(stderr);
    if (Saved >= 0) {
      dup2(Saved, 2);
      close(Saved);
    }
    if (Fd >= 0)
      close(Fd);
    for (auto &O : Old) {
      if (O.second)
        setenv(O.first.c_str(), O.second, 1);
      else
        unsetenv(O.first.c_str());
      free((void *)O.second);
    }
    std::printf("D %d\n", Status);
    std::fflush(stdout);
  }
  return 0;
}
