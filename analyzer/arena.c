/* arena.c - bump allocator: chunks of at least 16 KiB, freed together. */
#include "arena_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct wgp_chunk {
  struct wgp_chunk *next;
  size_t size, used;
  max_align_t data[];
} wgp_chunk;

struct wgp_arena {
  wgp_chunk *head;
};

enum { WGP_CHUNK_MIN = 16384 };

wgp_arena *wgp_arena_new(void) { return calloc(1, sizeof(wgp_arena)); }

void wgp_arena_free(wgp_arena *a) {
  if (!a)
    return;
  wgp_chunk *c = a->head;
  while (c) {
    wgp_chunk *next = c->next;
    free(c);
    c = next;
  }
  free(a);
}

size_t wgp_block_part(size_t *total, size_t n, size_t size) {
  const size_t align = sizeof(max_align_t);
  size_t at = (*total + align - 1) / align * align;
  *total = at + n * size;
  return at;
}

void *wgp_arena_alloc(wgp_arena *a, size_t size) {
  const size_t align = sizeof(max_align_t);
  if (size > SIZE_MAX / 2)
    return NULL;
  size = (size + align - 1) / align * align;
  if (size == 0)
    size = align;
  wgp_chunk *c = a->head;
  if (!c || c->size - c->used < size) {
    size_t cap = size > WGP_CHUNK_MIN ? size : WGP_CHUNK_MIN;
    c = malloc(sizeof(wgp_chunk) + cap);
    if (!c)
      return NULL;
    c->size = cap;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = (char *)c->data + c->used;
  c->used += size;
  memset(p, 0, size);
  return p;
}

char *wgp_arena_strndup(wgp_arena *a, const char *s, size_t n) {
  if (n == SIZE_MAX)
    return NULL;
  char *p = wgp_arena_alloc(a, n + 1);
  if (!p)
    return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *wgp_arena_strdup(wgp_arena *a, const char *s) { return wgp_arena_strndup(a, s, strlen(s)); }
