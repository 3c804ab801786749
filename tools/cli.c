/* cli.c - helpers shared by the command-line tools (cli.h): their error
 * messages and exit codes, the options they have in common, and the
 * extraction of a model from a source with the driver's messages printed. */
#define _DEFAULT_SOURCE
#include "cli.h"

#include "files_internal.h"

#include "wgperf/analyze.h"
#include "wgperf/gpu.h"
#include "wgperf/hints.h"
#include "wgperf/model.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "wgperf";
const char *cli_command = "wgperf";

int usage_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: error: ", cli_prog);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n(see '%s --help')\n", cli_command);
  return EXIT_USAGE;
}

int input_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s: error: ", cli_prog);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  return EXIT_INPUT;
}

void cli_print_diag(const char *message) {
  if (strncmp(message, "wgperf: ", 8) == 0)
    fprintf(stderr, "%s: %s\n", cli_prog, message + 8);
  else
    fprintf(stderr, "%s\n", message);
}

void cli_print_message(void *user, const char *message) {
  (void)user;
  cli_print_diag(message);
}

/* The compile of FILE (with INSTANCE: the source wgp_instance_source made
 * from USER_FILE, whose name the error then gives). */
static int extract_one(const char *file, wgp_source_kind kind, const char *olevel, const cli_flags *flags,
                       const char *cache, const char *out, const char *user_file, const char *instance) {
  const char *archs[sizeof flags->arch_text / sizeof flags->arch_text[0]];
  for (size_t i = 0; flags && i < flags->narchs; i++)
    archs[i] = flags->arch_text[i];
  wgp_extract_options o = {.olevel = olevel,
                           .cache_dir = cache,
                           .flags = flags ? flags->v : NULL,
                           .num_flags = flags ? (size_t)flags->n : 0,
                           .message = cli_print_message,
                           .archs = archs,
                           .num_archs = flags ? flags->narchs : 0};
  wgp_diag d;
  if (wgp_extract(file, kind, &o, out, &d) != WGP_OK) {
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "wgperf: error: %s: ", file);
    if (instance && strncmp(d.message, prefix, strlen(prefix)) == 0)
      fprintf(stderr, "%s: error: %s, with kernel '%s' instantiated: %s\n", cli_prog, user_file, instance,
              d.message + strlen(prefix));
    else
      cli_print_diag(d.message);
    return EXIT_INPUT;
  }
  return EXIT_OK;
}

int cli_extract(const char *file, wgp_source_kind kind, const char *olevel, const cli_flags *flags,
                const char *kernel, const char *out) {
  char cache[4096];
  const char *dir = flags && flags->no_cache ? NULL : wgp_model_cache_dir(cache, sizeof cache);
  if (kind != WGP_SOURCE_CUDA || !wgp_is_instance_name(kernel))
    return extract_one(file, kind, olevel, flags, dir, out, NULL, NULL);
  /* a template's instance: compiled from a source that instantiates it, kept
   * beside the model cache (the same request, the same source: its entries
   * hit), else (no cache, or one that cannot be written: no cache, never an
   * error) in a temporary folder */
  char where[4096 + 16], src[4096 + 64];
  wgp_diag d;
  const char *names[1] = {kernel};
  wgp_status st = WGP_ERR_IO;
  if (dir && snprintf(where, sizeof where, "%s/instances", dir) < (int)sizeof where)
    st = wgp_instance_source(file, names, 1, where, src, sizeof src, &d);
  bool made = false;
  if (st == WGP_ERR_IO) {
    if (!wgp_temp_template(where, sizeof where, "wgperf-instances", "") || !mkdtemp(where))
      return input_error("cannot make a temporary folder: %s", strerror(errno));
    made = true;
    st = wgp_instance_source(file, names, 1, where, src, sizeof src, &d);
  }
  int rc = EXIT_OK;
  if (st != WGP_OK) {
    cli_print_diag(d.message);
    rc = EXIT_INPUT;
  } else {
    rc = extract_one(src, kind, olevel, flags, dir, out, file, kernel);
  }
  if (made)
    wgp_remove_tree(where);
  return rc;
}

/* The value of macro NAME (LEN bytes) the flags define last (-DNAME=V,
 * -D NAME=V; -DNAME is 1), NULL when none or an -UNAME came after. */
static const char *macro_value(const cli_flags *flags, const char *name, size_t len) {
  const char *v = NULL;
  for (int i = 0; flags && i < flags->n; i++) {
    const char *f = flags->v[i];
    if (f[0] != '-' || (f[1] != 'D' && f[1] != 'U'))
      continue;
    const char *d = f[2] ? f + 2 : i + 1 < flags->n ? flags->v[++i] : "";
    if (strncmp(d, name, len) != 0 || (d[len] && d[len] != '='))
      continue;
    v = f[1] == 'U' ? NULL : d[len] == '=' ? d + len + 1 : "1";
  }
  return v;
}

static const char *flag_macro(void *user, const char *name, size_t len) { return macro_value(user, name, len); }

const wgp_kernel *cli_find_kernel(const wgp_model *m, const char *kernel, const cli_flags *flags) {
  if (!kernel)
    return wgp_model_num_kernels(m) == 1 ? wgp_model_kernel(m, 0) : NULL;
  const wgp_kernel *k = wgp_model_find_kernel(m, kernel);
  char inst[1024];
  if (!k && wgp_instance_expand(kernel, flag_macro, (void *)flags, inst, sizeof inst))
    k = wgp_model_find_kernel(m, inst);
  return k;
}

int cli_flags_add_gpu(cli_flags *flags, const char *spec) {
  wgp_gpu *g = NULL;
  wgp_diag d;
  if (wgp_gpu_open(spec, &g, &d) != WGP_OK) {
    cli_print_diag(d.message);
    return EXIT_INPUT;
  }
  char arch[16];
  snprintf(arch, sizeof arch, "sm_%u%u", wgp_gpu_cc_major(g), wgp_gpu_cc_minor(g));
  wgp_gpu_free(g);
  for (size_t i = 0; i < flags->narchs; i++)
    if (strcmp(flags->arch_text[i], arch) == 0)
      return EXIT_OK;
  if (flags->narchs < sizeof flags->arch_text / sizeof flags->arch_text[0])
    snprintf(flags->arch_text[flags->narchs++], sizeof flags->arch_text[0], "%s", arch);
  return EXIT_OK;
}

bool cli_olevel_ok(const char *level) { return strlen(level) == 1 && strchr("0123sz", level[0]); }

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int flags_push(cli_flags *f, char *a) {
  if (f->n == f->cap) {
    int cap = f->cap ? 2 * f->cap : 8;
    char **v = realloc(f->v, (size_t)cap * sizeof *v);
    if (!v)
      return -1;
    f->v = v;
    f->cap = cap;
  }
  f->v[f->n++] = a;
  return 0;
}

int cli_source_flag(int argc, char **argv, int i, cli_flags *flags) {
  const char *a = argv[i];
  if (a[0] != '-' || !strchr("DUI", a[1]))
    return 0;
  if (a[2]) /* -DNAME=VALUE */
    return flags_push(flags, argv[i]) ? -1 : 1;
  if (i + 1 == argc || argv[i + 1][0] == '-')
    return -1;
  return flags_push(flags, argv[i]) || flags_push(flags, argv[i + 1]) ? -1 : 2;
}

/* nvcc's options (and NVIDIA OpenCL's -cl-nv-*) as a user copies them from
 * an nvcc line after "--": those clang has an equivalent of become it
 * (wgp_nvcc_clang_equivalent), the others clang has not are left out and
 * named in one note.  VALUE: it takes the next argument (or "=VALUE"). */
typedef struct nvcc_option {
  const char *name;
  bool value;
} nvcc_option;

static const nvcc_option nvcc_options[] = {
    /* fast math (clang would take -use_fast_math as '-u se_fast_math', a
     * linker option, unused), denormals, contraction, division */
    {"-use_fast_math", false},
    {"--use_fast_math", false},
    {"-ftz", true},
    {"--ftz", true},
    {"-fmad", true},
    {"--fmad", true},
    {"-prec-div", true},
    {"--prec-div", true},
    /* the device model's GPU is --gpu's; the host side, debugging and
     * linking do not reach it */
    {"-arch", true},
    {"--gpu-architecture", true},
    {"-code", true},
    {"--gpu-code", true},
    {"-gencode", true},
    {"--generate-code", true},
    {"-lineinfo", false},
    {"--generate-line-info", false},
    {"-G", false},
    {"--device-debug", false},
    {"-Xptxas", true},
    {"--ptxas-options", true},
    {"-Xcompiler", true},
    {"--compiler-options", true},
    {"-ccbin", true},
    {"--compiler-bindir", true},
    {"-rdc", true},
    {"--relocatable-device-code", true},
    {"-dc", false},
    {"--default-stream", true},
    {"-prec-sqrt", true},
    {"--prec-sqrt", true},
    /* what clang's CUDA does without being asked */
    {"--expt-relaxed-constexpr", false},
    {"--expt-extended-lambda", false},
    {"--extended-lambda", false},
    {"-Wno-deprecated-gpu-targets", false},
    {"-cl-nv-verbose", false},
    {"-cl-nv-opt-level", true},
};

int cli_source_flags_rest(int argc, char **argv, int i, cli_flags *flags) {
  char left[512] = "";
  size_t at = 0;
  for (; i < argc; i++) {
    const char *a = argv[i];
    const nvcc_option *o = NULL;
    const char *value = NULL;
    for (size_t q = 0; !o && q < sizeof nvcc_options / sizeof *nvcc_options; q++) {
      size_t n = strlen(nvcc_options[q].name);
      if (strncmp(a, nvcc_options[q].name, n) == 0 && (a[n] == '\0' || (nvcc_options[q].value && a[n] == '=')))
        o = &nvcc_options[q], value = a[n] == '=' ? a + n + 1 : NULL;
    }
    int took = 1;
    if (o && o->value && !value && i + 1 < argc)
      value = argv[i + 1], took = 2;
    /* -Xptxas OPTIONS (a comma-separated list): -maxrregcount=N, -dlcm=OP
     * and -dscm=OP are the driver's own (it records them and ptxas gets
     * them), the rest is left out */
    if (o && value && (strcmp(o->name, "-Xptxas") == 0 || strcmp(o->name, "--ptxas-options") == 0)) {
      /* split in place: the pieces stay in argv, as the other flags do */
      char *save = NULL;
      for (char *p = strtok_r((char *)value, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        if (wgp_driver_option(p, NULL, NULL)) {
          if (flags_push(flags, p))
            return -1;
          flags->after++;
        } else if (at < sizeof left) {
          at += (size_t)snprintf(left + at, sizeof left - at, "%s%s %s", at ? ", " : "", o->name, p);
        }
      }
      i += took - 1;
      continue;
    }
    const char *f[2] = {a, NULL};
    size_t nf = o ? wgp_nvcc_clang_equivalent(o->name, value, f) : 1;
    if (o && !nf && at < sizeof left)
      at += (size_t)snprintf(left + at, sizeof left - at, "%s%s%s%s", at ? ", " : "", argv[i], took == 2 ? " " : "",
                             took == 2 ? argv[i + 1] : "");
    for (size_t q = 0; q < nf; q++)
      if (flags_push(flags, (char *)f[q]))
        return -1;
    flags->after += (int)nf;
    i += took - 1;
  }
  if (at)
    fprintf(stderr, "%s: note: nvcc options left out (clang has none of them, and the model does not follow them): %s\n",
            cli_prog, left);
  return 0;
}

int cli_source_flags_check(const char *input, const cli_flags *flags) {
  if (flags->n > 0 && ends_with(input, ".json"))
    return usage_error("%s: compiler flags ('%s') apply to .cl and .cu sources, not to a kernel model", input,
                       flags->v[0]);
  if (flags->n > flags->after && wgp_source_kind_of(input) == WGP_SOURCE_IR)
    return usage_error("%s: compiler flags ('%s') apply to .cl and .cu sources, not to LLVM IR", input, flags->v[0]);
  return EXIT_OK;
}

bool cli_cache_option(const char *a, cli_flags *flags) {
  if (strcmp(a, "--no-cache") != 0)
    return false;
  flags->no_cache = true;
  return true;
}

int cli_no_kernel(const char *input, const char *name, const wgp_model *m) {
  size_t n = wgp_model_num_kernels(m), instances = name ? wgp_model_template_instances(m, name) : 0;
  if (!name)
    fprintf(stderr, "%s: error: %s: %zu kernels, pick one with --kernel:", cli_prog, input, n);
  else if (instances > 1)
    fprintf(stderr, "%s: error: %s: '%s' is a template with %zu instances, pick one with --kernel:", cli_prog, input,
            name, instances);
  else
    fprintf(stderr, "%s: error: %s: no kernel '%s'; kernels:", cli_prog, input, name);
  for (size_t i = 0; i < n; i++) {
    const char *kn = wgp_kernel_name(wgp_model_kernel(m, i));
    fprintf(stderr, strchr(kn, ' ') ? " '%s'" : " %s", kn);
  }
  fprintf(stderr, "\n");
  return name ? EXIT_INPUT : EXIT_USAGE;
}

int parse_jobs(const char *text, unsigned *jobs) {
  char *end;
  errno = 0;
  unsigned long n = strtoul(text, &end, 10);
  if (!*text || *end || errno || text[0] == '-' || n < 1 || n > WGP_MAX_THREADS)
    return -1;
  *jobs = (unsigned)n;
  return 0;
}

int cli_hint_option(const char *opt, const char *v, cli_hints *h, bool numbered) {
  bool trip = strcmp(opt, "--trip") == 0;
  char prefix = trip ? 'L' : 'B';
  const char *eq = strrchr(v, '=');
  size_t digits = strspn(v + 1, "0123456789");
  /* L<n>= or B<n>= (either letter: wgtune refuses both alike) */
  bool numbered_form = eq && (v[0] == 'L' || v[0] == 'B') && digits > 0 && v + 1 + digits == eq;
  bool is_numbered = numbered_form && v[0] == prefix;
  const char *form = trip ? (numbered ? "L<loop>=COUNT or FILE:LINE=COUNT (LINE=COUNT), e.g. L0=100 or spmv.cu:22=32"
                                      : "FILE:LINE=COUNT or LINE=COUNT, e.g. spmv.cu:22=32")
                          : (numbered ? "B<block>=FRACTION or FILE:LINE=FRACTION (LINE=FRACTION) between 0 and 1, "
                                        "e.g. B3=0.25 or spmv.cu:30=0.25"
                                      : "FILE:LINE=FRACTION or LINE=FRACTION between 0 and 1, e.g. spmv.cu:30=0.25");
  if (!numbered && numbered_form)
    return usage_error("%s '%s': %s takes a source line (%s), not a %s of one code: the configurations are "
                       "different codes, each numbering its own",
                       opt, v, cli_prog, form, trip ? "loop" : "block");
  char *end = NULL;
  errno = 0;
  double x = eq && eq[1] ? strtod(eq + 1, &end) : -1;
  bool ok = end && !*end && !errno && x >= 0 && (trip ? x == floor(x) && x < 1e18 : x <= 1);
  char *at = NULL;
  if (ok && !is_numbered)
    ok = (at = strndup(v, (size_t)(eq - v))) != NULL && wgp_source_at_valid(at);
  if (!ok) {
    free(at);
    return usage_error("%s '%s': expected %s", opt, v, form);
  }
  size_t *n = is_numbered ? (trip ? &h->ntrip : &h->ntaken) : (trip ? &h->ntrip_at : &h->ntaken_at);
  if (*n == (is_numbered ? CLI_MAX_HINTS : WGP_TUNE_MAX_HINTS)) {
    free(at);
    return usage_error("%s '%s': at most %d of them", opt, v, is_numbered ? CLI_MAX_HINTS : WGP_TUNE_MAX_HINTS);
  }
  size_t index = is_numbered ? (size_t)strtoull(v + 1, NULL, 10) : 0;
  if (is_numbered && trip)
    h->trip_loop[*n] = index, h->trip[(*n)++] = (uint64_t)x;
  else if (is_numbered)
    h->taken_block[*n] = index, h->taken[(*n)++] = x;
  else if (trip)
    h->trip_at[*n] = at, h->trip_at_count[(*n)++] = (uint64_t)x;
  else
    h->taken_at[*n] = at, h->taken_at_share[(*n)++] = x;
  return EXIT_OK;
}

wgp_source_hints cli_source_hints(const cli_hints *h) {
  return (wgp_source_hints){(const char *const *)h->trip_at, h->trip_at_count, h->ntrip_at,
                            (const char *const *)h->taken_at, h->taken_at_share, h->ntaken_at};
}

int cli_hints_resolve(cli_hints *h, const wgp_kernel *k) {
  for (size_t i = 0; i < h->ntrip; i++)
    if (h->trip_loop[i] >= wgp_kernel_num_loops(k))
      return usage_error("--trip L%zu: kernel '%s' has %zu loops", h->trip_loop[i], wgp_kernel_name(k),
                         wgp_kernel_num_loops(k));
  for (size_t i = 0; i < h->ntaken; i++)
    if (h->taken_block[i] >= wgp_kernel_num_blocks(k) || !wgp_block_branch(wgp_kernel_block(k, h->taken_block[i])))
      return usage_error("--taken B%zu: not a block of '%s' that ends in a branch", h->taken_block[i],
                         wgp_kernel_name(k));
  wgp_source_hints sh = cli_source_hints(h);
  uint64_t matched = wgp_source_hints_bind(k, &sh, CLI_MAX_HINTS, h->trip_loop, h->trip, &h->ntrip, h->taken_block,
                                           h->taken, &h->ntaken);
  for (size_t i = 0; i < h->ntrip_at; i++)
    if (!(matched >> i & 1))
      return usage_error("--trip %s: kernel '%s' has no loop at that line whose count needs a hint (one of loaded "
                         "values, or not computed)",
                         h->trip_at[i], wgp_kernel_name(k));
  for (size_t i = 0; i < h->ntaken_at; i++)
    if (!(matched >> (32 + i) & 1))
      return usage_error("--taken %s: kernel '%s' has no branch at that line (other than a loop's own condition)",
                         h->taken_at[i], wgp_kernel_name(k));
  h->ntrip_at = h->ntaken_at = 0; /* resolved once; the strings stay for cli_hints_free */
  return EXIT_OK;
}

void cli_hints_free(cli_hints *h) {
  for (size_t i = 0; i < WGP_TUNE_MAX_HINTS; i++) {
    free(h->trip_at[i]);
    free(h->taken_at[i]);
    h->trip_at[i] = h->taken_at[i] = NULL;
  }
}

static bool tune_takes_value(const char *a, bool short_jobs) {
  static const char *const with[] = {"--space", "--kernel", "--gpu",       "--cache", "--jobs",
                                     "--sample", "--seed",  "--registers", "--trip",  "--taken"};
  for (size_t k = 0; k < sizeof with / sizeof *with; k++)
    if (strcmp(a, with[k]) == 0)
      return true;
  return short_jobs && strcmp(a, "-j") == 0;
}

bool cli_tune_option(int argc, char **argv, int *i, cli_tune_options *t, int *rc) {
  const char *a = argv[*i];
  int took;
  *rc = EXIT_OK;
  if ((took = cli_source_flag(argc, argv, *i, &t->flags)) != 0) {
    if (took < 0)
      *rc = usage_error("'%s' needs a value (-DNAME[=VALUE], -UNAME or -IDIR)", a);
    else
      *i += took - 1;
    return true;
  }
  if (!tune_takes_value(a, t->short_jobs))
    return false;
  if (*i + 1 == argc) {
    *rc = usage_error("'%s' needs a value", a);
    return true;
  }
  const char *v = argv[++*i];
  const char **text = strcmp(a, "--space") == 0    ? &t->space
                      : strcmp(a, "--kernel") == 0 ? &t->kernel
                      : strcmp(a, "--gpu") == 0    ? &t->gpu
                      : strcmp(a, "--cache") == 0  ? &t->cache
                                                   : NULL;
  if (text) {
    *text = v;
  } else if (strcmp(a, "--registers") == 0) {
    t->registers = v;
    if (strcmp(v, "ptxas") != 0 && strcmp(v, "estimate") != 0)
      *rc = usage_error("--registers '%s': expected ptxas or estimate", v);
  } else if (strcmp(a, "--trip") == 0 || strcmp(a, "--taken") == 0) {
    *rc = cli_hint_option(a, v, &t->hints, false);
  } else if (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
    if (parse_jobs(v, &t->jobs))
      *rc = usage_error("%s '%s': expected a number of worker processes, 1 to %u", a, v, WGP_MAX_THREADS);
  } else { /* --sample, --seed */
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    bool sample = strcmp(a, "--sample") == 0;
    if (!*v || *end || v[0] == '-' || errno || (sample && x == 0))
      *rc = usage_error("%s '%s': expected a %s", a, v, sample ? "number of configurations, at least 1" : "number");
    else if (sample)
      t->sample = (size_t)x;
    else
      t->seed = x;
  }
  return true;
}

int cli_tune_options_alloc(cli_tune_options *t, int argc) {
  t->files = calloc((size_t)argc, sizeof *t->files);
  t->nfiles = 0;
  return t->files ? EXIT_OK : input_error("out of memory");
}

void cli_tune_options_free(cli_tune_options *t) {
  cli_hints_free(&t->hints);
  free(t->files);
  free(t->flags.v);
}

wgp_tune_options cli_tune_run_options(const cli_tune_options *t) {
  if (strcmp(t->registers, "estimate") == 0)
    setenv("WGPERF_PTXAS", "", 1);
  return (wgp_tune_options){.kernel_files = t->files,
                            .num_kernel_files = t->nfiles,
                            .kernel = t->kernel,
                            .flags = t->flags.v,
                            .num_flags = (size_t)t->flags.n,
                            .cache_dir = t->cache,
                            .jobs = t->jobs,
                            .sample = t->sample,
                            .seed = t->seed,
                            .hints = cli_source_hints(&t->hints),
                            .message = cli_print_message};
}
