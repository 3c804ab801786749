/* plan.c - a tuning space's measurement plan: what a harness on a GPU needs
 * to compile, launch and time each configuration, without a T1 reader.
 *
 * A GPU machine lent for measuring has a compiler and a driver, not this
 * project's libraries (no LLVM, no jansson: microbench/opencl/run-device.sh
 * builds wgperf-measure on its own there).  wgtune --plan evaluates the space
 * here, with the same sample, seed and shard as a ranking, and writes one
 * line per configuration: its #define values, grid, block and buffer sizes.
 * wgperf-measure --plan reads it on the GPU and writes a Kernel Tuner cache
 * file, which wgperf-validate --kernel-tuner compares with the ranking.
 *
 * The format (tab-separated fields, '#' comments; docs/cli/wgperf-measure.md,
 * "Plans"):
 *
 *   wgperf-plan  1
 *   space        FILE                      the T1 file (for the record)
 *   benchmark    NAME                      General.BenchmarkName
 *   kernel       NAME                      the kernel to launch
 *   language     cuda | opencl
 *   file         PATH                      each source file, in order (absolute)
 *   flag         OPTION                    each compiler option, in order
 *   param        NAME  VALUE...            each tuning parameter and its values
 *   arg          NAME  KIND  TYPE  FILL  VALUE   each kernel argument, in order:
 *                KIND buffer|constant|scalar|local (constant: a buffer that a
 *                CUDA kernel's __constant__ array of the same name also gets,
 *                Kernel Tuner's MemType Constant), FILL random|constant
 *   configurations  N  TOTAL               N of the space's TOTAL follow
 *   config       INDEX  GX,GY,GZ  BX,BY,BZ  SHARED  BYTES,...  VALUE...
 *                the configuration's index in the space, its grid (blocks),
 *                block, dynamic shared memory, each argument's bytes (0 for
 *                a scalar) and each parameter's value (the #define's text)
 */
#define _GNU_SOURCE /* realpath */
#include "wgperf/tune.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A field may hold no tab or line break: the plan's separators. */
static bool plain(const char *s) { return s && !strpbrk(s, "\t\r\n"); }

static const char *kind_word(const wgp_tune_arg *a) {
  return a->kind == WGP_TUNE_ARG_BUFFER ? (a->constant ? "constant" : "buffer")
         : a->kind == WGP_TUNE_ARG_SCALAR ? "scalar"
                                          : "local";
}

/* An argument whose data a plan's harnesses cannot make: they fill a buffer
 * themselves, by its named type, with random values or one value. */
static wgp_status unfillable(wgp_diag *diag, const wgp_tune_space *s, const wgp_tune_arg *g) {
  char what[64];
  if (g->fill_from)
    snprintf(what, sizeof what, "FillType %s (data from elsewhere)", g->fill_from);
  else
    snprintf(what, sizeof what, "Type %s", g->type);
  return wgp_diag_set(diag, WGP_ERR_INPUT,
                      "wgperf: error: %s: argument '%s': %s: a plan's harnesses fill buffers only with Random or "
                      "Constant values of a named type (float, int32, ...); wgtune ranks the space without a plan",
                      wgp_tune_space_name(s), g->name, what);
}

static wgp_status bad_text(wgp_diag *diag, const wgp_tune_space *s, const char *what, const char *text) {
  return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: %s '%s' holds a tab or a line break, which a plan cannot",
                      wgp_tune_space_name(s), what, text ? text : "");
}

wgp_status wgp_tune_write_plan(const wgp_tune_space *s, const wgp_tune_options *o, FILE *out, const char *name,
                               size_t *written, wgp_diag *diag) {
  *written = 0;
  const char *kernel = o->kernel ? o->kernel : wgp_tune_space_kernel_name(s);
  if (!kernel)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: no KernelName (give --kernel)", wgp_tune_space_name(s));
  if (o->shards && (o->shard < 1 || o->shard > o->shards))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: shard %u of %u does not exist", o->shard, o->shards);
  size_t nfiles = o->num_kernel_files ? o->num_kernel_files : wgp_tune_space_num_kernel_files(s);
  if (nfiles == 0)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: no kernel file (give one, or KernelFile in the space)",
                        wgp_tune_space_name(s));
  size_t np = wgp_tune_space_num_params(s);
  if (!plain(kernel))
    return bad_text(diag, s, "the kernel name", kernel);
  for (size_t p = 0; p < np; p++) {
    if (!plain(wgp_tune_space_param(s, p)))
      return bad_text(diag, s, "parameter", wgp_tune_space_param(s, p));
    for (size_t v = 0; v < wgp_tune_space_num_values(s, p); v++)
      if (!plain(wgp_tune_space_value(s, p, v)->text))
        return bad_text(diag, s, "a value of", wgp_tune_space_param(s, p));
  }
  if (wgp_tune_space_num_symbols(s) > 0)
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: %s: argument '%s': MemoryType Symbol (a global the host sets by name): a plan's "
                        "harnesses set kernel arguments (and Kernel Tuner's MemType Constant buffers) only; wgtune "
                        "ranks the space without a plan",
                        wgp_tune_space_name(s), wgp_tune_space_symbol(s, 0));
  uint16_t *idx = NULL;
  size_t total = 0, *at = NULL, n = 0;
  uint64_t raw = 0;
  wgp_status st = wgp_tune_space_enumerate(s, &idx, &total, &raw, diag);
  if (st != WGP_OK)
    return st;
  if (!wgp_tune_pick(total, o, &at, &n)) {
    free(idx);
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  }
  fprintf(out, "# wgperf measurement plan (wgtune --plan): wgperf-measure --plan FILE times these configurations\n");
  fprintf(out, "wgperf-plan\t1\nspace\t%s\nbenchmark\t%s\nkernel\t%s\nlanguage\t%s\n", wgp_tune_space_name(s),
          wgp_tune_space_benchmark(s) ? wgp_tune_space_benchmark(s) : kernel, kernel,
          wgp_tune_space_language(s) == WGP_SOURCE_CUDA ? "cuda" : "opencl");
  for (size_t i = 0; i < nfiles && st == WGP_OK; i++) {
    const char *f = o->num_kernel_files ? o->kernel_files[i] : wgp_tune_space_kernel_file(s, i);
    char *abs = realpath(f, NULL);
    if (!abs)
      st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: %s", f, strerror(errno));
    else if (!plain(abs))
      st = bad_text(diag, s, "the kernel file", abs);
    else
      fprintf(out, "file\t%s\n", abs);
    free(abs);
  }
  /* the compiler options: those clang takes, those only nvcc or NVRTC take, the caller's */
  for (size_t i = 0; i < wgp_tune_space_num_compiler_flags(s) && st == WGP_OK; i++)
    fprintf(out, "flag\t%s\n", wgp_tune_space_compiler_flag(s, i));
  for (size_t i = 0; i < wgp_tune_space_num_ignored_options(s) && st == WGP_OK; i++)
    fprintf(out, "flag\t%s\n", wgp_tune_space_ignored_option(s, i));
  for (size_t i = 0; i < wgp_tune_space_num_translated_options(s) && st == WGP_OK; i++)
    fprintf(out, "flag\t%s\n", wgp_tune_space_translated_option(s, i));
  for (size_t i = 0; i < o->num_flags && st == WGP_OK; i++) {
    if (!plain(o->flags[i]))
      st = bad_text(diag, s, "the flag", o->flags[i]);
    else
      fprintf(out, "flag\t%s\n", o->flags[i]);
  }
  for (size_t p = 0; p < np && st == WGP_OK; p++) {
    fprintf(out, "param\t%s", wgp_tune_space_param(s, p));
    for (size_t v = 0; v < wgp_tune_space_num_values(s, p); v++)
      fprintf(out, "\t%s", wgp_tune_space_value(s, p, v)->text);
    fputc('\n', out);
  }
  wgp_tune_launch l;
  for (size_t i = 0; i < n && st == WGP_OK; i++) {
    const uint16_t *v = idx + at[i] * np;
    if ((st = wgp_tune_space_launch(s, v, &l, diag)) != WGP_OK)
      break;
    if (i == 0) {
      for (size_t a = 0; a < l.num_args && st == WGP_OK; a++) {
        const wgp_tune_arg *g = &l.args[a];
        if (!plain(g->name) || !plain(g->type))
          st = bad_text(diag, s, "the argument", g->name);
        else if (g->fill_from || strcasecmp(g->type, "custom") == 0)
          st = unfillable(diag, s, g);
        else
          fprintf(out, "arg\t%s\t%s\t%s\t%s\t%.17g\n", *g->name ? g->name : "-", kind_word(g),
                  *g->type ? g->type : "-", g->random ? "random" : "constant", g->value);
      }
      fprintf(out, "configurations\t%zu\t%zu\n", n, total);
    }
    if (st != WGP_OK)
      break;
    fprintf(out, "config\t%zu\t%llu,%llu,%llu\t%llu,%llu,%llu\t%llu\t", at[i], (unsigned long long)l.grid[0],
            (unsigned long long)l.grid[1], (unsigned long long)l.grid[2], (unsigned long long)l.block[0],
            (unsigned long long)l.block[1], (unsigned long long)l.block[2], (unsigned long long)l.shared_bytes);
    for (size_t a = 0; a < l.num_args; a++)
      fprintf(out, "%s%llu", a ? "," : "", (unsigned long long)(l.args[a].kind == WGP_TUNE_ARG_SCALAR ? 0 : l.args[a].bytes));
    if (l.num_args == 0)
      fputc('-', out);
    for (size_t p = 0; p < np; p++)
      fprintf(out, "\t%s", wgp_tune_space_value(s, p, v[p])->text);
    fputc('\n', out);
    (*written)++;
  }
  if (st == WGP_OK && n == 0)
    fprintf(out, "configurations\t0\t%zu\n", total);
  if (st == WGP_OK && (fflush(out) != 0 || ferror(out)))
    st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot write: %s", name, strerror(errno));
  free(at);
  free(idx);
  return st;
}
