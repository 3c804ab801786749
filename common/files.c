/* files.c - file system helpers (files_internal.h). */
#include "files_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void wgp_remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (!d) {
    unlink(path);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    char sub[PATH_MAX];
    /* a name that does not fit is left: cut short it would name another file */
    if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= (int)sizeof sub)
      continue;
    struct stat st;
    if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
      wgp_remove_tree(sub);
    else
      unlink(sub);
  }
  closedir(d);
  rmdir(path);
}

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

int wgp_move_into(const char *tmp, const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode))
    return rename(tmp, path);
  int in = open(tmp, O_RDONLY);
  if (in < 0)
    return -1;
  int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  bool ok = out >= 0;
  char buf[65536];
  for (ssize_t n; ok && (n = read(in, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR)
      continue;
    ok = n > 0;
    for (ssize_t at = 0; ok && at < n;) {
      ssize_t w = write(out, buf + at, (size_t)(n - at));
      if (w < 0 && errno == EINTR)
        continue;
      ok = w > 0;
      at += ok ? w : 0;
    }
  }
  int saved = errno;
  close(in);
  if (out >= 0 && close(out) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    errno = saved;
    return -1;
  }
  unlink(tmp);
  return 0;
}

bool wgp_write_atomic(const char *path, const char *data, size_t len) {
  static unsigned counter;
  char tmp[PATH_MAX + 64];
  snprintf(tmp, sizeof tmp, "%s.tmp%ld.%u", path, (long)getpid(), counter++);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0)
    return false;
  size_t at = 0;
  while (at < len) {
    ssize_t w = write(fd, data + at, len - at);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    at += (size_t)w;
  }
  bool ok = close(fd) == 0 && at == len;
  if (ok && wgp_move_into(tmp, path) == 0)
    return true;
  unlink(tmp);
  return false;
}
