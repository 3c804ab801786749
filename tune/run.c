/* run.c - a tuning space ranked (wgp_tune_run, tune.h).
 *
 * The work, in three phases on worker processes forked once (so that a
 * compiler's messages go to a log of their own and a crash costs one code,
 * not the run):
 *   1. preprocessing: each configuration's source through `clang -E` with its
 *      #defines (driver/preprocess.c); the SHA-256 of the output, the flags
 *      and the tools is its code.  Configurations of one code compile to one
 *      model.  A second run finds the code without clang: the cache keeps,
 *      per configuration and flags, the code and the files the preprocessor
 *      read, with their sizes and modification times (ccache's "direct
 *      mode"); any change to one of them preprocesses again.
 *   2. compiling: each distinct code once through wgp_extract (clang -O3
 *      with the plugin, ptxas' registers when the driver finds ptxas) into
 *      CACHE/models/, unless a model or a failure is there already.
 *   3. estimating: each distinct launch of a code once (occupancy, traces,
 *      caches, the warp pipeline: estimate.h) in the worker that compiled
 *      it, while its model is loaded.
 * Nothing is estimated more cheaply than `wgperf predict` would: the
 * prediction of a configuration is what predict gives for its source with
 * the same -D flags, grid, block and buffers.
 *
 * Cache layout (safe to share: every file is written beside its final name
 * and renamed into place, and entries are keyed by content):
 *   CACHE/pp/XX/KEY          code of a configuration's flags, and the files it read
 *   CACHE/models/XX/CODE.json  the kernel model
 *   CACHE/models/XX/CODE.log   what the driver said while making it (ptxas' verdict)
 *   CACHE/models/XX/CODE.fail  the compiler's first error line, for a code that does not compile
 *   CACHE/models/XX/CODE.i.gz  the preprocessed text of a code not compiled yet (gzip'd), which
 *                              wgperf-cc compiles in place of the source; removed once the code is
 *                              compiled.  Its part after the texts' common beginning, with that
 *                              beginning's name, or the whole text (a few KB or 0.15 MB for a
 *                              convolution code)
 *   CACHE/models/heads/HEX.i.gz  that beginning (the compiler's headers), once
 *   CACHE/src/HASH.cu|.cl    the source that includes a kernel split over several files
 *   CACHE/src/kernel-tuner-HASH.h  the space's definitions, included after the compiler's
 *                              own headers (defines.c), and HASH.cu: a kernel file without
 *                              the `#pragma unroll` of its loop_unroll_factor parameters at 0
 */
#define _GNU_SOURCE /* getline, dprintf, strdup */
#include "result_internal.h"
#include "defines_internal.h"
#include "files_internal.h"
#include "sha256_internal.h"
#include "space_internal.h"

#include "wgperf/analyze.h"
#include "wgperf/baseline.h"
#include "wgperf/bottleneck.h"
#include "wgperf/ccserver.h"
#include "wgperf/estimate.h"
#include "wgperf/footprint.h"
#include "wgperf/hints.h"
#include "wgperf/launch.h"
#include "wgperf/model.h"
#include "wgperf/preprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#ifndef WGPERF_VERSION
#define WGPERF_VERSION "0"
#endif

#define MAX_WORKERS 64

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void) {
  struct rusage a, b;
  getrusage(RUSAGE_SELF, &a);
  getrusage(RUSAGE_CHILDREN, &b);
  return (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec + b.ru_stime.tv_sec) * 1e3 +
         (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec + b.ru_stime.tv_usec) / 1e3;
}

static double rusage_ms(int who) {
  struct rusage u;
  getrusage(who, &u);
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

/* CPU of this process, the children it waited for, and its wgperf-cc. */
static wgp_ccs *worker_ccs;
static double step_cpu_ms(void) {
  return rusage_ms(RUSAGE_SELF) + rusage_ms(RUSAGE_CHILDREN) + (worker_ccs ? wgp_ccs_cpu_ms(worker_ccs) : 0);
}

static wgp_status nomem(wgp_diag *d) { return wgp_diag_set(d, WGP_ERR_NOMEM, "wgperf: error: out of memory"); }

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* ---- the run's shared state (built before the workers fork) ---------------- */

typedef struct cfg {
  size_t index;      /* in the space */
  const uint16_t *v; /* value indices */
  wgp_tune_launch launch;
  /* results */
  size_t source; /* run.sources: what it compiles */
  bool done, ok;
  bool bounded, pruned; /* --prune: LB and UB known; not estimated */
  double lb, ub;
  char code[65];
  bool has_code;
  char *reason, *limiter, *bottleneck, *bound, *regs_from;
  char *outside; /* checked (check_top): the buffer its launch accesses outside of, in words */
  double t, b, w;
  double bsp, roof; /* the baselines, us (BSP with lambda 1); NAN when not made */
  unsigned regs, warps, groups;
} cfg;

/* What a configuration compiles: the kernel (with KT's loop_unroll_factor
 * parameters of ZEROS at 0: a copy without their pragmas) and the folders a
 * copy's includes are looked for in (-I, the originals' folders). */
typedef struct src_variant {
  uint32_t zeros;
  char path[PATH_MAX + 64];
  char **idirs; /* "-IDIR" */
  size_t nidirs;
} src_variant;

typedef struct run {
  const wgp_tune_space *s;
  const wgp_gpu *gpu;
  const wgp_tune_options *o;
  const char *kernel;
  src_variant *sources; /* [0]: the kernel as it is */
  size_t nsources;
  char header[PATH_MAX + 64]; /* the space's definitions (defines.c) */
  wgp_source_kind kind;
  char dir[PATH_MAX];
  bool temp_dir;
  char identity_hash[65];
  char arch[16]; /* the GPU's ("sm_86"): what NVIDIA's compiler is asked for */
  char **flags; /* the space's and the options' flags (not the #defines) */
  size_t nflags;
  size_t ncfg;
  cfg *cfgs;
  /* phase counters */
  size_t preprocessed, compiled, cached, estimates, distinct, precompiled;
  /* the kernel's warnings in the models (the plugin's "warning: ..."), each
   * once, with the codes that carry it: said at the end of the run */
  char *warn[8];
  size_t warn_codes[8], nwarn;
  unsigned said_early; /* the space's own reasons already said (take_line), a bit per said_kind */
  char *once_first;     /* the first loop run once per entry for want of its count (estimate), */
  size_t once_cfgs;     /* and how many estimated configurations have one */
  uint64_t hints_matched; /* the options' hints that named a loop or branch of a code estimated (bind_hints) */
  double cpu_pp, cpu_compile, cpu_load, cpu_est; /* the workers' CPU per step, ms */
  /* --prune's search (prune_search): the lower bound of each job from
   * SEARCH_AT on, the N-th smallest upper bound when last looked at, and
   * room to find it */
  const double *search_lb;
  double search_wk;
  double *scratch;
} run;

/* The compile's flags for C, NULL-terminated: R's flags, then the stand-ins'
 * values of Kernel Tuner's definitions, the header that defines them after
 * the compiler's own headers, and the folders of C's source copy (defines.c):
 * *FLAGS (give). */
static char **config_flags(const run *r, const cfg *c, size_t *n) {
  const wgp_tune_space *s = r->s;
  const src_variant *src = &r->sources[c->source];
  size_t nd = kt_num_defines(s), total = r->nflags + nd + 2 + src->nidirs;
  char **f = calloc(total + 1, sizeof *f);
  if (!f)
    return NULL;
  for (size_t i = 0; i < r->nflags; i++)
    f[i] = r->flags[i];
  bool ok = kt_defines(s, c->v, &c->launch, f + r->nflags);
  size_t k = r->nflags + nd;
  ok = ok && (f[k++] = strdup("-include")) && (f[k++] = strdup(r->header));
  for (size_t i = 0; ok && i < src->nidirs; i++)
    ok = (f[k++] = strdup(src->idirs[i])) != NULL;
  if (!ok) {
    for (size_t i = r->nflags; i < total; i++)
      free(f[i]);
    free(f);
    return NULL;
  }
  *n = total;
  return f;
}

/* A parameter's value in configuration USER (a const cfg_of) as its #define
 * gives it, NULL when NAME is no parameter. */
typedef struct cfg_of {
  const run *r;
  const cfg *c;
} cfg_of;

static const char *param_macro(void *user, const char *name, size_t len) {
  const cfg_of *o = user;
  const wgp_tune_space *s = o->r->s;
  for (size_t q = 0; q < s->nparams; q++)
    if (strlen(s->params[q].name) == len && strncmp(s->params[q].name, name, len) == 0)
      return s->params[q].values[o->c->v[q]].text;
  return NULL;
}

static void free_config_flags(const run *r, char **f) {
  if (!f)
    return;
  for (size_t i = r->nflags; f[i]; i++)
    free(f[i]);
  free(f);
}

/* ---- worker side: preprocessing ---------------------------------------------- */

/* CACHE/models/XX/CODE.i.gz into BUF. */
static void ppi_path(const run *r, const char *code, char *buf, size_t size) {
  snprintf(buf, size, "%s/models/%.2s/%s.i.gz", r->dir, code, code);
}

/* FIRST (a string, or NULL) and then TEXT (LEN bytes) gzip'd into PATH
 * through a temporary file renamed into place. */
static void gz_write_atomic(const char *path, const char *first, const char *text, size_t len) {
  char tmp[PATH_MAX + 160];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
  gzFile g = gzopen(tmp, "wb1");
  if (!g)
    return;
  bool ok = !first || gzputs(g, first) == (int)strlen(first);
  for (size_t at = 0; at < len && ok;) {
    unsigned part = len - at > (1u << 30) ? 1u << 30 : (unsigned)(len - at);
    ok = gzwrite(g, text + at, part) == (int)part;
    at += part;
  }
  ok = gzclose(g) == Z_OK && ok;
  if (!ok || rename(tmp, path) != 0)
    unlink(tmp);
}

/* ---- the texts' common beginning ---------------------------------------------
 *
 * Every configuration's preprocessed text begins with the same megabyte or so
 * (the compiler's headers and the space's definitions; a convolution code is
 * 1.1 MB of which its own part is a few KB).  A worker learns that beginning
 * from the first two texts it preprocesses (their common part, to a line's
 * end) and from then on hashes only what follows it (from the SHA-256 state
 * after it) and keeps only that part for the compile, beside the beginning
 * kept once (CACHE/models/heads/HEX.i.gz, by its SHA-256).  The codes, the
 * cache's keys and the compiled texts are those of the whole text. */

#define HEAD_MIN (64 * 1024)  /* a shorter common beginning is not worth it */
#define HEAD_MAGIC "\001wgperf-head " /* a stored tail's first line: "\001wgperf-head HEX LEN" */

typedef struct text_head {
  char *text;       /* the beginning (while LEN is 0: the last text, PREV_LEN bytes) */
  size_t len, prev_len;
  char hex[65];     /* its SHA-256 */
  bool stored;      /* heads/HEX.i.gz written (or there) */
  bool snapped;     /* SNAP: the code hash's state after the beginning, from PRE */
  sha256 pre, snap;
} text_head;

static text_head worker_head;

/* The length of the common beginning of A and B (N bytes of each), to a line's end. */
static size_t common_lines(const char *a, const char *b, size_t n) {
  size_t at = 0;
  while (at < n && a[at] == b[at])
    at++;
  while (at > 0 && a[at - 1] != '\n')
    at--;
  return at;
}

/* The length of the known beginning TEXT starts with (0: none yet, or not
 * this one's).  A text that shares less of it shortens it, as long as at
 * least HEAD_MIN is left: the first texts may share more than the headers. */
static size_t head_of(const run *r, const char *text, size_t len) {
  text_head *t = &worker_head;
  if (strchr(r->dir, '\n'))
    return 0; /* hash_text's CACHE/src/ could then cross a line's end */
  if (t->len && len >= t->len && memcmp(text, t->text, t->len) == 0)
    return t->len;
  size_t known = t->len ? t->len : t->prev_len;
  size_t common = t->text ? common_lines(text, t->text, len < known ? len : known) : 0;
  if (common >= HEAD_MIN) {
    t->len = common;
    sha256 h;
    sha256_init(&h);
    sha256_update(&h, text, common);
    sha256_hex(&h, t->hex);
    t->stored = t->snapped = false;
    return common;
  }
  if (t->len)
    return 0; /* another kind of text: the beginning stays */
  char *copy = malloc(len ? len : 1);
  if (copy) {
    memcpy(copy, text, len);
    free(t->text);
    t->text = copy, t->prev_len = len;
  }
  return 0;
}

/* CACHE/models/heads/HEX.i.gz into BUF. */
static void head_path(const run *r, const char *hex, char *buf, size_t size) {
  snprintf(buf, size, "%s/models/heads/%.64s.i.gz", r->dir, hex);
}

/* The beginning HEX of LEN bytes: this worker's own, else the last one read
 * from the cache (kept for the next); NULL when it is not there as named. */
static const char *head_text(const run *r, const char *hex, size_t len) {
  static text_head read_head; /* TEXT, LEN and HEX only */
  text_head *t = &worker_head;
  if (t->len == len && strcmp(t->hex, hex) == 0)
    return t->text;
  if (read_head.len == len && strcmp(read_head.hex, hex) == 0)
    return read_head.text;
  if (len > (1u << 30))
    return NULL;
  char path[PATH_MAX + 128];
  head_path(r, hex, path, sizeof path);
  gzFile g = gzopen(path, "rb");
  char *text = g ? malloc(len + 1) : NULL;
  size_t got = 0;
  int n = 1;
  while (text && got <= len && (n = gzread(g, text + got, (unsigned)(len + 1 - got))) > 0)
    got += (size_t)n;
  if (g)
    gzclose(g);
  if (!text || n < 0 || got != len) {
    free(text);
    return NULL;
  }
  free(read_head.text);
  read_head.text = text, read_head.len = len;
  snprintf(read_head.hex, sizeof read_head.hex, "%s", hex);
  return text;
}

/* The gzip'd file GZ unpacked into OUT; false (OUT removed) when it cannot be.
 * A tail (HEAD_MAGIC) is unpacked after the beginning it names. */
static bool gz_unpack(const run *r, const char *gz, const char *out) {
  gzFile g = gzopen(gz, "rb");
  if (!g)
    return false;
  FILE *f = fopen(out, "wb");
  bool ok = f != NULL;
  char buf[65536];
  int n = gzread(g, buf, sizeof buf);
  size_t magic = sizeof HEAD_MAGIC - 1;
  if (ok && n > (int)magic && memcmp(buf, HEAD_MAGIC, magic) == 0) {
    /* "HEX LEN\n", then the tail */
    char hex[65];
    unsigned long long want = 0;
    int at = 0;
    char *nl = memchr(buf, '\n', (size_t)n);
    ok = nl && sscanf(buf + magic, "%64[0-9a-f] %llu%n", hex, &want, &at) == 2 && buf + magic + at == nl &&
         strlen(hex) == 64;
    if (ok) {
      const char *head = head_text(r, hex, (size_t)want);
      ok = head && fwrite(head, 1, (size_t)want, f) == (size_t)want;
      size_t skip = (size_t)(nl + 1 - buf);
      ok = ok && fwrite(buf + skip, 1, (size_t)n - skip, f) == (size_t)n - skip;
      n = ok ? gzread(g, buf, sizeof buf) : 0;
    }
  }
  while (ok && n > 0) {
    ok = fwrite(buf, 1, (size_t)n, f) == (size_t)n;
    n = ok ? gzread(g, buf, sizeof buf) : 0;
  }
  ok = ok && n == 0;
  gzclose(g);
  if (f)
    ok = fclose(f) == 0 && ok;
  if (!ok)
    unlink(out);
  return ok;
}

/* TEXT (LEN bytes) for the compile into PPI: its tail and the beginning's name
 * when it begins with this worker's known beginning, else in full. */
static void keep_text(const run *r, const char *ppi, const char *text, size_t len) {
  text_head *t = &worker_head;
  size_t h = head_of(r, text, len);
  if (h > 0 && !t->stored) {
    char path[PATH_MAX + 128], dir[PATH_MAX + 96];
    snprintf(dir, sizeof dir, "%s/models/heads", r->dir);
    head_path(r, t->hex, path, sizeof path);
    if (wgp_make_dirs(dir) && !exists(path))
      gz_write_atomic(path, NULL, t->text, t->len);
    t->stored = exists(path);
  }
  if (h == 0 || !t->stored) {
    gz_write_atomic(ppi, NULL, text, len);
    return;
  }
  char first[128];
  snprintf(first, sizeof first, HEAD_MAGIC "%.64s %zu\n", t->hex, t->len);
  gz_write_atomic(ppi, first, text + h, len - h);
}

/* This worker's wgperf-cc (worker_ccs, NULL: clang runs as a process each time). */

/* The server, restarted after it died (a crash inside clang costs only the
 * request it was doing, which then runs as a process). */
static wgp_ccs *ccs(void) {
  if (worker_ccs && !wgp_ccs_alive(worker_ccs)) {
    wgp_ccs_stop(worker_ccs);
    worker_ccs = NULL;
    wgp_diag d;
    wgp_ccs_start(&worker_ccs, &d);
  }
  return worker_ccs;
}

static void emit(FILE *out, json_t *j) {
  char *t = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  if (t) {
    fputs(t, out);
    fputc('\n', out);
    free(t);
  }
}

/* The direct-mode entry: "code HEX" or "fail TEXT", then "dep SIZE MTIME PATH"
 * lines; *CODE (65) or *FAIL (size) filled when every dependency is as it was. */
static bool pp_lookup(const char *entry, char *code, char *fail, size_t fsize, bool *failed) {
  char *text;
  size_t len;
  wgp_diag d;
  if (wgp_read_file(entry, &text, &len, &d) != WGP_OK)
    return false;
  bool ok = false;
  char *save = NULL, *line = strtok_r(text, "\n", &save);
  if (line && strncmp(line, "code ", 5) == 0 && strlen(line + 5) == 64) {
    memcpy(code, line + 5, 65);
    *failed = false;
    ok = true;
  } else if (line && strncmp(line, "fail ", 5) == 0) {
    snprintf(fail, fsize, "%s", line + 5);
    *failed = true;
    ok = true;
  }
  while (ok && (line = strtok_r(NULL, "\n", &save))) {
    long long size, sec;
    long nsec;
    int at = 0;
    if (sscanf(line, "dep %lld %lld.%ld %n", &size, &sec, &nsec, &at) < 3 || !at) {
      ok = false;
      break;
    }
    struct stat st;
    if (stat(line + at, &st) != 0 || st.st_size != size || st.st_mtim.tv_sec != sec || st.st_mtim.tv_nsec != nsec)
      ok = false;
  }
  free(text);
  return ok;
}

static void pp_store(const char *entry, const char *head, const wgp_preprocessed *p) {
  size_t cap = strlen(head) + 2 + p->ndeps * (PATH_MAX + 64), n = 0;
  char *buf = malloc(cap);
  if (!buf)
    return;
  n += (size_t)snprintf(buf + n, cap - n, "%s\n", head);
  for (size_t i = 0; i < p->ndeps; i++) {
    struct stat st;
    if (stat(p->deps[i], &st) != 0) {
      free(buf);
      return; /* a file that is gone cannot be checked next time */
    }
    n += (size_t)snprintf(buf + n, cap - n, "dep %lld %lld.%09ld %s\n", (long long)st.st_size,
                          (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, p->deps[i]);
  }
  wgp_write_atomic(entry, buf, n);
  free(buf);
}

/* TEXT (LEN bytes) into H with the cache's own folder of sources (the
 * definitions' header, a copy without pragmas, a file that includes others,
 * named in line markers) as "CACHE/src/": the same code in every cache. */
static void hash_text_raw(sha256 *h, const run *r, const char *text, size_t len) {
  char src[PATH_MAX + 8];
  int n = snprintf(src, sizeof src, "%s/src/", r->dir);
  const char *at = text, *end = text + len;
  while (n > 0 && n < (int)sizeof src && at < end) {
    const char *hit = memmem(at, (size_t)(end - at), src, (size_t)n);
    if (!hit)
      break;
    sha256_update(h, at, (size_t)(hit - at));
    sha256_update(h, "CACHE/src/", 10);
    at = hit + n;
  }
  sha256_update(h, at, (size_t)(end - at));
}

/* The code's hash H (its state before the text the same for every text) over
 * TEXT: from the state after the known beginning when TEXT starts with it
 * (a line's end, so that no CACHE/src/ crosses it). */
static void hash_text(sha256 *h, const run *r, const char *text, size_t len) {
  text_head *t = &worker_head;
  size_t at = head_of(r, text, len);
  bool same = at > 0 && t->snapped && t->pre.used == h->used && t->pre.bytes == h->bytes &&
              memcmp(t->pre.h, h->h, sizeof h->h) == 0 && memcmp(t->pre.block, h->block, h->used) == 0;
  if (at > 0 && !same) {
    t->pre = t->snap = *h;
    hash_text_raw(&t->snap, r, text, at);
    t->snapped = true;
  }
  if (at > 0)
    *h = t->snap;
  hash_text_raw(h, r, text + at, len - at);
}

static void job_preprocess(run *r, size_t i, FILE *out) {
  cfg *c = &r->cfgs[i];
  const char *source = r->sources[c->source].path;
  size_t nf;
  char **flags = config_flags(r, c, &nf);
  json_t *j = json_object();
  json_object_set_new(j, "i", json_integer((json_int_t)i));
  if (!flags) {
    json_object_set_new(j, "fail", json_string("out of memory"));
    emit(out, j);
    return;
  }
  sha256 h;
  sha256_init(&h);
  sha256_string(&h, r->identity_hash);
  sha256_string(&h, "preprocess");
  sha256_string(&h, source);
  for (size_t k = 0; k < nf; k++)
    sha256_string(&h, flags[k]);
  char key[65], entry[PATH_MAX + 160], code[65], fail[512];
  sha256_hex(&h, key);
  snprintf(entry, sizeof entry, "%s/pp/%.2s", r->dir, key);
  wgp_make_dirs(entry);
  snprintf(entry, sizeof entry, "%s/pp/%.2s/%s", r->dir, key, key);
  bool failed = false;
  if (pp_lookup(entry, code, fail, sizeof fail, &failed)) {
    json_object_set_new(j, failed ? "fail" : "code", json_string(failed ? fail : code));
    emit(out, j);
    free_config_flags(r, flags);
    return;
  }
  wgp_extract_options eo = {.olevel = r->o->olevel, .flags = flags, .num_flags = nf};
  wgp_preprocessed p = {0};
  wgp_diag d;
  double c0 = step_cpu_ms();
  wgp_status st = ccs() ? wgp_ccs_preprocess(ccs(), source, r->kind, &eo, &p, &d) : WGP_ERR_IO;
  if (st == WGP_ERR_IO && (!ccs() || !wgp_ccs_alive(ccs()))) {
    wgp_preprocessed_free(&p);
    st = wgp_preprocess(source, r->kind, &eo, &p, &d);
  }
  json_object_set_new(j, "pp", json_true());
  json_object_set_new(j, "cpu", json_real(step_cpu_ms() - c0));
  if (st != WGP_OK) {
    /* clang's first error line, which names the file and line, else the driver's message */
    char first[WGP_DIAG_SIZE];
    const char *m = d.message;
    if (st == WGP_ERR_INPUT && wgp_first_error_line(p.log, first, sizeof first))
      m = first;
    else if (strncmp(m, "wgperf: error: ", 15) == 0)
      m += 15;
    json_object_set_new(j, "fail", json_string(m));
    char head[600];
    snprintf(head, sizeof head, "fail %.580s", m);
    if (st == WGP_ERR_INPUT && p.ndeps == 0) {
      /* clang names the files it read only on success: keep the failure
       * with the source's own stamp, enough to try again after an edit */
      char *deps[1] = {(char *)source};
      wgp_preprocessed q = {.deps = deps, .ndeps = 1};
      pp_store(entry, head, &q);
    } else if (st == WGP_ERR_INPUT) {
      pp_store(entry, head, &p);
    }
  } else {
    sha256_init(&h);
    sha256_string(&h, r->identity_hash);
    sha256_string(&h, "code");
    hash_text(&h, r, p.text, p.len);
    /* what its loop pragmas read, which -E leaves unexpanded (defines.c) */
    char *pragmas = kt_pragma_key(r->s, c->v, &c->launch, p.text, p.len);
    sha256_string(&h, pragmas ? pragmas : "(out of memory)");
    free(pragmas);
    sha256_hex(&h, code);
    json_object_set_new(j, "code", json_string(code));
    char head[80];
    snprintf(head, sizeof head, "code %s", code);
    pp_store(entry, head, &p);
    /* the text for the compile, unless it has been compiled (wgperf-cc
     * compiles it in place of the source: job_code) */
    char dir[PATH_MAX + 16], model[PATH_MAX + 96], failf[PATH_MAX + 96], ppi[PATH_MAX + 96];
    snprintf(dir, sizeof dir, "%s/models/%.2s", r->dir, code);
    snprintf(model, sizeof model, "%s/%s.json", dir, code);
    snprintf(failf, sizeof failf, "%s/%s.fail", dir, code);
    ppi_path(r, code, ppi, sizeof ppi);
    if (ccs() && !wgp_find_ptxas() && !exists(model) && !exists(failf) && !exists(ppi) && wgp_make_dirs(dir)) {
      /* loop pragmas that read a parameter as the source's compile reads them */
      size_t elen = 0;
      char *expanded = kt_expand_pragmas(r->s, c->v, &c->launch, p.text, p.len, &elen);
      keep_text(r, ppi, expanded ? expanded : p.text, expanded ? elen : p.len);
      free(expanded);
    }
  }
  wgp_preprocessed_free(&p);
  free_config_flags(r, flags);
  emit(out, j);
}

/* ---- worker side: compiling and estimating ----------------------------------- */

typedef struct msgbuf {
  char *text;
  size_t len, cap;
} msgbuf;

static void collect_message(void *user, const char *m) {
  msgbuf *b = user;
  size_t n = strlen(m);
  if (b->len + n + 2 > b->cap) {
    size_t cap = (b->len + n + 2) * 2;
    char *t = realloc(b->text, cap);
    if (!t)
      return;
    b->text = t, b->cap = cap;
  }
  memcpy(b->text + b->len, m, n);
  b->len += n;
  b->text[b->len++] = '\n';
  b->text[b->len] = '\0';
}

/* The words ptxas refused the code with, from the driver's messages ("...
 * no register count from ptxas (ptxas failed: ptxas error   : Entry function
 * 'k' uses too much shared data (0x26850 bytes, 0xc000 max)); ..."), into
 * BUF; false when ptxas did not refuse it. */
static bool ptxas_refused(const char *log, char *buf, size_t size) {
  /* the driver's own words where the static shared memory alone decided it
   * and ptxas did not run: "no register count from ptxas: kernel 'k' has N
   * bytes of static shared memory, more than the 49152 ptxas accepts ..." */
  const char *s = log ? strstr(log, "no register count from ptxas: kernel '") : NULL;
  if (s) {
    s += strlen("no register count from ptxas: ");
    const char *end = strstr(s, " (nvcc and ptxas not run)");
    snprintf(buf, size, "the compiler refuses it: %.*s", (int)(end ? end - s : (long)strcspn(s, "\n")), s);
    return true;
  }
  const char *p = log ? strstr(log, "(ptxas failed: ptxas error") : NULL;
  if (!p)
    return false;
  p += strlen("(ptxas failed: ");
  const char *end = strstr(p, "); the IR estimate");
  size_t n = end ? (size_t)(end - p) : strcspn(p, "\n");
  /* "ptxas error   : X" -> "ptxas error: X" */
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%.*s", (int)n, p);
  char *colon = strstr(tmp, " : ");
  char *sp = strstr(tmp, "error");
  if (colon && sp && colon > sp) {
    char *q = sp + 5;
    memmove(q, colon + 1, strlen(colon + 1) + 1);
  }
  snprintf(buf, size, "the compiler refuses it: %.480s", tmp);
  return true;
}

static void strip_error(const char *m, char *buf, size_t size) {
  if (strncmp(m, "wgperf: error: ", 15) == 0)
    m += 15;
  size_t n = strlen(m);
  if (n >= size)
    n = size - 1;
  memcpy(buf, m, n);
  buf[n] = '\0';
}

/* The static shared memory past which the space's kernel is refused before
 * any launch (estimate): wgperf-cc then models it without optimizing it (the
 * plugin's $WGPERF_SHARED_GATE), since no launch of it is estimated. */
static unsigned long long shared_gate(const run *r) { return wgp_gpu_shared_per_block_bytes(r->gpu); }

/* wgperf predict's words for what a launch lacks (its options --buffer,
 * --local-mem) in S (SIZE bytes) as a space says it: wgtune has no such
 * options, the T1 file gives them. */
static void t1_words(char *s, size_t size) {
  static const struct {
    const char *from, *upto, *to; /* FROM, then anything up to UPTO (included, when given), becomes TO */
  } rules[] = {
      {"; --buffer gives its size)", NULL, "; the space's Arguments give its Size)"},
      {"is a pointer: give its size with --buffer", NULL,
       "is a pointer, which the space's Arguments give as a Scalar (a buffer is a Vector with a Size)"},
      {"give its size with --local-mem ", "=BYTES (the third <<<>>> launch parameter)",
       "give its size as the space's SharedMemory (the third <<<>>> launch parameter)"},
      {"is a __local pointer: give its size with --local-mem ", "=BYTES",
       "is a __local pointer: give it as an Argument of MemoryType Local with a Size"},
  };
  for (size_t q = 0; q < sizeof rules / sizeof *rules; q++) {
    char *at = strstr(s, rules[q].from);
    if (!at)
      continue;
    char *end = at + strlen(rules[q].from);
    if (rules[q].upto) {
      char *u = strstr(end, rules[q].upto);
      if (!u)
        continue;
      end = u + strlen(rules[q].upto);
    }
    size_t keep = strlen(end), to = strlen(rules[q].to), head = (size_t)(at - s);
    if (head + to + keep + 1 > size)
      continue;
    memmove(s + head + to, end, keep + 1);
    memcpy(s + head, rules[q].to, to);
  }
}

/* The scalar beneath a type's name, T1's (float, int32, uint8, float4) or
 * C's as the model writes a parameter's ("const float*", "unsigned int"):
 * KIND 'f' floating, 'i' signed, 'u' unsigned, 'b' bfloat16, and its bytes;
 * false for a name it does not know (a struct, custom). */
static bool scalar_of(const char *t, char *kind, unsigned *bytes) {
  char b[64];
  size_t n = 0;
  for (const char *p = t; *p && n + 1 < sizeof b; p++)
    if (*p != '*' && *p != '&')
      b[n++] = *p;
  b[n] = '\0';
  char *w = b;
  for (bool again = true; again;) { /* qualifiers */
    again = false;
    while (*w == ' ')
      w++;
    static const char *const qual[] = {"const ", "volatile ", "__restrict__ ", "restrict ", "__global ", "global ",
                                       "__constant ", "__local ", "signed "};
    for (size_t q = 0; q < sizeof qual / sizeof *qual; q++)
      if (strncmp(w, qual[q], strlen(qual[q])) == 0)
        w += strlen(qual[q]), again = true;
  }
  for (n = strlen(w); n > 0 && (w[n - 1] == ' ' || strncmp(w + (n >= 6 ? n - 6 : 0), " const", 6) == 0);)
    n = w[n - 1] == ' ' ? n - 1 : n - 6, w[n] = '\0';
  static const struct {
    const char *name;
    char kind;
    unsigned bytes;
  } names[] = {{"float", 'f', 4},  {"float32", 'f', 4}, {"single", 'f', 4}, {"double", 'f', 8}, {"float64", 'f', 8},
               {"half", 'f', 2},   {"__half", 'f', 2},  {"float16", 'f', 2}, {"bfloat16", 'b', 2},
               {"__nv_bfloat16", 'b', 2}, {"int", 'i', 4}, {"int32", 'i', 4}, {"int32_t", 'i', 4},
               {"unsigned", 'u', 4}, {"unsigned int", 'u', 4}, {"uint", 'u', 4}, {"uint32", 'u', 4},
               {"uint32_t", 'u', 4}, {"long", 'i', 8}, {"long long", 'i', 8}, {"int64", 'i', 8}, {"int64_t", 'i', 8},
               {"unsigned long", 'u', 8}, {"unsigned long long", 'u', 8}, {"ulong", 'u', 8}, {"uint64", 'u', 8},
               {"uint64_t", 'u', 8}, {"size_t", 'u', 8}, {"short", 'i', 2}, {"int16", 'i', 2}, {"int16_t", 'i', 2},
               {"unsigned short", 'u', 2}, {"ushort", 'u', 2}, {"uint16", 'u', 2}, {"uint16_t", 'u', 2},
               {"char", 'i', 1}, {"int8", 'i', 1}, {"int8_t", 'i', 1}, {"unsigned char", 'u', 1}, {"uchar", 'u', 1},
               {"uint8", 'u', 1}, {"uint8_t", 'u', 1}, {"bool", 'u', 1}};
  for (int pass = 0; pass < 2; pass++) {
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
      if (strcmp(w, names[k].name) == 0) {
        *kind = names[k].kind, *bytes = names[k].bytes;
        return true;
      }
    /* a vector (float4, int2, uchar4): its scalar; not int16, float32, ... (found above) */
    n = strlen(w);
    size_t d = n;
    while (d > 0 && w[d - 1] >= '0' && w[d - 1] <= '9')
      d--;
    if (pass > 0 || d == n || d == 0)
      return false;
    w[d] = '\0';
  }
  return false;
}

/* The first argument whose Type the kernel's parameter contradicts (double
 * data for a float* parameter, float for int): the kernel would read other
 * values, and other extents, than the space gives it.  A vector against its
 * scalar (float data for a float2* parameter) agrees.  Empty when none. */
static void type_mismatch(const wgp_kernel *k, const wgp_tune_launch *tl, const size_t *ai, size_t na, char *out,
                          size_t size) {
  out[0] = '\0';
  for (size_t i = 0; i < na; i++) {
    const wgp_arg *p = wgp_kernel_arg(k, i);
    const wgp_tune_arg *a = &tl->args[ai[i]];
    char k1, k2;
    unsigned b1, b2;
    if (a->kind == WGP_TUNE_ARG_LOCAL || !a->type || !wgp_arg_type(p) || !scalar_of(a->type, &k1, &b1) ||
        !scalar_of(wgp_arg_type(p), &k2, &b2))
      continue;
    bool ints = (k1 == 'i' || k1 == 'u') && (k2 == 'i' || k2 == 'u');
    if ((ints ? false : k1 != k2) || b1 != b2) {
      snprintf(out, size, "argument '%s': the space's Type %s, kernel '%s' takes %s %s", a->name, a->type,
               wgp_kernel_name(k), wgp_arg_type(p), wgp_arg_name(p));
      return;
    }
  }
}

/* The first buffer that IN's launch certainly accesses outside of
 * (wgp_footprint_outside against the space's Size), in words in OUT; false
 * when none (or the question could not be answered). */
static bool outside_buffers(const wgp_kernel *k, const wgp_analysis_input *in, char *out, size_t size) {
  size_t arg, count = 0;
  double lo, hi;
  wgp_diag d;
  if (wgp_footprint_outside(in, 1, &arg, &lo, &hi, &count, &d) != WGP_OK || count == 0)
    return false;
  snprintf(out, size,
           "the launch accesses bytes %.0f to %.0f of '%s', whose Size in the space's Arguments is %.0f bytes", lo, hi,
           wgp_arg_name(wgp_kernel_arg(k, arg)), (double)in->buffer_bytes[arg]);
  return true;
}

/* Kernel Tuner's cmem_args, written as Arguments with MemType Constant: a
 * kernel argument where the count says so (the shared convolution space
 * passes its filter both ways), else the __constant__ array alone, which the
 * kernel reads by its declaration (as MemoryType Symbol): true when TL's
 * MemType Constant arguments are to be skipped for K. */
static bool skips_const(const wgp_kernel *k, const wgp_tune_launch *tl) {
  size_t na = wgp_kernel_num_args(k), nconst = 0;
  for (size_t i = 0; i < tl->num_args; i++)
    nconst += tl->args[i].constant;
  return tl->num_args != na && nconst > 0 && tl->num_args - nconst == na;
}

/* The loops (and, apart, the branch blocks) of one code the hints name at most. */
#define BOUND_HINTS 256
/* wgp_source_hints_bind says which hint named something for the first 32 of each */
_Static_assert(WGP_TUNE_MAX_HINTS <= 32, "a bit per hint");

/* A launch of the space bound to model K, as the analysis takes it. */
typedef struct bound_launch {
  wgp_launch *l;
  uint64_t *align, *bytes, *local;
  size_t *bound; /* the space's argument each kernel parameter takes */
  bool args_ok;  /* the grid, block and arguments took (the Type check applies) */
  wgp_analysis_input in;
  /* the options' hints at source lines, as K's loops and blocks
   * (wgp_source_hints_bind); MATCHED: the hints that named one */
  size_t trip_loops[BOUND_HINTS], taken_blocks[BOUND_HINTS];
  uint64_t trip_counts[BOUND_HINTS];
  double taken_fractions[BOUND_HINTS];
  uint64_t matched;
} bound_launch;

/* TL's grid, block, arguments (SKIP_CONST: the MemType Constant ones are the
 * kernel's __constant__ arrays, not arguments) and dynamic shared memory for
 * K, in B (bound_launch_free, also on failure); false with WHY (SIZE). */
static bool bind_launch(const run *r, const wgp_kernel *k, const wgp_tune_launch *tl, bool skip_const, bound_launch *b,
                        char *why, size_t size) {
  size_t na = wgp_kernel_num_args(k);
  *b = (bound_launch){0};
  wgp_diag d;
  char text[256];
  wgp_launch *l = b->l = wgp_launch_new();
  uint64_t *align = b->align = calloc(na ? na : 1, sizeof *align), *bytes = b->bytes = calloc(na ? na : 1, sizeof *bytes);
  uint64_t *local = b->local = calloc(na + wgp_kernel_num_arrays(k) + 1, sizeof *local);
  size_t *bound = b->bound = calloc(na ? na : 1, sizeof *bound); /* the space's argument each parameter takes */
  bool ok = l && align && bytes && local && bound;
  if (!ok)
    snprintf(why, size, "out of memory");
  snprintf(text, sizeof text, "%llu,%llu,%llu", (unsigned long long)tl->grid[0], (unsigned long long)tl->grid[1],
           (unsigned long long)tl->grid[2]);
  if (ok && wgp_launch_set_option(l, "--grid", text, &d) != WGP_OK)
    ok = false, strip_error(d.message, why, size);
  snprintf(text, sizeof text, "%llu,%llu,%llu", (unsigned long long)tl->block[0], (unsigned long long)tl->block[1],
           (unsigned long long)tl->block[2]);
  if (ok && wgp_launch_set_option(l, "--block", text, &d) != WGP_OK)
    ok = false, strip_error(d.message, why, size);
  for (size_t i = 0, ai = 0; ok && i < na; i++, ai++) {
    const char *name = wgp_arg_name(wgp_kernel_arg(k, i));
    while (skip_const && tl->args[ai].constant)
      ai++;
    bound[i] = ai;
    const wgp_tune_arg *a = &tl->args[ai];
    const char *opt = a->kind == WGP_TUNE_ARG_SCALAR ? "--arg" : a->kind == WGP_TUNE_ARG_BUFFER ? "--buffer"
                                                                                                : "--local-mem";
    if (a->kind == WGP_TUNE_ARG_SCALAR) {
      if (a->value == floor(a->value) && fabs(a->value) < 9e18)
        snprintf(text, sizeof text, "%s=%lld", name, (long long)a->value);
      else
        snprintf(text, sizeof text, "%s=%.17g", name, a->value);
    } else {
      snprintf(text, sizeof text, "%s=%llu", name, (unsigned long long)a->bytes);
    }
    if (wgp_launch_set_option(l, opt, text, &d) != WGP_OK)
      ok = false, strip_error(d.message, why, size);
  }
  b->args_ok = ok;
  /* CUDA's dynamic shared memory: every extern __shared__ array is the same region */
  for (size_t i = 0; ok && i < wgp_kernel_num_arrays(k); i++) {
    const wgp_array *a = wgp_kernel_array(k, i);
    if (wgp_array_space(a) == WGP_SPACE_LOCAL && wgp_array_bytes(a) == 0) {
      snprintf(text, sizeof text, "%s=%llu", wgp_array_name(a), (unsigned long long)tl->shared_bytes);
      if (wgp_launch_set_option(l, "--local-mem", text, &d) != WGP_OK)
        ok = false, strip_error(d.message, why, size);
    }
  }
  wgp_analysis_input *in = &b->in;
  if (ok && wgp_launch_bind(l, k, &in->launch, align, local, &d) != WGP_OK)
    ok = false, strip_error(d.message, why, size);
  if (ok) {
    wgp_launch_buffer_sizes(l, k, bytes);
    in->kernel = k;
    in->gpu = r->gpu;
    in->buffer_align = align;
    in->buffer_bytes = bytes;
    in->local_bytes = local;
    in->threads = 1;
    b->matched = wgp_source_hints_bind(k, &r->o->hints, BOUND_HINTS, b->trip_loops, b->trip_counts,
                                       &in->num_trip_hints, b->taken_blocks, b->taken_fractions, &in->num_taken_hints);
    in->trip_loops = b->trip_loops, in->trip_counts = b->trip_counts;
    in->taken_blocks = b->taken_blocks, in->taken_fractions = b->taken_fractions;
  }
  return ok;
}

static void bound_launch_free(bound_launch *b) {
  wgp_launch_free(b->l);
  free(b->align), free(b->bytes), free(b->local), free(b->bound);
}

/* Estimates C (a configuration of model K): the fields of J.  BOUNDS: only
 * its bounds for any hit rates (wgp_estimate_bounds; "lb", "ub"), for
 * --prune's search. */
static void estimate(run *r, const wgp_kernel *k, const cfg *c, const char *refused, bool bounds, json_t *j) {
  wgp_diag d;
  char why[WGP_DIAG_SIZE];
  const wgp_tune_launch *tl = &c->launch;
  size_t na = wgp_kernel_num_args(k), nconst = 0;
  for (size_t i = 0; i < tl->num_args; i++)
    nconst += tl->args[i].constant;
  bool skip_const = skips_const(k, tl);
  if (tl->num_args != na && !skip_const) {
    /* both lists by name: which one is extra or missing is then plain */
    char given[400] = "", takes[400] = "";
    for (size_t i = 0, at = 0; i < tl->num_args && at < sizeof given; i++)
      at += (size_t)snprintf(given + at, sizeof given - at, "%s%s", i ? ", " : "", tl->args[i].name);
    for (size_t i = 0, at = 0; i < na && at < sizeof takes; i++)
      at += (size_t)snprintf(takes + at, sizeof takes - at, "%s%s", i ? ", " : "", wgp_arg_name(wgp_kernel_arg(k, i)));
    char consts[64] = "";
    if (nconst > 0)
      snprintf(consts, sizeof consts, ", %zu of them MemType Constant", nconst);
    bool cmem = nconst > 0; /* the hint where constant memory is in play */
    for (size_t q = 0; q < wgp_kernel_num_arrays(k); q++)
      cmem = cmem || wgp_array_space(wgp_kernel_array(k, q)) == WGP_SPACE_CONSTANT;
    snprintf(why, sizeof why, "the space's Arguments give %zu arguments (%s%s), kernel '%s' takes %zu (%s)%s",
             tl->num_args, given, consts, wgp_kernel_name(k), na, takes,
             cmem ? "; a __constant__ array the kernel does not take is MemType Constant or MemoryType Symbol" : "");
    json_object_set_new(j, "why", json_string(why));
    return;
  }
  /* static shared memory past the limit: the compiler refuses the code (ptxas: "uses too much shared data";
   * Kernel Tuner's CompilationFailedConfig) before any launch could, whatever else the launch lacks */
  uint64_t shared = wgp_kernel_static_local_bytes(k);
  if (shared > shared_gate(r)) {
    snprintf(why, sizeof why,
             "the compiler refuses it: %llu bytes of static shared memory per block exceed the maximum of %llu on %s",
             (unsigned long long)shared, shared_gate(r), wgp_gpu_name(r->gpu));
    json_object_set_new(j, "why", json_string(why));
    return;
  }
  bound_launch bl;
  bool ok = bind_launch(r, k, tl, skip_const, &bl, why, sizeof why);
  if (bl.args_ok) { /* said once by the parent, as the space's own: the ranking goes on */
    char mm[512];
    type_mismatch(k, tl, bl.bound, na, mm, sizeof mm);
    if (*mm)
      json_object_set_new(j, "mismatch", json_string(mm));
  }
  wgp_analysis_input in = bl.in;
  wgp_estimate *e = NULL;
  double lo = 0, hi = 0;
  wgp_sim_result res;
  if (ok && bounds && !refused && wgp_estimate_bounds(&in, 0, &lo, &hi, &d) != WGP_OK)
    ok = false, strip_error(d.message, why, sizeof why);
  if (ok && !bounds && wgp_estimate_new(&in, 0, &e, &d) != WGP_OK)
    ok = false, strip_error(d.message, why, sizeof why);
  if (ok && !bounds && wgp_estimate_simulate(e, 0, &res, &d) != WGP_OK)
    ok = false, strip_error(d.message, why, sizeof why);
  if (refused) {
    /* the real compiler refuses the code: Kernel Tuner's CompilationFailedConfig */
    snprintf(why, sizeof why, "%s", refused);
    ok = false;
  }
  if (ok && bounds) {
    json_object_set_new(j, "bounded", json_true());
    json_object_set_new(j, "lb", json_real(lo));
    json_object_set_new(j, "ub", json_real(hi));
  } else if (ok) {
    char words[768];
    wgp_bottleneck_words(k, r->gpu, wgp_estimate_analysis(e), wgp_estimate_cache(e), &res, words, sizeof words);
    const char *src = "";
    unsigned regs = wgp_estimate_registers(e, &src);
    json_object_set_new(j, "ok", json_true());
    json_object_set_new(j, "t", json_real(res.time_us));
    json_object_set_new(j, "b", json_real(res.best_us));
    json_object_set_new(j, "w", json_real(res.worst_us));
    json_object_set_new(j, "lim", json_string(res.limiter && *res.limiter ? res.limiter : "warps"));
    t1_words(words, sizeof words);
    json_object_set_new(j, "bn", json_string(words));
    /* a loop whose count needs loaded values, run once per entry (T1 has no
     * --trip): the time is too low where it runs more; said at the end */
    const wgp_analysis *an = wgp_estimate_analysis(e);
    for (size_t q = 0; an && q < wgp_analysis_num_fallbacks(an); q++) {
      const wgp_fallback *fb = wgp_analysis_fallback(an, q);
      if (fb->kind != WGP_FALLBACK_DATA_LOOP || fb->hinted || fb->bounded || fb->loop < 0 ||
          (size_t)fb->loop >= wgp_kernel_num_loops(k))
        continue;
      const char *at = wgp_loop_source(wgp_kernel_loop(k, (size_t)fb->loop));
      char once[256];
      snprintf(once, sizeof once, "the loop at %s", at ? at : "?");
      json_object_set_new(j, "once", json_string(once));
      break;
    }
    if (bl.matched)
      json_object_set_new(j, "hints", json_integer(bl.matched));
    json_object_set_new(j, "bound", json_string(res.bound ? res.bound : "pipeline"));
    json_object_set_new(j, "regs", json_integer(regs));
    json_object_set_new(j, "rsrc", json_string(src ? src : ""));
    json_object_set_new(j, "warps", json_integer(res.active_warps_per_sm));
    json_object_set_new(j, "groups", json_integer(res.active_groups_per_sm));
    /* the published baselines on the same analysis, for wgperf-validate --kernel-tuner */
    double threads = 1;
    for (int dim = 0; dim < 3; dim++)
      threads *= (double)tl->grid[dim] * (double)tl->block[dim];
    wgp_bsp_result bsp;
    wgp_roofline_result roof;
    if (wgp_baseline_bsp(k, r->gpu, wgp_estimate_analysis(e), (uint64_t)threads, &bsp, &d) == WGP_OK &&
        isfinite(bsp.time_s))
      json_object_set_new(j, "bsp", json_real(bsp.time_s * 1e6));
    if (wgp_baseline_roofline(k, r->gpu, wgp_estimate_analysis(e), wgp_estimate_cache(e), wgp_estimate_groups(e), &roof,
                              &d) == WGP_OK &&
        isfinite(roof.time_s))
      json_object_set_new(j, "roof", json_real(roof.time_s * 1e6));
  } else {
    t1_words(why, sizeof why);
    json_object_set_new(j, "why", json_string(why));
  }
  wgp_estimate_free(e);
  bound_launch_free(&bl);
}

static bool same_launch(const wgp_tune_launch *a, const wgp_tune_launch *b) {
  if (memcmp(a->grid, b->grid, sizeof a->grid) || memcmp(a->block, b->block, sizeof a->block) ||
      a->shared_bytes != b->shared_bytes || a->num_args != b->num_args)
    return false;
  for (size_t i = 0; i < a->num_args; i++)
    if (a->args[i].kind != b->args[i].kind || a->args[i].bytes != b->args[i].bytes ||
        a->args[i].value != b->args[i].value)
      return false;
  return true;
}

/* Compiles CODE (unless cached) for the configurations IDX[0..N-1] and
 * estimates each distinct launch (BOUNDS: only bounds it, for --prune). */
static void job_code(run *r, const char *code, const size_t *idx, size_t n, bool bounds, FILE *out) {
  char dir[PATH_MAX + 16], model[PATH_MAX + 96], failf[PATH_MAX + 96], logf[PATH_MAX + 96];
  snprintf(dir, sizeof dir, "%s/models/%.2s", r->dir, code);
  wgp_make_dirs(dir);
  snprintf(model, sizeof model, "%s/%s.json", dir, code);
  snprintf(failf, sizeof failf, "%s/%s.fail", dir, code);
  snprintf(logf, sizeof logf, "%s/%s.log", dir, code);
  char reason[WGP_DIAG_SIZE] = "";
  char *log = NULL;
  size_t len;
  wgp_diag d;
  bool compiled = false, cached = false, precompiled = false;
  double cpu_compile = 0, cpu_load = 0, cpu_est = 0;
  char ppi[PATH_MAX + 96];
  ppi_path(r, code, ppi, sizeof ppi);
  const char *source = r->sources[r->cfgs[idx[0]].source].path;
  if (wgp_read_file(failf, &log, &len, &d) == WGP_OK) {
    snprintf(reason, sizeof reason, "%.*s", (int)strcspn(log, "\n"), log);
    free(log);
    log = NULL;
    cached = true;
  } else if (exists(model)) {
    cached = true;
    if (wgp_read_file(logf, &log, &len, &d) != WGP_OK)
      log = NULL;
  } else {
    size_t nf;
    char **flags = config_flags(r, &r->cfgs[idx[0]], &nf);
    msgbuf mb = {0};
    const char *archs[1] = {r->arch};
    wgp_extract_options eo = {.olevel = r->o->olevel, .flags = flags, .num_flags = nf, .message = collect_message,
                              .message_user = &mb, .archs = archs, .num_archs = 1};
    char *errtext = NULL;
    wgp_status st = WGP_ERR_IO;
    double c0 = step_cpu_ms();
    if (flags && ccs() && !wgp_find_ptxas()) {
      /* without ptxas the compile is one clang command: the server runs it,
       * from the text job_preprocess kept when there is one (clang then does
       * not preprocess the source a second time; the model is the same) */
      char pre[PATH_MAX + 128];
      snprintf(pre, sizeof pre, "%s/%s.i%ld", dir, code, (long)getpid());
      eo.shared_gate = shared_gate(r), eo.gate_kernel = r->kernel;
      if (exists(ppi) && gz_unpack(r, ppi, pre)) {
        eo.preprocessed = pre;
        st = wgp_ccs_extract(ccs(), source, r->kind, &eo, model, &errtext, &d);
        precompiled = st == WGP_OK && wgp_ccs_precompiled(ccs());
        eo.preprocessed = NULL;
        unlink(pre);
        if (st != WGP_OK) {
          /* compiled again from the source below, whose messages (columns
           * before macro expansion) are those the user sees */
          free(errtext);
          errtext = NULL;
          free(mb.text);
          mb = (msgbuf){0};
        }
      }
      if (st != WGP_OK && ccs()) {
        st = wgp_ccs_extract(ccs(), source, r->kind, &eo, model, &errtext, &d);
        if (st == WGP_ERR_IO && !wgp_ccs_alive(ccs())) {
          free(errtext);
          errtext = NULL;
        }
      }
    }
    if (!errtext) {
      /* the compilers' messages into a log of this code's own */
      char errlog[PATH_MAX + 128];
      snprintf(errlog, sizeof errlog, "%s/%s.stderr%ld", dir, code, (long)getpid());
      fflush(stderr);
      int saved = dup(2), fd = open(errlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0)
        dup2(fd, 2);
      st = flags ? wgp_extract(source, r->kind, &eo, model, &d) : nomem(&d);
      fflush(stderr);
      if (saved >= 0)
        dup2(saved, 2), close(saved);
      if (fd >= 0)
        close(fd);
      wgp_diag dd;
      if (wgp_read_file(errlog, &errtext, &len, &dd) != WGP_OK)
        errtext = NULL;
      unlink(errlog);
    }
    cpu_compile = step_cpu_ms() - c0;
    if (st != WGP_OK) {
      char line[WGP_DIAG_SIZE - 64];
      if (!wgp_first_error_line(errtext, line, sizeof line))
        strip_error(d.message, line, sizeof line);
      snprintf(reason, sizeof reason, "does not compile: %s", line);
      wgp_write_atomic(failf, reason, strlen(reason));
    } else {
      wgp_write_atomic(logf, mb.text ? mb.text : "", mb.len);
      log = mb.text, mb.text = NULL;
    }
    free(errtext);
    free(mb.text);
    free_config_flags(r, flags);
    compiled = true;
  }
  unlink(ppi); /* compiled, or cached: the text is not needed again */
  wgp_model *m = NULL;
  const wgp_kernel *k = NULL;
  char inst[1024];
  double c1 = rusage_ms(RUSAGE_SELF);
  if (!*reason) {
    if (wgp_model_load_file(model, &m, &d) != WGP_OK) {
      strip_error(d.message, reason, sizeof reason);
    } else if (!(k = wgp_model_find_kernel(m, r->kernel)) &&
               !(wgp_instance_expand(r->kernel, param_macro, &(cfg_of){r, &r->cfgs[idx[0]]}, inst, sizeof inst) &&
                 (k = wgp_model_find_kernel(m, inst)))) {
      int w = snprintf(reason, sizeof reason, "no kernel '%s' in the compiled code; kernels:", r->kernel);
      for (size_t q = 0; q < wgp_model_num_kernels(m) && w > 0 && (size_t)w < sizeof reason; q++)
        w += snprintf(reason + w, sizeof reason - (size_t)w, " %s", wgp_kernel_name(wgp_model_kernel(m, q)));
    }
  }
  cpu_load = rusage_ms(RUSAGE_SELF) - c1;
  c1 = rusage_ms(RUSAGE_SELF);
  char refused[512];
  bool ref = ptxas_refused(log, refused, sizeof refused);
  json_t **res = calloc(n, sizeof *res);
  size_t nest = 0;
  for (size_t q = 0; q < n; q++) {
    const cfg *c = &r->cfgs[idx[q]];
    size_t same = SIZE_MAX;
    for (size_t p = 0; p < q && same == SIZE_MAX; p++)
      if (res && res[p] && same_launch(&r->cfgs[idx[p]].launch, &c->launch))
        same = p;
    json_t *j = same != SIZE_MAX ? json_deep_copy(res[same]) : json_object();
    if (same == SIZE_MAX) {
      if (*reason)
        json_object_set_new(j, "why", json_string(reason));
      else {
        estimate(r, k, c, ref ? refused : NULL, bounds, j);
        nest += !bounds && json_object_get(j, "t"); /* an estimate made, not a reason */
      }
    }
    json_object_set_new(j, "i", json_integer((json_int_t)idx[q]));
    if (res)
      res[q] = json_incref(j);
    emit(out, j);
  }
  for (size_t q = 0; res && q < n; q++)
    json_decref(res[q]);
  free(res);
  json_t *warns = json_array(); /* the kernel's own warnings (the plugin's) */
  for (size_t q = 0; k && q < wgp_kernel_num_diagnostics(k); q++) {
    const char *t = wgp_kernel_diagnostic(k, q);
    if (strncmp(t, "warning: ", 9) != 0)
      continue;
    bool again = false; /* the same words at several places of the code: the code counts once */
    for (size_t p = 0; p < json_array_size(warns) && !again; p++)
      again = strcmp(json_string_value(json_array_get(warns, p)), t + 9) == 0;
    if (!again)
      json_array_append_new(warns, json_string(t + 9));
  }
  wgp_model_free(m);
  free(log);
  cpu_est = rusage_ms(RUSAGE_SELF) - c1;
  json_t *done = json_object();
  json_object_set_new(done, "warnings", warns);
  json_object_set_new(done, "cpu_compile", json_real(cpu_compile));
  json_object_set_new(done, "cpu_load", json_real(cpu_load));
  json_object_set_new(done, "cpu_estimate", json_real(cpu_est));
  json_object_set_new(done, "compiled", json_boolean(compiled));
  json_object_set_new(done, "cached", json_boolean(cached));
  json_object_set_new(done, "precompiled", json_boolean(precompiled));
  json_object_set_new(done, "estimates", json_integer((json_int_t)nest));
  emit(out, done);
}

/* check_fastest's jobs: whether each configuration IDX[0..N) of CODE (its
 * model in the cache) accesses outside the buffers the space gives; a line
 * {"i", "outside"} each, then {"done", "cpu_check"}. */
static void job_check(run *r, const char *code, const size_t *idx, size_t n, FILE *out) {
  char model[PATH_MAX + 96], inst[1024];
  snprintf(model, sizeof model, "%s/models/%.2s/%s.json", r->dir, code, code);
  double c0 = rusage_ms(RUSAGE_SELF);
  wgp_model *m = NULL;
  wgp_diag d;
  const wgp_kernel *k = NULL;
  if (wgp_model_load_file(model, &m, &d) == WGP_OK && !(k = wgp_model_find_kernel(m, r->kernel)) &&
      wgp_instance_expand(r->kernel, param_macro, &(cfg_of){r, &r->cfgs[idx[0]]}, inst, sizeof inst))
    k = wgp_model_find_kernel(m, inst);
  for (size_t q = 0; q < n; q++) {
    const cfg *c = &r->cfgs[idx[q]];
    json_t *j = json_object();
    json_object_set_new(j, "i", json_integer((json_int_t)idx[q]));
    char why[WGP_DIAG_SIZE], text[320];
    bound_launch bl;
    if (k && bind_launch(r, k, &c->launch, skips_const(k, &c->launch), &bl, why, sizeof why) &&
        outside_buffers(k, &bl.in, text, sizeof text))
      json_object_set_new(j, "outside", json_string(text));
    if (k)
      bound_launch_free(&bl);
    emit(out, j);
  }
  wgp_model_free(m);
  json_t *done = json_object();
  json_object_set_new(done, "done", json_true());
  json_object_set_new(done, "cpu_check", json_real(rusage_ms(RUSAGE_SELF) - c0));
  emit(out, done);
}

static void worker_main(run *r, int in, int out) {
  FILE *fi = fdopen(in, "r"), *fo = fdopen(out, "w");
  if (!fi || !fo)
    _exit(1);
  wgp_set_default_threads(1);
  wgp_diag d;
  wgp_ccs_start(&worker_ccs, &d); /* none: clang as a process */
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, fi) > 0) {
    if (line[0] == 'P') {
      job_preprocess(r, strtoull(line + 2, NULL, 10), fo);
      fputs("{\"done\":true}\n", fo);
    } else if (line[0] == 'C' || line[0] == 'E' || line[0] == 'O') {
      char code[65];
      snprintf(code, sizeof code, "%.64s", line + 2);
      size_t n = 0, capi = 16;
      size_t *idx = malloc(capi * sizeof *idx);
      for (char *p = line + 2 + 64; idx && *p && *p != '\n';) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p)
          break;
        if (n == capi) {
          size_t *g = realloc(idx, 2 * capi * sizeof *idx);
          if (!g)
            break;
          idx = g, capi *= 2;
        }
        idx[n++] = (size_t)v;
        p = end;
      }
      /* C: the code's configurations (bounded only with --prune); E: --prune's estimates */
      if (line[0] == 'O')
        job_check(r, code, idx, n, fo);
      else
        job_code(r, code, idx, n, line[0] == 'C' && r->o->prune_top > 0, fo);
      free(idx);
    } else {
      break;
    }
    fflush(fo);
  }
  free(line);
  fflush(fo);
  wgp_ccs_stop(worker_ccs);
  _exit(0);
}

/* ---- parent side: the pool ----------------------------------------------------- */

typedef struct worker {
  pid_t pid;
  int to, from;
  bool busy;
  /* the job in flight: its configurations */
  size_t *job;
  size_t njob;
  char *buf;
  size_t len, cap;
} worker;

typedef struct pool {
  run *r;
  worker w[MAX_WORKERS];
  unsigned n;
} pool;

static bool spawn(pool *p, worker *w) {
  int a[2], b[2];
  if (pipe(a) != 0)
    return false;
  if (pipe(b) != 0) {
    close(a[0]), close(a[1]);
    return false;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(a[0]), close(a[1]), close(b[0]), close(b[1]);
    return false;
  }
  if (pid == 0) {
    close(a[1]), close(b[0]);
    /* the other workers' pipes are not this one's */
    for (unsigned i = 0; i < p->n; i++)
      if (&p->w[i] != w && p->w[i].pid > 0)
        close(p->w[i].to), close(p->w[i].from);
    signal(SIGPIPE, SIG_DFL);
    worker_main(p->r, a[0], b[1]);
  }
  close(a[0]), close(b[1]);
  fcntl(a[1], F_SETFD, FD_CLOEXEC);
  fcntl(b[0], F_SETFD, FD_CLOEXEC);
  w->pid = pid, w->to = a[1], w->from = b[0];
  w->busy = false, w->len = 0;
  return true;
}

static void stop(pool *p) {
  for (unsigned i = 0; i < p->n; i++) {
    worker *w = &p->w[i];
    if (w->pid <= 0)
      continue;
    close(w->to);
    close(w->from);
    int st;
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
      ;
    w->pid = 0;
    free(w->buf);
    free(w->job);
    w->buf = NULL, w->job = NULL;
  }
}

static char *keep_str(const char *s) { return s ? strdup(s) : NULL; }

/* Takes one result line of phase PHASE into the run. */
static void message(const wgp_tune_options *o, const char *fmt, ...);

/* What the space gets told once during a run (run.said_early): reasons that
 * are the space's, not a configuration's. */
enum said_kind { SAID_NO_KERNEL = 1u << 0, SAID_ARGUMENTS = 1u << 1, SAID_TYPES = 1u << 2 };

static void take_line(run *r, worker *w, const char *line, int phase, size_t *done) {
  json_error_t je;
  json_t *j = json_loads(line, 0, &je);
  if (!j)
    return;
  json_t *i = json_object_get(j, "i");
  if (json_is_integer(i) && (size_t)json_integer_value(i) < r->ncfg) {
    cfg *c = &r->cfgs[json_integer_value(i)];
    if (phase == 4) { /* check_top's checks */
      const char *o = json_string_value(json_object_get(j, "outside"));
      if (o && !c->outside)
        c->outside = strdup(o);
      (*done)++;
      json_decref(j);
      return;
    }
    if (phase == 1) {
      json_t *code = json_object_get(j, "code"), *fail = json_object_get(j, "fail");
      if (json_is_string(code)) {
        snprintf(c->code, sizeof c->code, "%s", json_string_value(code));
        c->has_code = true;
      } else {
        c->done = true, c->ok = false;
        free(c->reason);
        char buf[WGP_DIAG_SIZE];
        snprintf(buf, sizeof buf, "does not preprocess: %s", json_is_string(fail) ? json_string_value(fail) : "?");
        c->reason = strdup(buf);
      }
      if (json_is_true(json_object_get(j, "pp")))
        r->preprocessed++;
      r->cpu_pp += json_number_value(json_object_get(j, "cpu"));
    } else if (json_is_true(json_object_get(j, "bounded"))) {
      c->done = c->bounded = true; /* --prune: estimated later, or pruned */
      c->lb = json_number_value(json_object_get(j, "lb"));
      c->ub = json_number_value(json_object_get(j, "ub"));
    } else {
      c->done = true;
      c->ok = json_is_true(json_object_get(j, "ok"));
      if (c->ok) {
        c->t = json_number_value(json_object_get(j, "t"));
        c->b = json_number_value(json_object_get(j, "b"));
        c->w = json_number_value(json_object_get(j, "w"));
        json_t *bsp = json_object_get(j, "bsp"), *roof = json_object_get(j, "roof");
        c->bsp = json_is_number(bsp) ? json_number_value(bsp) : NAN;
        c->roof = json_is_number(roof) ? json_number_value(roof) : NAN;
        c->limiter = keep_str(json_string_value(json_object_get(j, "lim")));
        c->bottleneck = keep_str(json_string_value(json_object_get(j, "bn")));
        c->bound = keep_str(json_string_value(json_object_get(j, "bound")));
        c->regs_from = keep_str(json_string_value(json_object_get(j, "rsrc")));
        c->regs = (unsigned)json_integer_value(json_object_get(j, "regs"));
        c->warps = (unsigned)json_integer_value(json_object_get(j, "warps"));
        c->groups = (unsigned)json_integer_value(json_object_get(j, "groups"));
      } else {
        free(c->reason);
        c->reason = keep_str(json_string_value(json_object_get(j, "why")));
        /* reasons that are the space's, not the configuration's (a KernelName
         * the code lacks, Arguments that do not fit the kernel): said as soon
         * as the first code shows them, not only after every code of the space
         * is compiled; the run goes on, another code may differ */
        const char *why = c->reason;
        unsigned kind = !why                                                   ? 0
                        : strncmp(why, "no kernel '", 11) == 0                 ? SAID_NO_KERNEL
                        : strncmp(why, "the space's Arguments give ", 27) == 0 ? SAID_ARGUMENTS
                                                                               : 0;
        if (kind && !(r->said_early & kind)) {
          r->said_early |= kind;
          message(r->o, "wgperf: warning: %s (the first code to show it; the run goes on: %s)", why,
                  kind == SAID_ARGUMENTS ? "check the space's Arguments"
                  : r->o->kernel ? "check --kernel"
                                 : "check the space's KernelName, or give --kernel");
        }
      }
    }
    r->hints_matched |= (uint64_t)json_integer_value(json_object_get(j, "hints"));
    const char *once = json_string_value(json_object_get(j, "once"));
    if (once && phase >= 2) {
      if (!r->once_first)
        r->once_first = strdup(once);
      r->once_cfgs++;
    }
    const char *mm = json_string_value(json_object_get(j, "mismatch"));
    if (mm && !(r->said_early & SAID_TYPES)) {
      r->said_early |= SAID_TYPES;
      message(r->o, "wgperf: warning: %s (the first code to show it; ranked as the space gives it: check the space's "
              "Arguments)", mm);
    }
    (*done)++;
  } else if (json_object_get(j, "done") || json_object_get(j, "compiled")) {
    if (phase == 2) {
      r->compiled += json_is_true(json_object_get(j, "compiled"));
      r->cached += json_is_true(json_object_get(j, "cached"));
      r->precompiled += json_is_true(json_object_get(j, "precompiled"));
      r->cpu_compile += json_number_value(json_object_get(j, "cpu_compile"));
      json_t *ws = json_object_get(j, "warnings");
      for (size_t q = 0; q < json_array_size(ws); q++) {
        const char *t = json_string_value(json_array_get(ws, q));
        size_t at = 0;
        while (t && at < r->nwarn && strcmp(r->warn[at], t) != 0)
          at++;
        if (t && at == r->nwarn && r->nwarn < sizeof r->warn / sizeof *r->warn && (r->warn[at] = strdup(t)))
          r->nwarn++;
        if (t && at < r->nwarn)
          r->warn_codes[at]++;
      }
    }
    if (phase == 4)
      r->cpu_est += json_number_value(json_object_get(j, "cpu_check"));
    if (phase == 2 || phase == 3) { /* phase 3: --prune's estimates, of models compiled in phase 2 */
      r->estimates += (size_t)json_integer_value(json_object_get(j, "estimates"));
      r->cpu_load += json_number_value(json_object_get(j, "cpu_load"));
      r->cpu_est += json_number_value(json_object_get(j, "cpu_estimate"));
    }
    w->busy = false;
  }
  json_decref(j);
}

/* Runs the jobs JOBS[0..N-1] (lines without the newline; CFGS[k] the
 * configurations of job k) on the pool; returns false on a failure of the
 * pool itself.  PROGRESS counts configurations out of TOTAL.  GO (may be
 * NULL) is asked before each job is given out: at its first no, no more are
 * (the jobs given out still finish); *GIVEN (may be NULL) counts those given. */
static bool run_jobs(pool *p, int phase, char **jobs, size_t **cfgs, size_t *ncfgs, size_t n, size_t total,
                     const char *label, bool (*go)(run *, size_t), size_t *given, wgp_diag *diag) {
  run *r = p->r;
  size_t next = 0, done = 0;
  const wgp_tune_options *o = r->o;
  for (;;) {
    /* give idle workers work */
    for (unsigned k = 0; k < p->n && next < n; k++) {
      worker *w = &p->w[k];
      if (w->busy || w->pid <= 0)
        continue;
      if (go && !go(r, next)) {
        n = next; /* the rest are not given out */
        break;
      }
      size_t l = strlen(jobs[next]);
      jobs[next][l] = '\n';
      ssize_t wr = write(w->to, jobs[next], l + 1);
      jobs[next][l] = '\0';
      if (wr != (ssize_t)(l + 1))
        continue; /* its end of the pipe is gone: it is reaped below */
      free(w->job);
      w->job = malloc((ncfgs[next] ? ncfgs[next] : 1) * sizeof *w->job);
      if (w->job)
        memcpy(w->job, cfgs[next], ncfgs[next] * sizeof *w->job);
      w->njob = w->job ? ncfgs[next] : 0;
      w->busy = true;
      next++;
    }
    bool any = false;
    struct pollfd fds[MAX_WORKERS];
    for (unsigned k = 0; k < p->n; k++) {
      fds[k] = (struct pollfd){p->w[k].busy ? p->w[k].from : -1, POLLIN, 0};
      any = any || p->w[k].busy;
    }
    if (!any && next == n) {
      if (given)
        *given = next;
      break;
    }
    if (!any)
      return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: no worker process is left") == WGP_OK;
    if (poll(fds, p->n, -1) < 0) {
      if (errno == EINTR)
        continue;
      wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: poll: %s", strerror(errno));
      return false;
    }
    for (unsigned k = 0; k < p->n; k++) {
      worker *w = &p->w[k];
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      if (w->cap - w->len < 65536) {
        size_t cap = w->cap ? 2 * w->cap : 1 << 17;
        char *b = realloc(w->buf, cap + 1);
        if (!b)
          return nomem(diag) == WGP_OK;
        w->buf = b, w->cap = cap;
      }
      ssize_t got = read(w->from, w->buf + w->len, w->cap - w->len);
      if (got > 0) {
        w->len += (size_t)got;
        char *start = w->buf, *nl;
        while ((nl = memchr(start, '\n', (size_t)(w->buf + w->len - start)))) {
          *nl = '\0';
          take_line(r, w, start, phase, &done);
          start = nl + 1;
        }
        w->len = (size_t)(w->buf + w->len - start);
        memmove(w->buf, start, w->len);
        if (o->progress)
          o->progress(o->progress_user, label, done, total);
        continue;
      }
      if (got < 0 && errno == EINTR)
        continue;
      /* the worker died: its unfinished configurations say so, and a new one takes its place */
      int st = 0;
      waitpid(w->pid, &st, 0);
      close(w->to), close(w->from);
      w->pid = 0;
      char why[160];
      if (WIFSIGNALED(st))
        snprintf(why, sizeof why, "wgtune: the worker analysing this configuration died (signal %d, %s)",
                 WTERMSIG(st), strsignal(WTERMSIG(st)));
      else
        snprintf(why, sizeof why, "wgtune: the worker analysing this configuration exited (status %d)",
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
      for (size_t q = 0; q < w->njob; q++) {
        cfg *c = &r->cfgs[w->job[q]];
        if (phase == 3 ? !c->ok && !c->reason : phase == 2 ? !c->done : !c->has_code && !c->done) {
          c->done = true, c->ok = false;
          free(c->reason);
          c->reason = strdup(why);
          done++;
        }
      }
      w->busy = false;
      if (!spawn(p, w)) {
        wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: cannot start a worker process: %s", strerror(errno));
        return false;
      }
    }
  }
  return true;
}

/* ---- parent side: the run -------------------------------------------------------- */

/* The hash of what the code of a configuration depends on besides its
 * preprocessed text: this program, the driver's tools, the flags. */
static bool identity(run *r, wgp_diag *diag) {
  sha256 h;
  sha256_init(&h);
  sha256_string(&h, "wgtune cache 1");
  sha256_string(&h, WGPERF_VERSION);
  /* the program itself: its driver decides the compile's options */
  if (!sha256_file(&h, "/proc/self/exe"))
    sha256_string(&h, "(no executable)");
  char *tools;
  if (wgp_driver_identity(&tools, diag) != WGP_OK)
    return false;
  sha256_string(&h, tools);
  free(tools);
  /* registers, spills and local memory from NVIDIA's compiler are the GPU
   * architecture's: GPUs of one architecture share models, others do not
   * (without ptxas the model does not depend on the GPU) */
  if (wgp_find_ptxas())
    sha256_string(&h, r->arch);
  else { /* compiled by wgperf-cc with the shared memory gate (job_code) */
    char gate[32];
    snprintf(gate, sizeof gate, "gate %llu", shared_gate(r));
    sha256_string(&h, gate);
    sha256_string(&h, r->kernel);
  }
  sha256_string(&h, r->kind == WGP_SOURCE_CUDA ? "cuda" : "opencl");
  sha256_string(&h, r->o->olevel ? r->o->olevel : "3");
  for (size_t i = 0; i < r->nflags; i++)
    sha256_string(&h, r->flags[i]);
  sha256_hex(&h, r->identity_hash);
  return true;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* FILE (absolute) without the `#pragma unroll` of the loop_unroll_factor
 * parameters of ZEROS: a copy in DIR (its #line names FILE, so messages and
 * the model name FILE and its lines), its path into OUT. */
static wgp_status strip_copy(const run *r, const char *file, uint32_t zeros, const char *dir, const char *suffix,
                             char *out, size_t size, wgp_diag *diag) {
  char *text;
  size_t len;
  wgp_status st = wgp_read_file(file, &text, &len, diag);
  if (st != WGP_OK)
    return st;
  size_t slen;
  char *stripped = kt_strip_unroll(r->s, zeros, text, len, &slen);
  free(text);
  size_t cap = slen + strlen(file) + 32;
  char *copy = stripped ? malloc(cap) : NULL;
  if (!copy) {
    free(stripped);
    return nomem(diag);
  }
  int head = snprintf(copy, cap, "#line 1 \"%s\"\n", file);
  memcpy(copy + head, stripped, slen);
  free(stripped);
  st = wgp_source_by_digest(dir, "", suffix, copy, (size_t)head + slen, out, size, diag);
  free(copy);
  return st;
}

/* What configurations of OUT->zeros compile: the one kernel file, or a file
 * of CACHE/src that includes every file in order (Kernel Tuner concatenates
 * them); with zeros, copies of the files without those pragmas
 * (strip_copy), their folders in OUT->idirs. */
static wgp_status make_source(run *r, src_variant *out, wgp_diag *diag) {
  const wgp_tune_options *o = r->o;
  const wgp_tune_space *s = r->s;
  size_t n = o->num_kernel_files ? o->num_kernel_files : wgp_tune_space_num_kernel_files(s);
  if (n == 0)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: no kernel file (give one, or KernelFile in the space)",
                        wgp_tune_space_name(s));
  const char *want = r->kind == WGP_SOURCE_CUDA ? ".cu" : ".cl", *other = r->kind == WGP_SOURCE_CUDA ? ".cl" : ".cu";
  char dir[PATH_MAX + 8];
  snprintf(dir, sizeof dir, "%s/src", r->dir);
  char **abs = calloc(n, sizeof *abs);
  if (!abs)
    return nomem(diag);
  wgp_status st = WGP_OK;
  for (size_t i = 0; i < n && st == WGP_OK; i++) {
    const char *f = o->num_kernel_files ? o->kernel_files[i] : wgp_tune_space_kernel_file(s, i);
    if (ends_with(f, other))
      st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: the space's Language is %s, the file is %s", f,
                        r->kind == WGP_SOURCE_CUDA ? "CUDA" : "OpenCL", r->kind == WGP_SOURCE_CUDA ? "OpenCL" : "CUDA");
    else if (!(abs[i] = realpath(f, NULL)))
      st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: %s", f, strerror(errno));
  }
  if (st == WGP_OK && out->zeros) {
    out->idirs = calloc(n, sizeof *out->idirs);
    if (!out->idirs)
      st = nomem(diag);
    for (size_t i = 0; i < n && st == WGP_OK; i++) {
      /* -I the original's folder (once), for the includes the copy makes */
      const char *slash = strrchr(abs[i], '/');
      size_t dl = slash && slash != abs[i] ? (size_t)(slash - abs[i]) : 1;
      char *flag = malloc(dl + 3);
      if (!flag) {
        st = nomem(diag);
        break;
      }
      snprintf(flag, dl + 3, "-I%.*s", (int)dl, abs[i]);
      bool seen = false;
      for (size_t k = 0; k < out->nidirs && !seen; k++)
        seen = strcmp(out->idirs[k], flag) == 0;
      if (seen)
        free(flag);
      else
        out->idirs[out->nidirs++] = flag;
      char copy[PATH_MAX + 64];
      st = strip_copy(r, abs[i], out->zeros, dir, want, copy, sizeof copy, diag);
      if (st == WGP_OK) {
        char *c = strdup(copy);
        if (!c)
          st = nomem(diag);
        else
          free(abs[i]), abs[i] = c;
      }
    }
  }
  if (st == WGP_OK && n == 1 && ends_with(abs[0], want)) {
    snprintf(out->path, sizeof out->path, "%s", abs[0]);
  } else if (st == WGP_OK) {
    size_t cap = 64;
    for (size_t i = 0; i < n; i++)
      cap += strlen(abs[i]) + 16;
    char *text = malloc(cap);
    size_t len = 0;
    if (!text)
      st = nomem(diag);
    for (size_t i = 0; text && i < n; i++)
      len += (size_t)snprintf(text + len, cap - len, "#include \"%s\"\n", abs[i]);
    if (text) {
      st = wgp_source_by_digest(dir, "", want, text, len, out->path, sizeof out->path, diag);
      free(text);
    }
  }
  for (size_t i = 0; i < n; i++)
    free(abs[i]);
  free(abs);
  /* a template's instance (KTT's KernelTypeNames, Kernel Tuner's
   * "name<float>"): a source of CACHE/src that instantiates it, as their
   * NVRTC name expressions do */
  if (st == WGP_OK && r->kind == WGP_SOURCE_CUDA && wgp_is_instance_name(r->kernel)) {
    char inst[sizeof out->path];
    const char *names[1] = {r->kernel};
    st = wgp_instance_source(out->path, names, 1, dir, inst, sizeof inst, diag);
    if (st == WGP_OK)
      snprintf(out->path, sizeof out->path, "%s", inst);
  }
  return st;
}

static void free_sources(run *r) {
  for (size_t i = 0; i < r->nsources; i++) {
    for (size_t k = 0; k < r->sources[i].nidirs; k++)
      free(r->sources[i].idirs[k]);
    free(r->sources[i].idirs);
  }
  free(r->sources);
  r->sources = NULL, r->nsources = 0;
}

/* The space's definitions (defines.c) and what each configuration compiles:
 * the kernel, or for Kernel Tuner's loop_unroll_factor parameters at 0 a copy
 * without their pragmas, one per set of such zeros. */
static wgp_status setup_sources(run *r, wgp_diag *diag) {
  char dir[PATH_MAX + 8];
  snprintf(dir, sizeof dir, "%s/src", r->dir);
  wgp_status st = kt_header(r->s, dir, r->header, sizeof r->header, diag);
  if (st != WGP_OK)
    return st;
  /* [0]: the kernel as it is (what wgtune names in its messages) */
  for (size_t i = 0; i <= r->ncfg && st == WGP_OK; i++) {
    uint32_t zeros = i ? kt_unroll_zeros(r->s, r->cfgs[i - 1].v) : 0;
    size_t k = 0;
    while (k < r->nsources && r->sources[k].zeros != zeros)
      k++;
    if (k == r->nsources) {
      src_variant *grown = realloc(r->sources, (k + 1) * sizeof *grown);
      if (!grown)
        return nomem(diag);
      r->sources = grown;
      memset(&grown[k], 0, sizeof grown[k]);
      grown[k].zeros = zeros;
      r->nsources = k + 1;
      st = make_source(r, &grown[k], diag);
    }
    if (i)
      r->cfgs[i - 1].source = k;
  }
  return st;
}

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int by_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* K distinct indices below N (K < N), ascending, the same for the same SEED
 * (Floyd's algorithm); give: free(). */
static size_t *sample_indices(size_t n, size_t k, uint64_t seed) {
  size_t *out = malloc(k * sizeof *out);
  unsigned char *taken = calloc(n, 1);
  if (!out || !taken) {
    free(out);
    free(taken);
    return NULL;
  }
  uint64_t state = seed ^ 0x7767747565ull;
  size_t m = 0;
  for (size_t j = n - k; j < n; j++) {
    size_t t = (size_t)(splitmix(&state) % (j + 1));
    if (taken[t])
      t = j;
    taken[t] = 1;
    out[m++] = t;
  }
  free(taken);
  qsort(out, k, sizeof *out, by_size);
  return out;
}

bool wgp_tune_pick(size_t total, const wgp_tune_options *o, size_t **at, size_t *count) {
  size_t *pick = NULL, npick = total;
  *at = NULL;
  *count = 0;
  if (o->sample && o->sample < total) {
    if (!(pick = sample_indices(total, o->sample, o->seed)))
      return false;
    npick = o->sample;
  }
  size_t lo = 0, hi = npick;
  if (o->shards && o->shard >= 1 && o->shard <= o->shards) {
    lo = (size_t)((unsigned long long)npick * (o->shard - 1) / o->shards);
    hi = (size_t)((unsigned long long)npick * o->shard / o->shards);
  }
  size_t *out = malloc((hi - lo ? hi - lo : 1) * sizeof *out);
  if (!out) {
    free(pick);
    return false;
  }
  for (size_t i = lo; i < hi; i++)
    out[i - lo] = pick ? pick[i] : i;
  free(pick);
  *at = out;
  *count = hi - lo;
  return true;
}

static int by_code(const void *a, const void *b, void *ctx) {
  const run *r = ctx;
  const cfg *x = &r->cfgs[*(const size_t *)a], *y = &r->cfgs[*(const size_t *)b];
  int c = strcmp(x->code, y->code);
  if (c)
    return c;
  return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

static void message(const wgp_tune_options *o, const char *fmt, ...) {
  if (!o->message)
    return;
  char line[WGP_DIAG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  o->message(o->message_user, line);
}

/* The key shards must share: the space's file, kernel, GPU, flags, tools. */
static void merge_key(const run *r, const wgp_tune_space *s, char out[65]) {
  sha256 h;
  sha256_init(&h);
  sha256_string(&h, r->identity_hash);
  if (!sha256_file(&h, wgp_tune_space_name(s)))
    sha256_string(&h, wgp_tune_space_name(s));
  sha256_string(&h, r->kernel);
  sha256_string(&h, wgp_gpu_name(r->gpu));
  sha256_string(&h, wgp_gpu_file(r->gpu));
  char sample[64];
  snprintf(sample, sizeof sample, "%zu %llu", r->o->sample, (unsigned long long)r->o->seed);
  sha256_string(&h, sample);
  /* the hints change the times (a run without them keeps its key) */
  const wgp_source_hints *sh = &r->o->hints;
  for (size_t i = 0; i < sh->num_trips; i++) {
    char hint[64];
    snprintf(hint, sizeof hint, "trip %llu ", (unsigned long long)sh->trip_counts[i]);
    sha256_string(&h, hint);
    sha256_string(&h, sh->trip_at[i]);
  }
  for (size_t i = 0; i < sh->num_takens; i++) {
    char hint[64];
    snprintf(hint, sizeof hint, "taken %.17g ", sh->taken_fractions[i]);
    sha256_string(&h, hint);
    sha256_string(&h, sh->taken_at[i]);
  }
  sha256_hex(&h, out);
}

/* ---- --prune: the best-first search ------------------------------------------------ */

/* The K-th smallest of V[0..N-1] (1 <= K <= N; V is reordered). */
static double kth_smallest(double *v, size_t n, size_t k) {
  size_t lo = 0, hi = n - 1, want = k - 1;
  while (lo < hi) {
    double pivot = v[lo + (hi - lo) / 2];
    size_t i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot)
        i++;
      while (v[j] > pivot)
        j--;
      if (i <= j) {
        double t = v[i];
        v[i] = v[j], v[j] = t;
        i++;
        if (j == 0)
          break;
        j--;
      }
    }
    if (want <= j)
      hi = j;
    else if (want >= i)
      lo = i;
    else
      return v[want];
  }
  return v[want];
}

/* W_N: the N-th smallest, over the configurations that may run, of each
 * one's tightest upper bound (its time once estimated, else its worst case);
 * INFINITY while fewer than N may run.  Only falls as estimates come in. */
static double upper_nth(run *r) {
  size_t m = 0;
  for (size_t i = 0; i < r->ncfg; i++) {
    const cfg *c = &r->cfgs[i];
    if (c->bounded && !c->reason)
      r->scratch[m++] = c->ok ? c->t : c->ub;
  }
  return m >= r->o->prune_top ? kth_smallest(r->scratch, m, r->o->prune_top) : INFINITY;
}

/* The next job's configuration may be among the N fastest: its lower bound
 * is not above W_N (looked at again only when the last look says yes). */
static bool search_go(run *r, size_t job) {
  double lb = r->search_lb[job];
  if (lb <= r->search_wk)
    r->search_wk = upper_nth(r);
  return lb <= r->search_wk;
}

static int by_lb(const void *a, const void *b, void *ctx) {
  const run *r = ctx;
  const cfg *x = &r->cfgs[*(const size_t *)a], *y = &r->cfgs[*(const size_t *)b];
  if (x->lb != y->lb)
    return x->lb < y->lb ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* --prune N (docs/wgtune.md, "Pruning"): every configuration that compiled
 * has its bounds for any hit rates (phase 2).  Its distinct launches are
 * estimated in the order of their lower bounds, while that bound is not
 * above W_N (upper_nth): a launch past it is slower than N configurations
 * (each of which is at most W_N), and so is every launch after it.  A
 * configuration that fails its estimate leaves W_N and may raise it: the
 * search then goes on.  At the end every configuration whose time is at most
 * T_N, the N-th fastest time, was estimated (its lower bound is at most T_N,
 * and W_N never falls below T_N), so the first N ranks are exact; what is
 * kept ranked is exactly those whose lower bound is at most T_N (an estimate
 * made past it is dropped, the configuration pruned), which makes the result
 * the same whatever the workers' timing, and a merge of pruned shards the
 * same as one process (tr_prune_trim). */
static wgp_status prune_search(run *r, pool *p, wgp_diag *diag) {
  size_t nb = 0;
  size_t *b = malloc((r->ncfg ? r->ncfg : 1) * sizeof *b);
  r->scratch = malloc((r->ncfg ? r->ncfg : 1) * sizeof *r->scratch);
  if (!b || !r->scratch) {
    free(b);
    return nomem(diag);
  }
  for (size_t i = 0; i < r->ncfg; i++)
    if (r->cfgs[i].bounded && !r->cfgs[i].reason)
      b[nb++] = i;
  /* units: the configurations of one code and one launch (one estimate), by lower bound */
  qsort_r(b, nb, sizeof *b, by_lb, r);
  size_t *member = malloc((nb ? nb : 1) * sizeof *member), *ustart = malloc((nb + 1) * sizeof *ustart);
  size_t *ucount = malloc((nb ? nb : 1) * sizeof *ucount);
  double *ulb = malloc((nb ? nb : 1) * sizeof *ulb);
  char **jobs = calloc(nb ? nb : 1, sizeof *jobs);
  size_t **jcfg = malloc((nb ? nb : 1) * sizeof *jcfg);
  bool *taken = calloc(nb ? nb : 1, sizeof *taken);
  wgp_status st = member && ustart && ucount && ulb && jobs && jcfg && taken ? WGP_OK : nomem(diag);
  size_t nu = 0, nm = 0;
  for (size_t x = 0; st == WGP_OK && x < nb; x++) {
    if (taken[x])
      continue;
    const cfg *c = &r->cfgs[b[x]];
    ustart[nu] = nm;
    member[nm++] = b[x];
    taken[x] = true;
    /* the same code and launch: the same bounds, so next to it in this order */
    for (size_t y = x + 1; y < nb && r->cfgs[b[y]].lb == c->lb; y++)
      if (!taken[y] && strcmp(r->cfgs[b[y]].code, c->code) == 0 && same_launch(&r->cfgs[b[y]].launch, &c->launch))
        member[nm++] = b[y], taken[y] = true;
    ucount[nu] = nm - ustart[nu];
    ulb[nu] = c->lb;
    size_t len = 80 + ucount[nu] * 21;
    if (!(jobs[nu] = malloc(len))) {
      st = nomem(diag);
      break;
    }
    size_t w = (size_t)snprintf(jobs[nu], len, "E %s", c->code);
    for (size_t q = ustart[nu]; q < nm; q++)
      w += (size_t)snprintf(jobs[nu] + w, len - w, " %zu", member[q]);
    jcfg[nu] = &member[ustart[nu]];
    nu++;
  }
  size_t at = 0;
  r->search_wk = INFINITY;
  while (st == WGP_OK && at < nu) {
    size_t given = 0;
    r->search_lb = ulb + at;
    if (!run_jobs(p, 3, jobs + at, jcfg + at, ucount + at, nu - at, nb, "estimating (--prune)", search_go, &given,
                  diag)) {
      st = WGP_ERR_INPUT;
      break;
    }
    at += given;
    /* a failed estimate leaves W_N: it may have risen past the next bound */
    r->search_wk = upper_nth(r);
    if (given == 0 || (at < nu && ulb[at] > r->search_wk))
      break;
  }
  for (size_t u = at; st == WGP_OK && u < nu; u++)
    for (size_t q = 0; q < ucount[u]; q++)
      r->cfgs[jcfg[u][q]].pruned = true;
  /* what T_N, the N-th fastest time, lets through is kept by build_result
   * (tr_prune_trim, as wgtune merge does for pruned shards) */
  if (st == WGP_OK) {
    size_t below = 0;
    for (size_t x = 0; x < nb; x++) {
      const cfg *c = &r->cfgs[b[x]];
      below += c->ok && c->t < c->lb * (1 - 1e-12);
    }
    if (below)
      message(r->o,
              "wgperf: warning: %zu estimates are below their own lower bounds: the first %zu ranks of --prune may "
              "not be exact (please report it)",
              below, r->o->prune_top);
  }
  for (size_t u = 0; jobs && u < nu; u++)
    free(jobs[u]);
  free(jobs);
  free(jcfg);
  free(taken);
  free(ulb);
  free(ucount);
  free(ustart);
  free(member);
  free(b);
  free(r->scratch);
  r->scratch = NULL;
  return st;
}

static int by_time(const void *a, const void *b, void *user) {
  const run *r = user;
  const cfg *x = &r->cfgs[*(const size_t *)a], *y = &r->cfgs[*(const size_t *)b];
  return x->t < y->t ? -1 : x->t > y->t ? 1 : x->index < y->index ? -1 : x->index > y->index;
}

/* Checks the check_top fastest configurations estimated (the ranking's
 * first, as tr_rank orders it) for accesses outside the buffers the space
 * gives (job_check): a check costs more than an estimate (isl over the whole
 * launch: 0.01 to 0.5 s), so only where a user looks. */
static wgp_status check_fastest(run *r, pool *p, wgp_diag *diag) {
  size_t n = 0, *x = malloc((r->ncfg ? r->ncfg : 1) * sizeof *x);
  if (!x)
    return nomem(diag);
  for (size_t i = 0; i < r->ncfg; i++)
    if (r->cfgs[i].ok && r->cfgs[i].has_code)
      x[n++] = i;
  qsort_r(x, n, sizeof *x, by_time, r);
  if (n > r->o->check_top)
    n = r->o->check_top;
  char **jobs = calloc(n ? n : 1, sizeof *jobs);
  size_t **jcfg = malloc((n ? n : 1) * sizeof *jcfg), *ones = malloc((n ? n : 1) * sizeof *ones);
  wgp_status st = jobs && jcfg && ones ? WGP_OK : nomem(diag);
  for (size_t q = 0; st == WGP_OK && q < n; q++) {
    if (!(jobs[q] = malloc(96)))
      st = nomem(diag);
    else
      snprintf(jobs[q], 96, "O %s %zu", r->cfgs[x[q]].code, x[q]);
    jcfg[q] = &x[q], ones[q] = 1;
  }
  if (st == WGP_OK && n && !run_jobs(p, 4, jobs, jcfg, ones, n, n, "checking the fastest", NULL, NULL, diag))
    st = WGP_ERR_INPUT;
  for (size_t q = 0; jobs && q < n; q++)
    free(jobs[q]);
  free(jobs), free(jcfg), free(ones), free(x);
  return st;
}

static wgp_status build_result(run *r, const uint64_t raw, size_t total, wgp_tune_result **out, wgp_diag *diag) {
  const wgp_tune_space *s = r->s;
  char key[65];
  merge_key(r, s, key);
  const char **names = calloc(s->nparams, sizeof *names);
  if (!names)
    return nomem(diag);
  for (size_t p = 0; p < s->nparams; p++)
    names[p] = s->params[p].name;
  wgp_tune_result *res = tr_new(wgp_tune_space_name(s), r->kernel, wgp_gpu_name(r->gpu), key, s->nparams, names, r->ncfg);
  free(names);
  if (!res)
    return nomem(diag);
  res->counts.prune_top = r->o->prune_top;
  /* value texts kept once per parameter value */
  const char ***texts = calloc(s->nparams, sizeof *texts);
  bool ok = texts != NULL;
  for (size_t p = 0; ok && p < s->nparams; p++) {
    texts[p] = calloc(s->params[p].nvalues, sizeof **texts);
    ok = texts[p] != NULL;
    for (size_t v = 0; ok && v < s->params[p].nvalues; v++)
      ok = (texts[p][v] = tr_keep(res, s->params[p].values[v].text)) != NULL;
  }
  for (size_t i = 0; ok && i < r->ncfg; i++) {
    cfg *c = &r->cfgs[i];
    wgp_tune_config *t = &res->configs[i];
    t->index = c->index;
    t->values = &res->values[i * s->nparams];
    for (size_t p = 0; p < s->nparams; p++) {
      wgp_tune_value v = s->params[p].values[c->v[p]];
      v.text = texts[p][c->v[p]];
      res->values[i * s->nparams + p] = v;
    }
    t->ok = c->ok;
    t->pruned = c->pruned;
    t->lower_us = c->bounded ? c->lb : 0, t->upper_us = c->bounded ? c->ub : 0;
    t->code = c->has_code ? tr_keep(res, c->code) : NULL;
    memcpy(t->grid, c->launch.grid, sizeof t->grid);
    memcpy(t->block, c->launch.block, sizeof t->block);
    if (c->ok) {
      t->time_us = c->t, t->best_us = c->b, t->worst_us = c->w;
      t->bsp_us = c->bsp, t->roofline_us = c->roof;
      t->limiter = tr_keep(res, c->limiter);
      t->bottleneck = tr_keep(res, c->bottleneck);
      t->bound = tr_keep(res, c->bound);
      t->registers = c->regs;
      t->registers_from = tr_keep(res, c->regs_from ? c->regs_from : "");
      t->warps_per_sm = c->warps, t->groups_per_sm = c->groups;
      t->outside = c->outside ? tr_keep(res, c->outside) : NULL;
    } else if (!c->pruned) {
      t->reason = tr_keep(res, c->reason ? c->reason : "not analysed");
    }
  }
  for (size_t p = 0; texts && p < s->nparams; p++)
    free(texts[p]);
  free(texts);
  if (!ok || !tr_rank(res) || !tr_prune_trim(res)) {
    wgp_tune_result_free(res);
    return nomem(diag);
  }
  wgp_tune_counts *n = &res->counts;
  n->raw = raw;
  n->total = total;
  n->run = r->ncfg;
  n->compiled = r->compiled;
  n->cached = r->cached;
  n->estimates = r->estimates;
  n->preprocessed = r->preprocessed;
  n->precompiled = r->precompiled;
  n->shard = r->o->shards ? r->o->shard : 0;
  n->shards = r->o->shards;
  n->distinct = r->distinct;
  *out = res;
  return WGP_OK;
}

wgp_status wgp_tune_run(const wgp_tune_space *s, const wgp_gpu *gpu, const wgp_tune_options *o, wgp_tune_result **out,
                        wgp_diag *diag) {
  *out = NULL;
  double t0 = now_ms(), c0 = cpu_ms();
  run r = {.s = s, .gpu = gpu, .o = o, .kind = wgp_tune_space_language(s)};
  snprintf(r.arch, sizeof r.arch, "sm_%u%u", wgp_gpu_cc_major(gpu), wgp_gpu_cc_minor(gpu));
  r.kernel = o->kernel ? o->kernel : wgp_tune_space_kernel_name(s);
  if (!r.kernel)
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: no KernelName (give --kernel)", wgp_tune_space_name(s));
  if (o->shards && (o->shard < 1 || o->shard > o->shards))
    return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: shard %u of %u does not exist", o->shard, o->shards);
  /* the flags: the space's CompilerOptions, then the caller's */
  size_t nsf = wgp_tune_space_num_compiler_flags(s), nco = wgp_tune_space_num_clang_only_flags(s);
  r.nflags = nsf + nco + o->num_flags;
  r.flags = calloc(r.nflags + 1, sizeof *r.flags);
  if (!r.flags)
    return nomem(diag);
  for (size_t i = 0; i < nsf; i++)
    r.flags[i] = (char *)wgp_tune_space_compiler_flag(s, i);
  for (size_t i = 0; i < nco; i++) /* nvcc's -use_fast_math as clang's flags */
    r.flags[nsf + i] = (char *)wgp_tune_space_clang_only_flag(s, i);
  for (size_t i = 0; i < o->num_flags; i++)
    r.flags[nsf + nco + i] = o->flags[i];
  for (size_t i = 0; i < wgp_tune_space_num_ignored_options(s); i++)
    message(o, "wgperf: note: %s: CompilerOptions '%s' is not passed to clang (nvcc's or NVRTC's own)",
            wgp_tune_space_name(s), wgp_tune_space_ignored_option(s, i));
  /* the configurations */
  uint16_t *idx = NULL;
  size_t total = 0;
  uint64_t raw = 0;
  wgp_status st = wgp_tune_space_enumerate(s, &idx, &total, &raw, diag);
  if (st != WGP_OK) {
    free(r.flags);
    return st;
  }
  /* the sample (indices into the space, ascending), then the shard of it */
  size_t *pick = NULL;
  if (!wgp_tune_pick(total, o, &pick, &r.ncfg)) {
    free(idx);
    free(r.flags);
    return nomem(diag);
  }
  r.cfgs = calloc(r.ncfg ? r.ncfg : 1, sizeof *r.cfgs);
  if (!r.cfgs) {
    free(pick);
    free(idx);
    free(r.flags);
    return nomem(diag);
  }
  for (size_t i = 0; i < r.ncfg && st == WGP_OK; i++) {
    size_t at = pick[i];
    r.cfgs[i].index = at;
    r.cfgs[i].v = idx + at * s->nparams;
    st = wgp_tune_space_launch(s, r.cfgs[i].v, &r.cfgs[i].launch, diag);
  }
  /* where the work is kept */
  if (st == WGP_OK) {
    if (o->cache_dir) {
      snprintf(r.dir, sizeof r.dir, "%s", o->cache_dir);
      if (!wgp_make_dirs(r.dir))
        st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot create the cache folder: %s", r.dir,
                          strerror(errno));
    } else {
      if (!wgp_temp_template(r.dir, sizeof r.dir, "wgtune", "") || !mkdtemp(r.dir))
        st = wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: cannot create a temporary folder: %s", strerror(errno));
      r.temp_dir = st == WGP_OK;
    }
  }
  /* the sources the cache holds are named by an absolute path, which the
   * codes' texts show only as CACHE/src/ (hash_text) */
  char absdir[PATH_MAX];
  if (st == WGP_OK && realpath(r.dir, absdir) && strlen(absdir) < sizeof r.dir)
    snprintf(r.dir, sizeof r.dir, "%s", absdir);
  if (st == WGP_OK)
    st = setup_sources(&r, diag);
  if (st == WGP_OK && !identity(&r, diag))
    st = WGP_ERR_INPUT;
  pool p = {.r = &r};
  void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
  unsigned jobs = o->jobs ? o->jobs : wgp_default_threads();
  if (jobs > MAX_WORKERS)
    jobs = MAX_WORKERS;
  if (jobs > r.ncfg && r.ncfg > 0)
    jobs = (unsigned)r.ncfg;
  for (unsigned k = 0; st == WGP_OK && k < jobs; k++) {
    if (!spawn(&p, &p.w[k]))
      st = wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: cannot start a worker process: %s", strerror(errno));
    else
      p.n = k + 1;
  }
  /* phase 1: preprocessing */
  double t1 = now_ms();
  char **jobs_txt = NULL;
  size_t **jobs_cfg = NULL, *jobs_n = NULL, *order = NULL;
  size_t njobs = 0;
  if (st == WGP_OK) {
    jobs_txt = calloc(r.ncfg + 1, sizeof *jobs_txt);
    jobs_cfg = calloc(r.ncfg + 1, sizeof *jobs_cfg);
    jobs_n = calloc(r.ncfg + 1, sizeof *jobs_n);
    order = calloc(r.ncfg + 1, sizeof *order);
    if (!jobs_txt || !jobs_cfg || !jobs_n || !order)
      st = nomem(diag);
    for (size_t i = 0; st == WGP_OK && i < r.ncfg; i++) {
      order[i] = i;
      if (!(jobs_txt[i] = malloc(32))) {
        st = nomem(diag);
        break;
      }
      snprintf(jobs_txt[i], 32, "P %zu", i);
      jobs_cfg[i] = &order[i];
      jobs_n[i] = 1;
      njobs = i + 1;
    }
    if (st == WGP_OK && !run_jobs(&p, 1, jobs_txt, jobs_cfg, jobs_n, r.ncfg, r.ncfg, "preprocessing", NULL, NULL, diag))
      st = WGP_ERR_INPUT;
  }
  for (size_t i = 0; jobs_txt && i < njobs; i++)
    free(jobs_txt[i]);
  njobs = 0;
  double t2 = now_ms();
  /* phase 2: a job per distinct code */
  size_t nwith = 0;
  if (st == WGP_OK) {
    for (size_t i = 0; i < r.ncfg; i++)
      if (r.cfgs[i].has_code)
        order[nwith++] = i;
    qsort_r(order, nwith, sizeof *order, by_code, &r);
    for (size_t a = 0; a < nwith && st == WGP_OK;) {
      size_t b = a + 1;
      while (b < nwith && strcmp(r.cfgs[order[a]].code, r.cfgs[order[b]].code) == 0)
        b++;
      size_t len = 80 + (b - a) * 21;
      char *t = malloc(len);
      if (!t) {
        st = nomem(diag);
        break;
      }
      size_t w = (size_t)snprintf(t, len, "C %s", r.cfgs[order[a]].code);
      for (size_t q = a; q < b; q++)
        w += (size_t)snprintf(t + w, len - w, " %zu", order[q]);
      jobs_txt[njobs] = t;
      jobs_cfg[njobs] = &order[a];
      jobs_n[njobs] = b - a;
      njobs++;
      a = b;
    }
    r.distinct = njobs;
    /* in the space's order of each code's first configuration */
    for (size_t x = 1; x < njobs; x++)
      for (size_t y = x; y > 0 && jobs_cfg[y][0] < jobs_cfg[y - 1][0]; y--) {
        char *tt = jobs_txt[y];
        jobs_txt[y] = jobs_txt[y - 1], jobs_txt[y - 1] = tt;
        size_t *tc = jobs_cfg[y];
        jobs_cfg[y] = jobs_cfg[y - 1], jobs_cfg[y - 1] = tc;
        size_t tn = jobs_n[y];
        jobs_n[y] = jobs_n[y - 1], jobs_n[y - 1] = tn;
      }
    if (st == WGP_OK && !run_jobs(&p, 2, jobs_txt, jobs_cfg, jobs_n, njobs, nwith, o->prune_top ? "compiling and bounding" : "compiling and estimating", NULL, NULL, diag))
      st = WGP_ERR_INPUT;
  }
  if (st == WGP_OK && o->prune_top)
    st = prune_search(&r, &p, diag);
  if (st == WGP_OK && o->check_top)
    st = check_fastest(&r, &p, diag);
  double t3 = now_ms();
  for (size_t i = 0; jobs_txt && i < njobs; i++)
    free(jobs_txt[i]);
  free(jobs_txt);
  free(jobs_cfg);
  free(jobs_n);
  free(order);
  stop(&p);
  signal(SIGPIPE, old_pipe);
  if (st == WGP_OK)
    st = build_result(&r, raw, total, out, diag);
  if (st == WGP_OK) {
    wgp_tune_counts *n = &(*out)->counts;
    n->preprocess_ms = t2 - t1;
    n->compile_ms = t3 - t2;
    n->cpu_preprocess_ms = r.cpu_pp;
    n->cpu_compile_ms = r.cpu_compile;
    n->cpu_load_ms = r.cpu_load;
    n->cpu_estimate_ms = r.cpu_est;
    n->wall_ms = now_ms() - t0;
    n->cpu_ms = cpu_ms() - c0;
  }
  if (st == WGP_OK)
    (*out)->counts.sample = o->sample && o->sample < total ? o->sample : 0;
  if (r.once_cfgs)
    message(o,
            "wgperf: warning: %zu of the configurations estimated have a loop whose count needs values known only at "
            "run time (the first: %s), run once per entry: their times are too low where such a loop runs more "
            "(--trip FILE:LINE=COUNT gives its count per entry)",
            r.once_cfgs, r.once_first ? r.once_first : "?");
  const wgp_source_hints *sh = &o->hints;
  for (size_t h = 0; st == WGP_OK && h < sh->num_trips + sh->num_takens; h++) {
    bool trip = h < sh->num_trips;
    size_t i = trip ? h : h - sh->num_trips;
    if (i < 32 && !(r.hints_matched & (1ull << (trip ? i : 32 + i))))
      message(o, "wgperf: warning: %s %s: no code estimated has a %s at that line of kernel '%s'; the hint did nothing",
              trip ? "--trip" : "--taken", trip ? sh->trip_at[i] : sh->taken_at[i],
              trip ? "loop whose count needs a hint" : "branch (other than a loop's own condition)", r.kernel);
  }
  free(r.once_first);
  if (st == WGP_OK)
    wgp_tune_say_outside(*out, o->message, o->message_user);
  for (size_t i = 0; i < r.nwarn; i++) {
    message(o, "wgperf: warning: kernel '%s' (%zu of the %zu codes loaded): %s", r.kernel, r.warn_codes[i],
            r.compiled + r.cached, r.warn[i]);
    free(r.warn[i]);
  }
  free(pick);
  if (r.temp_dir)
    wgp_remove_tree(r.dir); /* a temporary cache */
  for (size_t i = 0; i < r.ncfg; i++) {
    cfg *c = &r.cfgs[i];
    free(c->reason);
    free(c->limiter);
    free(c->bottleneck);
    free(c->bound);
    free(c->regs_from);
    free(c->outside);
  }
  free(r.cfgs);
  free(idx);
  free(r.flags);
  free_sources(&r);
  return st;
}
