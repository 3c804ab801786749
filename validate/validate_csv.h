/* validate_csv.h - a CSV table read whole, with the line of every record.
 *
 * RFC 4180 as spreadsheets write it: comma-separated, fields optionally in
 * double quotes ("" inside quotes is a quote, and a quoted field may hold
 * commas and newlines), LF or CRLF line ends, an optional UTF-8 byte-order
 * mark.  The first record is the header; every other record must have as
 * many fields as the header.  Blank lines are skipped.  Errors name the
 * file and the line: "wgperf: error: m.csv:12: 43 fields, the header has 44".
 */
#ifndef WGPERF_VALIDATE_CSV_H
#define WGPERF_VALIDATE_CSV_H

#include "wgperf/diag.h"
#include <stddef.h>

typedef struct vcsv vcsv;

wgp_status vcsv_read_file(const char *file, vcsv **out, wgp_diag *diag);
/* TEXT (LEN bytes) as if read from a file named NAME. */
wgp_status vcsv_read_string(const char *text, size_t len, const char *name, vcsv **out, wgp_diag *diag);
void vcsv_free(vcsv *t);

const char *vcsv_name(const vcsv *t);
size_t vcsv_num_columns(const vcsv *t);
const char *vcsv_column(const vcsv *t, size_t c);
/* The column named NAME, or -1. */
long vcsv_find_column(const vcsv *t, const char *name);
size_t vcsv_num_rows(const vcsv *t); /* records after the header */
/* Field C of row R (never NULL; "" when empty), and the line the row starts on. */
const char *vcsv_field(const vcsv *t, size_t r, size_t c);
size_t vcsv_line(const vcsv *t, size_t r);

#endif
