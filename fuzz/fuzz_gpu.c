/* fuzz_gpu.c - the GPU description loader (sim/gpu.c) on any bytes.
 *
 * Input: a GPU description file.  A description that loads is read through
 * every accessor and then used: the occupancy of a few block shapes and an
 * analyze + predict of the probe model's kernels on a small launch, so that
 * a description the validator accepts cannot crash or hang the simulator.
 */
#include "fuzz.h"

#include "wgperf/occupancy.h"

#include <stdlib.h>

static void walk(const wgp_gpu *g) {
  volatile double sink = 0;
  sink += wgp_gpu_cc_major(g) + wgp_gpu_cc_minor(g) + wgp_gpu_architecture(g) + wgp_gpu_coalescing(g);
  for (int c = 0; c < WGP_OP_COUNT; c++)
    sink += wgp_gpu_op_latency_cycles(g, (wgp_op_class)c) + wgp_gpu_op_throughput_per_cycle(g, (wgp_op_class)c);
  sink += wgp_gpu_source(g, "chip.warp_size") != NULL;
  sink += wgp_gpu_sm_count(g) + wgp_gpu_core_clock_mhz(g) + wgp_gpu_warp_size(g) + wgp_gpu_schedulers_per_sm(g);
  sink += wgp_gpu_max_threads_per_block(g) + wgp_gpu_max_warps_per_sm(g) + wgp_gpu_max_blocks_per_sm(g);
  sink += wgp_gpu_registers_per_sm(g) + wgp_gpu_shared_per_sm_bytes(g) + wgp_gpu_l1_bytes(g) + wgp_gpu_l2_bytes(g);
  (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wgp_gpu *g;
  wgp_diag d;
  wgp_status st = wgp_gpu_load_string((const char *)data, size, "fuzz-gpu.json", &g, &d);
  fuzz_check_diag(st, &d, "fuzz-gpu.json", "wgp_gpu_load_string");
  if (st != WGP_OK)
    return 0;
  walk(g);
  static const unsigned threads[] = {1, 32, 96, 256, 1024};
  for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
    wgp_occupancy_request req = {threads[i], 32, 4096, 0};
    wgp_occupancy occ;
    st = wgp_occupancy_compute(g, &req, &occ, &d);
    fuzz_check_diag(st, &d, "", "wgp_occupancy_compute");
  }
  /* analyze + predict every probe kernel on a small launch */
  const wgp_model *m = fuzz_probe_model();
  wgp_launch *l = wgp_launch_new();
  if (!l)
    abort();
  static const char *opts[][2] = {{"--global", "4096"}, {"--local", "128"}, {"--arg", "n=8"},
                                  {"--local-mem", "scratch=512"}};
  for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
    if (wgp_launch_set_option(l, opts[i][0], opts[i][1], &d) != WGP_OK)
      abort();
  for (size_t i = 0; i < wgp_model_num_kernels(m); i++)
    (void)fuzz_estimate(l, wgp_model_kernel(m, i), g, NULL, "", true);
  wgp_launch_free(l);
  wgp_gpu_free(g);
  return 0;
}
