/* files.c - file system helpers (files_internal.h). */
#include "files_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

bool wgp_make_dirs(const char *path) {
  char buf[PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
    return false;
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return false;
      *p = '/';
    }
  return mkdir(buf, 0777) == 0 || errno == EEXIST;
}
