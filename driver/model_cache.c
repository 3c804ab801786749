/* model_cache.c - the model cache of wgp_extract (model_cache_internal.h,
 * wgperf/driver.h, docs/usage.md "The model cache").
 *
 * Like ccache's direct mode: the key is a digest of what the compile is
 * asked to do and what it runs; the entry then lists the files the compile
 * read (clang's dependency output) with their contents' digests, checked on
 * every lookup.  Contents, not times: a file rewritten within a second at the
 * same size (as tests do) is another file.
 *
 *   DIR/XX/KEY.model  the model
 *   DIR/XX/KEY.out    what the user was shown (mc_log's records)
 *   DIR/XX/KEY.deps   "wgperf model cache 1", "model DIGEST", "out DIGEST",
 *                     then "dep DIGEST PATH" per file and "end FILES"; written
 *                     last, and its modification time is the entry's last use
 *   DIR/size          "BYTES STORES": what the stores added since the last
 *                     count, read to decide when to count and evict
 */
#define _XOPEN_SOURCE 700
#include "model_cache_internal.h"

#include "driver_identity.h"
#include "files_internal.h"
#include "sha256_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef WGPERF_DEFAULT_LIBCLC
#define WGPERF_DEFAULT_LIBCLC ""
#endif

/* The key's format: a change to what the key or an entry holds changes it. */
#define MC_FORMAT "wgperf model cache 1"
/* The default bound of the cache's size, MB ($WGPERF_CACHE_MAX_MB). */
#define MC_DEFAULT_MAX_MB 1024.0
/* A full count of the cache's size at least every this many stores (the
 * size file's sum can miss what concurrent stores added). */
#define MC_COUNT_EVERY 256

long long mc_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* ---- what the user was shown ---------------------------------------------- */

static void log_record(mc_log *log, char type, const char *data, size_t n) {
  char head[32];
  int h = snprintf(head, sizeof head, "%c%zu\n", type, n);
  if (log->len + (size_t)h + n + 1 > log->cap) {
    size_t cap = (log->len + (size_t)h + n + 1) * 2;
    char *t = realloc(log->text, cap);
    if (!t) {
      log->nomem = true;
      return;
    }
    log->text = t, log->cap = cap;
  }
  memcpy(log->text + log->len, head, (size_t)h);
  memcpy(log->text + log->len + (size_t)h, data, n);
  log->len += (size_t)h + n;
}

void mc_log_stderr(mc_log *log, const char *data, size_t n) {
  if (n)
    log_record(log, 'E', data, n);
}

void mc_log_message(void *user, const char *message) {
  mc_log *log = user;
  log_record(log, 'M', message, strlen(message));
  if (log->user && log->user->message)
    log->user->message(log->user->message_user, message);
}

void mc_log_free(mc_log *log) {
  free(log->text);
  log->text = NULL;
  log->len = log->cap = 0;
}

/* Whether TEXT (LEN bytes) is a whole sequence of records. */
static bool log_valid(const char *text, size_t len) {
  size_t at = 0;
  while (at < len) {
    if (text[at] != 'E' && text[at] != 'M')
      return false;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text + at + 1, &end, 10);
    if (errno || end == text + at + 1 || *end != '\n' || n > len)
      return false;
    at = (size_t)(end + 1 - text);
    if (n > len - at)
      return false;
    at += (size_t)n;
  }
  return true;
}

/* Shows LOG's records again: stderr's on stderr, the messages through O's
 * callback (NUL-free: a message is a C string). */
static void log_replay(const char *text, size_t len, const wgp_extract_options *o) {
  size_t at = 0;
  while (at < len) {
    char type = text[at];
    char *end;
    size_t n = (size_t)strtoull(text + at + 1, &end, 10);
    at = (size_t)(end + 1 - text);
    if (type == 'E') {
      fwrite(text + at, 1, n, stderr);
      fflush(stderr);
    } else if (o->message) {
      char *m = malloc(n + 1);
      if (m) {
        memcpy(m, text + at, n);
        m[n] = '\0';
        o->message(o->message_user, m);
        free(m);
      }
    }
    at += n;
  }
}

/* ---- the key ---------------------------------------------------------------- */

/* NAME found as execvp would (NAME itself when it holds a '/'), resolved
 * through links, into BUF; false when not found. */
static bool resolve_tool(const char *name, char *buf) {
  if (strchr(name, '/'))
    return realpath(name, buf) != NULL;
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *colon = strchr(path, ':');
    size_t n = colon ? (size_t)(colon - path) : strlen(path);
    char cand[PATH_MAX];
    if (n + strlen(name) + 2 < sizeof cand) {
      snprintf(cand, sizeof cand, "%.*s/%s", (int)n, n ? path : ".", name);
      if (access(cand, X_OK) == 0 && realpath(cand, buf))
        return true;
    }
    path = colon ? colon + 1 : NULL;
  }
  return false;
}

/* LABEL, then PATH (resolved when RESOLVE) with its size and modification
 * time, or "none". */
static void key_stamp(sha256 *h, const char *label, const char *path, bool resolve) {
  sha256_string(h, label);
  char real[PATH_MAX];
  if (!path || !*path) {
    sha256_string(h, "none");
    return;
  }
  const char *p = resolve && resolve_tool(path, real) ? real : path;
  sha256_string(h, p);
  struct stat st;
  char s[96];
  if (stat(p, &st) == 0)
    snprintf(s, sizeof s, "%lld %lld.%09ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
             st.st_mtim.tv_nsec);
  else
    snprintf(s, sizeof s, "missing");
  sha256_string(h, s);
}

/* Whether a flag names a file or folder by a relative path (-I inc, -include
 * h.h, --cuda-path=cuda): then the folder the compile runs in is in the key. */
static bool relative_path_flag(char *const *flags, size_t n) {
  static const char *const with_path[] = {"-I",       "-isystem",    "-iquote", "-idirafter",
                                          "-include", "-imacros",    "-isysroot", "--sysroot=",
                                          "--cuda-path=", "-iprefix", "-F"};
  bool value_of_define = false;
  for (size_t i = 0; i < n; i++) {
    const char *f = flags[i];
    if (value_of_define) { /* -D NAME=V, -U NAME */
      value_of_define = false;
      continue;
    }
    if (strcmp(f, "-D") == 0 || strcmp(f, "-U") == 0) {
      value_of_define = true;
      continue;
    }
    const char *value = NULL;
    if (f[0] != '-') {
      value = f; /* the value of the flag before, or an input */
    } else {
      for (size_t k = 0; k < sizeof with_path / sizeof *with_path && !value; k++)
        if (strncmp(f, with_path[k], strlen(with_path[k])) == 0)
          value = f + strlen(with_path[k]);
    }
    if (value && *value && value[0] != '/')
      return true;
  }
  return false;
}

static void key_env(sha256 *h, const char *name) {
  const char *v = getenv(name);
  sha256_string(h, name);
  sha256_string(h, v ? v : "(unset)");
}

bool mc_key(const mc_request *r, char key[65]) {
  const wgp_extract_options *o = r->o;
  sha256 h;
  sha256_init(&h);
  sha256_string(&h, MC_FORMAT);
  sha256_string(&h, WGPERF_DRIVER_IDENTITY);
  sha256_string(&h, r->kind == WGP_SOURCE_OPENCL ? "opencl" : r->kind == WGP_SOURCE_CUDA ? "cuda" : "ir");
  sha256_string(&h, r->file);
  if (r->file[0] != '/' || relative_path_flag(o->flags, o->num_flags)) {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
      return false;
    sha256_string(&h, cwd);
  }
  sha256_string(&h, o->olevel ? o->olevel : "(default)");
  char count[32];
  snprintf(count, sizeof count, "%zu flags", o->num_flags);
  sha256_string(&h, count);
  for (size_t i = 0; i < o->num_flags; i++)
    sha256_string(&h, o->flags[i]);
  if (o->max_registers) { /* given as an option rather than a flag */
    snprintf(count, sizeof count, "maxrregcount %u", o->max_registers);
    sha256_string(&h, count);
  }
  if (o->load_cache || o->store_cache) { /* the same */
    snprintf(count, sizeof count, "dlcm %s dscm %s", o->load_cache ? o->load_cache : "-",
             o->store_cache ? o->store_cache : "-");
    sha256_string(&h, count);
  }
  snprintf(count, sizeof count, "%zu archs", o->num_archs);
  sha256_string(&h, count);
  for (size_t i = 0; i < o->num_archs; i++)
    sha256_string(&h, o->archs[i]);
  key_stamp(&h, "plugin", r->plugin, false);
  key_stamp(&h, "tool", r->tool, true);
  key_stamp(&h, "ptxas", wgp_find_ptxas(), true);
  key_stamp(&h, "nvcc", wgp_find_nvcc(), true);
  key_stamp(&h, "libclc", WGPERF_DEFAULT_LIBCLC, false);
  if (r->kind == WGP_SOURCE_CUDA) {
    wgp_cuda_toolkit *tk = malloc(sizeof *tk);
    if (!tk)
      return false;
    wgp_diag d;
    char v[32];
    if (wgp_find_cuda_toolkit(o->flags, o->num_flags, tk, &d) == WGP_OK) {
      snprintf(v, sizeof v, "%d", tk->version);
      sha256_string(&h, tk->path);
      sha256_string(&h, v);
      sha256_string(&h, tk->origin);
      sha256_string(&h, tk->passed_over); /* the warning that names the toolkits passed over */
    } else {
      sha256_string(&h, "(no toolkit)");
    }
    free(tk);
  }
  /* what the plugin reads besides its output's name */
  key_env(&h, "WGPERF_NO_NORMALIZE");
  key_env(&h, "WGPERF_QUIET");
  sha256_hex(&h, key);
  return true;
}

/* ---- entries ---------------------------------------------------------------- */

static void entry_path(const char *dir, const char *key, const char *ext, char *buf, size_t size) {
  snprintf(buf, size, "%s/%.2s/%s.%s", dir, key, key, ext);
}

static bool hash_file(const char *file, char hex[65]) {
  sha256 h;
  sha256_init(&h);
  bool ok = sha256_file(&h, file);
  sha256_hex(&h, hex);
  return ok;
}

static void hash_bytes(const char *data, size_t n, char hex[65]) {
  sha256 h;
  sha256_init(&h);
  sha256_update(&h, data, n);
  sha256_hex(&h, hex);
}

/* Reads FILE whole (give: free()); NULL when it cannot be. */
static char *slurp(const char *file, size_t *len) {
  char *text;
  wgp_diag d;
  return wgp_read_file(file, &text, len, &d) == WGP_OK ? text : NULL;
}

/* The digest in LINE after PREFIX ("model "), into HEX. */
static bool line_digest(const char *line, const char *prefix, char hex[65]) {
  size_t p = strlen(prefix);
  if (strncmp(line, prefix, p) != 0 || strlen(line + p) != 64)
    return false;
  memcpy(hex, line + p, 65);
  return true;
}

bool mc_fetch(const char *dir, const char *key, const char *out, const wgp_extract_options *o) {
  char deps_path[PATH_MAX], model_path[PATH_MAX], out_path[PATH_MAX];
  entry_path(dir, key, "deps", deps_path, sizeof deps_path);
  entry_path(dir, key, "model", model_path, sizeof model_path);
  entry_path(dir, key, "out", out_path, sizeof out_path);
  size_t dlen, mlen, olen;
  char *deps = slurp(deps_path, &dlen);
  if (!deps)
    return false;
  char *model = NULL, *shown = NULL;
  bool hit = false;
  char want_model[65], want_out[65], hex[65];
  char *save = NULL, *line = strtok_r(deps, "\n", &save);
  if (!line || strcmp(line, MC_FORMAT) != 0 || !(line = strtok_r(NULL, "\n", &save)) ||
      !line_digest(line, "model ", want_model) || !(line = strtok_r(NULL, "\n", &save)) ||
      !line_digest(line, "out ", want_out))
    goto done;
  /* every file the compile read, as it was, up to the count that ends the list */
  size_t files = 0;
  bool ended = false;
  while (!ended && (line = strtok_r(NULL, "\n", &save))) {
    char tail[32];
    snprintf(tail, sizeof tail, "end %zu", files);
    if (strcmp(line, tail) == 0) {
      ended = true;
      continue;
    }
    if (strncmp(line, "dep ", 4) != 0 || strlen(line) < 4 + 64 + 2 || line[4 + 64] != ' ')
      goto done;
    if (!hash_file(line + 4 + 64 + 1, hex) || memcmp(hex, line + 4, 64) != 0)
      goto done;
    files++;
  }
  if (files == 0 || !ended || strtok_r(NULL, "\n", &save))
    goto done;
  /* the model and the messages as they were stored */
  if (!(model = slurp(model_path, &mlen)) || !(shown = slurp(out_path, &olen)))
    goto done;
  hash_bytes(model, mlen, hex);
  if (strcmp(hex, want_model) != 0)
    goto done;
  hash_bytes(shown, olen, hex);
  if (strcmp(hex, want_out) != 0 || !log_valid(shown, olen))
    goto done;
  if (!wgp_write_atomic(out, model, mlen))
    goto done;
  hit = true;
  utimensat(AT_FDCWD, deps_path, NULL, 0); /* used now (eviction) */
  log_replay(shown, olen, o);
done:
  free(deps);
  free(model);
  free(shown);
  return hit;
}

/* ---- the size bound --------------------------------------------------------- */

typedef struct mc_item {
  char path[PATH_MAX]; /* DIR/XX/KEY (without the extension) */
  long long used_ns;   /* the .deps file's modification time */
  long long bytes;     /* the entry's three files */
} mc_item;

static int by_use(const void *a, const void *b) {
  const mc_item *x = a, *y = b;
  return x->used_ns < y->used_ns ? -1 : x->used_ns > y->used_ns;
}

static long long file_bytes(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* Counts DIR's entries; when they pass MAX bytes, removes the least recently
 * used until they fill 90% of it.  Leftover temporary files older than an
 * hour go too.  Rewrites DIR/size with what remains. */
static void evict(const char *dir, long long max) {
  mc_item *items = NULL;
  size_t n = 0, cap = 0;
  long long total = 0, now = mc_now_ns();
  DIR *top = opendir(dir);
  if (!top)
    return;
  struct dirent *e;
  while ((e = readdir(top))) {
    if (strlen(e->d_name) != 2)
      continue;
    char sub[PATH_MAX];
    snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
    DIR *d = opendir(sub);
    if (!d)
      continue;
    struct dirent *f;
    while ((f = readdir(d))) {
      char p[PATH_MAX];
      if (snprintf(p, sizeof p, "%s/%s", sub, f->d_name) >= (int)sizeof p)
        continue;
      struct stat st;
      if (f->d_name[0] == '.' || stat(p, &st) != 0)
        continue;
      long long mt = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
      if (strstr(f->d_name, ".tmp")) {
        if (now - mt > 3600LL * 1000000000LL)
          unlink(p);
        continue;
      }
      size_t len = strlen(p);
      if (len < 5 || strcmp(p + len - 5, ".deps") != 0)
        continue;
      if (n == cap) {
        size_t nc = cap ? 2 * cap : 256;
        mc_item *t = realloc(items, nc * sizeof *t);
        if (!t)
          break;
        items = t, cap = nc;
      }
      mc_item *it = &items[n++];
      snprintf(it->path, sizeof it->path, "%.*s", (int)(len - 5), p);
      it->used_ns = mt;
      char q[PATH_MAX + 8];
      snprintf(q, sizeof q, "%s.model", it->path);
      it->bytes = st.st_size + file_bytes(q);
      snprintf(q, sizeof q, "%s.out", it->path);
      it->bytes += file_bytes(q);
      total += it->bytes;
    }
    closedir(d);
  }
  closedir(top);
  if (total > max && n) {
    qsort(items, n, sizeof *items, by_use);
    long long goal = max / 10 * 9;
    for (size_t i = 0; i < n && total > goal; i++) {
      char q[PATH_MAX + 8];
      /* the .deps first: without it the entry is a miss */
      snprintf(q, sizeof q, "%s.deps", items[i].path);
      unlink(q);
      snprintf(q, sizeof q, "%s.model", items[i].path);
      unlink(q);
      snprintf(q, sizeof q, "%s.out", items[i].path);
      unlink(q);
      total -= items[i].bytes;
    }
  }
  free(items);
  char path[PATH_MAX + 8], text[64];
  snprintf(path, sizeof path, "%s/size", dir);
  int len = snprintf(text, sizeof text, "%lld 0\n", total);
  wgp_write_atomic(path, text, (size_t)len);
}

/* The bound in bytes: $WGPERF_CACHE_MAX_MB (a number of MB, fractions too),
 * else 1024 MB. */
static long long max_bytes(void) {
  const char *v = getenv("WGPERF_CACHE_MAX_MB");
  double mb = MC_DEFAULT_MAX_MB;
  if (v && *v) {
    char *end;
    double x = strtod(v, &end);
    if (*end == '\0' && x > 0)
      mb = x;
  }
  return (long long)(mb * 1024.0 * 1024.0);
}

/* Adds BYTES to DIR/size and evicts when the sum passes the bound (or when
 * enough stores went by that the sum may be off). */
static void account(const char *dir, long long bytes) {
  char path[PATH_MAX + 8], text[64];
  snprintf(path, sizeof path, "%s/size", dir);
  long long total = 0, stores = 0;
  FILE *f = fopen(path, "r");
  if (f) {
    if (fscanf(f, "%lld %lld", &total, &stores) != 2)
      total = 0, stores = MC_COUNT_EVERY; /* unreadable: count */
    fclose(f);
  }
  total += bytes;
  stores++;
  long long max = max_bytes();
  if (total > max || stores >= MC_COUNT_EVERY) {
    evict(dir, max);
    return;
  }
  int len = snprintf(text, sizeof text, "%lld %lld\n", total, stores);
  wgp_write_atomic(path, text, (size_t)len);
}

void mc_store(const char *dir, const char *key, const char *model, char *const *deps, size_t ndeps,
              const mc_log *log, long long started_ns) {
  if (log->nomem || ndeps == 0)
    return;
  size_t mlen;
  char *mtext = slurp(model, &mlen);
  if (!mtext)
    return;
  size_t cap = 4 * 80 + ndeps * (PATH_MAX + 72), n = 0;
  char *text = malloc(cap);
  if (!text) {
    free(mtext);
    return;
  }
  char mhex[65], ohex[65];
  hash_bytes(mtext, mlen, mhex);
  hash_bytes(log->text ? log->text : "", log->len, ohex);
  n += (size_t)snprintf(text + n, cap - n, "%s\nmodel %s\nout %s\n", MC_FORMAT, mhex, ohex);
  bool ok = true;
  for (size_t i = 0; i < ndeps && ok; i++) {
    struct stat st;
    char hex[65];
    ok = strlen(deps[i]) < PATH_MAX && !strchr(deps[i], '\n') && stat(deps[i], &st) == 0 &&
         (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec < started_ns && hash_file(deps[i], hex);
    if (ok)
      n += (size_t)snprintf(text + n, cap - n, "dep %s %s\n", hex, deps[i]);
  }
  n += (size_t)snprintf(text + n, cap - n, "end %zu\n", ndeps);
  char sub[PATH_MAX], p[PATH_MAX];
  snprintf(sub, sizeof sub, "%s/%.2s", dir, key);
  if (ok && wgp_make_dirs(sub)) {
    entry_path(dir, key, "model", p, sizeof p);
    ok = wgp_write_atomic(p, mtext, mlen);
    entry_path(dir, key, "out", p, sizeof p);
    ok = ok && wgp_write_atomic(p, log->text ? log->text : "", log->len);
    entry_path(dir, key, "deps", p, sizeof p);
    ok = ok && wgp_write_atomic(p, text, n);
    if (ok)
      account(dir, (long long)(mlen + log->len + n));
  }
  free(text);
  free(mtext);
}

/* ---- where --------------------------------------------------------------- */

const char *wgp_model_cache_dir(char *buf, size_t size) {
  const char *env = getenv("WGPERF_CACHE_DIR");
  if (env)
    return *env && snprintf(buf, size, "%s", env) < (int)size ? buf : NULL;
  const char *xdg = getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/')
    return snprintf(buf, size, "%s/wgperf/models", xdg) < (int)size ? buf : NULL;
  const char *home = getenv("HOME");
  if (home && *home)
    return snprintf(buf, size, "%s/.cache/wgperf/models", home) < (int)size ? buf : NULL;
  return NULL;
}

bool wgp_temp_template(char *buf, size_t size, const char *prefix, const char *suffix) {
  const char *t = getenv("TMPDIR");
  struct stat st;
  size_t n = t ? strlen(t) : 0;
  if (n == 0 || n >= PATH_MAX || stat(t, &st) != 0 || !S_ISDIR(st.st_mode) || access(t, W_OK | X_OK) != 0)
    t = "/tmp", n = 4;
  while (n > 1 && t[n - 1] == '/')
    n--;
  for (int pass = 0; pass < 2; pass++, t = "/tmp", n = 4) { /* a $TMPDIR too long for BUF: /tmp */
    int w = snprintf(buf, size, "%.*s%s%s-XXXXXX%s", (int)n, t, n == 1 ? "" : "/", prefix, suffix);
    if (w > 0 && (size_t)w < size)
      return true;
  }
  return false;
}
