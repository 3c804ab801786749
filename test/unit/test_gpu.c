/* test_gpu.c - GPU descriptions: every shipped file loads and carries its
 * sources, the H100 SXM holds our measured values, and each validation error
 * names the key.  Error cases edit the shipped H100 SXM description (so each
 * case breaks exactly one thing) or are small JSON strings. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "wgperf/gpu.h"

#define GPU_DIR WGPERF_SOURCE_DIR "/gpus"
#define MEASURED "measured: microbench/results/h100-2026-11-22"

static const char *const shipped[] = {
    "h100-sxm", "h100-pcie", "a100", "v100", "gtx-680", "gtx-750", "gtx-970", "gtx-980", "quadro-k5200", "tesla-k20",
    "tesla-k40", "titan", "titan-black", "titan-x", "quadro-k600", "gtx-645", "quadro-k620", "geforce-940m", "p100",
    "gtx-1080-ti", "t4", "rtx-2080-ti", "rtx-3090", "rtx-4090", "l40s", "h200", "a100-80gb",
    /* cc 7.0-9.0, each from the shipped description of its compute capability */
    "titan-v", "rtx-2080", "rtx-2070", "titan-rtx", "quadro-rtx-6000", "quadro-rtx-8000", "a100-pcie-40gb", "a30",
    "rtx-3080", "rtx-3070", "rtx-3060", "rtx-a4000", "rtx-a5000", "rtx-a6000", "a10", "a40", "rtx-4080", "rtx-4070",
    "rtx-6000-ada", "l4", "gh200"};

static wgp_gpu *load_builtin_ok(const char *name) {
  wgp_gpu *g = NULL;
  wgp_diag d;
  if (wgp_gpu_load_builtin(name, &g, &d) != WGP_OK)
    fail_msg("%s: %s", name ? name : "(default)", d.message);
  return g;
}

static void every_shipped_file_loads(void **state) {
  (void)state;
  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
  for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
    wgp_gpu *g = load_builtin_ok(shipped[i]);
    assert_true(wgp_gpu_sm_count(g) > 0);
    /* Every field has a source. */
    assert_non_null(wgp_gpu_source(g, "chip.core_clock_mhz"));
    assert_non_null(wgp_gpu_source(g, "latencies.dram_cycles"));
    for (int c = 0; c < WGP_OP_COUNT; c++) {
      char key[96];
      snprintf(key, sizeof key, "ops.%s.latency_cycles", wgp_op_class_name((wgp_op_class)c));
      assert_non_null(wgp_gpu_source(g, key));
      assert_true(wgp_gpu_op_throughput_per_cycle(g, (wgp_op_class)c) > 0);
    }
    wgp_gpu_free(g);
  }
  /* And nothing in gpus/ fails to load. */
  DIR *dir = opendir(GPU_DIR);
  assert_non_null(dir);
  struct dirent *e;
  int n = 0;
  while ((e = readdir(dir)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", GPU_DIR, e->d_name);
    wgp_gpu *g = NULL;
    wgp_diag d;
    if (wgp_gpu_load_file(path, &g, &d) != WGP_OK)
      fail_msg("%s", d.message);
    wgp_gpu_free(g);
    n++;
  }
  closedir(dir);
  assert_true(n >= 48);
}

static void h100_sxm_is_measured(void **state) {
  (void)state;
  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
  wgp_gpu *g = load_builtin_ok(NULL); /* the default */
  assert_string_equal(wgp_gpu_name(g), "NVIDIA H100 SXM");
  assert_int_equal(wgp_gpu_architecture(g), WGP_ARCH_HOPPER);
  assert_true(wgp_gpu_l1_wavefronts_by_phase(g)); /* L1TEX: a wide request in phases */
  assert_int_equal(wgp_gpu_cc_major(g), 9);
  assert_int_equal(wgp_gpu_cc_minor(g), 0);
  assert_int_equal(wgp_gpu_sm_count(g), 132);
  assert_int_equal(wgp_gpu_warp_size(g), 32);
  assert_int_equal(wgp_gpu_shared_per_sm_bytes(g), 233472);
  assert_int_equal(wgp_gpu_shared_per_block_optin_bytes(g), 232448);
  assert_int_equal(wgp_gpu_shared_reserved_per_block_bytes(g), 1024);
  assert_int_equal(wgp_gpu_l1_bytes(g), 262144);
  assert_int_equal(wgp_gpu_l2_bytes(g), 52428800);
  assert_true(wgp_gpu_l1_caches_global_loads(g));
  assert_int_equal(wgp_gpu_coalescing(g), WGP_COALESCE_SECTORS32);
  assert_true(wgp_gpu_latency_shared_cycles(g) == 23.0);
  assert_true(wgp_gpu_latency_l1_hit_cycles(g) == 32.0);
  assert_true(wgp_gpu_op_latency_cycles(g, WGP_OP_FP32_FMA) == 4.11);
  static const char *const measured[] = {"chip.sm_count",
                                         "chip.core_clock_mhz",
                                         "memory.l1_bytes",
                                         "memory.l2_bytes",
                                         "memory.dram_bandwidth_gbps",
                                         "memory.l2_bandwidth_gbps",
                                         "latencies.shared_cycles",
                                         "latencies.l1_hit_cycles",
                                         "latencies.l2_hit_cycles",
                                         "latencies.dram_cycles",
                                         "latencies.constant_hit_cycles",
                                         "latencies.constant_miss_cycles",
                                         "sync.barrier_base_cycles",
                                         "launch.overhead_us",
                                         "ops.fp32_fma.latency_cycles",
                                         "ops.fp64_add.throughput_per_cycle",
                                         "ops.sfu_rsqrt.latency_cycles"};
  for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
    const char *src = wgp_gpu_source(g, measured[i]);
    if (!src || strncmp(src, MEASURED, strlen(MEASURED)) != 0)
      fail_msg("%s: source '%s' is not our measurement", measured[i], src ? src : "(none)");
  }
  assert_null(wgp_gpu_source(g, "chip.nothing"));
  assert_null(wgp_gpu_source(g, "ops.fp32_fma.nothing"));
  assert_string_equal(wgp_coalescing_name(WGP_COALESCE_KEPLER_L2_32B), "kepler_l2_32B");
  wgp_gpu_free(g);
}

static void per_architecture_rules(void **state) {
  (void)state;
  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
  wgp_gpu *k = load_builtin_ok("quadro-k600");
  assert_int_equal(wgp_gpu_coalescing(k), WGP_COALESCE_KEPLER_L2_32B);
  assert_false(wgp_gpu_l1_caches_global_loads(k));
  assert_int_equal(wgp_gpu_max_blocks_per_sm(k), 16);
  assert_int_equal(wgp_gpu_max_registers_per_thread(k), 63);
  wgp_gpu_free(k);
  wgp_gpu *m = load_builtin_ok("quadro-k620");
  assert_int_equal(wgp_gpu_coalescing(m), WGP_COALESCE_SECTORS32);
  assert_int_equal(wgp_gpu_architecture(m), WGP_ARCH_MAXWELL);
  assert_false(wgp_gpu_l1_wavefronts_by_phase(m)); /* a pass per line of the whole request */
  /* Maxwell multiplies with three XMADs; 64-bit addresses take two instructions before Volta */
  assert_int_equal(wgp_gpu_op_instructions(m, WGP_OP_INT_MUL), 3);
  assert_int_equal(wgp_gpu_op_instructions(m, WGP_OP_ADDR), 2);
  assert_int_equal(wgp_gpu_shared_per_sm_bytes(m), 65536);
  wgp_gpu_free(m);
  wgp_gpu *a = load_builtin_ok("a100");
  assert_int_equal(wgp_gpu_shared_alloc_unit_bytes(a), 128);
  assert_int_equal(wgp_gpu_register_alloc_granularity(a), WGP_REG_GRAN_WARP);
  wgp_gpu_free(a);
}

static void builtin_search(void **state) {
  (void)state;
  wgp_gpu *g = NULL;
  wgp_diag d;
  /* Without $WGPERF_GPU_DIR the source tree is searched. */
  unsetenv("WGPERF_GPU_DIR");
  g = load_builtin_ok("v100");
  wgp_gpu_free(g);
  /* $WGPERF_GPU_DIR comes first: a directory without the file falls through. */
  setenv("WGPERF_GPU_DIR", "/nonexistent-wgperf-dir", 1);
  g = load_builtin_ok("a100");
  wgp_gpu_free(g);
  assert_int_equal(wgp_gpu_load_builtin("h200-nvl", &g, &d), WGP_ERR_INPUT);
  assert_null(g);
  assert_non_null(strstr(d.message, "no GPU description named 'h200-nvl' (searched: /nonexistent-wgperf-dir"));
  assert_int_equal(wgp_gpu_load_builtin("../etc/passwd", &g, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "is not a GPU name"));
  assert_int_equal(wgp_gpu_load_file("/nonexistent-wgperf-dir/x.json", &g, &d), WGP_ERR_IO);
  assert_non_null(strstr(d.message, "x.json: cannot open"));
  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
}

/* ---- error cases ------------------------------------------------------- */

/* The shipped H100 SXM description with EDIT applied: "section.key" set to
 * VALUE (a JSON text; NULL deletes the key). */
/* The shipped description FILE (in GPU_DIR) with PATH set to VALUE (JSON
 * text; NULL deletes it). */
static char *edited_from(const char *file, const char *path, const char *value) {
  json_error_t err;
  char name[512];
  snprintf(name, sizeof name, "%s/%s", GPU_DIR, file);
  json_t *root = json_load_file(name, 0, &err);
  assert_non_null(root);
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  json_t *obj = root;
  char *key = buf;
  for (char *dot; (dot = strchr(key, '.')) != NULL; key = dot + 1) {
    *dot = '\0';
    obj = json_object_get(obj, key);
    assert_non_null(obj);
  }
  if (value) {
    json_t *v = json_loads(value, JSON_DECODE_ANY, &err);
    assert_non_null(v);
    json_object_set_new(obj, key, v);
  } else {
    json_object_del(obj, key);
  }
  char *text = json_dumps(root, 0);
  json_decref(root);
  return text;
}

static char *edited(const char *path, const char *value) { return edited_from("h100-sxm.json", path, value); }

static void expect_text_error(const char *text, const char *needle) {
  wgp_gpu *g = NULL;
  wgp_diag d;
  d.message[0] = '\0';
  wgp_status st = wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d);
  if (st == WGP_OK) {
    wgp_gpu_free(g);
    fail_msg("loaded, expected an error mentioning '%s'", needle);
  }
  assert_int_equal(st, WGP_ERR_INPUT);
  assert_null(g);
  if (!strstr(d.message, needle))
    fail_msg("error is '%s', expected it to contain '%s'", d.message, needle);
  assert_non_null(strstr(d.message, "wgperf: error: h100.json"));
}

static void expect_edit_error(const char *path, const char *value, const char *needle) {
  char *text = edited(path, value);
  expect_text_error(text, needle);
  free(text);
}

static void unedited_loads(void **state) {
  (void)state;
  char *text = edited("chip.warp_size", "{\"value\": 32, \"source\": \"test\"}");
  wgp_gpu *g = NULL;
  wgp_diag d;
  if (wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d) != WGP_OK)
    fail_msg("%s", d.message);
  assert_string_equal(wgp_gpu_source(g, "chip.warp_size"), "test");
  assert_string_equal(wgp_gpu_file(g), "h100.json");
  wgp_gpu_free(g);
  free(text);
}

#define F(v) "{\"value\": " v ", \"source\": \"test\"}"

static void keys_and_types(void **state) {
  (void)state;
  expect_edit_error("chip.warp_size", NULL, "missing key 'chip.warp_size'");
  expect_edit_error("memory", NULL, "missing section 'memory'");
  expect_edit_error("chip.sm_count", F("\"132\""), "'chip.sm_count' must be an integer, got a string");
  expect_edit_error("chip.sm_count", F("132.5"), "'chip.sm_count' must be an integer, got a real number");
  expect_edit_error("chip.sm_count", "132", "'chip.sm_count' must be an object {\"value\": ..., \"source\": \"...\"}");
  expect_edit_error("chip.sm_count", "{\"value\": 132}", "'chip.sm_count' has no 'source'");
  expect_edit_error("chip.sm_count", "{\"value\": 132, \"source\": \"\"}",
                    "'chip.sm_count.source' must be a non-empty");
  expect_edit_error("chip.sm_count", "{\"source\": \"x\"}", "'chip.sm_count' has no 'value'");
  expect_edit_error("chip.sm_count", "{\"value\": 1, \"source\": \"x\", \"unit\": \"SMs\"}",
                    "'chip.sm_count' has an unknown member 'unit'");
  expect_edit_error("chip.core_clock_ghz", F("1.98"),
                    "'chip.core_clock_ghz' has the wrong unit: expected "
                    "'chip.core_clock_mhz'");
  expect_edit_error("memory.dram_bandwidth", F("3000"),
                    "'memory.dram_bandwidth' lacks its unit: expected "
                    "'memory.dram_bandwidth_gbps'");
  expect_edit_error("chip.tensor_cores", F("4"), "unknown key 'chip.tensor_cores'");
  expect_edit_error("caches", "{}", "unknown section 'caches'");
  expect_edit_error("memory.l1_caches_global_loads", F("1"), "'memory.l1_caches_global_loads' must be a boolean");
  expect_edit_error("memory.coalescing", F("\"sectors64\""),
                    "'memory.coalescing' must be one of 'sectors32', 'kepler_l2_32B', got 'sectors64'");
  expect_edit_error("identity.architecture", F("\"blackwell\""), "'identity.architecture' must be one of");
  expect_edit_error("identity.compute_capability", F("\"9\""), "'identity.compute_capability' must be \"MAJOR.MINOR\"");
  expect_edit_error("latencies.dram_cycles", F("-1"), "'latencies.dram_cycles' must be greater than 0, got -1");
  expect_edit_error("limits.registers_per_sm", F("4294967296"), "'limits.registers_per_sm' is too large");
}

static void ops(void **state) {
  (void)state;
  expect_edit_error("ops.fp32_sub", "{}", "unknown cost class 'ops.fp32_sub'");
  expect_edit_error("ops.sfu_pow", NULL, "missing key 'ops.sfu_pow'");
  expect_edit_error("ops.fp32_add.latency_ns", F("2"),
                    "'ops.fp32_add.latency_ns' has the wrong unit: expected "
                    "'ops.fp32_add.latency_cycles'");
  expect_edit_error("ops.fp32_add.throughput_per_cycle", NULL, "missing key 'ops.fp32_add.throughput_per_cycle'");
  expect_edit_error("ops.fp32_add.throughput_per_cycle", F("0"),
                    "'ops.fp32_add.throughput_per_cycle' must be greater than 0, got 0");
  expect_edit_error("ops.conv", "3", "'ops.conv' must be an object with 'latency_cycles'");
  /* the optional machine-instruction count: a whole number from 1 to 64 */
  expect_edit_error("ops.int_mul.instructions", F("0"), "'ops.int_mul.instructions' must be at least 1, got 0");
  expect_edit_error("ops.int_mul.instructions", F("1.5"), "'ops.int_mul.instructions' must be an integer");
  expect_edit_error("ops.int_mul.instructions", F("65"), "'ops.int_mul.instructions' must be at most 64");
  expect_edit_error("ops.int_mul.instruction_count", F("3"), "unknown key 'ops.int_mul.instruction_count'");
  char *text = edited("ops.int_mul.instructions", F("3"));
  wgp_gpu *g = NULL;
  wgp_diag d;
  if (wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d) != WGP_OK)
    fail_msg("%s", d.message);
  assert_int_equal(wgp_gpu_op_instructions(g, WGP_OP_INT_MUL), 3);
  assert_int_equal(wgp_gpu_op_instructions(g, WGP_OP_INT_ADD), 1);
  assert_string_equal(wgp_gpu_source(g, "ops.int_mul.instructions"), "test");
  assert_null(wgp_gpu_source(g, "ops.int_add.instructions"));
  wgp_gpu_free(g);
  free(text);
}

static void geometry(void **state) {
  (void)state;
  expect_edit_error("chip.warp_size", F("24"), "'chip.warp_size' must be a power of two, got 24");
  expect_edit_error("chip.sm_count", F("0"), "'chip.sm_count' must be greater than 0, got 0");
  expect_edit_error("memory.l2_bytes", F("1000"),
                    "'memory.l2_bytes' (1000) must be a multiple of 'memory.l2_line_bytes' (128)");
  expect_edit_error("memory.l1_sector_bytes", F("256"),
                    "'memory.l1_line_bytes' (128) must be a multiple of 'memory.l1_sector_bytes' (256)");
  expect_edit_error("memory.l2_line_bytes", F("96"), "'memory.l2_line_bytes' must be a power of two, got 96");
  expect_edit_error("limits.max_threads_per_block", F("4096"),
                    "'limits.max_threads_per_block' (4096) exceeds what an SM holds: 'limits.max_warps_per_sm' x "
                    "'chip.warp_size' = 2048");
  expect_edit_error("limits.max_block_dim_z", F("2048"),
                    "'limits.max_block_dim_z' (2048) exceeds 'limits.max_threads_per_block' (1024)");
  expect_edit_error("limits.shared_per_block_optin_bytes", F("233472"),
                    "plus 'limits.shared_reserved_per_block_bytes' (1024) exceeds 'limits.shared_per_sm_bytes'");
  expect_edit_error("limits.shared_per_block_bytes", F("300000"),
                    "'limits.shared_per_block_bytes' (300000) exceeds 'limits.shared_per_block_optin_bytes'");
  expect_edit_error("limits.max_registers_per_thread", F("4096"),
                    "one warp at 'limits.max_registers_per_thread' (4096) needs 131072 registers");
  expect_edit_error("memory.coalescing", F("\"kepler_l2_32B\""), "'memory.l1_caches_global_loads' is true");
}

static void whole_file(void **state) {
  (void)state;
  expect_text_error("[1, 2]", "a GPU description must be a JSON object, got an array");
  expect_text_error("{\"format\": \"wgperf-model\", \"version\": 1}", "not a wgperf GPU description");
  expect_text_error("{\"format\": \"wgperf-gpu\", \"version\": 2}",
                    "GPU description version 2 is not supported (this wgperf reads version 1)");
  expect_text_error("{\"format\": \"wgperf-gpu\", \"version\": \"1\"}", "'version' must be an integer");
  expect_text_error("{\n\"format\": \"wgperf-gpu\",\n\"version\": 1,\n}", "h100.json:4:");
  expect_text_error("{\"format\": \"wgperf-gpu\", \"format\": \"wgperf-gpu\", \"version\": 1}", "duplicate");
  expect_text_error("{\"format\": \"wgperf-gpu\", \"version\": 1}", "missing section 'identity'");
}

/* identity.aliases: optional, an array of distinct plain names; the shipped
 * descriptions carry the measurement files' GPU names, and wgp_gpu_find maps
 * such a name to its description. */
static void aliases(void **state) {
  (void)state;
  char *text = edited("identity.aliases", F("[\"GTX-X\", \"gx\"]"));
  wgp_gpu *g = NULL;
  wgp_diag d;
  if (wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d) != WGP_OK)
    fail_msg("%s", d.message);
  assert_int_equal(wgp_gpu_num_aliases(g), 2);
  assert_string_equal(wgp_gpu_alias(g, 1), "gx");
  assert_null(wgp_gpu_alias(g, 2));
  assert_true(wgp_gpu_has_alias(g, "gtx-x"));
  assert_false(wgp_gpu_has_alias(g, "GTX"));
  assert_string_equal(wgp_gpu_source(g, "identity.aliases"), "test");
  wgp_gpu_free(g);
  free(text);
  /* absent: none */
  text = edited("identity.aliases", NULL);
  assert_int_equal(wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d), WGP_OK);
  assert_int_equal(wgp_gpu_num_aliases(g), 0);
  assert_null(wgp_gpu_source(g, "identity.aliases"));
  wgp_gpu_free(g);
  free(text);
  expect_edit_error("identity.aliases", F("\"GTX-X\""), "'identity.aliases' must be an array of names, got a string");
  expect_edit_error("identity.aliases", F("[\"\"]"), "'identity.aliases'[0] must be a non-empty string");
  expect_edit_error("identity.aliases", F("[\"a\", 3]"), "'identity.aliases'[1] must be a non-empty string, got an integer");
  expect_edit_error("identity.aliases", F("[\"GTX 980\"]"), "a name holds no spaces");
  expect_edit_error("identity.aliases", F("[\"a\", \"A\"]"), "'identity.aliases' lists 'A' twice");
  expect_edit_error("identity.aliases", "[\"a\"]", "'identity.aliases' must be an object");
  expect_edit_error("chip.aliases", F("[\"a\"]"), "unknown key 'chip.aliases'");

  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
  static const char *const dataset[][2] = {
      {"GTX-680", "NVIDIA GeForce GTX 680"}, {"GTX-750", "NVIDIA GeForce GTX 750"},
      {"GTX-970", "NVIDIA GeForce GTX 970"}, {"GTX-980", "NVIDIA GeForce GTX 980"},
      {"Quadro", "NVIDIA Quadro K5200"},     {"Tesla-K20", "NVIDIA Tesla K20c"},
      {"Tesla-K40", "NVIDIA Tesla K40c"},    {"Titan", "NVIDIA GeForce GTX TITAN"},
      {"TitanBlack", "NVIDIA GeForce GTX TITAN Black"}, {"TitanX", "NVIDIA GeForce GTX TITAN X"},
      {"H100-SXM", "NVIDIA H100 SXM"},       {"titan-x", "NVIDIA GeForce GTX TITAN X"} /* the file name */};
  for (size_t i = 0; i < sizeof dataset / sizeof dataset[0]; i++) {
    if (wgp_gpu_find(dataset[i][0], &g, &d) != WGP_OK)
      fail_msg("%s: %s", dataset[i][0], d.message);
    assert_string_equal(wgp_gpu_name(g), dataset[i][1]);
    wgp_gpu_free(g);
  }
  assert_int_equal(wgp_gpu_find("GTX-1080", &g, &d), WGP_ERR_INPUT);
  assert_null(g);
  assert_non_null(strstr(d.message, "no GPU description named 'GTX-1080' or listing it in 'identity.aliases'"));
}

/* What --gpu takes: a file, a shipped name, an alias; an unknown name gets
 * the shipped names listed, a broken file of the name asked for is reported
 * as it is. */
static void open_spec(void **state) {
  (void)state;
  wgp_gpu *g;
  wgp_diag d;
  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
  assert_int_equal(wgp_gpu_open(NULL, &g, &d), WGP_OK);
  assert_string_equal(wgp_gpu_name(g), "NVIDIA H100 SXM");
  wgp_gpu_free(g);
  assert_int_equal(wgp_gpu_open("gtx-980", &g, &d), WGP_OK);
  assert_string_equal(wgp_gpu_name(g), "NVIDIA GeForce GTX 980");
  wgp_gpu_free(g);
  assert_int_equal(wgp_gpu_open("TitanBlack", &g, &d), WGP_OK);
  assert_string_equal(wgp_gpu_name(g), "NVIDIA GeForce GTX TITAN Black");
  wgp_gpu_free(g);
  assert_int_equal(wgp_gpu_open(GPU_DIR "/titan.json", &g, &d), WGP_OK);
  assert_string_equal(wgp_gpu_name(g), "NVIDIA GeForce GTX TITAN");
  wgp_gpu_free(g);

  char names[1024];
  size_t n = wgp_gpu_list_builtin(names, sizeof names);
  assert_true(n >= 2);
  assert_non_null(strstr(names, "h100-sxm, "));
  assert_non_null(strstr(names, "gtx-980"));
  assert_null(strstr(names, ".json"));
  char cut[8];
  assert_int_equal(wgp_gpu_list_builtin(cut, sizeof cut), n); /* cut, still counted */
  assert_true(strlen(cut) < sizeof cut);

  assert_int_equal(wgp_gpu_open("voodoo-5", &g, &d), WGP_ERR_INPUT);
  assert_null(g);
  assert_non_null(strstr(d.message, "no GPU description named 'voodoo-5'"));
  assert_non_null(strstr(d.message, "; shipped: "));
  assert_non_null(strstr(d.message, "h100-sxm"));
  assert_int_equal(wgp_gpu_open("missing.json", &g, &d), WGP_ERR_IO);
  assert_non_null(strstr(d.message, "missing.json"));

  /* a broken description of the name asked for: its own error */
  char dir[] = "/tmp/wgperf-test-gpu-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/broken.json", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("{\"version\": 1,", f);
  fclose(f);
  setenv("WGPERF_GPU_DIR", dir, 1);
  assert_int_equal(wgp_gpu_open("broken", &g, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "broken.json:1:"));
  assert_null(strstr(d.message, "shipped"));
  assert_int_equal(wgp_gpu_find("broken", &g, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "broken.json:1:"));
  unlink(path);
  rmdir(dir);
  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
}

/* wgp_gpu_find is tolerant: case, '-', '_' and spaces do not matter, and the
 * product name (with or without "NVIDIA") finds a description as its file
 * name and aliases do. */
static void tolerant_names(void **state) {
  (void)state;
  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
  static const char *const names[][2] = {
      {"H100", "NVIDIA H100 SXM"},           {"h100", "NVIDIA H100 SXM"},
      {"h100_sxm", "NVIDIA H100 SXM"},       {"H100 PCIe", "NVIDIA H100 PCIe"},
      {"A100", "NVIDIA A100"},               {"v100", "NVIDIA Tesla V100"},
      {"gtx980", "NVIDIA GeForce GTX 980"},  {"GeForce GTX 980", "NVIDIA GeForce GTX 980"},
      {"nvidia geforce gtx 980", "NVIDIA GeForce GTX 980"}, {"K40", "NVIDIA Tesla K40c"},
      {"titan x", "NVIDIA GeForce GTX TITAN X"}, {"A100-80GB", "NVIDIA A100-SXM4-80GB"},
      {"a100_80gb", "NVIDIA A100-SXM4-80GB"}, {"A100 SXM4 80GB", "NVIDIA A100-SXM4-80GB"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    wgp_gpu *g;
    wgp_diag d;
    if (wgp_gpu_find(names[i][0], &g, &d) != WGP_OK)
      fail_msg("%s: %s", names[i][0], d.message);
    assert_string_equal(wgp_gpu_name(g), names[i][1]);
    wgp_gpu_free(g);
  }
  wgp_gpu *g;
  wgp_diag d;
  assert_int_equal(wgp_gpu_find("", &g, &d), WGP_ERR_INPUT);
  assert_int_equal(wgp_gpu_find("--", &g, &d), WGP_ERR_INPUT);
  assert_null(g);
}

/* limits.max_grid_dim_{x,y,z} (optional): the compute capability's limits
 * when absent; a launch past them does not fit. */
static void grid_limits(void **state) {
  (void)state;
  char *text = edited("limits.max_grid_dim_y", NULL);
  wgp_gpu *g;
  wgp_diag d;
  assert_int_equal(wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d), WGP_OK);
  free(text);
  assert_int_equal(wgp_gpu_max_grid_dim(g, 0), 2147483647u);
  assert_int_equal(wgp_gpu_max_grid_dim(g, 1), 65535);
  assert_int_equal(wgp_gpu_max_grid_dim(g, 2), 65535);
  assert_null(wgp_gpu_source(g, "limits.max_grid_dim_y"));
  uint64_t global[3] = {1024, 65535, 1}, local[3] = {256, 1, 1};
  char why[256];
  assert_true(wgp_gpu_grid_fits(g, global, local, why, sizeof why));
  global[1] = 65536;
  assert_false(wgp_gpu_grid_fits(g, global, local, why, sizeof why));
  assert_non_null(strstr(why, "65536 work-groups (blocks) in dimension y"));
  assert_non_null(strstr(why, "grid limit of 65535 (gridDim.y)"));
  local[1] = 2; /* 32768 groups */
  assert_true(wgp_gpu_grid_fits(g, global, local, NULL, 0));
  wgp_gpu_free(g);
  text = edited("limits.max_grid_dim_y", F("1024"));
  assert_int_equal(wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d), WGP_OK);
  free(text);
  assert_int_equal(wgp_gpu_max_grid_dim(g, 1), 1024);
  assert_string_equal(wgp_gpu_source(g, "limits.max_grid_dim_y"), "test");
  assert_false(wgp_gpu_grid_fits(g, global, local, NULL, 0));
  wgp_gpu_free(g);
  expect_edit_error("limits.max_grid_dim_z", F("0"), "'limits.max_grid_dim_z' must be greater than 0");
}

/* latencies.shared_replay_cycles (optional): 0 when absent (H100 ships
 * without it: no replays since Volta), the Kepler and Maxwell descriptions
 * give theirs with its evidence. */
static void shared_replay_latency(void **state) {
  (void)state;
  wgp_gpu *g = load_builtin_ok("h100-sxm");
  assert_true(wgp_gpu_latency_shared_replay_cycles(g) == 0);
  assert_null(wgp_gpu_source(g, "latencies.shared_replay_cycles"));
  wgp_gpu_free(g);
  g = load_builtin_ok("tesla-k40");
  assert_true(wgp_gpu_latency_shared_replay_cycles(g) == 48);
  assert_non_null(strstr(wgp_gpu_source(g, "latencies.shared_replay_cycles"), "subSeqMax"));
  wgp_gpu_free(g);
  g = load_builtin_ok("gtx-980");
  assert_true(wgp_gpu_latency_shared_replay_cycles(g) == 20);
  wgp_gpu_free(g);
  char *text = edited("latencies.shared_replay_cycles", F("7.5"));
  wgp_diag d;
  if (wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d) != WGP_OK)
    fail_msg("%s", d.message);
  assert_true(wgp_gpu_latency_shared_replay_cycles(g) == 7.5);
  assert_string_equal(wgp_gpu_source(g, "latencies.shared_replay_cycles"), "test");
  wgp_gpu_free(g);
  free(text);
  expect_edit_error("latencies.shared_replay_cycles", F("-2"), "'latencies.shared_replay_cycles' must be");
  expect_edit_error("latencies.shared_replay_cycles", F("\"24\""),
                    "'latencies.shared_replay_cycles' must be a number, got a string");
  expect_edit_error("latencies.shared_replay_cycles", "24", "'latencies.shared_replay_cycles' must be an object");
  expect_edit_error("latencies.shared_replays", F("24"), "unknown key 'latencies.shared_replays'");
}

/* memory.shared_own_pipe (optional): false when absent (Kepler's L1/shared
 * array, Volta and later's L1TEX), true in the Maxwell descriptions. */
static void shared_own_pipe_key(void **state) {
  (void)state;
  const char *own[] = {"gtx-750", "gtx-980", "gtx-970", "titan-x", "quadro-k620", "geforce-940m"};
  const char *shared[] = {"tesla-k40", "gtx-680", "v100", "a100", "h100-sxm"};
  for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
    wgp_gpu *g = load_builtin_ok(own[i]);
    assert_true(wgp_gpu_shared_own_pipe(g));
    assert_non_null(strstr(wgp_gpu_source(g, "memory.shared_own_pipe"), "Maxwell Tuning Guide"));
    wgp_gpu_free(g);
  }
  for (size_t i = 0; i < sizeof shared / sizeof *shared; i++) {
    wgp_gpu *g = load_builtin_ok(shared[i]);
    assert_false(wgp_gpu_shared_own_pipe(g));
    assert_null(wgp_gpu_source(g, "memory.shared_own_pipe"));
    wgp_gpu_free(g);
  }
  char *text = edited("memory.shared_own_pipe", F("true"));
  wgp_diag d;
  wgp_gpu *g;
  if (wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d) != WGP_OK)
    fail_msg("%s", d.message);
  assert_true(wgp_gpu_shared_own_pipe(g));
  wgp_gpu_free(g);
  free(text);
  expect_edit_error("memory.shared_own_pipe", F("1"), "'memory.shared_own_pipe' must be a boolean, got an integer");
}

/* The DRAM row geometry (memory.dram_devices and four more, optional, all
 * or none): in the GDDR5 descriptions, absent from the HBM and DDR3 ones. */
static void dram_row_keys(void **state) {
  (void)state;
  const char *gddr5[] = {"gtx-645", "gtx-680", "gtx-750", "gtx-970", "gtx-980", "quadro-k5200",
                         "tesla-k20", "tesla-k40", "titan", "titan-black", "titan-x"};
  const char *none[] = {"h100-sxm", "h100-pcie",   "a100",     "v100",     "quadro-k600", "quadro-k620", "geforce-940m",
                        "p100",     "gtx-1080-ti", "t4",       "rtx-2080-ti", "rtx-3090", "rtx-4090",  "l40s", "h200",
                        "a100-80gb"};
  for (size_t i = 0; i < sizeof gddr5 / sizeof *gddr5; i++) {
    wgp_gpu *g = load_builtin_ok(gddr5[i]);
    assert_int_equal(wgp_gpu_dram_banks_per_device(g), 16);
    assert_int_equal(wgp_gpu_dram_row_bytes(g), 2048);
    assert_int_equal(wgp_gpu_dram_interleave_bytes(g), 256);
    assert_true(wgp_gpu_dram_activate_window_ns(g) > 22.9 && wgp_gpu_dram_activate_window_ns(g) < 23.5);
    assert_non_null(strstr(wgp_gpu_source(g, "memory.dram_activate_window_ns"), "Ramulator"));
    wgp_gpu_free(g);
  }
  wgp_gpu *g = load_builtin_ok("gtx-980"); /* 256-bit bus: 8 devices, 4 rows each per 23.4 ns */
  assert_int_equal(wgp_gpu_dram_devices(g), 8);
  double rate = wgp_gpu_dram_activations_per_ns(g) - 32 / 23.4;
  assert_true(rate < 1e-9 && rate > -1e-9);
  wgp_gpu_free(g);
  g = load_builtin_ok("tesla-k40");
  assert_int_equal(wgp_gpu_dram_devices(g), 12);
  wgp_gpu_free(g);
  for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
    g = load_builtin_ok(none[i]);
    assert_int_equal(wgp_gpu_dram_devices(g), 0);
    assert_true(wgp_gpu_dram_activations_per_ns(g) == 0);
    assert_null(wgp_gpu_source(g, "memory.dram_devices"));
    wgp_gpu_free(g);
  }
  static const struct {
    const char *path, *value, *needle;
  } bad[] = {
      {"memory.dram_row_bytes", NULL,
       "'memory.dram_row_bytes' is missing: the DRAM row geometry needs all of 'memory.dram_devices'"},
      {"memory.dram_devices", NULL, "'memory.dram_devices' is missing"},
      {"memory.dram_devices", F("0"), "'memory.dram_devices' must be"},
      {"memory.dram_activate_window_ns", F("-23"), "'memory.dram_activate_window_ns' must be greater than 0"},
      {"memory.dram_interleave_bytes", F("384"), "'memory.dram_interleave_bytes' must be a power of two, got 384"},
      {"memory.dram_row_bytes", F("1000"), "'memory.dram_row_bytes' must be a power of two, got 1000"},
      {"memory.dram_interleave_bytes", F("4096"),
       "'memory.dram_interleave_bytes' (4096) exceeds 'memory.dram_row_bytes' (2048)"},
      {"memory.dram_interleave_bytes", F("16"),
       "'memory.l2_sector_bytes' (32) exceeds 'memory.dram_interleave_bytes' (16)"},
      {"memory.dram_devices", F("100000"), "is more than 1000000 banks"},
      {"memory.dram_rows", F("8"), "unknown key 'memory.dram_rows'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *text = edited_from("gtx-980.json", bad[i].path, bad[i].value);
    expect_text_error(text, bad[i].needle);
    free(text);
  }
  /* one key alone on a description without the rest */
  expect_edit_error("memory.dram_devices", F("8"), "'memory.dram_banks_per_device' is missing");
}

/* memory.dram_copy_bandwidth_gbps (optional): measured on the H100 (8% below
 * its reads); without it a write costs what a read does. */
static void dram_copy_key(void **state) {
  (void)state;
  wgp_gpu *g = load_builtin_ok("h100-sxm");
  double rd = wgp_gpu_dram_bandwidth_gbps(g), copy = wgp_gpu_dram_copy_bandwidth_gbps(g);
  assert_true(copy > 2800 && copy < rd);
  double w = wgp_gpu_dram_write_ns_per_byte(g) - (2 / copy - 1 / rd);
  assert_true(w < 1e-15 && w > -1e-15);
  assert_non_null(strstr(wgp_gpu_source(g, "memory.dram_copy_bandwidth_gbps"), "bw_dram_copy"));
  wgp_gpu_free(g);
  g = load_builtin_ok("gtx-980");
  assert_true(wgp_gpu_dram_copy_bandwidth_gbps(g) == 0);
  w = wgp_gpu_dram_write_ns_per_byte(g) - 1 / wgp_gpu_dram_bandwidth_gbps(g);
  assert_true(w < 1e-15 && w > -1e-15);
  wgp_gpu_free(g);
  expect_edit_error("memory.dram_copy_bandwidth_gbps", F("6200"),
                    "'memory.dram_copy_bandwidth_gbps' (6200) must be below twice 'memory.dram_bandwidth_gbps'");
  expect_edit_error("memory.dram_copy_bandwidth_gbps", F("0"), "'memory.dram_copy_bandwidth_gbps' must be");
}

/* memory.l2_port_bytes_per_cycle (optional): 32 on the Kepler and Maxwell
 * descriptions, with the evidence; absent (0) on the H100, whose measured
 * L2 bandwidth is the limit; below a byte per cycle, or not positive, is
 * an error naming the key. */
static void l2_port_key(void **state) {
  (void)state;
  const char *with[] = {"tesla-k40", "gtx-680", "gtx-750", "gtx-980", "titan-x"};
  for (size_t i = 0; i < sizeof with / sizeof *with; i++) {
    wgp_gpu *g = load_builtin_ok(with[i]);
    assert_true(wgp_gpu_l2_port_bytes_per_cycle(g) == 32);
    assert_non_null(strstr(wgp_gpu_source(g, "memory.l2_port_bytes_per_cycle"), "per SM"));
    wgp_gpu_free(g);
  }
  wgp_gpu *g = load_builtin_ok("h100-sxm");
  assert_true(wgp_gpu_l2_port_bytes_per_cycle(g) == 0);
  assert_null(wgp_gpu_source(g, "memory.l2_port_bytes_per_cycle"));
  wgp_gpu_free(g);
  char *text = edited("memory.l2_port_bytes_per_cycle", F("64"));
  wgp_diag d;
  if (wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d) != WGP_OK)
    fail_msg("%s", d.message);
  assert_true(wgp_gpu_l2_port_bytes_per_cycle(g) == 64);
  wgp_gpu_free(g);
  free(text);
  expect_edit_error("memory.l2_port_bytes_per_cycle", F("0.5"),
                    "'memory.l2_port_bytes_per_cycle' (0.5) must be at least 1");
  expect_edit_error("memory.l2_port_bytes_per_cycle", F("0"), "'memory.l2_port_bytes_per_cycle' must be");
  expect_edit_error("memory.l2_port_bytes_per_cycle", F("\"wide\""), "'memory.l2_port_bytes_per_cycle' must be");
}

/* memory.l1_shared_bytes (optional), and Turing's global_line_cycles:
 * Turing's 96 KB unified array, of which L1 has at most 64 KB; the L1 beside
 * shared memory in use is the array less it, at most l1_bytes (Volta and
 * later), and l1_bytes before Volta; smaller than l1_bytes or than the
 * shared memory an SM may have is an error. */
static void l1_shared_key(void **state) {
  (void)state;
  wgp_gpu *g = load_builtin_ok("rtx-2080-ti");
  assert_true(wgp_gpu_l1_shared_bytes(g) == 98304 && wgp_gpu_l1_bytes(g) == 65536);
  assert_non_null(strstr(wgp_gpu_source(g, "memory.l1_shared_bytes"), "96 KB"));
  assert_true(wgp_gpu_l1_beside_shared(g, 0) == 65536);     /* never all 96 KB */
  assert_true(wgp_gpu_l1_beside_shared(g, 16384) == 65536); /* the 32 KB carveout */
  assert_true(wgp_gpu_l1_beside_shared(g, 65536) == 32768); /* the 64 KB carveout */
  wgp_gpu_free(g);
  /* Turing's L1/shared data stage: a wavefront every other clock (2 cycles a
   * line), on every Turing description; one on Ampere */
  const char *turing[] = {"rtx-2080-ti",     "rtx-2080",        "rtx-2070", "titan-rtx",
                          "quadro-rtx-6000", "quadro-rtx-8000", "t4"};
  for (size_t i = 0; i < sizeof turing / sizeof *turing; i++) {
    g = load_builtin_ok(turing[i]);
    assert_true(wgp_gpu_global_line_cycles(g) == 2 && wgp_gpu_l1_shared_bytes(g) == 98304);
    wgp_gpu_free(g);
  }
  g = load_builtin_ok("rtx-3090"); /* absent: the array is l1_bytes */
  assert_null(wgp_gpu_source(g, "memory.l1_shared_bytes"));
  assert_true(wgp_gpu_l1_shared_bytes(g) == 131072 && wgp_gpu_global_line_cycles(g) == 1);
  assert_true(wgp_gpu_l1_beside_shared(g, 65536) == 65536);
  assert_true(wgp_gpu_l1_beside_shared(g, 200000) == 0);
  wgp_gpu_free(g);
  g = load_builtin_ok("gtx-980"); /* Maxwell: shared memory is a unit apart */
  assert_true(wgp_gpu_l1_beside_shared(g, 65536) == wgp_gpu_l1_bytes(g));
  wgp_gpu_free(g);
  expect_edit_error("memory.l1_shared_bytes", F("131072"),
                    "'memory.l1_shared_bytes' (131072) must be at least 'memory.l1_bytes' (262144)");
  expect_edit_error("memory.l1_shared_bytes", F("0"), "'memory.l1_shared_bytes' must be");
}

/* compiler (optional): whether the compiler strength-reduces loop addresses;
 * true when absent (H100 ships without it), the Kepler and Maxwell
 * descriptions say false with their evidence. */
static void compiler_section(void **state) {
  (void)state;
  wgp_gpu *g = load_builtin_ok("h100-sxm");
  assert_true(wgp_gpu_strength_reduces_loop_addresses(g));
  assert_null(wgp_gpu_source(g, "compiler.strength_reduces_loop_addresses"));
  wgp_gpu_free(g);
  g = load_builtin_ok("gtx-680");
  assert_false(wgp_gpu_strength_reduces_loop_addresses(g));
  assert_non_null(strstr(wgp_gpu_source(g, "compiler.strength_reduces_loop_addresses"), "inst_executed"));
  wgp_gpu_free(g);
  char *text = edited("compiler", "{\"strength_reduces_loop_addresses\": " F("false") "}");
  wgp_diag d;
  if (wgp_gpu_load_string(text, strlen(text), "h100.json", &g, &d) != WGP_OK)
    fail_msg("%s", d.message);
  assert_false(wgp_gpu_strength_reduces_loop_addresses(g));
  assert_string_equal(wgp_gpu_source(g, "compiler.strength_reduces_loop_addresses"), "test");
  wgp_gpu_free(g);
  free(text);
  expect_edit_error("compiler", "{\"strength_reduces_loop_addresses\": " F("1") "}",
                    "'compiler.strength_reduces_loop_addresses' must be a boolean, got an integer");
  expect_edit_error("compiler", "{\"unrolls\": " F("true") "}", "unknown key 'compiler.unrolls'");
  expect_edit_error("compiler", "{}", "missing key 'compiler.strength_reduces_loop_addresses'");
  expect_edit_error("compiler", "true", "'compiler' must be an object, got a boolean");
  expect_edit_error("compiler", "{\"strength_reduces_loop_addresses\": true}",
                    "'compiler.strength_reduces_loop_addresses' must be an object");
}

/* ops.sfu_fast (a fast intrinsic, one MUFU) is optional: without it a
 * description prices the class as its sfu_rsqrt, one MUFU instruction too,
 * and says so; the H100's is measured and differs from its precise sinf. */
static void fast_intrinsics_default_to_rsqrt(void **state) {
  (void)state;
  setenv("WGPERF_GPU_DIR", GPU_DIR, 1);
  wgp_gpu *h = load_builtin_ok("h100-sxm");
  assert_true(wgp_gpu_op_latency_cycles(h, WGP_OP_SFU_FAST) > 40 && wgp_gpu_op_latency_cycles(h, WGP_OP_SFU_FAST) < 45);
  assert_true(wgp_gpu_op_throughput_per_cycle(h, WGP_OP_SFU_FAST) > 3 * wgp_gpu_op_throughput_per_cycle(h, WGP_OP_SFU_SIN));
  assert_non_null(strstr(wgp_gpu_source(h, "ops.sfu_fast.latency_cycles"), "op=exp_fast"));
  wgp_gpu_free(h);
  wgp_gpu *g = load_builtin_ok("gtx-980");
  assert_true(wgp_gpu_op_latency_cycles(g, WGP_OP_SFU_FAST) == wgp_gpu_op_latency_cycles(g, WGP_OP_SFU_RSQRT));
  assert_true(wgp_gpu_op_throughput_per_cycle(g, WGP_OP_SFU_FAST) == wgp_gpu_op_throughput_per_cycle(g, WGP_OP_SFU_RSQRT));
  assert_true(wgp_gpu_op_instructions(g, WGP_OP_SFU_FAST) == 1);
  assert_non_null(strstr(wgp_gpu_source(g, "ops.sfu_fast.throughput_per_cycle"), "as ops.sfu_rsqrt"));
  /* a precise sinf costs several times the fast one there too */
  assert_true(wgp_gpu_op_latency_cycles(g, WGP_OP_SFU_SIN) > 2 * wgp_gpu_op_latency_cycles(g, WGP_OP_SFU_FAST));
  assert_true(wgp_gpu_op_throughput_per_cycle(g, WGP_OP_SFU_FAST) > 4 * wgp_gpu_op_throughput_per_cycle(g, WGP_OP_SFU_SIN));
  wgp_gpu_free(g);
  /* given, it is read and checked as every class is */
  expect_edit_error("ops.sfu_fast", "{\"latency_cycles\": {\"value\": 20, \"source\": \"t\"}}",
                    "missing key 'ops.sfu_fast.throughput_per_cycle'");
}

static void op_names(void **state) {
  (void)state;
  wgp_op_class c;
  assert_true(wgp_op_class_from_name("sfu_rsqrt", &c));
  assert_int_equal(c, WGP_OP_SFU_RSQRT);
  assert_string_equal(wgp_op_class_name(WGP_OP_FP64_SPECIAL), "fp64_special");
  assert_false(wgp_op_class_from_name("ld.global.32", &c));
  assert_string_equal(wgp_arch_name(WGP_ARCH_MAXWELL), "maxwell");
  /* every class by its name (the lookup hashes names), near misses not */
  for (int i = 0; i < WGP_OP_COUNT; i++) {
    assert_true(wgp_op_class_from_name(wgp_op_class_name((wgp_op_class)i), &c));
    assert_int_equal(c, i);
  }
  const char *not_classes[] = {"", "barrier", "branch", "fp32_ad", "fp32_addd", "int", "sfu_", "FP32_ADD"};
  for (size_t i = 0; i < sizeof not_classes / sizeof *not_classes; i++)
    assert_false(wgp_op_class_from_name(not_classes[i], &c));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_shipped_file_loads),
      cmocka_unit_test(h100_sxm_is_measured),
      cmocka_unit_test(fast_intrinsics_default_to_rsqrt),
      cmocka_unit_test(per_architecture_rules),
      cmocka_unit_test(builtin_search),
      cmocka_unit_test(unedited_loads),
      cmocka_unit_test(keys_and_types),
      cmocka_unit_test(ops),
      cmocka_unit_test(geometry),
      cmocka_unit_test(whole_file),
      cmocka_unit_test(aliases),
      cmocka_unit_test(open_spec),
      cmocka_unit_test(tolerant_names),
      cmocka_unit_test(grid_limits),
      cmocka_unit_test(compiler_section),
      cmocka_unit_test(shared_replay_latency),
      cmocka_unit_test(shared_own_pipe_key),
      cmocka_unit_test(dram_row_keys),
      cmocka_unit_test(dram_copy_key),
      cmocka_unit_test(l2_port_key),
      cmocka_unit_test(l1_shared_key),
      cmocka_unit_test(op_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
