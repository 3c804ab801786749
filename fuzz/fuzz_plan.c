/* fuzz_plan.c - the measurement-plan reader of the timing harnesses
 * (tools/plan_file.c: wgperf-measure --plan and measure-plan-cuda read what
 * wgtune --plan writes) on any bytes.
 *
 * Input: a plan file.  A plan that parses is checked for what the harnesses
 * rely on: the declared number of configurations, each with a value for every
 * parameter (none empty or holding a comma, the cache file's key separator),
 * positive grid and block extents, a byte count for every argument (none 0
 * but a scalar's); each argument's type is read (plan_element), its value
 * made into a scalar (plan_scalar) or a few elements filled (plan_fill), and
 * a compiler's log made one line (plan_one_line), as the harnesses do, and
 * each of the first configurations' kernel text made as Kernel Tuner makes it
 * (kt_source, common/kt_source.c): its prefix, `#line 1`, then the kernel with
 * the `#pragma unroll` of CUDA's loop_unroll_factor parameters at 0 taken out.
 * Messages are off (plan_parse with no prefix): a plan error is a return
 * value, never a crash.
 */
#include "fuzz.h"

#include "kt_source_internal.h"
#include "plan_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  plan p;
  if (plan_parse(NULL, "fuzz-plan.tsv", text, size, &p) != 0) {
    plan_free(&p);
    return 0;
  }
  if (p.ncfgs != p.declared || !p.kernel || !p.language || p.nfiles == 0)
    fuzz_fail("a plan of %zu configurations (%zu declared) parsed without its kernel, language or files", p.ncfgs,
              p.declared);
  for (size_t i = 0; i < p.ncfgs; i++) {
    const plan_cfg *c = &p.cfgs[i];
    for (int d = 0; d < 3; d++)
      if (c->grid[d] == 0 || c->block[d] == 0)
        fuzz_fail("configuration %zu: grid %zu or block %zu in dimension %d", i, c->grid[d], c->block[d], d);
    for (size_t k = 0; k < p.nparams; k++)
      if (!c->values[k][0] || strchr(c->values[k], ',') || strchr(c->values[k], '\t'))
        fuzz_fail("configuration %zu: value '%s' of %s", i, c->values[k], p.pname[k]);
    for (size_t a = 0; a < p.nargs; a++)
      if (strcmp(p.args[a].kind, "scalar") && c->bytes[a] == 0)
        fuzz_fail("configuration %zu: argument %zu has no bytes", i, a);
  }
  for (size_t a = 0; a < p.nargs; a++) {
    const plan_arg *g = &p.args[a];
    size_t eb = 0;
    const char *e = plan_element(g->type, &eb);
    if (e && (eb == 0 || eb > 8))
      fuzz_fail("type '%s': %zu bytes an element", g->type, eb);
    unsigned char buf[64], scal[8];
    char why[256];
    size_t sz = 0;
    if (!strcmp(g->kind, "scalar")) {
      if (plan_scalar(g, scal, &sz, why, sizeof why) == 0 && (sz == 0 || sz > 8))
        fuzz_fail("scalar '%s' of type '%s' made %zu bytes", g->name, g->type, sz);
    } else {
      size_t n = p.ncfgs && p.cfgs[0].bytes[a] < sizeof buf ? (size_t)p.cfgs[0].bytes[a] : sizeof buf;
      plan_fill(buf, n, g, 1 + a);
    }
  }
  /* the kernel text of the first configurations: a pragma for every parameter */
  size_t klen = 64;
  for (size_t k = 0; k < p.nparams; k++)
    klen += strlen(p.pname[k]) + 24;
  char *kernel = malloc(klen);
  bool cuda = !strcmp(p.language, "cuda");
  for (size_t i = 0; kernel && i < p.ncfgs && i < 4; i++) {
    size_t kl = (size_t)snprintf(kernel, klen, "__kernel void k() {}\n");
    for (size_t k = 0; k < p.nparams; k++)
      kl += (size_t)snprintf(kernel + kl, klen - kl, "  #pragma unroll %s\n", p.pname[k]);
    const plan_cfg *c = &p.cfgs[i];
    char *src = kt_source(kernel, p.pname, (const char *const *)c->values, p.nparams, c->grid, c->block, cuda);
    if (!src)
      continue; /* out of memory */
    const char *body = strstr(src, "#define kernel_tuner 1\n#line 1\n");
    if (!body || strncmp(body + 31, "__kernel void k() {}\n", 21) != 0)
      fuzz_fail("configuration %zu: the kernel does not follow the prefix", i);
    for (size_t k = 0; k < p.nparams; k++) {
      char pragma[512];
      snprintf(pragma, sizeof pragma, "  #pragma unroll %s\n", p.pname[k]);
      bool gone = kt_unroll_param(p.pname[k], cuda) && !strcmp(c->values[k], "0");
      if (strlen(p.pname[k]) < 400 && (strstr(body, pragma) != NULL) == gone)
        fuzz_fail("configuration %zu: the pragma of %s=%s %s", i, p.pname[k], c->values[k],
                  gone ? "was kept" : "was taken out");
    }
    free(src);
  }
  free(kernel);
  char line[] = "ptxas error   : Entry function 'k'\n uses too much\tshared data \n";
  plan_one_line(line);
  if (strchr(line, '\n') || strchr(line, '\t') || line[strlen(line) - 1] == ' ')
    fuzz_fail("plan_one_line left a break or a trailing blank: '%s'", line);
  plan_free(&p);
  return 0;
}
