/* registers.c - registers per thread from ptxas, added to a kernel model
 * (registers_internal.h).
 *
 * DESIGN.md: register counts come from `ptxas -v` on PTX made by llc-19
 * when a CUDA toolkit is installed; otherwise the model's IR estimate is
 * used and reports say which.  OpenCL bitcode is linked with libclc first
 * so its work-item builtins become NVVM intrinsics ptxas accepts.
 */
#define _GNU_SOURCE /* memmem */
#include "driver_internal.h"
#include "registers_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/personality.h>
#endif
#include <unistd.h>

#ifndef WGPERF_DEFAULT_LIBCLC
#define WGPERF_DEFAULT_LIBCLC ""
#endif


const char *wgp_find_ptxas(void) {
  static char found[PATH_MAX];
  const char *env = getenv("WGPERF_PTXAS");
  if (env)
    return *env ? env : NULL; /* WGPERF_PTXAS= (empty) turns ptxas off */
  if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
    return "/usr/local/cuda/bin/ptxas";
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *colon = strchr(path, ':');
    size_t n = colon ? (size_t)(colon - path) : strlen(path);
    if (n && n + 7 < sizeof found) {
      memcpy(found, path, n);
      memcpy(found + n, "/ptxas", 7);
      if (access(found, X_OK) == 0)
        return found;
    }
    path = colon ? colon + 1 : NULL;
  }
  /* the CUDA 11.8 scripts/install-deps.sh unpacks (not on PATH) */
  return drv_installed_ptxas();
}

/* Runs ARGV once, stderr into ERRFILE; its wait status, -1 when it could not
 * be started.  FIXED_LAYOUT: without address space randomization. */
static int run_once(char *const argv[], const char *errfile, bool fixed_layout) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int nul = open("/dev/null", O_WRONLY);
    if (fd >= 0)
      dup2(fd, 2);
    if (nul >= 0)
      dup2(nul, 1);
#ifdef __linux__
    if (fixed_layout) {
      int persona = personality(0xffffffff);
      if (persona != -1)
        personality((unsigned long)persona | ADDR_NO_RANDOMIZE);
    }
#else
    (void)fixed_layout;
#endif
    execvp(argv[0], argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return status;
}

/* Runs ARGV quietly, stderr into ERRFILE; true on exit status 0.
 * ptxas 11.8 (Debian's CUDA) crashes with SIGSEGV on about half the runs of
 * one PTX file that holds `atom.global.add.noftz.f16` (test/lit/bf16.cu's
 * atomics16 through llc-19, with WGPERF_NVCC=): whether it crashes depends on
 * where its memory lies (20 of 20 runs passed under `setarch -R`, 5 of 10
 * crashed without).  So a tool runs first without address randomization, and
 * one killed by a signal runs again, up to 3 more times, with it. */
static bool run_quiet(char *const argv[], const char *errfile) {
  int status = run_once(argv, errfile, true);
  for (int again = 0; again < 3 && status != -1 && WIFSIGNALED(status); again++)
    status = run_once(argv, errfile, false);
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static char *sibling(const char *clang, const char *tool) {
  char real[PATH_MAX], *out = malloc(PATH_MAX + 32);
  if (!out)
    return NULL;
  if (realpath(clang, real)) {
    char *slash = strrchr(real, '/');
    if (slash) {
      *slash = '\0';
      snprintf(out, PATH_MAX + 32, "%s/%s", real, tool);
      if (access(out, X_OK) == 0)
        return out;
    }
  }
  snprintf(out, PATH_MAX + 32, "%s-19", tool);
  return out;
}

/* libdevice of the toolkit that holds PTXAS (<bin>/../nvvm/libdevice), where
 * the __nv_* functions clang's CUDA headers call are defined; false if none. */
static bool find_libdevice(const char *ptxas, char *out, size_t n) {
  char real[PATH_MAX];
  if (realpath(ptxas, real)) {
    char *slash = strrchr(real, '/');
    if (slash) {
      *slash = '\0';
      snprintf(out, n, "%s/../nvvm/libdevice/libdevice.10.bc", real);
      if (access(out, R_OK) == 0)
        return true;
    }
  }
  snprintf(out, n, "%s", "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  return access(out, R_OK) == 0;
}

/* The whole of file PATH, NUL-terminated, its length in *LEN; NULL when it
 * cannot be read or memory runs out. */
static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *text = NULL;
  size_t cap = 0;
  *len = 0;
  for (;;) {
    if (*len + 4096 + 1 > cap) {
      cap = cap ? 2 * cap : 1 << 16;
      char *t = realloc(text, cap);
      if (!t) {
        free(text);
        fclose(f);
        return NULL;
      }
      text = t;
    }
    size_t got = fread(text + *len, 1, 4096, f);
    *len += got;
    if (got < 4096)
      break;
  }
  fclose(f);
  text[*len] = '\0';
  return text;
}

/* libclc leaves OpenCL's exp, log, pow, sin, ... as LLVM math intrinsics,
 * which the NVPTX backend cannot lower (llc: "no libcall available for
 * fexp"); NVIDIA's OpenCL compiler calls its libdevice functions.  With
 * RENAME, those intrinsics in the textual module IN become calls to the
 * __nv_* functions.  And libclc for NVPTX does not define get_work_dim and
 * get_global_offset, which ptxas then reports as unresolved: NVIDIA's
 * compiler reads both from the launch's constant bank, so their declarations
 * become definitions that load them from constant memory the optimizer may
 * not fold (externally initialized).  The result is written to OUT; returns
 * the count of changes, -1 on a file error. */
static const char work_item_defs[] =
    "\n@__wgperf_work_dim = internal addrspace(4) externally_initialized global i32 1, align 4\n"
    "@__wgperf_global_offset = internal addrspace(4) externally_initialized global [3 x i64] "
    "zeroinitializer, align 8\n";
static const struct {
  const char *declared, *definition;
} work_item_builtins[] = {
    {"@_Z12get_work_dimv(",
     "define linkonce_odr i32 @_Z12get_work_dimv() {\n"
     "  %v = load i32, ptr addrspace(4) @__wgperf_work_dim, align 4\n"
     "  ret i32 %v\n}\n"},
    {"@_Z17get_global_offsetj(",
     "define linkonce_odr i64 @_Z17get_global_offsetj(i32 %d) {\n"
     "  %in = icmp ult i32 %d, 3\n"
     "  %k = select i1 %in, i32 %d, i32 0\n"
     "  %i = zext i32 %k to i64\n"
     "  %p = getelementptr inbounds [3 x i64], ptr addrspace(4) @__wgperf_global_offset, i64 0, i64 %i\n"
     "  %v = load i64, ptr addrspace(4) %p, align 8\n"
     "  %r = select i1 %in, i64 %v, i64 0\n"
     "  ret i64 %r\n}\n"},
};

/* Copies the textual module IN to the open file O line by line: a line
 * TAKE_LINE (may be NULL) returns true for is left out (it counted it), and
 * at each '@' of the others RENAME (may be NULL) may write a replacement and
 * return the length of the text it replaces (0: copied as it is).  Returns the
 * count of replacements, -1 when IN cannot be read. */
typedef struct {
  bool (*take_line)(const char *line, void *ctx);
  size_t (*rename)(const char *at, FILE *o, void *ctx);
  void *ctx;
} ir_rewrite;

static int rewrite_ir(const char *in, FILE *o, const ir_rewrite *rw) {
  size_t len;
  char *text = read_text(in, &len);
  if (!text)
    return -1;
  int changed = 0;
  for (char *line = text; *line;) {
    char *eol = strchr(line, '\n');
    size_t n = eol ? (size_t)(eol - line) + 1 : strlen(line);
    char saved = line[n];
    line[n] = '\0';
    if (!rw->take_line || !rw->take_line(line, rw->ctx))
      for (const char *p = line; *p;) {
        const char *at = rw->rename ? strchr(p, '@') : NULL;
        if (!at) {
          fputs(p, o);
          break;
        }
        fwrite(p, 1, (size_t)(at - p), o);
        size_t used = rw->rename(at, o, rw->ctx);
        if (used) {
          p = at + used;
          changed++;
        } else {
          fputc('@', o);
          p = at + 1;
        }
      }
    line[n] = saved;
    line += n;
  }
  free(text);
  return changed;
}

static const char *const libclc_math[][2] = {
    {"@llvm.exp.f32(", "@__nv_expf("},     {"@llvm.exp.f64(", "@__nv_exp("},
    {"@llvm.exp2.f64(", "@__nv_exp2("},    {"@llvm.exp10.f32(", "@__nv_exp10f("},
    {"@llvm.exp10.f64(", "@__nv_exp10("}, {"@llvm.log.f32(", "@__nv_logf("},
    {"@llvm.log.f64(", "@__nv_log("},     {"@llvm.log2.f64(", "@__nv_log2("},
    {"@llvm.log10.f32(", "@__nv_log10f("}, {"@llvm.log10.f64(", "@__nv_log10("},
    {"@llvm.pow.f32(", "@__nv_powf("},     {"@llvm.pow.f64(", "@__nv_pow("},
    {"@llvm.sin.f32(", "@__nv_sinf("},     {"@llvm.sin.f64(", "@__nv_sin("},
    {"@llvm.cos.f32(", "@__nv_cosf("},     {"@llvm.cos.f64(", "@__nv_cos("},
};

static size_t rename_libclc_math(const char *at, FILE *o, void *ctx) {
  (void)ctx;
  for (size_t m = 0; m < sizeof libclc_math / sizeof libclc_math[0]; m++)
    if (strncmp(at, libclc_math[m][0], strlen(libclc_math[m][0])) == 0) {
      fputs(libclc_math[m][1], o);
      return strlen(libclc_math[m][0]);
    }
  return 0;
}

/* a declaration of a work-item function libclc lacks: defined below instead */
static bool take_work_item_declaration(const char *line, void *ctx) {
  bool *define = ctx;
  if (strncmp(line, "declare ", 8) != 0)
    return false;
  for (size_t k = 0; k < sizeof work_item_builtins / sizeof work_item_builtins[0]; k++)
    if (strstr(line, work_item_builtins[k].declared))
      return define[k] = true;
  return false;
}

static int patch_opencl_ir(const char *in, const char *out, bool rename) {
  const size_t nb = sizeof work_item_builtins / sizeof work_item_builtins[0];
  bool define[sizeof work_item_builtins / sizeof work_item_builtins[0]] = {false};
  FILE *o = fopen(out, "wb");
  if (!o)
    return -1;
  ir_rewrite rw = {take_work_item_declaration, rename ? rename_libclc_math : NULL, define};
  int changed = rewrite_ir(in, o, &rw);
  bool any = false;
  for (size_t k = 0; k < nb; k++)
    if (define[k]) {
      if (!any)
        fputs(work_item_defs, o);
      any = true;
      fprintf(o, "\n%s", work_item_builtins[k].definition);
      changed++;
    }
  if (fclose(o) != 0 || changed < 0)
    return -1;
  return changed;
}

/* OpenCL's native_ and half_ functions are, for NVIDIA's compiler, the
 * MUFU instructions (sin.approx, ex2.approx, rcp.approx ...) with at most a
 * multiply beside; libclc implements them as the precise functions, whose
 * sequences take more registers (a native_sin kernel: 21 against 10).  With
 * the scalar float ones of the textual module IN renamed to the definitions
 * below, written to OUT (and those definitions to DEFS), ptxas counts what
 * NVIDIA's compiler makes.  Returns the count of renamed calls, -1 on a file
 * error. */
static const struct {
  const char *name; /* without native_ / half_ */
  bool binary;
  const char *body; /* of float %x[, float %y], result in %r */
} native_fns[] = {
    {"sin", false, "%r = call float @llvm.nvvm.sin.approx.f(float %x)"},
    {"cos", false, "%r = call float @llvm.nvvm.cos.approx.f(float %x)"},
    {"tan", false,
     "%s = call float @llvm.nvvm.sin.approx.f(float %x)\n  %c = call float @llvm.nvvm.cos.approx.f(float %x)\n"
     "  %r = call float @llvm.nvvm.div.approx.f(float %s, float %c)"},
    {"exp2", false, "%r = call float @llvm.nvvm.ex2.approx.f(float %x)"},
    {"exp", false, "%m = fmul float %x, 0x3FF7154760000000\n  %r = call float @llvm.nvvm.ex2.approx.f(float %m)"},
    {"exp10", false, "%m = fmul float %x, 0x400A934F00000000\n  %r = call float @llvm.nvvm.ex2.approx.f(float %m)"},
    {"log2", false, "%r = call float @llvm.nvvm.lg2.approx.f(float %x)"},
    {"log", false, "%l = call float @llvm.nvvm.lg2.approx.f(float %x)\n  %r = fmul float %l, 0x3FE62E4300000000"},
    {"log10", false, "%l = call float @llvm.nvvm.lg2.approx.f(float %x)\n  %r = fmul float %l, 0x3FD3441360000000"},
    {"sqrt", false, "%r = call float @llvm.nvvm.sqrt.approx.f(float %x)"},
    {"rsqrt", false, "%r = call float @llvm.nvvm.rsqrt.approx.f(float %x)"},
    {"recip", false, "%r = call float @llvm.nvvm.div.approx.f(float 1.0, float %x)"},
    {"divide", true, "%r = call float @llvm.nvvm.div.approx.f(float %x, float %y)"},
    {"powr", true,
     "%l = call float @llvm.nvvm.lg2.approx.f(float %x)\n  %m = fmul float %l, %y\n"
     "  %r = call float @llvm.nvvm.ex2.approx.f(float %m)"},
};
static const char native_decls[] = "declare float @llvm.nvvm.sin.approx.f(float)\n"
                                   "declare float @llvm.nvvm.cos.approx.f(float)\n"
                                   "declare float @llvm.nvvm.ex2.approx.f(float)\n"
                                   "declare float @llvm.nvvm.lg2.approx.f(float)\n"
                                   "declare float @llvm.nvvm.sqrt.approx.f(float)\n"
                                   "declare float @llvm.nvvm.rsqrt.approx.f(float)\n"
                                   "declare float @llvm.nvvm.div.approx.f(float, float)\n";

/* The mangled name of scalar float PREFIX NAME: _Z10native_sinf. */
static void native_mangled(const char *prefix, size_t i, char *out, size_t n) {
  char plain[32];
  snprintf(plain, sizeof plain, "%s%s", prefix, native_fns[i].name);
  snprintf(out, n, "@_Z%zu%s%s(", strlen(plain), plain, native_fns[i].binary ? "ff" : "f");
}

static const char *const native_prefixes[] = {"native_", "half_"};
#define NATIVE_FNS (sizeof native_fns / sizeof native_fns[0])

/* by prefix and function: the mangled name, and whether the module uses it */
typedef struct {
  char mangled[2 * NATIVE_FNS][48];
  bool used[2 * NATIVE_FNS];
} native_names;

/* a call or declaration of one: @__wgperf_native_sin( instead, marked used */
static size_t rename_native(const char *at, FILE *o, void *ctx) {
  native_names *nn = ctx;
  if (strncmp(at, "@_Z", 3) != 0)
    return 0;
  for (size_t m = 0; m < 2 * NATIVE_FNS; m++) {
    size_t len = strlen(nn->mangled[m]);
    if (strncmp(at, nn->mangled[m], len) == 0) {
      nn->used[m] = true;
      fprintf(o, "@__wgperf_%s%s(", native_prefixes[m / NATIVE_FNS], native_fns[m % NATIVE_FNS].name);
      return len;
    }
  }
  return 0;
}

static int patch_native(const char *in, const char *out, const char *defs) {
  native_names nn = {0};
  for (size_t m = 0; m < 2 * NATIVE_FNS; m++)
    native_mangled(native_prefixes[m / NATIVE_FNS], m % NATIVE_FNS, nn.mangled[m], sizeof nn.mangled[m]);
  bool *used = nn.used;
  FILE *o = fopen(out, "wb");
  if (!o)
    return -1;
  ir_rewrite rw = {NULL, rename_native, &nn};
  int changed = rewrite_ir(in, o, &rw);
  if (fclose(o) != 0 || changed < 0)
    return -1;
  if (!changed)
    return 0;
  FILE *d = fopen(defs, "wb");
  if (!d)
    return -1;
  fprintf(d, "target triple = \"nvptx64-nvidia-cuda\"\n\n%s", native_decls);
  for (size_t m = 0; m < 2 * NATIVE_FNS; m++)
    if (used[m])
      fprintf(d, "\ndefine linkonce_odr float @__wgperf_%s%s(float %%x%s) {\n  %s\n  ret float %%r\n}\n",
              native_prefixes[m / NATIVE_FNS], native_fns[m % NATIVE_FNS].name,
              native_fns[m % NATIVE_FNS].binary ? ", float %y" : "", native_fns[m % NATIVE_FNS].body);
  return fclose(d) == 0 ? changed : -1;
}

/* The first line of LOG that says "error" (else its first line), for a
 * warning that says why ptxas gave no count. */
static void first_error(const char *log, char *out, size_t n) {
  out[0] = '\0';
  FILE *f = fopen(log, "r");
  if (!f)
    return;
  char line[512];
  bool found = false;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (!*out || (!found && strstr(line, "error"))) {
      found = found || strstr(line, "error");
      snprintf(out, n, "%s", line);
    }
    if (found)
      break;
  }
  fclose(f);
}

/* What NVIDIA's compiler reports for one kernel (`ptxas -v`, `nvcc
 * --resource-usage`): registers per thread, the stack frame (local arrays and
 * spill slots), spill stores and loads (bytes of those instructions in the
 * code), static shared memory, and the bytes of its machine code (the cubin's
 * .text.<symbol>), from which the instructions are counted. */
typedef struct kernel_report {
  char symbol[512];
  unsigned regs;
  long stack, spill_stores, spill_loads, smem, code_bytes;
  bool have_regs;
} kernel_report;

/* The kernels of LOG, in its order (*N of them; give: free()).  Lines:
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_86'
 *   ptxas info    : Function properties for NAME
 *       7896 bytes stack frame, 7900 bytes spill stores, 8652 bytes spill loads
 *   ptxas info    : Used 255 registers, used 1 barriers, 27280 bytes smem, 376 bytes cmem[0]
 * Function properties of non-entry functions (.func) are skipped. */
static kernel_report *parse_report(const char *log, size_t *n) {
  *n = 0;
  FILE *f = fopen(log, "r");
  if (!f)
    return NULL;
  kernel_report *r = NULL, *cur = NULL;
  size_t cap = 0;
  char line[1024];
  bool props = false; /* the next line holds the current entry's frame and spills */
  while (fgets(line, sizeof line, f)) {
    char *p = strstr(line, "Compiling entry function '");
    if (p) {
      p += strlen("Compiling entry function '");
      char *q = strchr(p, '\'');
      if (!q || (size_t)(q - p) >= sizeof r->symbol)
        continue;
      if (*n == cap) {
        cap = cap ? 2 * cap : 8;
        kernel_report *t = realloc(r, cap * sizeof *r);
        if (!t)
          break;
        r = t;
      }
      cur = &r[(*n)++];
      memset(cur, 0, sizeof *cur);
      memcpy(cur->symbol, p, (size_t)(q - p));
      props = false;
      continue;
    }
    if ((p = strstr(line, "Function properties for "))) {
      p += strlen("Function properties for ");
      p[strcspn(p, "\r\n")] = '\0';
      props = cur && !cur->have_regs && strcmp(p, cur->symbol) == 0;
      continue;
    }
    if (props) {
      long st = 0, ss = 0, sl = 0;
      if (sscanf(line, " %ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads", &st, &ss, &sl) == 3)
        cur->stack = st, cur->spill_stores = ss, cur->spill_loads = sl;
      props = false;
      continue;
    }
    unsigned regs;
    if (cur && !cur->have_regs && (p = strstr(line, "Used ")) && sscanf(p, "Used %u registers", &regs) == 1) {
      cur->regs = regs;
      cur->have_regs = true;
      char *sm = strstr(p, " bytes smem");
      if (sm) {
        char *b = sm;
        while (b > p && (b[-1] >= '0' && b[-1] <= '9'))
          b--;
        cur->smem = strtol(b, NULL, 10);
      }
    }
  }
  fclose(f);
  return r;
}

/* The size of section NAME of the ELF64 file PATH (a cubin), -1 when it has
 * none or cannot be read.  A cubin is a little-endian ELF64 file; the kernel
 * SYMBOL's machine code is its section .text.SYMBOL. */
static long elf_section_size(const char *path, const char *name) {
  size_t len = 0;
  unsigned char *e = (unsigned char *)read_text(path, &len);
  long size = -1;
#define U16(o) ((unsigned)e[o] | (unsigned)e[(o) + 1] << 8)
#define U32(o) ((uint64_t)U16(o) | (uint64_t)U16((o) + 2) << 16)
#define U64(o) (U32(o) | U32((o) + 4) << 32)
  if (e && len >= 64 && memcmp(e, "\177ELF", 4) == 0 && e[4] == 2 && e[5] == 1) {
    uint64_t shoff = U64(0x28);
    unsigned shentsize = U16(0x3a), shnum = U16(0x3c), shstrndx = U16(0x3e);
    if (shentsize >= 64 && shoff < len && shnum < 65536 && shstrndx < shnum &&
        shoff + (uint64_t)shnum * shentsize <= len) {
      uint64_t str = shoff + (uint64_t)shstrndx * shentsize;
      uint64_t stroff = U64(str + 0x18), strsize = U64(str + 0x20);
      for (unsigned i = 0; i < shnum && stroff < len && strsize <= len - stroff; i++) {
        uint64_t h = shoff + (uint64_t)i * shentsize;
        uint64_t nm = U32(h);
        if (nm >= strsize)
          continue;
        const char *s = (const char *)e + stroff + nm;
        size_t room = (size_t)(strsize - nm);
        if (strnlen(s, room) < room && strcmp(s, name) == 0) {
          size = (long)U64(h + 0x20);
          break;
        }
      }
    }
  }
#undef U64
#undef U32
#undef U16
  free(e);
  return size;
}

/* Adds to every kernel of MODEL that REPORTS (N of them) name an entry of
 * its 'resources' for ARCH (sm_XY), COMPILER ("nvcc" or "ptxas") with
 * SOURCE; when FIRST, also sets its 'registers' (the count predictions used
 * before there was one per architecture, and still read by older readers).
 * An entry for ARCH already there is replaced.  Returns the kernels patched. */
static int patch_model(const char *model, const kernel_report *reports, size_t n, const char *arch,
                       const char *compiler, const char *source, bool first) {
  json_error_t err;
  json_t *root = json_load_file(model, JSON_PRESERVE_ORDER, &err);
  if (!root)
    return 0;
  json_t *kernels = json_object_get(root, "kernels");
  int patched = 0;
  for (size_t r = 0; r < n; r++) {
    if (!reports[r].have_regs)
      continue;
    size_t i;
    json_t *k;
    json_array_foreach(kernels, i, k) {
      const char *sym = json_string_value(json_object_get(k, "symbol"));
      if (!sym || strcmp(sym, reports[r].symbol) != 0)
        continue;
      if (first) {
        json_t *reg = json_object();
        json_object_set_new(reg, "count", json_integer(reports[r].regs));
        json_object_set_new(reg, "source", json_string(source));
        json_object_set_new(k, "registers", reg);
      }
      json_t *e = json_object();
      json_object_set_new(e, "arch", json_string(arch));
      json_object_set_new(e, "compiler", json_string(compiler));
      json_object_set_new(e, "registers", json_integer(reports[r].regs));
      json_object_set_new(e, "stack_bytes", json_integer(reports[r].stack));
      json_object_set_new(e, "spill_store_bytes", json_integer(reports[r].spill_stores));
      json_object_set_new(e, "spill_load_bytes", json_integer(reports[r].spill_loads));
      json_object_set_new(e, "shared_bytes", json_integer(reports[r].smem));
      if (reports[r].code_bytes > 0)
        json_object_set_new(e, "code_bytes", json_integer(reports[r].code_bytes));
      json_object_set_new(e, "source", json_string(source));
      json_t *list = json_object_get(k, "resources");
      if (!json_is_array(list)) {
        list = json_array();
        json_object_set_new(k, "resources", list);
      }
      size_t j;
      json_t *old;
      bool replaced = false;
      json_array_foreach(list, j, old) if (!replaced && json_is_string(json_object_get(old, "arch")) &&
                                           strcmp(json_string_value(json_object_get(old, "arch")), arch) == 0) {
        json_array_set(list, j, e);
        replaced = true;
      }
      if (!replaced)
        json_array_append(list, e);
      json_decref(e);
      patched++;
    }
  }
  if (patched && json_dump_file(root, model, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0)
    patched = 0;
  json_decref(root);
  return patched;
}

bool wgp_record_compile_options(const char *model, const wgp_extract_options *o) {
  if (!o->max_registers && !o->load_cache && !o->store_cache)
    return true;
  json_error_t err;
  json_t *root = json_load_file(model, JSON_PRESERVE_ORDER, &err);
  json_t *kernels = root ? json_object_get(root, "kernels") : NULL;
  bool ok = json_is_array(kernels);
  size_t i;
  json_t *k;
  json_array_foreach(kernels, i, k) {
    json_t *la = json_object_get(k, "launch_attributes");
    if (!json_is_object(la)) {
      la = json_object();
      json_object_set_new(k, "launch_attributes", la);
    }
    ok = ok && la;
    if (ok && o->max_registers)
      ok = json_object_set_new(la, "max_registers_per_thread", json_integer(o->max_registers)) == 0;
    if (ok && o->load_cache)
      ok = json_object_set_new(la, "global_load_cache", json_string(o->load_cache)) == 0;
    if (ok && o->store_cache)
      ok = json_object_set_new(la, "global_store_cache", json_string(o->store_cache)) == 0;
  }
  ok = ok && json_dump_file(root, model, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0;
  json_decref(root);
  return ok;
}

/* Fills each report's code_bytes from the cubin CUBIN. */
static void add_code_bytes(kernel_report *r, size_t n, const char *cubin) {
  for (size_t i = 0; i < n; i++) {
    char sec[600];
    snprintf(sec, sizeof sec, ".text.%s", r[i].symbol);
    r[i].code_bytes = elf_section_size(cubin, sec);
  }
}

/* "CUDA 13.0" from `TOOL --version` (nvcc and ptxas print "release 13.0,"),
 * else "ptxas" / "nvcc".  Asked once per process and tool path (wgtune
 * compiles thousands of codes in one worker; the answer does not change while
 * it runs). */
static void probe_version(const char *tool, const char *dir, char *out, size_t size);
static void tool_version(const char *tool, const char *dir, char *out, size_t size) {
  static struct {
    char tool[PATH_MAX], version[64];
  } seen[2];
  static size_t nseen;
  for (size_t i = 0; i < nseen; i++)
    if (strcmp(seen[i].tool, tool) == 0) {
      snprintf(out, size, "%s", seen[i].version);
      return;
    }
  probe_version(tool, dir, out, size);
  if (strlen(tool) < sizeof seen[0].tool && strncmp(out, "CUDA ", 5) == 0) { /* a failed probe is asked again */
    size_t i = nseen < 2 ? nseen++ : 1;
    snprintf(seen[i].tool, sizeof seen[i].tool, "%s", tool);
    snprintf(seen[i].version, sizeof seen[i].version, "%s", out);
  }
}

static void probe_version(const char *tool, const char *dir, char *out, size_t size) {
  snprintf(out, size, "%s", strstr(tool, "nvcc") ? "nvcc" : "ptxas");
  char vlog[PATH_MAX];
  snprintf(vlog, sizeof vlog, "%s/version", dir);
  int fd = open(vlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    return;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, 1);
    execlp(tool, tool, "--version", (char *)NULL);
    _exit(127);
  }
  close(fd);
  if (pid > 0) {
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
      ;
    FILE *vf = fopen(vlog, "r");
    char l2[256];
    while (vf && fgets(l2, sizeof l2, vf)) {
      char *rel = strstr(l2, "release ");
      if (rel) {
        snprintf(out, size, "CUDA %.*s", (int)strcspn(rel + 8, ","), rel + 8);
        break;
      }
    }
    if (vf)
      fclose(vf);
  }
  unlink(vlog);
}

/* The function ptxas named in LOG as an unresolved extern (into NAME), or
 * false. */
static bool unresolved_extern(const char *log, char *name, size_t size) {
  size_t len = 0;
  char *text = read_text(log, &len);
  const char *key = "Unresolved extern function '";
  char *at = text ? strstr(text, key) : NULL;
  bool found = false;
  if (at) {
    at += strlen(key);
    size_t n = strcspn(at, "'\n");
    if (at[n] == '\'' && n > 0 && n < size) {
      memcpy(name, at, n);
      name[n] = '\0';
      found = true;
    }
  }
  free(text);
  return found;
}

/* Gives the function NAME the PTX file declares but does not define (`.func`
 * or `.extern .func`, ended by ';') a body that returns at once: a call the
 * module does not define (an OpenCL printf, an image read) stays a call, and
 * ptxas counts the registers of every kernel of the file instead of failing
 * on it.  False when there is no such declaration. */
static bool define_extern(const char *ptx, const char *name) {
  size_t len = 0;
  char *text = read_text(ptx, &len);
  if (!text)
    return false;
  bool ok = false;
  size_t nl = strlen(name);
  for (char *at = strstr(text, ".func"); at && !ok; at = strstr(at + 1, ".func")) {
    char *end = at + strcspn(at, ";{");
    if (*end != ';')
      continue; /* a definition */
    /* the declaration names NAME: " NAME" followed by a line end or '(' */
    bool named = false;
    for (char *q = at + 5; q + nl <= end && !named; q++)
      named = (q[-1] == ' ' || q[-1] == '\t') && strncmp(q, name, nl) == 0 &&
              (q[nl] == '\n' || q[nl] == '(' || q[nl] == ' ');
    if (!named)
      continue;
    char *from = at >= text + 8 && strncmp(at - 8, ".extern ", 8) == 0 ? at - 8 : at;
    FILE *o = fopen(ptx, "wb");
    if (!o)
      break;
    fwrite(text, 1, (size_t)(from - text), o);
    fwrite(at, 1, (size_t)(end - at), o);
    fputs("{\n\tret;\n}", o);
    fputs(end + 1, o);
    ok = fclose(o) == 0;
  }
  free(text);
  return ok;
}

/* NVIDIA's OpenCL compiler gives ptxas a kernel's reqd_work_group_size as
 * .reqntid, and ptxas then allocates registers for that many threads; llc
 * 19 leaves OpenCL's !reqd_work_group_size metadata out of the PTX (it reads
 * only nvvm.annotations, where clang puts CUDA's __launch_bounds__ as
 * .maxntid and .minnctapersm).  So every kernel of MODEL with
 * launch_attributes.reqd_work_group_size whose entry in PTX has no .reqntid
 * gets one after its parameter list.  False on a file error. */
static bool add_reqntid(const char *model, const char *ptx) {
  json_error_t err;
  json_t *root = json_load_file(model, 0, &err);
  if (!root)
    return false;
  size_t len = 0;
  char *text = read_text(ptx, &len);
  bool ok = text != NULL, changed = false;
  size_t i;
  json_t *k;
  json_array_foreach(json_object_get(root, "kernels"), i, k) {
    json_t *reqd = json_object_get(json_object_get(k, "launch_attributes"), "reqd_work_group_size");
    const char *sym = json_string_value(json_object_get(k, "symbol"));
    if (!ok || !sym || json_array_size(reqd) != 3)
      continue;
    char entry[600];
    snprintf(entry, sizeof entry, ".entry %s(", sym);
    char *at = strstr(text, entry), *close = at ? strstr(at, "\n)") : NULL, *body = close ? strchr(close, '{') : NULL;
    if (!body)
      continue;
    bool has = false;
    for (char *q = close; q < body && !has; q++)
      has = strncmp(q, ".reqntid", 8) == 0;
    if (has)
      continue;
    char directive[96];
    int dn = snprintf(directive, sizeof directive, "\n.reqntid %lld, %lld, %lld",
                      (long long)json_integer_value(json_array_get(reqd, 0)),
                      (long long)json_integer_value(json_array_get(reqd, 1)),
                      (long long)json_integer_value(json_array_get(reqd, 2)));
    size_t pos = (size_t)(close - text) + 2; /* after "\n)" */
    char *grown = malloc(len + (size_t)dn + 1);
    if (!grown) {
      ok = false;
      continue;
    }
    memcpy(grown, text, pos);
    memcpy(grown + pos, directive, (size_t)dn);
    memcpy(grown + pos + dn, text + pos, len - pos + 1);
    free(text);
    text = grown;
    len += (size_t)dn;
    changed = true;
  }
  if (ok && changed) {
    FILE *o = fopen(ptx, "wb");
    ok = o && fwrite(text, 1, len, o) == len;
    if (o)
      ok = fclose(o) == 0 && ok;
  }
  free(text);
  json_decref(root);
  return ok;
}

bool wgp_static_shared_refused(const char *model, char *kernel, size_t size, unsigned long long *bytes) {
  json_error_t err;
  json_t *root = json_load_file(model, 0, &err);
  bool over = false;
  size_t i, a;
  json_t *k, *arr;
  json_array_foreach(json_object_get(root, "kernels"), i, k) {
    unsigned long long sum = 0;
    json_array_foreach(json_object_get(k, "arrays"), a, arr) {
      const char *space = json_string_value(json_object_get(arr, "space"));
      json_int_t b = json_integer_value(json_object_get(arr, "bytes"));
      if (space && strcmp(space, "local") == 0 && b > 0)
        sum += (unsigned long long)b;
    }
    const char *name = json_string_value(json_object_get(k, "name"));
    if (sum > WGP_PTXAS_STATIC_SHARED_MAX && !over) {
      over = true;
      snprintf(kernel, size, "%s", name ? name : "?");
      *bytes = sum;
    }
  }
  json_decref(root);
  return over;
}

/* sm_XY of ARCH when it is one ("sm_86"), else NULL. */
static bool arch_ok(const char *arch) {
  return arch && strncmp(arch, "sm_", 3) == 0 && strlen(arch) >= 5 && strlen(arch) <= 8 &&
         strspn(arch + 3, "0123456789") >= 2;
}

/* The archs of R ("sm_80" when it names none), at most WGP_MAX_ARCHS. */
static size_t request_archs(const wgp_resource_request *r, const char *out[WGP_MAX_ARCHS]) {
  size_t n = 0;
  for (size_t i = 0; i < r->num_archs && n < WGP_MAX_ARCHS; i++) {
    bool seen = false;
    for (size_t j = 0; j < n; j++)
      seen = seen || strcmp(out[j], r->archs[i]) == 0;
    if (arch_ok(r->archs[i]) && !seen)
      out[n++] = r->archs[i];
  }
  if (!n)
    out[n++] = WGP_DEFAULT_ARCH;
  return n;
}

const char *wgp_find_nvcc(void) {
  static char found[PATH_MAX];
  const char *env = getenv("WGPERF_NVCC");
  if (env)
    return *env ? env : NULL; /* WGPERF_NVCC= (empty) turns nvcc off */
  const char *ptxas = wgp_find_ptxas();
  if (!ptxas)
    return NULL;
  /* the nvcc of ptxas' toolkit, so both speak for one CUDA version */
  char real[PATH_MAX];
  const char *dirs[2] = {ptxas, NULL};
  if (realpath(ptxas, real))
    dirs[1] = real;
  for (int d = 0; d < 2; d++) {
    if (!dirs[d])
      continue;
    const char *slash = strrchr(dirs[d], '/');
    if (!slash)
      continue;
    snprintf(found, sizeof found, "%.*s/nvcc", (int)(slash - dirs[d]), dirs[d]);
    if (access(found, X_OK) == 0)
      return found;
  }
  return NULL;
}

/* Whether nvcc's LOG says it found no host compiler it supports. */
static bool host_compiler_refused(const char *log) {
  size_t len = 0;
  char *text = read_text(log, &len);
  bool refused = text && (strstr(text, "host compiler") || strstr(text, "unsupported GNU version") ||
                          strstr(text, "unsupported clang version"));
  free(text);
  return refused;
}

/* nvcc for the archs of R not yet DONE: `nvcc -ptx` on the CUDA source with
 * the user's -D, -U and -I, as the program would be built, for the oldest of
 * them (PTX assembles for its target and any later one), then ptxas of the
 * same toolkit for each (`nvcc -arch=sm_XY` runs both; the front end, which
 * takes most of the time, once).  Marks the archs it counted; returns how
 * many. */
int wgp_add_nvcc_resources(const wgp_resource_request *r, bool done[WGP_MAX_ARCHS]) {
  const char *nvcc = wgp_find_nvcc(), *ptxas = wgp_find_ptxas();
  const char *archs[WGP_MAX_ARCHS];
  size_t na = request_archs(r, archs);
  if (!nvcc || !ptxas)
    return 0;
  /* the oldest arch not yet done */
  const char *oldest = NULL;
  for (size_t a = 0; a < na; a++)
    if (!done[a] && (!oldest || strtol(archs[a] + 3, NULL, 10) < strtol(oldest + 3, NULL, 10)))
      oldest = archs[a];
  if (!oldest)
    return 0;
  char base[PATH_MAX];
  if (!wgp_temp_template(base, sizeof base, "wgperf-nvcc", "") || !mkdtemp(base))
    return 0;
  char log[PATH_MAX + 16], cubin[PATH_MAX + 16], ptx[PATH_MAX + 16];
  snprintf(log, sizeof log, "%s/log", base);
  snprintf(cubin, sizeof cubin, "%s/k.cubin", base);
  snprintf(ptx, sizeof ptx, "%s/k.ptx", base);
  char version[64];
  tool_version(nvcc, base, version, sizeof version);
  size_t cap = 20 + 2 * r->num_flags;
  char **argv = malloc(cap * sizeof *argv);
  char archflag[32];
  int counted = 0;
  bool ok = argv != NULL;
  if (ok) {
    size_t n = 0;
    snprintf(archflag, sizeof archflag, "-arch=compute_%s", oldest + 3);
    argv[n++] = (char *)nvcc;
    argv[n++] = "-ptx";
    argv[n++] = archflag;
    argv[n++] = "-w";
    argv[n++] = "-o";
    argv[n++] = ptx;
    /* the user's preprocessor flags (-DX=1, -D X=1, -U, -I, -include FILE: nvcc's
     * --pre-include, after its own headers as clang's); clang's own flags stay clang's */
    for (size_t i = 0; i < r->num_flags && i < r->num_preprocessor_flags; i++) {
      const char *f = r->flags[i];
      bool include = strcmp(f, "-include") == 0;
      bool pp = include || (f[0] == '-' && (f[1] == 'D' || f[1] == 'U' || f[1] == 'I'));
      if (!pp)
        continue;
      argv[n++] = (char *)f;
      if ((include || !f[2]) && i + 1 < r->num_flags && i + 1 < r->num_preprocessor_flags)
        argv[n++] = (char *)r->flags[++i];
    }
    /* clang's -ffast-math is what nvcc's -use_fast_math became (wgtune's
     * CompilerOptions, wgperf's flags): nvcc is asked the same */
    for (size_t i = 0; i < r->num_flags; i++)
      if (strcmp(r->flags[i], "-ffast-math") == 0) {
        argv[n++] = "-use_fast_math";
        break;
      }
    argv[n++] = (char *)r->input;
    argv[n] = NULL;
    ok = run_quiet(argv, log);
    if (!ok && host_compiler_refused(log)) {
      /* a toolkit older than the system's compiler (Debian's CUDA 11.8 beside
       * gcc 12): only the device code matters here, which the host compiler
       * merely preprocesses */
      const char *cxx = access("/usr/bin/g++", X_OK) == 0   ? "/usr/bin/g++"
                        : access("/usr/bin/c++", X_OK) == 0 ? "/usr/bin/c++"
                                                            : "g++";
      memmove(argv + 4, argv + 1, n * sizeof *argv);
      argv[1] = "-allow-unsupported-compiler";
      argv[2] = "-ccbin"; /* by its path: the toolkit's own bin/ may hold a g++ that refuses */
      argv[3] = (char *)cxx;
      ok = run_quiet(argv, log);
    }
  }
  for (size_t a = 0; ok && a < na; a++) {
    if (done[a])
      continue;
    char maxr[16];
    snprintf(maxr, sizeof maxr, "%u", r->max_registers);
    char *pargv[] = {(char *)ptxas, "-v", "--gpu-name", (char *)archs[a], ptx, "-o", cubin,
                     r->max_registers ? "-maxrregcount" : NULL, maxr, NULL};
    unlink(cubin);
    if (!run_quiet(pargv, log))
      continue;
    size_t nk = 0;
    kernel_report *rep = parse_report(log, &nk);
    if (rep) {
      add_code_bytes(rep, nk, cubin);
      char src[160];
      snprintf(src, sizeof src, "nvcc (%s, %s)", version, archs[a]);
      if (patch_model(r->model, rep, nk, archs[a], "nvcc", src, a == 0) > 0) {
        done[a] = true;
        counted++;
      }
    }
    free(rep);
  }
  free(argv);
  unlink(log), unlink(cubin), unlink(ptx);
  rmdir(base);
  return counted;
}

int wgp_add_ptxas_registers(const wgp_resource_request *r, bool done[WGP_MAX_ARCHS]) {
  const char *ptxas = wgp_find_ptxas();
  if (!ptxas)
    return 0;
  const char *input = r->input, *bitcode = r->bitcode, *clang = r->clang, *model = r->model;
  bool opencl = r->opencl;
  const char *archs[WGP_MAX_ARCHS];
  size_t na = request_archs(r, archs);
  char base[PATH_MAX];
  if (!wgp_temp_template(base, sizeof base, "wgperf-ptx", "") || !mkdtemp(base))
    return 0;
  char linked[PATH_MAX + 16], ptx[PATH_MAX + 16], log[PATH_MAX + 16], cubin[PATH_MAX + 16];
  snprintf(linked, sizeof linked, "%s/k.bc", base);
  snprintf(ptx, sizeof ptx, "%s/k.ptx", base);
  snprintf(log, sizeof log, "%s/log", base);
  snprintf(cubin, sizeof cubin, "%s/k.cubin", base);
  char *link = sibling(clang, "llvm-link"), *llc = sibling(clang, "llc"), *opt = sibling(clang, "opt");
  char *dis = opencl ? sibling(clang, "llvm-dis") : NULL; /* OpenCL's patches read the textual IR */
  char clean[PATH_MAX + 16];
  snprintf(clean, sizeof clean, "%s/clean.bc", base);
  const char *from = bitcode, *step = "llvm-link";
  int patched = 0;
  bool ok = link && llc && opt;
  char libdevice[PATH_MAX + 64];
  if (ok && opencl && *WGPERF_DEFAULT_LIBCLC != '\0') {
    /* the native_ and half_ functions as NVIDIA's compiler makes them, not libclc's */
    char user[PATH_MAX + 16], native[PATH_MAX + 16], defs[PATH_MAX + 16];
    snprintf(user, sizeof user, "%s/u.ll", base);
    snprintf(native, sizeof native, "%s/n.ll", base);
    snprintf(defs, sizeof defs, "%s/d.ll", base);
    /* (only when the bitcode's symbol names mention one) */
    size_t blen = 0;
    char *bc = read_text(bitcode, &blen);
    bool mentions = bc && (memmem(bc, blen, "native_", 7) || memmem(bc, blen, "half_", 5));
    free(bc);
    char *dargv[] = {dis, (char *)bitcode, "-o", user, NULL};
    int nn = mentions && dis && run_quiet(dargv, log) ? patch_native(user, native, defs) : 0;
    char *argv[] = {link, (char *)bitcode, (char *)WGPERF_DEFAULT_LIBCLC, "-o", linked, NULL};
    char *nargv[] = {link, native, defs, (char *)WGPERF_DEFAULT_LIBCLC, "-o", linked, NULL};
    ok = run_quiet(nn > 0 ? nargv : argv, log);
    from = linked;
    unlink(user), unlink(native), unlink(defs);
  } else if (ok && !opencl && find_libdevice(ptxas, libdevice, sizeof libdevice)) {
    char *argv[] = {link, (char *)bitcode, "--only-needed", libdevice, "-o", linked, NULL};
    ok = run_quiet(argv, log);
    from = linked;
  }
  /* Without debug info (llc 19 crashes on some of it after linking libclc),
   * optimized as a driver would before code generation.  NVIDIA's compilers
   * inline the functions a kernel calls (an OpenCL program is compiled
   * whole; nvcc inlines device functions): clang's default inliner leaves
   * CLBlast's large XgemmBody a call, its accumulators an array in local
   * memory behind a pointer (1032 bytes of stack, 58 registers for sm_86),
   * where inlined they are values (255 registers and 860 bytes of spill
   * stores, ptxas 13.0). */
  if (ok) {
    char *argv[] = {opt, "-strip-debug", "-passes=default<O2>", "-inline-threshold=" WGP_INLINE_THRESHOLD,
                    (char *)from, "-o", clean, NULL};
    step = "opt";
    ok = run_quiet(argv, log);
    from = clean;
  }
  /* OpenCL: libclc's math intrinsics to libdevice calls, where a toolkit has it, and the
   * work-item functions libclc lacks defined */
  char text[PATH_MAX + 16], renamed[PATH_MAX + 16], relinked[PATH_MAX + 16];
  snprintf(text, sizeof text, "%s/k.ll", base);
  snprintf(renamed, sizeof renamed, "%s/r.ll", base);
  snprintf(relinked, sizeof relinked, "%s/r.bc", base);
  if (ok && opencl && dis) {
    bool have_libdevice = find_libdevice(ptxas, libdevice, sizeof libdevice);
    char *argv[] = {dis, (char *)from, "-o", text, NULL};
    step = "llvm-dis";
    ok = run_quiet(argv, log);
    int n = ok ? patch_opencl_ir(text, renamed, have_libdevice) : 0;
    ok = ok && n >= 0;
    if (ok && n > 0) {
      char *largv[] = {link, renamed, "--only-needed", libdevice, "-o", relinked, NULL};
      char *largv_alone[] = {link, renamed, "-o", relinked, NULL};
      char *oargv[] = {opt, "-passes=default<O2>", relinked, "-o", clean, NULL};
      step = "llvm-link";
      ok = run_quiet(have_libdevice ? largv : largv_alone, log);
      step = "opt";
      ok = ok && run_quiet(oargv, log);
    }
  }
  free(dis);
  char version[64] = "ptxas";
  if (ok)
    tool_version(ptxas, base, version, sizeof version);
  /* llc and ptxas per architecture: the PTX names its target, and ptxas
   * assembles PTX only for that target or a later one */
  const char *failed_arch = NULL;
  for (size_t a = 0; ok && a < na; a++) {
    if (done[a])
      continue;
    char mcpu[32];
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", archs[a]);
    char *argv[] = {llc, "-march=nvptx64", mcpu, (char *)from, "-o", ptx, NULL};
    step = "llc";
    bool aok = run_quiet(argv, log);
    if (aok) {
      step = "adding .reqntid to the PTX";
      aok = add_reqntid(model, ptx);
    }
    if (aok) {
      char maxr[16];
      snprintf(maxr, sizeof maxr, "%u", r->max_registers);
      char *pargv[] = {(char *)ptxas, "-v", "--gpu-name", (char *)archs[a], ptx, "-o", cubin,
                       r->max_registers ? "-maxrregcount" : NULL, maxr, NULL};
      step = "ptxas";
      unlink(cubin);
      aok = run_quiet(pargv, log);
      /* a function the module calls but does not define: given an empty body,
       * one at a time as ptxas names them */
      char name[256];
      for (int tries = 0; !aok && tries < 16 && unresolved_extern(log, name, sizeof name) && define_extern(ptx, name);
           tries++)
        aok = run_quiet(pargv, log);
    }
    if (aok) {
      size_t nk = 0;
      kernel_report *rep = parse_report(log, &nk);
      if (rep) {
        add_code_bytes(rep, nk, cubin);
        char src[160];
        /* the count predictions used before there was one per architecture */
        snprintf(src, sizeof src, "ptxas -v (%s, %s)", version, archs[a]);
        int p = patch_model(model, rep, nk, archs[a], "ptxas", src, a == 0);
        if (p > 0) {
          done[a] = true;
          patched = patched > p ? patched : p;
        }
      }
      free(rep);
    } else if (!failed_arch) {
      failed_arch = archs[a];
      char why[512];
      first_error(log, why, sizeof why);
      char warning[WGP_DIAG_SIZE];
      snprintf(warning, sizeof warning, "wgperf: warning: %s: no register count from ptxas for %s (%s failed%s%s)%s",
               input, archs[a], step, *why ? ": " : "", why,
               a == 0 ? "; the IR estimate is used" : "; another architecture's count is used");
      if (r->message)
        r->message(r->message_user, warning);
    }
  }
  char warning[WGP_DIAG_SIZE] = "";
  if (!ok) {
    char why[512];
    first_error(log, why, sizeof why);
    snprintf(warning, sizeof warning,
             "wgperf: warning: %s: no register count from ptxas (%s failed%s%s); the IR estimate is used", input, step,
             *why ? ": " : "", why);
  } else if (!patched && !failed_arch) {
    bool any_left = false;
    for (size_t a = 0; a < na; a++)
      any_left = any_left || !done[a];
    if (any_left)
      snprintf(warning, sizeof warning,
               "wgperf: warning: %s: no register count from ptxas (no kernel in its report); the IR estimate is used",
               input);
  }
  if (*warning && r->message)
    r->message(r->message_user, warning);
  unlink(linked), unlink(clean), unlink(ptx), unlink(log), unlink(cubin);
  unlink(text), unlink(renamed), unlink(relinked);
  rmdir(base);
  free(link);
  free(llc);
  free(opt);
  return patched;
}
