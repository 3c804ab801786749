/* files_internal.h - file system helpers the driver's model cache and
 * wgtune's cache share (files.c; libwgperf_common). */
#ifndef WGPERF_COMMON_FILES_INTERNAL_H
#define WGPERF_COMMON_FILES_INTERNAL_H

#include <stdbool.h>

/* mkdir -p PATH: true when PATH is a folder at the end. */
bool wgp_make_dirs(const char *path);

#endif
