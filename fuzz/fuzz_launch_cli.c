/* fuzz_launch_cli.c - the command-line form of a launch (analyzer/launch.c)
 * on any words, then analyze + predict of the probe model's kernels with it.
 *
 * Input: command-line words, one per line (e.g. "--global\n1024\n--local\n
 * 64\n--arg\nn=5").  Words that are not launch options are skipped, as the
 * tools pass them to their own parser; an option missing its value ends the
 * line, as the tools report it as a usage error.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  char *words[MAX_WORDS];
  size_t n = 0;
  for (char *p = text; n < MAX_WORDS;) {
    words[n++] = p;
    char *nl = strchr(p, '\n');
    if (!nl)
      break;
    *nl = 0;
    p = nl + 1;
  }
  wgp_launch *l = wgp_launch_new();
  if (!l)
    abort();
  wgp_diag d;
  wgp_status st = WGP_OK;
  for (size_t i = 0; i < n && st == WGP_OK; i++) {
    bool takes;
    if (!wgp_launch_is_option(words[i], &takes))
      continue;
    if (takes && i + 1 == n)
      break;
    /* command-line errors name no file: "wgperf: error: " then the problem */
    const char *opt = words[i];
    st = wgp_launch_set_option(l, opt, takes ? words[++i] : NULL, &d);
    fuzz_check_diag(st, &d, "", "wgp_launch_set_option");
  }
  if (st == WGP_OK)
    fuzz_estimate_probe(l);
  wgp_launch_free(l);
  free(text);
  return 0;
}
