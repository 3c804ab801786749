/* model_cache_internal.h - the model cache of wgp_extract (model_cache.c;
 * driver/ only).
 *
 * A compile's key is a digest of what decides the model besides the files
 * the compile reads: the driver's identity (its sources' digest, made by
 * CMake), the input's kind and path, the options, the tools and their
 * stamps, the CUDA toolkit and the environment the plugin reads.  An entry,
 * DIR/XX/KEY.{model,out,deps}, holds the model, what the user was shown
 * (the compilers' stderr and the driver's messages, in order) and the files
 * the compile read with the digests of their contents: it is used only while
 * every one of them still has the same contents.  Every file is written
 * through a temporary file renamed into place, so that processes sharing DIR
 * never see half an entry; anything unreadable or inconsistent is a miss.
 */
#ifndef WGPERF_DRIVER_MODEL_CACHE_INTERNAL_H
#define WGPERF_DRIVER_MODEL_CACHE_INTERNAL_H

#include "wgperf/driver.h"

#include <stdbool.h>
#include <stddef.h>

/* What a compile showed the user, in order: its compilers' stderr and the
 * driver's messages. */
typedef struct mc_log {
  char *text; /* records: "E<n>\n" or "M<n>\n" and N bytes */
  size_t len, cap;
  bool nomem; /* a record was lost: the entry is not stored */
  const wgp_extract_options *user; /* whose message callback the messages go on to */
} mc_log;

/* Records N bytes the user saw on stderr. */
void mc_log_stderr(mc_log *log, const char *data, size_t n);
/* A wgp_message_fn (USER: the mc_log) that records MESSAGE and passes it on
 * to the user's callback. */
void mc_log_message(void *user, const char *message);
void mc_log_free(mc_log *log);

/* What, besides the files it reads, decides a compile's model. */
typedef struct mc_request {
  const char *file;
  wgp_source_kind kind;
  const wgp_extract_options *o;
  const char *plugin; /* the pass plugin the compile loads */
  const char *tool;   /* clang, or opt for IR */
} mc_request;

/* R's key (64 hex digits and a NUL); false when it cannot be made (out of
 * memory, no current folder for a relative path): no cache then. */
bool mc_key(const mc_request *r, char key[65]);

/* The entry KEY of DIR when it is whole and every file it lists has the
 * contents it had: its model is copied to OUT (through a temporary file
 * renamed into place), what the compile showed the user is shown again
 * (stderr, and O's message callback), and the entry counts as used (for
 * eviction).  False, with nothing written or shown: a miss. */
bool mc_fetch(const char *dir, const char *key, const char *out, const wgp_extract_options *o);

/* Stores the model MODEL of a successful compile as the entry KEY of DIR,
 * with LOG and the files DEPS (NDEPS) the compile read, unless one of them
 * changed after STARTED_NS (the compile's start, CLOCK_REALTIME) or cannot
 * be read.  Failing to store is silent.  Evicts the least recently used
 * entries when the cache outgrows $WGPERF_CACHE_MAX_MB (default 1024). */
void mc_store(const char *dir, const char *key, const char *model, char *const *deps, size_t ndeps,
              const mc_log *log, long long started_ns);

/* CLOCK_REALTIME in nanoseconds. */
long long mc_now_ns(void);

#endif
