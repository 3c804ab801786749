/* cli.c - helpers shared by the command-line tools (cli.h): their error
 * messages and exit codes, the options they have in common, and the
 * extraction of a model from a source with the driver's messages printed. */
#include "cli.h"

#include "wgperf/analyze.h"
#include "wgperf/gpu.h"
#include "wgperf/model.h"

#include <errno.h>
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

static void print_message(void *user, const char *message) {
  (void)user;
  cli_print_diag(message);
}

int cli_extract(const char *file, wgp_source_kind kind, const char *olevel, const cli_flags *flags, const char *out) {
  const char *archs[sizeof flags->arch_text / sizeof flags->arch_text[0]];
  for (size_t i = 0; flags && i < flags->narchs; i++)
    archs[i] = flags->arch_text[i];
  wgp_extract_options o = {.olevel = olevel,
                           .flags = flags ? flags->v : NULL,
                           .num_flags = flags ? (size_t)flags->n : 0,
                           .message = print_message,
                           .archs = archs,
                           .num_archs = flags ? flags->narchs : 0};
  wgp_diag d;
  if (wgp_extract(file, kind, &o, out, &d) != WGP_OK) {
    cli_print_diag(d.message);
    return EXIT_INPUT;
  }
  return EXIT_OK;
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

int cli_source_flags_rest(int argc, char **argv, int i, cli_flags *flags) {
  for (; i < argc; i++, flags->after++)
    if (flags_push(flags, argv[i]))
      return -1;
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

int parse_hint(const char *text, char prefix, size_t *index, double *value) {
  if (text[0] != prefix)
    return -1;
  char *end;
  errno = 0;
  unsigned long long i = strtoull(text + 1, &end, 10);
  if (errno || end == text + 1 || *end != '=')
    return -1;
  char *end2;
  double v = strtod(end + 1, &end2);
  if (end2 == end + 1 || *end2)
    return -1;
  *index = (size_t)i;
  *value = v;
  return 0;
}
