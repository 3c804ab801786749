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

/* The finished temporary file TMP into PATH, as a rename where PATH is a
 * regular file or is not there.  Anything else at PATH (a symbolic link, a
 * device such as /dev/null, a FIFO) is written through, as a shell's > does,
 * and TMP removed: a rename would put a file in its place (as root, in place
 * of /dev/null).  0, or -1 with errno set and TMP left for the caller. */
int wgp_move_into(const char *tmp, const char *path);

/* DATA (LEN bytes) into PATH through a temporary file beside it, unique to
 * this process and call, renamed into place: a reader sharing the folder
 * never sees half a file.  False (nothing left behind) when it cannot be. */
bool wgp_write_atomic(const char *path, const char *data, size_t len);

#endif
