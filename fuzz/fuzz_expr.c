/* fuzz_expr.c - the expression parser, printer and evaluator
 * (analyzer/expr.c, expr_eval.c) on any text and any symbol values.
 *
 * Input: the expression on the first line; the bytes after it give the
 * symbols' values (8 bytes each, little-endian, assigned by a hash of the
 * symbol) and, in the first of them, the evaluation flags.  Checks: the
 * printed text parses back to itself; a known result of width W is a
 * sign-extended W-bit value (0 or 1 for width 1); an unknown one has a
 * reason.
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct env_data {
  const uint8_t *bytes;
  size_t n; /* values available */
  unsigned mode;
} env_data;

static wgp_eval_status lookup(void *user, const wgp_sym *s, int64_t *value, char *reason, size_t size) {
  const env_data *ev = user;
  size_t h = (size_t)s->kind * 31u + s->dim * 7u + s->loop * 13u + s->index * 3u;
  if (s->name)
    for (const char *p = s->name; *p; p++)
      h = h * 33u + (unsigned char)*p;
  if (ev->n == 0) {
    *value = (int64_t)(h % 5);
    return WGP_EVAL_OK;
  }
  size_t i = h % ev->n;
  /* some symbols are unknown or fail, as loaded values and missing arguments do */
  if ((ev->mode >> 1 & 3) == 1 && s->kind == WGP_SYM_LOAD) {
    snprintf(reason, size, "loaded");
    return WGP_EVAL_UNKNOWN;
  }
  if ((ev->mode >> 1 & 3) == 2 && s->kind == WGP_SYM_ARG)
    return WGP_EVAL_ERROR;
  uint64_t v = 0;
  memcpy(&v, ev->bytes + 8 * i, 8);
  *value = (int64_t)v;
  return WGP_EVAL_OK;
}

static void check_result(const char *text, wgp_eval_status st, const wgp_eval_result *r) {
  if (st == WGP_EVAL_OK) {
    unsigned w = r->width;
    if (w == 0 || w > 64)
      fuzz_fail("'%s': result width %u", text, w);
    if (w == 1 && r->value != 0 && r->value != 1)
      fuzz_fail("'%s': 1-bit result %lld", text, (long long)r->value);
    if (w > 1 && w < 64) {
      int64_t lo = -(INT64_C(1) << (w - 1)), hi = (INT64_C(1) << (w - 1)) - 1;
      if (r->value < lo || r->value > hi)
        fuzz_fail("'%s': %u-bit result %lld out of range", text, w, (long long)r->value);
    }
  } else if (st == WGP_EVAL_UNKNOWN && r->reason[0] == 0) {
    fuzz_fail("'%s': unknown without a reason", text);
  } else if (strnlen(r->reason, WGP_EVAL_REASON_SIZE) == WGP_EVAL_REASON_SIZE) {
    fuzz_fail("'%s': reason not terminated", text);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nl = memchr(data, '\n', size);
  size_t tlen = nl ? (size_t)(nl - data) : size;
  char *text = fuzz_text(data, tlen);
  const uint8_t *rest = nl ? nl + 1 : data + size;
  size_t rlen = (size_t)(data + size - rest);
  env_data ed = {rest + (rlen > 0), rlen > 0 ? (rlen - 1) / 8 : 0, rlen > 0 ? rest[0] : 0};
  wgp_expr *e;
  wgp_diag d;
  wgp_status st = wgp_expr_parse(text, &e, &d);
  if (st == WGP_ERR_INPUT && d.message[0] == 0)
    fuzz_fail("'%s': parse error without a reason", text);
  if (st == WGP_OK) {
    char *printed = wgp_expr_to_string(e);
    wgp_expr *back;
    if (printed) {
      if (wgp_expr_parse(printed, &back, &d) != WGP_OK)
        fuzz_fail("'%s' prints as '%s', which does not parse: %s", text, printed, d.message);
      char *again = wgp_expr_to_string(back);
      if (again && strcmp(again, printed) != 0)
        fuzz_fail("'%s' prints as '%s' and then as '%s'", text, printed, again);
      free(again);
      wgp_expr_free(back);
    }
    (void)wgp_expr_uses(e);
    wgp_eval_env env = {lookup, &ed, ed.mode & 1 ? WGP_EVAL_WRAP64 : 0};
    wgp_eval_result r;
    check_result(text, wgp_expr_eval(e, &env, &r), &r);
    wgp_eval_env none = {NULL, NULL, 0};
    check_result(text, wgp_expr_eval(e, &none, &r), &r);
    free(printed);
    wgp_expr_free(e);
  }
  free(text);
  return 0;
}
