/* diag.h - status codes and diagnostics shared by the wgperf C library.
 *
 * Library functions never print or exit on bad input: they return a
 * wgp_status and, when given a wgp_diag, write one line the caller can print
 * as is, e.g.
 *
 *   wgperf: error: model.json: kernel 'vadd': block 3: successor 9 out of range (4 blocks)
 */
#ifndef WGPERF_DIAG_H
#define WGPERF_DIAG_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wgp_status {
  WGP_OK = 0,
  WGP_ERR_INPUT, /* the data is malformed or violates the contract */
  WGP_ERR_IO,    /* a file cannot be read */
  WGP_ERR_NOMEM  /* out of memory */
} wgp_status;

#define WGP_DIAG_SIZE 1024

/* A caller-owned buffer for one diagnostic line (no trailing newline). */
typedef struct wgp_diag {
  char message[WGP_DIAG_SIZE];
} wgp_diag;

/* Writes the printf-style message into DIAG (may be NULL) and returns ST:
 * `return wgp_diag_set(diag, WGP_ERR_INPUT, "wgperf: error: %s: ...", file);` */
wgp_status wgp_diag_set(wgp_diag *diag, wgp_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Reads FILE whole into *TEXT (give: free(); NUL-terminated, *LEN bytes
 * before the NUL).  WGP_ERR_IO with "wgperf: error: FILE: cannot open: ..."
 * or "... read error" in DIAG, or WGP_ERR_NOMEM. */
#include <stddef.h>
wgp_status wgp_read_file(const char *file, char **text, size_t *len, wgp_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
