/* mutator.c - a JSON-aware mutator for the fuzz targets that read JSON
 * (libFuzzer's LLVMFuzzerCustomMutator; only the fuzz-* binaries link it).
 *
 * Byte-level mutation of a kernel model mostly breaks its JSON or its
 * contract, so the analyzer behind the loader is rarely reached.  Half of
 * the time this mutator instead parses the input, changes one value and
 * writes it back: a number becomes an extreme (0, -1, 2^31, 2^32, 2^40,
 * 2^63 - 1, INT64_MIN, ...) or a neighbour, an expression string gets one
 * token replaced or wrapped (a symbol, an extreme constant, a division by
 * zero, ...), an array loses, repeats or swaps an element, an object loses a
 * key, a value changes type.  The rest of the time, and whenever the input
 * is not JSON, libFuzzer's own mutations apply.  fuzz_estimate.c mutates
 * one of its lines this way.
 */
#include "mutator.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static unsigned rnd(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

typedef struct nodes {
  json_t *v[4096];
  json_t *parent[4096];
  size_t n;
} nodes;

static void collect(json_t *j, json_t *parent, nodes *ns) {
  if (ns->n == sizeof ns->v / sizeof *ns->v)
    return;
  ns->v[ns->n] = j;
  ns->parent[ns->n++] = parent;
  if (json_is_object(j)) {
    const char *k;
    json_t *c;
    json_object_foreach(j, k, c) collect(c, j, ns);
  } else if (json_is_array(j)) {
    for (size_t i = 0; i < json_array_size(j); i++)
      collect(json_array_get(j, i), j, ns);
  }
}

static const long long extremes[] = {0, 1, -1, 2, 3, 7, 31, 32, 33, 64, 1024, 1025, 65536, 2147483647LL,
                                     -2147483647LL - 1, 2147483648LL, 4294967295LL, 4294967296LL,
                                     1099511627776LL, 9223372036854775807LL, -9223372036854775807LL - 1};
#define NEXT (sizeof extremes / sizeof *extremes)

static const char *tokens[] = {"0", "-1", "1", "32", "4294967296", "1099511627776", "9223372036854775807",
                               "-9223372036854775808", "lid.x", "lid.y", "lid.z", "grp.x", "grp.y", "lsz.x",
                               "ngrp.x", "gid.x", "gsz.x", "goff.x", "laneid", "warpsize", "wdim", "arg.n",
                               "it.L0", "it.L1", "rv.L0.0", "(load M0)", "?", "(udiv 1 0)", "(sub 0 arg.n)",
                               "(mul 9223372036854775807 gid.x)", "(select lid.x 0 -1)"};
static const char *ops[] = {"add", "mul", "sub", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr",
                            "smin", "umax", "and", "xor", "add:32", "mul:nsw", "sub:32:nuw"};
#define NTOK (sizeof tokens / sizeof *tokens)
#define NOPS (sizeof ops / sizeof *ops)

/* One token of the expression TEXT replaced or wrapped; NULL when TEXT has no token. */
static char *mutate_expr(const char *text, unsigned *s) {
  size_t len = strlen(text), starts[512], lens[512], nt = 0;
  for (size_t i = 0; i < len && nt < 512;) {
    if (text[i] == '(' || text[i] == ')' || text[i] == ' ') {
      i++;
      continue;
    }
    size_t j = i;
    while (j < len && text[j] != '(' && text[j] != ')' && text[j] != ' ')
      j++;
    starts[nt] = i;
    lens[nt++] = j - i;
    i = j;
  }
  if (!nt)
    return NULL;
  size_t t = rnd(s) % nt;
  char repl[256];
  switch (rnd(s) % 4) {
  case 0: snprintf(repl, sizeof repl, "%s", tokens[rnd(s) % NTOK]); break;
  case 1: { /* another token of the same expression */
    size_t u = rnd(s) % nt;
    snprintf(repl, sizeof repl, "%.*s", (int)lens[u], text + starts[u]);
    break;
  }
  case 2: /* wrap: (op TOKEN X) */
    snprintf(repl, sizeof repl, "(%s %.*s %s)", ops[rnd(s) % NOPS], (int)lens[t], text + starts[t],
             tokens[rnd(s) % NTOK]);
    break;
  default: snprintf(repl, sizeof repl, "%s", ops[rnd(s) % NOPS]); break; /* an operator in place of anything */
  }
  size_t rl = strlen(repl);
  char *out = malloc(len - lens[t] + rl + 1);
  if (!out)
    return NULL;
  memcpy(out, text, starts[t]);
  memcpy(out + starts[t], repl, rl);
  strcpy(out + starts[t] + rl, text + starts[t] + lens[t]);
  return out;
}

static void replace(json_t *parent, json_t *old, json_t *with) {
  if (json_is_object(parent)) {
    const char *k;
    json_t *c;
    json_object_foreach(parent, k, c) if (c == old) {
      json_object_set_new(parent, k, with);
      return;
    }
  } else if (json_is_array(parent)) {
    for (size_t i = 0; i < json_array_size(parent); i++)
      if (json_array_get(parent, i) == old) {
        json_array_set_new(parent, i, with);
        return;
      }
  }
  json_decref(with);
}

size_t fuzz_mutate_json(uint8_t *data, size_t size, size_t max_size, unsigned seed) {
  unsigned s = seed;
  json_t *root = rnd(&s) % 2 ? json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL) : NULL;
  if (!root)
    return LLVMFuzzerMutate(data, size, max_size);
  nodes *ns = malloc(sizeof *ns);
  if (!ns) {
    json_decref(root);
    return LLVMFuzzerMutate(data, size, max_size);
  }
  ns->n = 0;
  collect(root, NULL, ns);
  size_t i = rnd(&s) % ns->n;
  json_t *v = ns->v[i], *p = ns->parent[i];
  unsigned what = rnd(&s) % 8;
  if (json_is_integer(v) && p) {
    json_int_t x = json_integer_value(v);
    uint64_t u = (uint64_t)x; /* neighbours wrap: unsigned arithmetic */
    json_int_t y = what < 5    ? (json_int_t)extremes[rnd(&s) % NEXT]
                   : what == 5 ? (json_int_t)(u + 1)
                   : what == 6 ? (json_int_t)(u - 1)
                               : (json_int_t)(0 - u);
    replace(p, v, json_integer(y));
  } else if (json_is_real(v) && p) {
    static const double reals[] = {0.0, -0.0, 1e308, -1e308, 1e-308, 0.5, 1.0000001, 4294967296.5};
    replace(p, v, json_real(reals[rnd(&s) % (sizeof reals / sizeof *reals)]));
  } else if (json_is_string(v) && p && what < 6) {
    char *m = mutate_expr(json_string_value(v), &s);
    if (m)
      replace(p, v, json_string(m));
    free(m);
  } else if (json_is_array(v) && json_array_size(v) > 0) {
    size_t n = json_array_size(v), a = rnd(&s) % n, b = rnd(&s) % n;
    if (what < 3)
      json_array_remove(v, a);
    else if (what < 6)
      json_array_append(v, json_array_get(v, a));
    else {
      json_t *x = json_incref(json_array_get(v, a));
      json_array_set(v, a, json_array_get(v, b));
      json_array_set_new(v, b, x);
    }
  } else if (json_is_object(v) && json_object_size(v) > 0 && what < 4) {
    size_t k = rnd(&s) % json_object_size(v), j = 0;
    const char *key;
    json_t *c;
    json_object_foreach(v, key, c) if (j++ == k) {
      json_object_del(v, key);
      break;
    }
  } else if (p) {
    json_t *with[] = {json_null(), json_true(), json_integer(-1), json_string("?"), json_array(), json_object()};
    size_t w = rnd(&s) % 6;
    for (size_t q = 0; q < 6; q++)
      if (q != w)
        json_decref(with[q]);
    replace(p, v, with[w]);
  }
  free(ns);
  char *out = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
  json_decref(root);
  size_t n = out ? strlen(out) : 0;
  if (!out || n > max_size) {
    free(out);
    return LLVMFuzzerMutate(data, size, max_size);
  }
  memcpy(data, out, n);
  free(out);
  return n;
}
