/* files_internal.h - file system helpers the driver (its model cache, the
 * wgperf-cc client's folder) and wgtune's cache share (files.c;
 * libwgperf_common). */
#ifndef WGPERF_COMMON_FILES_INTERNAL_H
#define WGPERF_COMMON_FILES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* rm -rf PATH: a folder with everything in it (its links removed, not
 * followed), or a file. */
void wgp_remove_tree(const char *path);

/* mkdir -p PATH: true when PATH is a folder at the end. */
bool wgp_make_dirs(const char *path);

/* DATA (LEN bytes) into PATH through a temporary file beside it, unique to
 * this process and call, renamed into place: a reader sharing the folder
 * never sees half a file.  False (nothing left behind) when it cannot be. */
bool wgp_write_atomic(const char *path, const char *data, size_t len);

#endif
