/* test_driver_files.c - how the tools put a finished output file in place
 * (wgp_move_into, wgp_write_atomic; common/files_internal.h): renamed over a
 * regular file or into a free name, written through anything else (a link, a
 * FIFO), which stays what it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "files_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char scratch[64];

static int setup(void **state) {
  (void)state;
  snprintf(scratch, sizeof scratch, "/tmp/wgperf-test-files-XXXXXX");
  return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  wgp_remove_tree(scratch);
  return 0;
}

static void path(char *buf, const char *name) {
  snprintf(buf, 128, "%s/%s", scratch, name);
}

static void put(const char *file, const char *text) {
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

static void expect_text(const char *file, const char *want) {
  char buf[256] = "";
  FILE *f = fopen(file, "r");
  assert_non_null(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  assert_string_equal(buf, want);
}

static void test_free_name_and_regular_file(void **state) {
  (void)state;
  char tmp[128], out[128];
  path(tmp, "out.tmp");
  path(out, "out");
  put(tmp, "first");
  assert_int_equal(wgp_move_into(tmp, out), 0);
  expect_text(out, "first");
  assert_int_equal(access(tmp, F_OK), -1);
  /* over a regular file: a rename, so a reader holding the old file keeps it whole */
  struct stat before, after;
  assert_int_equal(stat(out, &before), 0);
  put(tmp, "second");
  struct stat st_tmp;
  assert_int_equal(stat(tmp, &st_tmp), 0);
  assert_int_equal(wgp_move_into(tmp, out), 0);
  assert_int_equal(stat(out, &after), 0);
  assert_true(after.st_ino == st_tmp.st_ino);
  assert_true(after.st_ino != before.st_ino);
  expect_text(out, "second");
}

static void test_symlink_kept(void **state) {
  (void)state;
  char tmp[128], link[128], target[128], dangling[128], absent[128];
  path(tmp, "l.tmp");
  path(link, "link");
  path(target, "target");
  put(target, "old text, longer than the new");
  assert_int_equal(symlink(target, link), 0);
  put(tmp, "new");
  assert_int_equal(wgp_move_into(tmp, link), 0);
  struct stat st;
  assert_int_equal(lstat(link, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  expect_text(target, "new");
  assert_int_equal(access(tmp, F_OK), -1);
  /* a link to a name not yet there: made, as a shell's > makes it */
  path(dangling, "dangling");
  path(absent, "absent");
  assert_int_equal(symlink(absent, dangling), 0);
  assert_true(wgp_write_atomic(dangling, "made", 4));
  assert_int_equal(lstat(dangling, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  expect_text(absent, "made");
}

static void test_fifo_kept(void **state) {
  (void)state;
  char tmp[128], fifo[128], got[128];
  path(tmp, "f.tmp");
  path(fifo, "fifo");
  path(got, "got");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  pid_t reader = fork();
  assert_true(reader >= 0);
  if (reader == 0) { /* what a reader of the FIFO sees, into GOT; a hang guard */
    alarm(600);
    FILE *in = fopen(fifo, "r"), *out = fopen(got, "w");
    int c;
    while (in && out && (c = fgetc(in)) != EOF)
      fputc(c, out);
    _exit(in && out && fclose(out) == 0 ? 0 : 1);
  }
  put(tmp, "through the fifo");
  assert_int_equal(wgp_move_into(tmp, fifo), 0);
  int status = 0;
  assert_int_equal(waitpid(reader, &status, 0), reader);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  expect_text(got, "through the fifo");
  struct stat st;
  assert_int_equal(lstat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  assert_int_equal(access(tmp, F_OK), -1);
}

static void test_link_to_folder_fails(void **state) {
  (void)state;
  char tmp[128], link[128];
  path(tmp, "d.tmp");
  path(link, "to-folder");
  assert_int_equal(symlink(scratch, link), 0);
  put(tmp, "x");
  errno = 0;
  assert_int_equal(wgp_move_into(tmp, link), -1);
  assert_int_equal(errno, EISDIR);
  /* the temporary file is the caller's to remove; the link is untouched */
  assert_int_equal(access(tmp, F_OK), 0);
  struct stat st;
  assert_int_equal(lstat(link, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_free_name_and_regular_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symlink_kept, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fifo_kept, setup, teardown),
      cmocka_unit_test_setup_teardown(test_link_to_folder_fails, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
