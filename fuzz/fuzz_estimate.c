/* fuzz_estimate.c - analyze + predict end to end on a fuzzed kernel model
 * and launch: the model loader, launch binding, tracer, warp classes, memory
 * rules, cache simulation, occupancy and pipeline simulation together.
 *
 * Input, line by line:
 *   [# options]  optional: gpu=NAME regs=N trip=L<n>:COUNT taken=B<n>:FRACTION
 *                (NAME one of those fuzz_gpu knows; at most 8 hints each)
 *   LAUNCH       a launch in its JSON form, on one line
 *   MODEL...     a kernel model (the rest); its first kernel is launched
 * This is what `wgperf analyze` and `wgperf predict` do with a model file,
 * a --launch file and --gpu/--regs/--trip/--taken.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

static void parse_options(char *line, const char **gpu, fuzz_hints *h) {
  for (char *w = strtok(line + 1, " "); w; w = strtok(NULL, " ")) {
    char *end;
    if (strncmp(w, "gpu=", 4) == 0) {
      *gpu = w + 4;
    } else if (strncmp(w, "regs=", 5) == 0) {
      unsigned long r = strtoul(w + 5, &end, 10);
      if (!*end && r >= 1 && r <= 1024) /* what --regs accepts */
        h->regs = (unsigned)r;
    } else if (strncmp(w, "trip=L", 6) == 0 && h->ntrip < 8) {
      unsigned long long loop = strtoull(w + 6, &end, 10);
      if (*end != ':')
        continue;
      double count = strtod(end + 1, &end);
      if (*end || !(count >= 0) || count > 1.8e19) /* --trip takes a non-negative count */
        continue;
      h->trip_loop[h->ntrip] = (size_t)loop;
      h->trip[h->ntrip++] = (uint64_t)count;
    } else if (strncmp(w, "taken=B", 7) == 0 && h->ntaken < 8) {
      unsigned long long blk = strtoull(w + 7, &end, 10);
      if (*end != ':')
        continue;
      double f = strtod(end + 1, &end);
      if (*end || !(f >= 0 && f <= 1))
        continue;
      h->taken_block[h->ntaken] = (size_t)blk;
      h->taken[h->ntaken++] = f;
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  char *p = text;
  const char *gpu_name = "h100-sxm";
  fuzz_hints h;
  memset(&h, 0, sizeof h);
  char *opts = NULL;
  if (*p == '#') {
    char *nl = strchr(p, '\n');
    if (!nl)
      goto done;
    *nl = 0;
    opts = p;
    p = nl + 1;
  }
  char *nl = strchr(p, '\n');
  if (!nl)
    goto done;
  *nl = 0;
  char *launch_text = p, *model_text = nl + 1;
  if (opts)
    parse_options(opts, &gpu_name, &h);
  const wgp_gpu *gpu = fuzz_gpu(gpu_name);
  if (!gpu)
    goto done;
  wgp_launch *l;
  wgp_diag d;
  wgp_status st = wgp_launch_load_string(launch_text, "launch.json", &l, &d);
  fuzz_check_diag(st, &d, "launch.json", "wgp_launch_load_string");
  if (st != WGP_OK)
    goto done;
  wgp_model *m;
  st = wgp_model_load_string(model_text, strlen(model_text), "model.json", &m, &d);
  fuzz_check_diag(st, &d, "model.json", "wgp_model_load_string");
  if (st == WGP_OK) {
    if (wgp_model_num_kernels(m) > 0)
      (void)fuzz_estimate(l, wgp_model_kernel(m, 0), gpu, &h, "", true);
    wgp_model_free(m);
  }
  wgp_launch_free(l);
done:
  free(text);
  return 0;
}
