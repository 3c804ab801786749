/* arena_internal.h - bump allocator for immutable data freed all at once
 * (parsed expressions, a loaded model). */
#ifndef WGPERF_ARENA_INTERNAL_H
#define WGPERF_ARENA_INTERNAL_H

#include <stddef.h>

typedef struct wgp_arena wgp_arena;

wgp_arena *wgp_arena_new(void);
void wgp_arena_free(wgp_arena *a);
/* Zeroed memory aligned for any type, or NULL when out of memory. */
void *wgp_arena_alloc(wgp_arena *a, size_t size);
char *wgp_arena_strndup(wgp_arena *a, const char *s, size_t n);
char *wgp_arena_strdup(wgp_arena *a, const char *s);

/* Laying out several arrays in one allocation: the offset at which an array
 * of N elements of SIZE bytes goes next in a block whose parts take *TOTAL
 * bytes so far (each part aligned for any type); *TOTAL grows by it. */
size_t wgp_block_part(size_t *total, size_t n, size_t size);

#endif
