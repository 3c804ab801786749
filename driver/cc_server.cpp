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
//   reply:    "D <status> <precompiled>\n" (status 0: every job succeeded;
//             precompiled: the jobs that loaded a precompiled header)
// The environment variables are set for the request only (the plugin reads
// WGPERF_OUTPUT); clang's diagnostics go to the file <log>.  One name is the
// request's own, not set: WGPERF_CC_PREPROCESSED=<file> says that <file> holds
// what `clang -E` made of the command's input with the same options
// (driver/preprocess.c), which each cc1 job then compiles instead of the input
// (preprocessedInput): the input's name stays the module's, and the line
// markers of <file> keep the input's file names and lines in the debug
// information and the messages.
//
//   wgperf-cc CLANG DIR        DIR: where the precompiled headers go (the
//                              client's folder; removed at exit)
//
// The beginning of such a text is what the -include files made (CUDA's
// runtime wrapper and headers: about 1.1 MB of the 1.3 MB of a convolution
// configuration), the same for every configuration of a tuning space.  When
// the same beginning comes again under the same options, it is parsed once
// into a precompiled header, made from the text itself (PchStore), and each
// compile then parses only the input's own part: the same module, for about
// a third less of the compile's CPU (docs/wgtune.md, "Caching").  The
// preprocessing itself (`clang -E` requests) makes that beginning once too:
// where no -include file uses a macro the command line defines, the files are
// precompiled and each request preprocesses only its input's part with them
// (PpStore): the same text, byte for byte, for about a third of the CPU; such
// a request counts as precompiled in the reply.
// With a precompiled header, the end of each unit reads back the header's
// declarations listed for CUDA's deferred diagnostics only when the unit has
// such a diagnostic, the one case clang then looks at them
// (DeferredDiagsWhenNeeded).
//===----------------------------------------------------------------------===//
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/FrontendTool/Utils.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Sema/MultiplexExternalSemaSource.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <deque>
#include <set>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace clang;

namespace {

// This process' stderr (fd 2: clang's messages) sent to the file FD while
// an object lives (FD < 0: left alone); FD stays open, the caller's.
class StderrTo {
public:
  explicit StderrTo(int Fd) {
    std::fflush(stderr);
    llvm::errs().flush();
    if (Fd >= 0) {
      Saved = dup(2);
      dup2(Fd, 2);
    }
  }
  ~StderrTo() {
    llvm::errs().flush();
    std::fflush(stderr);
    if (Saved >= 0) {
      dup2(Saved, 2);
      close(Saved);
    }
  }
  StderrTo(const StderrTo &) = delete;
  StderrTo &operator=(const StderrTo &) = delete;

private:
  int Saved = -1;
};

// A precompiled header's declarations that the deferred diagnostics might
// check, read back only when there are such diagnostics.  At the end of a
// translation unit, Sema::emitDeferredDiags first has its external source
// (the header's ASTReader) deserialize every declaration the header listed
// for the check (thousands for CUDA's headers: about 5% of a convolution
// compile), and then returns at once unless the unit recorded a deferred
// diagnostic (outside OpenMP), as a kernel that compiles cleanly has not.
// This source forwards everything to the reader but that read, which it
// makes only when emitDeferredDiags will go on: the same diagnostics and
// module (clang 19's Sema.cpp; lit tune-cache.test compares the models with
// those of compiles without a header).
class DeferredDiagsWhenNeeded : public MultiplexExternalSemaSource {
public:
  DeferredDiagsWhenNeeded(Sema &S, ExternalSemaSource *Reader)
      : MultiplexExternalSemaSource(Reader, new ExternalSemaSource()), S(S) {}
  void ReadDeclsToCheckForDeferredDiags(llvm::SmallSetVector<Decl *, 4> &Decls) override {
    if (S.DeviceDeferredDiags.empty() && !S.getLangOpts().OpenMP)
      return;
    MultiplexExternalSemaSource::ReadDeclsToCheckForDeferredDiags(Decls);
  }

private:
  Sema &S;
};

// Puts DeferredDiagsWhenNeeded in front of a precompiled header's reader, at
// the first declaration of the unit (Sema has its external source by then:
// the parser initializes Sema before the first declaration).
class DeferredDiagsConsumer : public SemaConsumer {
public:
  void InitializeSema(Sema &Actions) override { S = &Actions; }
  void ForgetSema() override { S = nullptr; }
  bool HandleTopLevelDecl(DeclGroupRef) override {
    if (S && !Done && S->ExternalSource) {
      Done = true;
      // only the reader alone, as -include-pch makes it
      if (S->ExternalSource.get() == S->getASTContext().getExternalSource())
        S->ExternalSource = new DeferredDiagsWhenNeeded(*S, S->ExternalSource.get());
    }
    return true;
  }

private:
  Sema *S = nullptr;
  bool Done = false;
};

// Added to every AST action of this process (clang's plugin registry: an
// action after the main one, which needs no -add-plugin).
class DeferredDiagsAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<DeferredDiagsConsumer>();
  }
  bool ParseArgs(const CompilerInstance &, const std::vector<std::string> &) override { return true; }
  ActionType getActionType() override { return AddAfterMainAction; }
};

FrontendPluginRegistry::Add<DeferredDiagsAction> DeferredDiags("wgperf-deferred-diags",
                                                               "deferred diagnostics' declarations read when needed");

// cc1's arguments CC1 changed to compile PRE, the preprocessed text of
// their input, in place of the input: "-x LANG" becomes "-x LANG-cpp-output"
// (cc1 then neither expands macros nor includes anything again), the -include
// files and OpenCL's default header are left out (their text is in PRE), and
// "-remap-file INPUT;PRE" gives the input's name PRE's content, so that the
// module, its debug information and the CUDA ID derived from the name are the
// input's.  False (CC1 as it was) when the arguments are not as expected: one
// "-x", then the input, last.
bool preprocessedInput(std::vector<const char *> &CC1, const std::string &Pre, std::deque<std::string> &Keep) {
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

// Runs the cc1 job CC1 as cc1_main does (ACT: this action in place of the
// one its options name).  False when it failed.
bool runCC1(const std::vector<const char *> &CC1, const char *Argv0, FrontendAction *Act = nullptr) {
  // options given with -mllvm are parsed again for each job
  llvm::cl::ResetAllOptionOccurrences();
  std::unique_ptr<CompilerInstance> Clang(new CompilerInstance());
  IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs());
  IntrusiveRefCntPtr<DiagnosticOptions> BufOpts = new DiagnosticOptions();
  auto *Buffer = new TextDiagnosticBuffer;
  DiagnosticsEngine BufDiags(IDs, &*BufOpts, Buffer);
  bool Ok = CompilerInvocation::CreateFromArgs(Clang->getInvocation(), CC1, BufDiags, Argv0);
  Clang->createDiagnostics();
  if (!Clang->hasDiagnostics())
    return false;
  Buffer->FlushDiagnostics(Clang->getDiagnostics());
  if (!Ok)
    return false;
  Ok = Act ? Clang->ExecuteAction(*Act) : ExecuteCompilerInvocation(Clang.get());
  llvm::errs().flush();
  return Ok;
}

// TEXT into the file PATH; false when it could not be written.
bool writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (EC)
    return false;
  Out << Text;
  Out.close();
  if (Out.has_error()) {
    Out.clear_error();
    return false;
  }
  return true;
}

// Where the input's own part of a preprocessed TEXT begins: a text begins
// '# 1 "INPUT"' and the input's part follows '# 1 "INPUT" 2' (what the
// predefines and the -include files made comes between).  The offset of the
// newline before that marker (MARKER: its length with both newlines), or npos.
size_t inputPart(llvm::StringRef Text, size_t &Marker) {
  size_t Eol = Text.find('\n');
  if (!Text.starts_with("# 1 \"") || Eol == llvm::StringRef::npos)
    return llvm::StringRef::npos;
  std::string M = "\n" + Text.substr(0, Eol).str() + " 2\n";
  Marker = M.size();
  return Text.find(M);
}

// Copies what FD holds (a job's messages, held back) to stderr.
void replay(int Fd) {
  char Buf[65536];
  ssize_t N;
  if (Fd >= 0 && lseek(Fd, 0, SEEK_SET) == 0)
    while ((N = read(Fd, Buf, sizeof Buf)) > 0)
      if (write(2, Buf, (size_t)N) != N)
        break;
}

// Entry I of D moved to the back (the most recently used); a reference to it.
template <class T> T &toBack(std::deque<T> &D, size_t I) {
  T E = std::move(D[I]);
  D.erase(D.begin() + (long)I);
  D.push_back(std::move(E));
  return D.back();
}

// Precompiled headers of the beginnings of preprocessed texts (see the top).
class PchStore {
public:
  explicit PchStore(std::string Dir) : Dir(std::move(Dir)) {}
  ~PchStore() {
    for (Entry &E : Entries)
      removeFiles(E);
  }
  // CC1, preprocessedInput's job compiling the text PRE, changed to load the
  // precompiled header of PRE's beginning and to compile the rest alone,
  // when there is such a header or this is the second time the beginning
  // comes under these options; as it was otherwise.  Returns the file of the
  // rest, for the caller to remove after the job ("" when CC1 is unchanged).
  std::string use(std::vector<const char *> &CC1, const std::string &Pre, std::deque<std::string> &Keep,
                  const char *Argv0);
  // The header use() gave last did not serve (its compile failed where the
  // full text compiles): not used again.
  void failed() {
    if (Entries.empty())
      return;
    Entries.back().Failed = true;
    removeFiles(Entries.back());
  }
  // Where a compile's messages wait until it is known to have succeeded.
  std::string capture() const { return Dir + "/messages"; }

private:
  struct Entry {
    std::string Options, Head; // the key: the job's options, the text's beginning
    std::string HeadFile, Pch; // the beginning and its precompiled header, once made
    bool Failed = false;       // it did not precompile, or did not serve: compiled in full
  };
  static void removeFiles(Entry &E) {
    for (std::string *F : {&E.HeadFile, &E.Pch})
      if (!F->empty()) {
        llvm::sys::fs::remove(*F);
        F->clear();
      }
  }
  // Beginnings smaller than this are not worth a header (no -include files).
  static constexpr size_t MinHead = 64 * 1024;
  // Beginnings remembered (each is about 1 MB): a tuning space has one.
  static constexpr size_t MaxEntries = 4;
  std::string Dir;
  std::deque<Entry> Entries; // the most recently used last
  unsigned Serial = 0;

  bool make(Entry &E, const std::vector<const char *> &CC1, const char *Argv0);
};

// A macro definition (-D, -U), NEXT when its value is the next argument.
static bool macroOption(llvm::StringRef A, bool &Next) {
  Next = A == "-D" || A == "-U";
  return Next || A.starts_with("-D") || A.starts_with("-U");
}

// An option of one compile's own that a header of the text's beginning
// neither needs nor depends on: one naming the input, the output or the
// compile's ID, or a macro definition (the text is preprocessed: they change
// nothing in it; they are left out of both jobs, so that clang's check of a
// header's macros finds the same).  NEXT when its value is the next argument.
bool perCompileOption(llvm::StringRef A, bool &Next) {
  Next = A == "-o" || A == "-main-file-name" || A == "-remap-file" || A == "-dependency-file" || A == "-MT";
  return Next || A.starts_with("-cuid=") || macroOption(A, Next);
}

// What the job's options are for the key: all but those of the compile's
// own (perCompileOption) and the input.
static std::string optionsKey(const std::vector<const char *> &CC1) {
  std::string Key;
  for (size_t I = 0; I + 1 < CC1.size(); ++I) {
    llvm::StringRef A(CC1[I]);
    bool Next;
    if (perCompileOption(A, Next)) {
      I += Next;
      continue;
    }
    Key.append(A.data(), A.size());
    Key.push_back('\0');
  }
  return Key;
}

// Precompiles INPUT (of language LANG) into PCH with the options of the cc1
// job CC1 (... "-x" LANG INPUT), less its own (perCompileOption: input,
// outputs, macros) and its action; its messages are not shown.  False (and
// no PCH) when it fails.
bool emitPch(const std::vector<const char *> &CC1, const char *Lang, const std::string &Input,
             const std::string &Pch, const char *Argv0) {
  std::vector<const char *> Job;
  for (size_t I = 0; I + 3 < CC1.size(); ++I) {
    llvm::StringRef A(CC1[I]);
    bool Next;
    if (perCompileOption(A, Next)) {
      I += Next;
      continue;
    }
    if (A == "-emit-llvm-only" || A == "-emit-llvm-bc" || A == "-emit-llvm" || A == "-emit-obj" || A == "-S" ||
        A == "-E" || A == "-sys-header-deps")
      continue;
    Job.push_back(CC1[I]);
  }
  for (const char *A : {"-emit-pch", "-o", Pch.c_str(), "-x", Lang, Input.c_str()})
    Job.push_back(A);
  int Null = open("/dev/null", O_WRONLY);
  bool Ok;
  {
    StderrTo Quiet(Null);
    Ok = runCC1(Job, Argv0);
  }
  if (Null >= 0)
    close(Null);
  if (!Ok)
    llvm::sys::fs::remove(Pch);
  return Ok;
}

// The precompiled header of E.Head, made by a job of CC1's options that
// parses E.Head alone (its messages are not the compile's: not shown).
bool PchStore::make(Entry &E, const std::vector<const char *> &CC1, const char *Argv0) {
  std::string Base = Dir + "/pch" + std::to_string(Serial++);
  E.HeadFile = Base + ".head";
  std::string Pch = Base + ".pch";
  if (!writeFile(E.HeadFile, E.Head) || !emitPch(CC1, CC1[CC1.size() - 2], E.HeadFile, Pch, Argv0))
    return false;
  E.Pch = Pch;
  return true;
}

std::string PchStore::use(std::vector<const char *> &CC1, const std::string &Pre, std::deque<std::string> &Keep,
                          const char *Argv0) {
  if (Dir.empty())
    return "";
  auto Buf = llvm::MemoryBuffer::getFile(Pre);
  if (!Buf)
    return "";
  llvm::StringRef Text = (*Buf)->getBuffer();
  size_t Marker, At = inputPart(Text, Marker);
  if (At == llvm::StringRef::npos || At + 1 < MinHead)
    return "";
  llvm::StringRef First = Text.substr(0, Text.find('\n'));
  llvm::StringRef Head = Text.substr(0, At + 1), Rest = Text.substr(At + Marker);
  std::string Options = optionsKey(CC1);
  size_t Found = Entries.size();
  for (size_t I = 0; I < Entries.size(); ++I)
    if (Entries[I].Options == Options && Entries[I].Head == Head)
      Found = I;
  if (Found == Entries.size()) { // the first time: compiled in full
    if (Entries.size() == MaxEntries) {
      removeFiles(Entries.front());
      Entries.pop_front();
    }
    Entries.push_back(Entry{Options, Head.str(), "", "", false});
    return "";
  }
  Entry &Use = toBack(Entries, Found);
  if (Use.Failed || (Use.Pch.empty() && !make(Use, CC1, Argv0))) {
    Use.Failed = true;
    return "";
  }
  std::string Main = Dir + "/main" + std::to_string(Serial++) + ".i";
  if (!writeFile(Main, (First + "\n" + Rest).str())) {
    llvm::sys::fs::remove(Main);
    return "";
  }
  // the job: no macros, the header, the input's name given the rest
  size_t N = CC1.size();
  std::vector<const char *> Job;
  for (size_t I = 0; I + 3 < N; ++I) {
    llvm::StringRef A(CC1[I]);
    bool Next;
    if (macroOption(A, Next)) {
      I += Next;
      continue;
    }
    if (A == "-remap-file") {
      Keep.push_back(std::string(CC1[N - 1]) + ";" + Main);
      Job.push_back("-include-pch");
      Job.push_back(Use.Pch.c_str());
      Job.push_back(CC1[I]);
      Job.push_back(Keep.back().c_str());
      ++I;
      continue;
    }
    Job.push_back(CC1[I]);
  }
  for (size_t I = N - 3; I < N; ++I)
    Job.push_back(CC1[I]);
  CC1 = Job;
  return Main;
}

// ---- preprocessing: what the -include files make, made once ----------------
//
// A -E job's text begins with what its -include files made (CUDA's runtime
// wrapper and headers, or OpenCL's header): about 1.1 MB of a convolution
// configuration's 1.3 MB, the same for every configuration of a tuning space,
// read and expanded again each time.  PpStore makes it once: the first job
// under some options runs in full, watched (HeadWatch): where no header of
// that beginning uses a macro the command line defines (-D, -U: the tuning
// parameters), the beginning cannot depend on their values, and it is kept.
// The -include files are then precompiled into a header (without the -D's),
// and each later job preprocesses only its input's own part, with that header
// loaded (PchPreprocess: its macros, include guards and #pragma once state),
// after which the kept beginning and that part are the text.  The first such
// text is checked byte for byte against the job run in full; a difference, a
// beginning that uses the macros, or a header that does not precompile: the
// jobs under those options run in full, as before.

// The names of the macros CC1's command line defines or undefines.
std::set<std::string> macroNames(const std::vector<const char *> &CC1) {
  std::set<std::string> Names;
  for (size_t I = 0; I < CC1.size(); ++I) {
    llvm::StringRef A(CC1[I]);
    bool Next;
    if (!macroOption(A, Next))
      continue;
    llvm::StringRef V = Next ? (I + 1 < CC1.size() ? llvm::StringRef(CC1[++I]) : "") : A.drop_front(2);
    Names.insert(V.take_until([](char C) { return C == '=' || C == '('; }).str());
  }
  return Names;
}

// Whether a file read before the input's own text (the -include files and
// what they include) uses a macro of NAMES: defines, expands, tests or
// undefines it.  The command line's own definitions are not uses.
class HeadWatch : public PPCallbacks {
public:
  HeadWatch(const SourceManager &SM, const std::set<std::string> &Names, bool &Used)
      : SM(SM), Names(Names), Used(Used) {}
  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind, FileID) override {
    // back in the input from the predefines (which -include the files): its own text
    if (Reason == ExitFile && Loc.isValid() && SM.getFileID(SM.getExpansionLoc(Loc)) == SM.getMainFileID())
      Head = false;
  }
  void MacroExpands(const Token &T, const MacroDefinition &, SourceRange, const MacroArgs *) override { see(T); }
  void MacroDefined(const Token &T, const MacroDirective *) override { see(T); }
  void MacroUndefined(const Token &T, const MacroDefinition &, const MacroDirective *) override { see(T); }
  void Defined(const Token &T, const MacroDefinition &, SourceRange) override { see(T); }
  void Ifdef(SourceLocation, const Token &T, const MacroDefinition &) override { see(T); }
  void Ifndef(SourceLocation, const Token &T, const MacroDefinition &) override { see(T); }
  using PPCallbacks::Elifdef;
  using PPCallbacks::Elifndef;
  void Elifdef(SourceLocation, const Token &T, const MacroDefinition &) override { see(T); }
  void Elifndef(SourceLocation, const Token &T, const MacroDefinition &) override { see(T); }

private:
  void see(const Token &T) {
    const IdentifierInfo *II = T.getIdentifierInfo();
    if (!Head || Used || !II || !Names.count(II->getName().str()))
      return;
    SourceLocation L = SM.getExpansionLoc(T.getLocation());
    if (!SM.isWrittenInCommandLineFile(L) && !SM.isWrittenInBuiltinFile(L))
      Used = true;
  }
  const SourceManager &SM;
  const std::set<std::string> &Names;
  bool &Used;
  bool Head = true;
};

// clang -E, watched by HeadWatch.
class WatchedPreprocess : public PrintPreprocessedAction {
public:
  WatchedPreprocess(const std::set<std::string> &Names, bool &Used) : Names(Names), Used(Used) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<HeadWatch>(CI.getSourceManager(), Names, Used));
    return PrintPreprocessedAction::BeginSourceFileAction(CI);
  }

private:
  const std::set<std::string> &Names;
  bool &Used;
};

// clang -E with the precompiled header (-include-pch) loaded as a compile
// loads it: a preprocessor-only action would include the header's source
// file instead.
class PchPreprocess : public PrintPreprocessedAction {
public:
  bool usesPreprocessorOnly() const override { return false; }

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<ASTConsumer>();
  }
};

// The prerequisites of the make rule in FILE (clang's -dependency-file).
std::vector<std::string> readDeps(const std::string &File) {
  std::vector<std::string> Out;
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf)
    return Out;
  llvm::StringRef T = (*Buf)->getBuffer();
  size_t Colon = T.find(": ");
  if (Colon == llvm::StringRef::npos)
    Colon = T.find(":\n");
  if (Colon == llvm::StringRef::npos)
    return Out;
  std::string W;
  for (size_t I = Colon + 1; I <= T.size(); ++I) {
    char C = I < T.size() ? T[I] : '\0';
    if (C == '\\' && I + 1 < T.size() && T[I + 1] == ' ') {
      W.push_back(' '), ++I;
      continue;
    }
    if (C == '$' && I + 1 < T.size() && T[I + 1] == '$') {
      W.push_back('$'), ++I;
      continue;
    }
    if (C == '\\' && I + 1 < T.size() && T[I + 1] == '\n') {
      ++I;
      C = ' ';
    }
    if (C == '\0' || C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      if (!W.empty())
        Out.push_back(W), W.clear();
      continue;
    }
    W.push_back(C);
  }
  return Out;
}

class PpStore {
public:
  explicit PpStore(std::string Dir) : Dir(std::move(Dir)) {}
  ~PpStore() {
    for (Entry &E : Entries)
      if (!E.Pch.empty())
        llvm::sys::fs::remove(E.Pch);
    if (!Empty.empty())
      llvm::sys::fs::remove(Empty);
  }
  // Runs the -E job CC1 (see above); false when it failed.  SERVED: its text
  // was made with the precompiled -include files.
  bool run(const std::vector<const char *> &CC1, const char *Argv0, bool &Served);

private:
  struct Entry {
    std::string Options;              // the key: optionsKey and the macros' names
    std::string Head;                 // the text the -include files made
    std::vector<std::string> HeadDeps; // the files the first job read
    std::string Pch;                  // the -include files precompiled, once made
    bool Checked = false;             // a text made with it was the full job's
    bool Failed = false;              // jobs under these options run in full
  };
  static constexpr size_t MinHead = 64 * 1024; // smaller beginnings: not worth a header
  static constexpr size_t MaxEntries = 4;
  std::string Dir, Empty;
  std::deque<Entry> Entries; // the most recently used last
  unsigned Serial = 0;

  bool makePch(Entry &E, const std::vector<const char *> &CC1, const char *Argv0);
};

// The header of E's -include files: CC1's job, without its -D's, input and
// outputs, precompiling an empty input.
bool PpStore::makePch(Entry &E, const std::vector<const char *> &CC1, const char *Argv0) {
  if (Empty.empty()) {
    Empty = Dir + "/pp-empty";
    if (!writeFile(Empty, "")) {
      Empty.clear();
      return false;
    }
  }
  std::string Pch = Dir + "/pp" + std::to_string(Serial++) + ".pch";
  if (!emitPch(CC1, CC1[CC1.size() - 2], Empty, Pch, Argv0))
    return false;
  E.Pch = Pch;
  return true;
}

bool PpStore::run(const std::vector<const char *> &CC1, const char *Argv0, bool &Served) {
  Served = false;
  size_t N = CC1.size();
  std::string Out, Dep;
  bool Includes = false;
  for (size_t I = 0; I + 1 < N; ++I) {
    llvm::StringRef A(CC1[I]);
    if (A == "-o")
      Out = CC1[I + 1];
    else if (A == "-dependency-file")
      Dep = CC1[I + 1];
    Includes = Includes || A == "-include" || A == "-finclude-default-header";
  }
  // the form the jobs of driver/preprocess.c have: ... -x LANG INPUT, to a file
  if (Dir.empty() || N < 3 || llvm::StringRef(CC1[N - 3]) != "-x" || Out.empty() || Out == "-" || !Includes)
    return runCC1(CC1, Argv0);
  std::set<std::string> Names = macroNames(CC1);
  std::string Key = optionsKey(CC1);
  for (const std::string &M : Names)
    Key += "\1" + M;
  size_t Found = Entries.size();
  for (size_t I = 0; I < Entries.size(); ++I)
    if (Entries[I].Options == Key)
      Found = I;
  if (Found == Entries.size()) { // the first job: in full, watched
    bool Used = false;
    WatchedPreprocess Act(Names, Used);
    if (!runCC1(CC1, Argv0, &Act))
      return false;
    if (Entries.size() == MaxEntries) {
      if (!Entries.front().Pch.empty())
        llvm::sys::fs::remove(Entries.front().Pch);
      Entries.pop_front();
    }
    Entries.push_back(Entry{Key, "", {}, "", false, true});
    Entry &E = Entries.back();
    auto Buf = llvm::MemoryBuffer::getFile(Out);
    if (!Buf || Used)
      return true;
    llvm::StringRef Text = (*Buf)->getBuffer();
    size_t Marker, At = inputPart(Text, Marker);
    if (At == llvm::StringRef::npos || At + 1 < MinHead)
      return true;
    E.Head = Text.substr(0, At + 1).str();
    if (!Dep.empty())
      E.HeadDeps = readDeps(Dep);
    E.Failed = false;
    return true;
  }
  Entry &E = toBack(Entries, Found);
  if (E.Failed || (E.Pch.empty() && !makePch(E, CC1, Argv0))) {
    E.Failed = true;
    return runCC1(CC1, Argv0);
  }
  // the input's own part, with the header, its messages held back (the
  // -include files left out; OpenCL's default header is a language option
  // the header must agree with, and the loaded header stands for it)
  std::string Base = Dir + "/pp" + std::to_string(Serial++);
  std::string TmpOut = Base + ".i", TmpDep = Base + ".d", Held = Base + ".messages";
  std::vector<const char *> Job;
  for (size_t I = 0; I + 3 < N; ++I) {
    llvm::StringRef A(CC1[I]);
    if (A == "-include") {
      ++I;
      continue;
    }
    Job.push_back(CC1[I]);
    if (A == "-o" || A == "-dependency-file") {
      Job.push_back(A == "-o" ? TmpOut.c_str() : TmpDep.c_str());
      ++I;
    }
  }
  for (const char *A : {"-include-pch", E.Pch.c_str(), CC1[N - 3], CC1[N - 2], CC1[N - 1]})
    Job.push_back(A);
  int Fd = open(Held.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  bool Ok;
  {
    StderrTo Hold(Fd);
    PchPreprocess Act;
    Ok = runCC1(Job, Argv0, &Act);
  }
  std::string Text;
  if (Ok) {
    auto Buf = llvm::MemoryBuffer::getFile(TmpOut);
    llvm::StringRef Part = Buf ? (*Buf)->getBuffer() : "";
    size_t Marker, At = inputPart(Part, Marker);
    Ok = At != llvm::StringRef::npos;
    if (Ok)
      Text = E.Head + Part.substr(At + 1).str();
  }
  std::vector<std::string> Deps = Ok && !Dep.empty() ? readDeps(TmpDep) : std::vector<std::string>();
  llvm::sys::fs::remove(TmpOut);
  llvm::sys::fs::remove(TmpDep);
  if (!Ok || !E.Checked) {
    // a text the header did not make (an error: the full job's messages are
    // the request's), or the first it made: the full job, checked against it
    if (Fd >= 0)
      close(Fd);
    llvm::sys::fs::remove(Held);
    bool Full = runCC1(CC1, Argv0);
    if (Ok && Full) {
      auto Buf = llvm::MemoryBuffer::getFile(Out);
      E.Checked = Buf && (*Buf)->getBuffer() == Text;
      E.Failed = !E.Checked;
    }
    return Full;
  }
  // the held messages (warnings of the input's own part) are the request's
  replay(Fd);
  if (Fd >= 0)
    close(Fd);
  llvm::sys::fs::remove(Held);
  if (!writeFile(Out, Text))
    return runCC1(CC1, Argv0);
  if (!Dep.empty()) {
    // the files the input's part read and those the beginning read, not the header
    // (the header's own input is named as it was precompiled: absolute)
    std::set<std::string> Seen{E.Pch, Empty};
    for (const std::string &F : {E.Pch, Empty}) {
      llvm::SmallString<256> Abs(F);
      if (!llvm::sys::fs::make_absolute(Abs))
        Seen.insert(std::string(Abs));
    }
    std::string Rule = Out + ":";
    for (const std::vector<std::string> *L : {&Deps, &E.HeadDeps})
      for (const std::string &D : *L) {
        if (!Seen.insert(D).second)
          continue;
        Rule += " \\\n ";
        for (char C : D)
          Rule += C == ' ' ? std::string("\\ ") : C == '$' ? std::string("$$") : std::string(1, C);
      }
    Rule += "\n";
    if (!writeFile(Dep, Rule))
      return runCC1(CC1, Argv0);
  }
  Served = true;
  return true;
}

// Runs one clang command line ARGS in this process: the driver builds its
// jobs, each a cc1 job run through ExecuteCompilerInvocation as cc1_main
// does (each compiling PRE instead of its input when PRE is not empty,
// through PCHS; PRECOMPILED counts the jobs that loaded a header).  Returns
// 0 when every job succeeded.
int runClang(const std::vector<std::string> &Args, const std::string &Pre, PchStore &Pchs, PpStore &Pps,
             unsigned &Precompiled) {
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
    std::deque<std::string> Keep;
    if (!Pre.empty() && !preprocessedInput(CC1, Pre, Keep)) {
      llvm::errs() << "wgperf-cc: cannot compile the preprocessed text: a cc1 job not of the form expected\n";
      return 2;
    }
    if (Pre.empty() && std::find_if(CC1.begin(), CC1.end(), [](const char *A) { return !strcmp(A, "-E"); }) !=
                           CC1.end()) {
      bool Served;
      if (!Pps.run(CC1, Args[0].c_str(), Served))
        return 1;
      Precompiled += Served;
      continue;
    }
    std::vector<const char *> Full = CC1;
    std::string Main = Pre.empty() ? "" : Pchs.use(CC1, Pre, Keep, Args[0].c_str());
    bool Ok;
    if (Main.empty()) {
      Ok = runCC1(CC1, Args[0].c_str());
    } else {
      // with the header, its messages held back: where it fails, the full
      // text is compiled again, whose messages and result are the request's
      // (a code that does not compile, or a header that does not serve)
      std::string Held = Pchs.capture();
      int Fd = open(Held.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
      {
        StderrTo Hold(Fd);
        Ok = runCC1(CC1, Args[0].c_str());
      }
      llvm::sys::fs::remove(Main);
      if (Ok) {
        ++Precompiled;
        replay(Fd);
      }
      if (Fd >= 0)
        close(Fd);
      llvm::sys::fs::remove(Held);
      if (!Ok) {
        Ok = runCC1(Full, Args[0].c_str());
        if (Ok)
          Pchs.failed();
      }
    }
    if (!Ok)
      return 1;
  }
  return 0;
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
  PchStore Pchs(argc > 2 ? argv[2] : "");
  PpStore Pps(argc > 2 ? argv[2] : "");
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
    int Fd = *LogPath ? open(LogPath, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    unsigned Precompiled = 0;
    int Status;
    {
      StderrTo Log(Fd);
      Status = runClang(Args, Pre, Pchs, Pps, Precompiled);
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
    std::printf("D %d %u\n", Status, Precompiled);
    std::fflush(stdout);
  }
  return 0;
}
