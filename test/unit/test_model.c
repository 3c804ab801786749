/* test_model.c - unit tests of kernel model loading and validation.
 *
 * Valid models come from test/unit/data: minimal.json is hand-written, the
 * *.plugin.json files were written by the real plugin (wgperf extract on
 * examples/matmul_tiled.cl, examples/vadd.cu and test/lit/reduction.cl).
 * Invalid models are made by changing minimal.json in memory, one defect
 * each, and must be rejected with a message naming the defect.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "wgperf/model.h"

#define DATA WGPERF_SOURCE_DIR "/test/unit/data/"

static wgp_model *load_ok(const char *path) {
  wgp_model *m = NULL;
  wgp_diag d;
  if (wgp_model_load_file(path, &m, &d) != WGP_OK)
    fail_msg("%s", d.message);
  assert_non_null(m);
  return m;
}

/* Expressions' integer symbols for evaluation in tests. */
static wgp_eval_status env_lookup(void *user, const wgp_sym *s, int64_t *v, char *reason, size_t size) {
  (void)user;
  (void)reason;
  (void)size;
  switch (s->kind) {
  case WGP_SYM_ARG: *v = 64; return WGP_EVAL_OK; /* N */
  case WGP_SYM_LSZ: *v = 256; return WGP_EVAL_OK;
  case WGP_SYM_LID: *v = 3; return WGP_EVAL_OK;
  case WGP_SYM_GRP: *v = 2; return WGP_EVAL_OK;
  case WGP_SYM_ITER: *v = 1; return WGP_EVAL_OK;
  default: return WGP_EVAL_UNKNOWN;
  }
}

static int64_t eval_ok(const wgp_expr *e) {
  wgp_eval_env env = {env_lookup, NULL, 0};
  wgp_eval_result r;
  assert_non_null(e);
  if (wgp_expr_eval(e, &env, &r) != WGP_EVAL_OK)
    fail_msg("evaluation failed: %s", r.reason);
  return r.value;
}

/* ---- valid models -------------------------------------------------------- */

static void test_minimal(void **state) {
  (void)state;
  wgp_model *m = load_ok(DATA "minimal.json");
  assert_string_equal(wgp_model_module(m), "minimal.cl");
  assert_string_equal(wgp_model_target(m), "nvptx64-nvidia-nvcl");
  assert_string_equal(wgp_model_source_file(m), "minimal.cl");
  assert_int_equal(wgp_model_num_diagnostics(m), 0);
  assert_int_equal(wgp_model_num_kernels(m), 1);
  const wgp_kernel *k = wgp_model_find_kernel(m, "k");
  assert_non_null(k);
  assert_ptr_equal(wgp_model_find_kernel(m, "_Z1kPfi"), k);
  assert_null(wgp_model_find_kernel(m, "nope"));
  assert_int_equal(wgp_kernel_language(k), WGP_LANG_OPENCL);
  assert_string_equal(wgp_kernel_signature(k), "k(float*, int)");

  assert_int_equal(wgp_kernel_num_args(k), 2);
  const wgp_arg *a = wgp_kernel_arg(k, 0);
  assert_int_equal(wgp_arg_get_kind(a), WGP_ARG_POINTER);
  assert_int_equal(wgp_arg_space(a), WGP_SPACE_GLOBAL);
  assert_int_equal(wgp_arg_elem_bytes(a), 4);
  assert_string_equal(wgp_arg_elem_bytes_from(a), "type");
  assert_false(wgp_arg_is_const(a));
  const wgp_arg *n = wgp_kernel_find_arg(k, "N");
  assert_non_null(n);
  assert_int_equal(wgp_arg_index(n), 1);
  assert_int_equal(wgp_arg_get_kind(n), WGP_ARG_SCALAR);
  assert_int_equal(wgp_arg_bytes(n), 4);
  assert_null(wgp_arg_elem_bytes_from(n));

  assert_int_equal(wgp_kernel_num_arrays(k), 1);
  const wgp_array *arr = wgp_kernel_find_array(k, "k.tile");
  assert_non_null(arr);
  assert_int_equal(wgp_array_space(arr), WGP_SPACE_LOCAL);
  assert_int_equal(wgp_array_num_dims(arr), 1);
  assert_int_equal(wgp_array_dim(arr, 0), 16);

  assert_int_equal(wgp_kernel_num_blocks(k), 3);
  const wgp_block *b0 = wgp_kernel_block(k, 0), *b1 = wgp_kernel_block(k, 1), *b2 = wgp_kernel_block(k, 2);
  assert_int_equal(wgp_block_loop(b0), -1);
  assert_int_equal(wgp_block_num_succs(b0), 2);
  assert_int_equal(wgp_block_succ(b0, 1), 2);
  const wgp_branch *br = wgp_block_branch(b0);
  assert_non_null(br);
  assert_int_equal(wgp_branch_get_kind(br), WGP_BRANCH_COND);
  assert_int_equal(wgp_branch_get_class(br), WGP_BRANCH_WORK_ITEM);
  assert_int_equal(wgp_branch_depends(br), WGP_DEP_WORK_ITEM);
  assert_string_equal(wgp_branch_cond_text(br), "(slt:32 (trunc:64:32 lid.x) arg.N)");
  assert_int_equal(eval_ok(wgp_branch_cond(br)), 1);
  assert_int_equal(wgp_block_loop(b1), 0);
  assert_true(wgp_block_is_back_edge(b1, 1));
  assert_false(wgp_block_is_back_edge(b1, 2));
  assert_int_equal(wgp_block_count_of(b1, "ld.global.32"), 1);
  assert_int_equal(wgp_block_count_of(b1, "fp32_add"), 0);
  const char *cls;
  assert_int_equal(wgp_block_count(b1, 0, &cls), 1);
  assert_string_equal(cls, "branch");
  assert_int_equal(wgp_block_num_accesses(b1), 2);
  assert_true(wgp_block_is_exit(b2));
  assert_null(wgp_block_branch(b2));

  assert_int_equal(wgp_kernel_num_loops(k), 1);
  const wgp_loop *l = wgp_kernel_loop(k, 0);
  assert_int_equal(wgp_loop_header(l), 1);
  assert_int_equal(wgp_loop_parent(l), -1);
  assert_int_equal(wgp_loop_trip_kind(l), WGP_TRIP_EXACT);
  assert_int_equal(eval_ok(wgp_loop_trip_count(l)), 64);
  assert_int_equal(eval_ok(wgp_loop_backedge_count(l)), 63);
  assert_null(wgp_loop_max_trip_count(l));
  assert_null(wgp_loop_reason(l));
  size_t blk = 99;
  const wgp_expr *when = wgp_loop_exit(l, 0, &blk);
  assert_int_equal(blk, 1);
  assert_int_equal(eval_ok(when), 0);

  assert_int_equal(wgp_kernel_num_accesses(k), 3);
  const wgp_access *m0 = wgp_kernel_access(k, 0), *m2 = wgp_kernel_access(k, 2);
  assert_int_equal(wgp_access_get_kind(m0), WGP_ACCESS_LOAD);
  assert_int_equal(wgp_access_base_kind(m0), WGP_BASE_ARG);
  assert_int_equal(wgp_access_base_arg(m0), 0);
  assert_int_equal(eval_ok(wgp_access_offset(m0)), 4 * (3 + 1));
  assert_int_equal(wgp_access_get_kind(m2), WGP_ACCESS_ATOMIC);
  assert_string_equal(wgp_access_atomic_op(m2), "add");
  assert_false(wgp_access_affine(m2));
  assert_int_equal(wgp_expr_uses(wgp_access_offset(m2)), WGP_USES_DATA);
  assert_int_equal(wgp_access_base_kind(wgp_kernel_access(k, 1)), WGP_BASE_ARRAY);
  assert_int_equal(wgp_kernel_num_diagnostics(k), 1);
  assert_string_equal(wgp_kernel_diagnostic(k, 0), "note: hand-written");
  wgp_model_free(m);
}

static void test_plugin_matmul(void **state) {
  (void)state;
  wgp_model *m = load_ok(DATA "matmul_tiled.plugin.json");
  const wgp_kernel *k = wgp_model_find_kernel(m, "matmul_tiled");
  assert_non_null(k);
  assert_int_equal(wgp_kernel_num_arrays(k), 2);
  assert_int_equal(wgp_array_bytes(wgp_kernel_array(k, 0)), 1024);
  assert_int_equal(wgp_kernel_num_loops(k), 1);
  const wgp_loop *l = wgp_kernel_loop(k, 0);
  assert_int_equal(wgp_loop_trip_kind(l), WGP_TRIP_EXACT);
  assert_int_equal(eval_ok(wgp_loop_trip_count(l)), 64 / 16);
  size_t local = 0, global = 0;
  for (size_t i = 0; i < wgp_kernel_num_accesses(k); i++) {
    const wgp_access *a = wgp_kernel_access(k, i);
    local += wgp_access_space(a) == WGP_SPACE_LOCAL;
    global += wgp_access_space(a) == WGP_SPACE_GLOBAL;
    assert_true(wgp_access_affine(a));
    assert_non_null(wgp_access_offset(a));
  }
  assert_int_equal(global, 3);
  assert_int_equal(local, 34);
  size_t barriers = 0;
  for (size_t i = 0; i < wgp_kernel_num_static_counts(k); i++) {
    const char *cls;
    uint64_t c = wgp_kernel_static_count(k, i, &cls);
    if (strcmp(cls, "barrier") == 0)
      barriers = c;
  }
  assert_int_equal(barriers, 2);
  wgp_model_free(m);
}

static void test_plugin_cuda_and_recurrence(void **state) {
  (void)state;
  wgp_model *m = load_ok(DATA "vadd_cuda.plugin.json");
  const wgp_kernel *k = wgp_model_find_kernel(m, "vadd");
  assert_non_null(k);
  assert_int_equal(wgp_kernel_language(k), WGP_LANG_CUDA);
  assert_int_equal(wgp_kernel_num_loops(k), 0);
  assert_int_equal(wgp_kernel_num_accesses(k), 3);
  assert_int_equal(wgp_branch_get_class(wgp_block_branch(wgp_kernel_block(k, 0))), WGP_BRANCH_WORK_ITEM);
  wgp_model_free(m);

  m = load_ok(DATA "reduction.plugin.json");
  k = wgp_model_kernel(m, 0);
  const wgp_loop *l = NULL;
  for (size_t i = 0; i < wgp_kernel_num_loops(k); i++)
    if (wgp_loop_trip_kind(wgp_kernel_loop(k, i)) == WGP_TRIP_RECURRENCE)
      l = wgp_kernel_loop(k, i);
  assert_non_null(l);
  assert_true(wgp_loop_num_recurrences(l) >= 1);
  const wgp_expr *init, *next;
  const wgp_sym *s = wgp_loop_recurrence(l, 0, &init, &next);
  assert_int_equal(s->kind, WGP_SYM_RECUR);
  assert_int_equal(s->loop, wgp_loop_id(l));
  assert_int_equal(eval_ok(init), 128); /* lsz.x / 2 */
  assert_true(wgp_loop_num_exits(l) >= 1);
  wgp_model_free(m);
}

/* ---- invalid models ------------------------------------------------------ */

static json_t *minimal_json(void) {
  json_error_t err;
  json_t *j = json_load_file(DATA "minimal.json", 0, &err);
  if (!j)
    fail_msg("cannot read minimal.json: %s", err.text);
  return j;
}

static json_t *kernel0(json_t *root) { return json_array_get(json_object_get(root, "kernels"), 0); }
static json_t *item(json_t *root, const char *list, size_t i) {
  return json_array_get(json_object_get(kernel0(root), list), i);
}

static void expect_rejected(json_t *root, const char *needle) {
  char *text = json_dumps(root, 0);
  assert_non_null(text);
  wgp_model *m = NULL;
  wgp_diag d;
  d.message[0] = '\0';
  wgp_status st = wgp_model_load_string(text, strlen(text), "bad.json", &m, &d);
  free(text);
  json_decref(root);
  if (st == WGP_OK) {
    wgp_model_free(m);
    fail_msg("model accepted, expected an error mentioning '%s'", needle);
  }
  assert_int_equal(st, WGP_ERR_INPUT);
  assert_null(m);
  if (strncmp(d.message, "wgperf: error: bad.json: ", 25) != 0 || !strstr(d.message, needle))
    fail_msg("message '%s' should start with 'wgperf: error: bad.json: ' and mention '%s'", d.message, needle);
}

static void test_reject_format_version(void **state) {
  (void)state;
  json_t *j = minimal_json();
  json_object_set_new(j, "format", json_string("something-else"));
  expect_rejected(j, "not a wgperf kernel model (format is 'something-else'");
  j = minimal_json();
  json_object_del(j, "format");
  expect_rejected(j, "not a wgperf kernel model (no 'format' key)");
  j = minimal_json();
  json_object_set_new(j, "version", json_integer(99));
  expect_rejected(j, "kernel model version 99 is not supported (this wgperf reads version 1)");
  j = minimal_json();
  json_object_set_new(j, "version", json_string("1"));
  expect_rejected(j, "'version' must be an integer, got a string");
  j = minimal_json();
  json_object_del(j, "version");
  expect_rejected(j, "missing key 'version'");
  expect_rejected(json_array(), "the top level is an array");
}

static void test_reject_missing_and_types(void **state) {
  (void)state;
  json_t *j = minimal_json();
  json_object_del(j, "kernels");
  expect_rejected(j, "missing key 'kernels'");
  j = minimal_json();
  json_object_del(kernel0(j), "blocks");
  expect_rejected(j, "kernel 'k': missing key 'blocks'");
  j = minimal_json();
  json_object_set_new(kernel0(j), "irreducible", json_string("no"));
  expect_rejected(j, "kernel 'k': 'irreducible' must be a boolean, got a string");
  j = minimal_json();
  json_object_del(item(j, "blocks", 1), "succs");
  expect_rejected(j, "kernel 'k': block 1: missing key 'succs'");
  j = minimal_json();
  json_object_set_new(item(j, "loops", 0), "trip_kind", json_string("sometimes"));
  expect_rejected(j, "loop 0: 'trip_kind' is 'sometimes', expected one of 'exact'");
  j = minimal_json();
  json_object_set_new(item(j, "args", 1), "space", json_string("global"));
  expect_rejected(j, "arg 1: scalar argument in space 'global'");
  j = minimal_json();
  json_object_set_new(json_object_get(item(j, "blocks", 1), "counts"), "fp128_add", json_integer(1));
  expect_rejected(j, "block 1: 'counts': unknown cost class 'fp128_add'");
  j = minimal_json();
  json_object_set_new(item(j, "blocks", 2), "id", json_integer(5));
  expect_rejected(j, "block 2: 'id' is 5 but the item is at position 2");
  j = minimal_json();
  json_object_set_new(item(j, "memory", 0), "bytes", json_integer(-4));
  expect_rejected(j, "access M0: 'bytes' is -4");
  j = minimal_json();
  json_object_del(kernel0(j), "register_pressure");
  expect_rejected(j, "kernel 'k': missing key 'register_pressure'");
  j = minimal_json();
  json_object_set_new(kernel0(j), "registers", json_pack("{s:i}", "count", 0));
  expect_rejected(j, "kernel 'k': 'registers' must be {\"count\": 1..1024");
}

static void test_registers_from_ptxas(void **state) {
  (void)state;
  json_t *j = minimal_json();
  json_object_set_new(kernel0(j), "registers", json_pack("{s:i,s:s}", "count", 40, "source", "ptxas -v (test)"));
  char *text = json_dumps(j, 0);
  json_decref(j);
  wgp_model *m;
  wgp_diag d;
  assert_int_equal(wgp_model_load_string(text, strlen(text), "m.json", &m, &d), WGP_OK);
  free(text);
  const char *src;
  assert_int_equal(wgp_kernel_registers(wgp_model_kernel(m, 0), &src), 40);
  assert_string_equal(src, "ptxas -v (test)");
  assert_int_equal(wgp_kernel_register_pressure(wgp_model_kernel(m, 0)), 4);
  wgp_model_free(m);
}

/* floating (optional, scalars): a floating-point IR type whatever the
 * source type's name (CLBlast's real_arg) */
static void test_floating_scalar(void **state) {
  (void)state;
  json_t *j = minimal_json();
  json_object_set_new(item(j, "args", 1), "type", json_string("real_arg"));
  char *text = json_dumps(j, 0);
  wgp_model *m;
  wgp_diag d;
  assert_int_equal(wgp_model_load_string(text, strlen(text), "m.json", &m, &d), WGP_OK);
  free(text);
  assert_false(wgp_arg_is_floating(wgp_kernel_arg(wgp_model_kernel(m, 0), 1)));
  wgp_model_free(m);
  json_object_set_new(item(j, "args", 1), "floating", json_true());
  text = json_dumps(j, 0);
  assert_int_equal(wgp_model_load_string(text, strlen(text), "m.json", &m, &d), WGP_OK);
  free(text);
  assert_true(wgp_arg_is_floating(wgp_kernel_arg(wgp_model_kernel(m, 0), 1)));
  assert_false(wgp_arg_is_unsigned(wgp_kernel_arg(wgp_model_kernel(m, 0), 1)));
  wgp_model_free(m);
  json_object_set_new(item(j, "args", 1), "floating", json_string("yes"));
  expect_rejected(j, "arg 1: 'floating' must be a boolean");
}

/* resources (optional): one entry per architecture NVIDIA's compiler was
 * asked for; a GPU takes its own, else the nearest of its major version,
 * else the nearest; malformed entries are refused. */
static json_t *resource(const char *arch, const char *compiler, int regs, int stack, int st, int ld) {
  return json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:s}", "arch", arch, "compiler", compiler, "registers", regs,
                   "stack_bytes", stack, "spill_store_bytes", st, "spill_load_bytes", ld, "shared_bytes", 0,
                   "code_bytes", 1024, "source", arch);
}

static void test_resources_per_architecture(void **state) {
  (void)state;
  json_t *j = minimal_json();
  json_t *list = json_array();
  json_array_append_new(list, resource("sm_75", "nvcc", 61, 0, 0, 0));
  json_array_append_new(list, resource("sm_86", "nvcc", 255, 7896, 7900, 8652));
  json_array_append_new(list, resource("sm_90", "ptxas", 48, 8, 0, 0));
  json_object_set_new(kernel0(j), "resources", list);
  char *text = json_dumps(j, 0);
  json_decref(j);
  wgp_model *m;
  wgp_diag d;
  assert_int_equal(wgp_model_load_string(text, strlen(text), "m.json", &m, &d), WGP_OK);
  free(text);
  const wgp_kernel *k = wgp_model_kernel(m, 0);
  assert_int_equal(wgp_kernel_num_resources(k), 3);
  bool exact;
  const wgp_kernel_resources *r = wgp_kernel_resources_for(k, 86, &exact);
  assert_true(exact);
  assert_int_equal(r->registers, 255);
  assert_int_equal(r->stack_bytes, 7896);
  assert_int_equal(r->spill_store_bytes, 7900);
  assert_int_equal(r->spill_load_bytes, 8652);
  assert_int_equal(r->code_bytes, 1024);
  assert_true(r->from_source);
  assert_false(wgp_kernel_resources_for(k, 90, NULL)->from_source);
  /* sm_80 and sm_89 take sm_86's (same major), sm_70 sm_75's, sm_52 the nearest */
  r = wgp_kernel_resources_for(k, 80, &exact);
  assert_false(exact);
  assert_int_equal(r->arch, 86);
  assert_int_equal(wgp_kernel_resources_for(k, 89, NULL)->arch, 86);
  assert_int_equal(wgp_kernel_resources_for(k, 70, NULL)->arch, 75);
  assert_int_equal(wgp_kernel_resources_for(k, 52, NULL)->arch, 75);
  assert_int_equal(wgp_kernel_resources_for(k, 100, NULL)->arch, 90);
  wgp_model_free(m);
  /* none: NULL */
  j = minimal_json();
  text = json_dumps(j, 0);
  json_decref(j);
  assert_int_equal(wgp_model_load_string(text, strlen(text), "m.json", &m, &d), WGP_OK);
  free(text);
  assert_null(wgp_kernel_resources_for(wgp_model_kernel(m, 0), 86, &exact));
  assert_false(exact);
  wgp_model_free(m);
  /* malformed */
  j = minimal_json();
  list = json_array();
  json_array_append_new(list, resource("86", "nvcc", 40, 0, 0, 0));
  json_object_set_new(kernel0(j), "resources", list);
  expect_rejected(j, "kernel 'k': 'resources': arch '86' is not sm_XY");
  j = minimal_json();
  list = json_array();
  json_array_append_new(list, resource("sm_86", "gcc", 40, 0, 0, 0));
  json_object_set_new(kernel0(j), "resources", list);
  expect_rejected(j, "kernel 'k': 'resources': compiler 'gcc' is neither 'nvcc' nor 'ptxas'");
  j = minimal_json();
  list = json_array();
  json_array_append_new(list, resource("sm_86", "nvcc", 40, -8, 0, 0));
  json_object_set_new(kernel0(j), "resources", list);
  expect_rejected(j, "'stack_bytes' is -8");
}

/* launch_attributes (optional): reqd_work_group_size and __launch_bounds__
 * as the plugin writes them; absent: no constraint; malformed: refused. */
static void test_launch_attributes(void **state) {
  (void)state;
  json_t *j = minimal_json();
  char *text = json_dumps(j, 0);
  wgp_model *m;
  wgp_diag d;
  assert_int_equal(wgp_model_load_string(text, strlen(text), "m.json", &m, &d), WGP_OK);
  free(text);
  const wgp_kernel *k = wgp_model_kernel(m, 0);
  uint64_t reqd[3], local[3] = {1024, 1, 1};
  assert_false(wgp_kernel_reqd_work_group_size(k, reqd));
  assert_int_equal(wgp_kernel_max_threads_per_block(k), 0);
  assert_null(wgp_kernel_launch_attribute(k));
  assert_true(wgp_kernel_allows_local_size(k, local, NULL, 0));
  wgp_model_free(m);

  json_object_set_new(kernel0(j), "launch_attributes",
                      json_pack("{s:[iii],s:i,s:i,s:s}", "reqd_work_group_size", 16, 8, 1, "max_threads_per_block", 128,
                                "min_blocks_per_sm", 2, "attribute", "reqd_work_group_size(16, 8, 1)"));
  text = json_dumps(j, 0);
  assert_int_equal(wgp_model_load_string(text, strlen(text), "m.json", &m, &d), WGP_OK);
  free(text);
  k = wgp_model_kernel(m, 0);
  assert_true(wgp_kernel_reqd_work_group_size(k, reqd));
  assert_true(reqd[0] == 16 && reqd[1] == 8 && reqd[2] == 1);
  assert_int_equal(wgp_kernel_max_threads_per_block(k), 128);
  assert_int_equal(wgp_kernel_min_blocks_per_sm(k), 2);
  assert_string_equal(wgp_kernel_launch_attribute(k), "reqd_work_group_size(16, 8, 1)");
  char why[256];
  uint64_t ok[3] = {16, 8, 1}, bad[3] = {8, 16, 1};
  assert_true(wgp_kernel_allows_local_size(k, ok, why, sizeof why));
  assert_false(wgp_kernel_allows_local_size(k, bad, why, sizeof why));
  assert_string_equal(why, "kernel 'k' requires work-groups of 16x8x1 (reqd_work_group_size(16, 8, 1)), got 8x16x1");
  wgp_model_free(m);
  json_decref(j);

  j = minimal_json();
  json_object_set_new(kernel0(j), "launch_attributes", json_pack("{s:[ii]}", "reqd_work_group_size", 16, 8));
  expect_rejected(j, "'launch_attributes.reqd_work_group_size' must be a list of 3 sizes");
  j = minimal_json();
  json_object_set_new(kernel0(j), "launch_attributes", json_pack("{s:i}", "max_threads_per_block", 0));
  expect_rejected(j, "'launch_attributes.max_threads_per_block' must be an integer from 1 to 2^31");
  j = minimal_json();
  json_object_set_new(kernel0(j), "launch_attributes", json_integer(3));
  expect_rejected(j, "'launch_attributes' must be an object");
}

/* A block's counts after loop strength reduction: less what it removes,
 * plus its pointer increments as addr; the counts themselves elsewhere;
 * removals the block does not have and more steps than accesses refused. */
static json_t *strength_reduced(const char *removes_class, int removes, int steps) {
  json_t *j = minimal_json();
  json_t *sr = json_object();
  json_t *rm = json_object();
  json_object_set_new(rm, removes_class, json_integer(removes));
  json_object_set_new(sr, "removes", rm);
  json_object_set_new(sr, "pointer_steps", json_integer(steps));
  json_object_set_new(item(j, "blocks", 1), "strength_reduced", sr);
  return j;
}

static void test_strength_reduced_counts(void **state) {
  (void)state;
  json_t *j = strength_reduced("int_add", 1, 2);
  char *text = json_dumps(j, 0);
  json_decref(j);
  wgp_model *m;
  wgp_diag d;
  assert_int_equal(wgp_model_load_string(text, strlen(text), "sr.json", &m, &d), WGP_OK);
  free(text);
  const wgp_kernel *k = wgp_model_kernel(m, 0);
  const wgp_block *b = wgp_kernel_block(k, 1);
  assert_int_equal(wgp_block_count_of_in(b, false, "int_add"), 1);
  assert_int_equal(wgp_block_count_of_in(b, true, "int_add"), 0);
  assert_int_equal(wgp_block_count_of_in(b, false, "addr"), 0);
  assert_int_equal(wgp_block_count_of_in(b, true, "addr"), 2);
  assert_int_equal(wgp_block_count_of_in(b, true, "ld.global.32"), 1);
  uint64_t total = 0;
  for (size_t i = 0; i < wgp_block_num_counts_in(b, true); i++)
    total += wgp_block_count_in(b, true, i, NULL);
  assert_int_equal(total, 5); /* branch, ld, st, 2 addr */
  /* a block without it: the same counts either way */
  const wgp_block *b0 = wgp_kernel_block(k, 0);
  assert_int_equal(wgp_block_num_counts_in(b0, true), wgp_block_num_counts(b0));
  assert_int_equal(wgp_block_count_of_in(b0, true, "cmp_select"), 1);
  wgp_model_free(m);
  expect_rejected(strength_reduced("int_add", 2, 0), "block 1: 'strength_reduced' removes 2 'int_add' of the block's 1");
  expect_rejected(strength_reduced("int_mul", 1, 0), "block 1: 'strength_reduced' removes 1 'int_mul' of the block's 0");
  expect_rejected(strength_reduced("int_add", 1, 4), "'pointer_steps' is 4, expected 0 to 3");
  expect_rejected(strength_reduced("no_such", 1, 0), "unknown cost class 'no_such'");
  j = minimal_json();
  json_object_set_new(item(j, "blocks", 1), "strength_reduced", json_integer(3));
  expect_rejected(j, "'strength_reduced' must be an object, got an integer");
}

static void test_reject_ranges(void **state) {
  (void)state;
  json_t *j = minimal_json();
  json_array_set_new(json_object_get(item(j, "blocks", 0), "succs"), 1, json_integer(9));
  expect_rejected(j, "kernel 'k': block 0: successor 9 out of range (3 blocks)");
  j = minimal_json();
  json_object_set_new(item(j, "blocks", 0), "loop", json_integer(4));
  expect_rejected(j, "block 0: loop 4 out of range (1 loops)");
  j = minimal_json();
  json_array_set_new(json_object_get(item(j, "blocks", 1), "memory"), 0, json_integer(7));
  expect_rejected(j, "block 1: access 7 in 'memory' out of range (3 accesses)");
  j = minimal_json();
  json_object_set_new(item(j, "loops", 0), "header", json_integer(3));
  expect_rejected(j, "loop 0: header 3 out of range (3 blocks)");
  j = minimal_json();
  json_object_set_new(item(j, "loops", 0), "parent", json_integer(1));
  expect_rejected(j, "loop 0: parent 1 out of range (1 loops)");
  j = minimal_json();
  json_object_set_new(item(j, "memory", 1), "block", json_integer(3));
  expect_rejected(j, "access M1: block 3 out of range (3 blocks)");
  j = minimal_json();
  json_object_set_new(json_object_get(item(j, "memory", 0), "base"), "arg", json_integer(1));
  expect_rejected(j, "access M0: base: argument 1 is not a pointer");
  j = minimal_json();
  json_object_set_new(json_object_get(item(j, "memory", 0), "base"), "arg", json_integer(2));
  expect_rejected(j, "access M0: base: argument 2 out of range (2 arguments)");
  j = minimal_json();
  json_object_set_new(json_object_get(item(j, "memory", 1), "base"), "name", json_string("k.other"));
  expect_rejected(j, "array 'k.other' is not among the kernel's arrays");
  /* instruction counts the simulator could not expand (found by fuzz-estimate:
   * a count of 2^31 exhausted memory), alone or summed over blocks */
  j = minimal_json();
  json_object_set_new(json_object_get(item(j, "blocks", 1), "counts"), "int_logic", json_integer(2147483647));
  expect_rejected(j, "block 1: more than 1048576 instructions counted in the kernel's blocks (count of 'int_logic' "
                     "2147483647)");
  j = minimal_json();
  json_object_set_new(json_object_get(item(j, "blocks", 0), "counts"), "int_add", json_integer(600000));
  json_object_set_new(json_object_get(item(j, "blocks", 2), "counts"), "int_add", json_integer(600000));
  expect_rejected(j, "block 2: more than 1048576 instructions");
  j = minimal_json();
  json_object_set_new(json_object_get(item(j, "blocks", 0), "counts"), "int_add", json_integer(1000000));
  wgp_model *m;
  wgp_diag d;
  char *text = json_dumps(j, 0);
  assert_int_equal(wgp_model_load_string(text, strlen(text), "ok.json", &m, &d), WGP_OK);
  wgp_model_free(m);
  free(text);
  json_decref(j);
}

static void test_reject_cross_references(void **state) {
  (void)state;
  json_t *j = minimal_json();
  json_array_set_new(json_object_get(item(j, "blocks", 1), "back_edges"), 0, json_integer(0));
  expect_rejected(j, "block 1: back edge to 0 is not a successor");
  j = minimal_json();
  json_array_set_new(json_object_get(json_object_get(item(j, "blocks", 0), "branch"), "targets"), 0,
                     json_integer(0));
  expect_rejected(j, "block 0: branch: target 0 is not a successor");
  j = minimal_json();
  json_object_set_new(item(j, "memory", 2), "block", json_integer(1));
  expect_rejected(j, "access M2: not listed in the 'memory' of its block 1");
  j = minimal_json();
  json_object_set_new(item(j, "blocks", 2), "loop", json_integer(0));
  expect_rejected(j, "block 2: loop 0 does not contain the block");
  j = minimal_json();
  json_object_set_new(item(j, "loops", 0), "depth", json_integer(2));
  expect_rejected(j, "loop 0: 'depth' is 2 but the loop is nested 1 deep");
}

static void add_second_loop(json_t *root, long parent0, long parent1, int depth1) {
  json_t *loops = json_object_get(kernel0(root), "loops");
  json_t *l1 = json_deep_copy(json_array_get(loops, 0));
  json_object_set_new(l1, "id", json_integer(1));
  json_object_set_new(l1, "parent", parent1 < 0 ? json_null() : json_integer(parent1));
  json_object_set_new(l1, "depth", json_integer(depth1));
  json_object_set_new(json_array_get(loops, 0), "parent", parent0 < 0 ? json_null() : json_integer(parent0));
  json_array_append_new(loops, l1);
}

static void test_loop_nest(void **state) {
  (void)state;
  /* valid: loop 1 nested in loop 0 */
  json_t *j = minimal_json();
  add_second_loop(j, -1, 0, 2);
  char *text = json_dumps(j, 0);
  json_decref(j);
  wgp_model *m = NULL;
  wgp_diag d;
  if (wgp_model_load_string(text, strlen(text), "nest.json", &m, &d) != WGP_OK)
    fail_msg("%s", d.message);
  free(text);
  const wgp_kernel *k = wgp_model_kernel(m, 0);
  assert_int_equal(wgp_loop_parent(wgp_kernel_loop(k, 1)), 0);
  assert_int_equal(wgp_loop_depth(wgp_kernel_loop(k, 1)), 2);
  wgp_model_free(m);

  j = minimal_json();
  add_second_loop(j, 1, 0, 2);
  expect_rejected(j, "loop nest cycle");
  j = minimal_json();
  add_second_loop(j, -1, 1, 2);
  expect_rejected(j, "loop 1: loop is its own parent");
}

static void test_reject_expressions(void **state) {
  (void)state;
  json_t *j = minimal_json();
  json_object_set_new(json_object_get(item(j, "blocks", 0), "branch"), "cond", json_string("(slt:32 lid.x"));
  expect_rejected(j, "block 0: branch: 'cond': invalid expression '(slt:32 lid.x': missing ')'");
  j = minimal_json();
  json_object_set_new(item(j, "loops", 0), "trip_count", json_string("(frobnicate 1 2)"));
  expect_rejected(j, "loop 0: 'trip_count': invalid expression '(frobnicate 1 2)': unknown operation 'frobnicate'");
  j = minimal_json();
  json_object_set_new(item(j, "memory", 0), "offset", json_string("(add 1 99999999999999999999)"));
  expect_rejected(j, "access M0: 'offset': invalid expression");
  j = minimal_json();
  json_object_set_new(json_array_get(json_object_get(item(j, "loops", 0), "exits"), 0), "exit_when",
                      json_string(""));
  expect_rejected(j, "loop 0: exit 0: 'exit_when': invalid expression '': empty expression");
  j = minimal_json();
  json_t *rec = json_pack("{s:s, s:s, s:s}", "sym", "rv.L3.0", "init", "0", "next", "(add rv.L3.0 1)");
  json_array_append_new(json_object_get(item(j, "loops", 0), "recurrences"), rec);
  expect_rejected(j, "loop 0: recurrence 0: 'sym' must be a symbol rv.L0.<k>");
}

static void test_reject_files(void **state) {
  (void)state;
  wgp_model *m = (wgp_model *)1;
  wgp_diag d;
  assert_int_equal(wgp_model_load_file(DATA "does-not-exist.json", &m, &d), WGP_ERR_IO);
  assert_null(m);
  assert_non_null(strstr(d.message, "does-not-exist.json: cannot open: No such file"));
  const char *bad = "{\"format\": \"wgperf-kernel-model\",\n \"version\": 1,,}";
  assert_int_equal(wgp_model_load_string(bad, strlen(bad), "broken.json", &m, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "wgperf: error: broken.json:2:"));
  assert_non_null(strstr(d.message, "invalid JSON"));
  const char *dup = "{\"format\": \"wgperf-kernel-model\", \"format\": \"x\"}";
  assert_int_equal(wgp_model_load_string(dup, strlen(dup), "dup.json", &m, &d), WGP_ERR_INPUT);
  assert_non_null(strstr(d.message, "duplicate"));
  /* a NULL diag is allowed */
  assert_int_equal(wgp_model_load_string(dup, strlen(dup), "dup.json", &m, NULL), WGP_ERR_INPUT);
  wgp_model_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_minimal),
      cmocka_unit_test(test_plugin_matmul),
      cmocka_unit_test(test_plugin_cuda_and_recurrence),
      cmocka_unit_test(test_reject_format_version),
      cmocka_unit_test(test_reject_missing_and_types),
      cmocka_unit_test(test_registers_from_ptxas),
      cmocka_unit_test(test_floating_scalar),
      cmocka_unit_test(test_resources_per_architecture),
      cmocka_unit_test(test_launch_attributes),
      cmocka_unit_test(test_reject_ranges),
      cmocka_unit_test(test_strength_reduced_counts),
      cmocka_unit_test(test_reject_cross_references),
      cmocka_unit_test(test_loop_nest),
      cmocka_unit_test(test_reject_expressions),
      cmocka_unit_test(test_reject_files),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
