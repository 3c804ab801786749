/* test_occupancy.c - seeds/004 eq. 1-7 against cases worked by hand from
 * NVIDIA's occupancy rules (CUDA Occupancy Calculator), one GPU per
 * architecture.  Each case writes its arithmetic: W = warps per block, then
 * the block limits by warps, groups (blocks), registers and shared memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wgperf/gpu.h"
#include "wgperf/occupancy.h"

static wgp_gpu *load(const char *name) {
  wgp_gpu *g = NULL;
  wgp_diag d;
  setenv("WGPERF_GPU_DIR", WGPERF_SOURCE_DIR "/gpus", 1);
  if (wgp_gpu_load_builtin(name, &g, &d) != WGP_OK)
    fail_msg("cannot load %s: %s", name, d.message);
  return g;
}

static void expect(const char *gpu, unsigned threads, unsigned regs, unsigned long static_smem,
                   unsigned long dynamic_smem, unsigned blocks, unsigned warps, double occ, wgp_limiter limiter) {
  wgp_gpu *g = load(gpu);
  wgp_occupancy_request r = {threads, regs, static_smem, dynamic_smem};
  wgp_occupancy o;
  wgp_diag d;
  if (wgp_occupancy_compute(g, &r, &o, &d) != WGP_OK)
    fail_msg("%s %u threads %u regs: %s", gpu, threads, regs, d.message);
  if (o.active_blocks_per_sm != blocks || o.active_warps_per_sm != warps || o.limiter != limiter)
    fail_msg("%s %u threads %u regs %lu+%lu smem: got %u blocks %u warps limiter %s (by warps %u groups %u regs %u "
             "smem %u), expected %u blocks %u warps limiter %s",
             gpu, threads, regs, static_smem, dynamic_smem, o.active_blocks_per_sm, o.active_warps_per_sm,
             wgp_limiter_name(o.limiter), o.blocks_by_warps, o.blocks_by_groups, o.blocks_by_registers,
             o.blocks_by_shared, blocks, warps, wgp_limiter_name(limiter));
  assert_true(o.occupancy > occ - 1e-9 && o.occupancy < occ + 1e-9);
  wgp_gpu_free(g);
}

static void expect_error(const char *gpu, unsigned threads, unsigned regs, unsigned long static_smem,
                         unsigned long dynamic_smem, const char *needle) {
  wgp_gpu *g = load(gpu);
  wgp_occupancy_request r = {threads, regs, static_smem, dynamic_smem};
  wgp_occupancy o;
  wgp_diag d;
  d.message[0] = '\0';
  wgp_status st = wgp_occupancy_compute(g, &r, &o, &d);
  wgp_gpu_free(g);
  if (st == WGP_OK)
    fail_msg("%s %u threads %u regs %lu+%lu smem: expected an error", gpu, threads, regs, static_smem, dynamic_smem);
  assert_int_equal(st, WGP_ERR_INPUT);
  if (!strstr(d.message, needle))
    fail_msg("error is '%s', expected it to contain '%s'", d.message, needle);
}

/* ---- Hopper, cc 9.0: 64 warps, 32 blocks, 65536 regs in units of 256 per
 * warp over 4 sub-partitions, 233472 B shared per SM in units of 128 with a
 * 1024 B reserve per block, 232448 B per block with opt-in. */
static void hopper(void **state) {
  (void)state;
  /* W=8. warps 64/8=8; groups 32; regs 32*32=1024/warp, 65536/1024=64 -> 64
   * warps -> 8; smem ceil(0+1024,128)=1024, 233472/1024=228.  min 8 (warps
   * before registers on the tie): 64 warps, occupancy 1. */
  expect("h100-sxm", 256, 32, 0, 0, 8, 64, 1.0, WGP_LIMIT_WARPS);
  /* W=8. warps 8; regs 64*32=2048/warp, 65536/2048=32 warps -> 32/8=4; smem
   * 228.  4 blocks, 32 warps, 0.5. */
  expect("h100-sxm", 256, 64, 0, 0, 4, 32, 0.5, WGP_LIMIT_REGISTERS);
  /* W=4. warps 64/4=16; regs 1024/warp -> 64 warps -> 16; smem 49152+1024=
   * 50176 (=392*128), 233472/50176=4.65 -> 4.  4 blocks, 16 warps, 0.25. */
  expect("h100-sxm", 128, 32, 49152, 0, 4, 16, 0.25, WGP_LIMIT_SHARED_MEMORY);
  /* Opt-in dynamic shared memory.  W=32. warps 2; regs 64 warps -> 2; smem
   * 200000+1024=201024 -> 1571*128=201088, 233472/201088=1.  1 block, 32
   * warps, 0.5. */
  expect("h100-sxm", 1024, 32, 0, 200000, 1, 32, 0.5, WGP_LIMIT_SHARED_MEMORY);
  /* Tiny blocks.  W=1. warps 64; groups 32; regs 16*32=512/warp, 128 warps ->
   * 128; smem 228.  32 blocks, 32 warps, 0.5. */
  expect("h100-sxm", 32, 16, 0, 0, 32, 32, 0.5, WGP_LIMIT_GROUPS);
  /* The warp count rounds up: 33 threads are W=2.  warps 32; groups 32 (tie,
   * warps first); regs 1024/warp -> 64 warps -> 32.  32 blocks, 64 warps. */
  expect("h100-sxm", 33, 32, 0, 0, 32, 64, 1.0, WGP_LIMIT_WARPS);
}

static void hopper_errors(void **state) {
  (void)state;
  expect_error("h100-sxm", 2048, 32, 0, 0, "block of 2048 threads exceeds the maximum of 1024 on NVIDIA H100 SXM");
  expect_error("h100-sxm", 0, 32, 0, 0, "a block of 0 threads");
  expect_error("h100-sxm", 256, 256, 0, 0, "256 registers per thread exceed the maximum of 255 on NVIDIA H100 SXM");
  expect_error("h100-sxm", 256, 32, 0, 232449, "232449 bytes of shared memory per block exceed the maximum of 232448");
  expect_error("h100-sxm", 256, 32, 49153, 0,
               "49153 bytes of static shared memory per block exceed the maximum of 49152");
  /* W=32 at 255 regs: 255*32=8160 -> 8192/warp, 32*8192=262144 > 65536. */
  expect_error("h100-sxm", 1024, 255, 0, 0, "needs 262144 registers, more than the 65536 a block may have");
  /* Zero occupancy: W=25 at 80 regs: 2560/warp, 25*2560=64000 <= 65536 per
   * block, but 65536/2560=25.6 -> 25 warps -> 24 in whole sub-partition
   * groups of 4, fewer than 25. */
  expect_error("h100-sxm", 800, 80, 0, 0, "does not fit on an SM of NVIDIA H100 SXM: its register file holds 24");
}

/* ---- Ampere, cc 8.0: as Hopper but 167936 B shared per SM, 166912 per
 * block with opt-in. */
static void ampere(void **state) {
  (void)state;
  /* W=8: warps 8; regs 1024/warp -> 8; smem 1024 -> 164.  8 blocks. */
  expect("a100", 256, 32, 0, 0, 8, 64, 1.0, WGP_LIMIT_WARPS);
  /* W=8: warps 8; regs 8; smem 40000+1024=41024 -> 321*128=41088,
   * 167936/41088=4.09 -> 4.  4 blocks, 32 warps, 0.5. */
  expect("a100", 256, 32, 0, 40000, 4, 32, 0.5, WGP_LIMIT_SHARED_MEMORY);
  /* W=4: warps 16; regs 128*32=4096/warp, 16 warps -> 4; smem 164.  4 blocks,
   * 16 warps, 0.25. */
  expect("a100", 128, 128, 0, 0, 4, 16, 0.25, WGP_LIMIT_REGISTERS);
  expect_error("a100", 256, 32, 0, 166913, "166913 bytes of shared memory per block exceed the maximum of 166912");
}

/* ---- Volta, cc 7.0: 64 warps, 32 blocks, 98304 B shared per SM in units
 * of 256, no reserve. */
static void volta(void **state) {
  (void)state;
  /* W=16: warps 4; regs 40*32=1280/warp, 65536/1280=51.2 -> 51 -> 48 warps ->
   * 3; smem 0 allocates nothing.  3 blocks, 48 warps, 0.75. */
  expect("v100", 512, 40, 0, 0, 3, 48, 0.75, WGP_LIMIT_REGISTERS);
  /* W=4: warps 16; regs 512/warp -> 128 warps -> 32; smem 10000 -> 40*256=
   * 10240, 98304/10240=9.6 -> 9.  9 blocks, 36 warps, 0.5625. */
  expect("v100", 128, 16, 10000, 0, 9, 36, 0.5625, WGP_LIMIT_SHARED_MEMORY);
  /* W=1: warps 64; groups 32; regs 1024/warp -> 64.  32 blocks, 0.5. */
  expect("v100", 32, 32, 0, 0, 32, 32, 0.5, WGP_LIMIT_GROUPS);
  /* Opt-in up to 98304 on Volta: W=8, smem 98304 -> 1 block of 8 warps. */
  expect("v100", 256, 32, 0, 98304, 1, 8, 0.125, WGP_LIMIT_SHARED_MEMORY);
}

/* ---- Maxwell, cc 5.2: 64 warps, 32 blocks, 98304 B shared per SM in units
 * of 256, 49152 per block. */
static void maxwell(void **state) {
  (void)state;
  /* W=6: warps 64/6=10; regs 37*32=1184 -> 1280/warp, 51 -> 48 warps -> 8.
   * 8 blocks, 48 warps, 0.75. */
  expect("gtx-980", 192, 37, 0, 0, 8, 48, 0.75, WGP_LIMIT_REGISTERS);
  /* W=8: warps 8; regs 20*32=640/warp, 102.4 -> 102 -> 100 warps -> 12; smem
   * 20000 -> 79*256=20224, 98304/20224=4.86 -> 4.  4 blocks, 32 warps. */
  expect("gtx-980", 256, 20, 20000, 0, 4, 32, 0.5, WGP_LIMIT_SHARED_MEMORY);
  expect_error("gtx-980", 256, 20, 0, 49153, "49153 bytes of shared memory per block exceed the maximum of 49152");
}

/* ---- Kepler, cc 3.5: 64 warps, 16 blocks, 49152 B shared per SM in units
 * of 256; cc 3.0 allows 63 registers per thread. */
static void kepler(void **state) {
  (void)state;
  /* W=2: warps 32; groups 16; regs 20*32=640/warp, 102 -> 100 warps -> 50.
   * 16 blocks, 32 warps, 0.5. */
  expect("tesla-k40", 64, 20, 0, 0, 16, 32, 0.5, WGP_LIMIT_GROUPS);
  /* W=8: warps 8; regs 255*32=8160 -> 8192/warp, 8 warps -> 1.  1 block, 8
   * warps, 0.125. */
  expect("tesla-k40", 256, 255, 0, 0, 1, 8, 0.125, WGP_LIMIT_REGISTERS);
  /* W=4: warps 16; regs 512/warp -> 128 warps -> 32; smem 12288 (=48*256),
   * 49152/12288=4.  4 blocks, 16 warps, 0.25. */
  expect("tesla-k40", 128, 16, 12288, 0, 4, 16, 0.25, WGP_LIMIT_SHARED_MEMORY);
  expect_error("tesla-k40", 1024, 255, 0, 0, "needs 262144 registers");
  expect_error("gtx-680", 256, 64, 0, 0, "64 registers per thread exceed the maximum of 63 on NVIDIA GeForce GTX 680");
}

/* Unknown registers (0) limit nothing. */
static void unknown_registers(void **state) {
  (void)state;
  /* W=8: warps 8; regs none; smem 228.  8 blocks. */
  expect("h100-sxm", 256, 0, 0, 0, 8, 64, 1.0, WGP_LIMIT_WARPS);
}

static void limiter_names(void **state) {
  (void)state;
  assert_string_equal(wgp_limiter_name(WGP_LIMIT_WARPS), "warps");
  assert_string_equal(wgp_limiter_name(WGP_LIMIT_GROUPS), "groups");
  assert_string_equal(wgp_limiter_name(WGP_LIMIT_REGISTERS), "registers");
  assert_string_equal(wgp_limiter_name(WGP_LIMIT_SHARED_MEMORY), "shared_memory");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hopper),
      cmocka_unit_test(hopper_errors),
      cmocka_unit_test(ampere),
      cmocka_unit_test(volta),
      cmocka_unit_test(maxwell),
      cmocka_unit_test(kepler),
      cmocka_unit_test(unknown_registers),
      cmocka_unit_test(limiter_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
