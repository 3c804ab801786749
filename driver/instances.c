/* instances.c - a CUDA source that instantiates the template kernels a tool
 * is asked for (wgp_instance_source, wgperf/driver.h).
 *
 * A template kernel is compiled only where something instantiates it: an
 * explicit instantiation or a launch in the file's host code.  Kernel Tuner
 * and KTT instantiate the one they tune by its name (NVRTC's name
 * expressions), so their spaces name `scale<float, 256>` in files that hold
 * the template alone.  The driver does the same with a small source of its
 * own that includes the file and takes each instance's address, which
 * instantiates it (the template's signature is not needed); clang then emits
 * that kernel as it emits any instance.
 */
#define _XOPEN_SOURCE 700
#include "wgperf/driver.h"

#include "files_internal.h"
#include "sha256_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool wgp_is_instance_name(const char *name) { return name && strchr(name, '<'); }

bool wgp_instance_expand(const char *name, wgp_macro_value_fn value, void *user, char *out, size_t size) {
  const char *args = name ? strchr(name, '<') : NULL;
  if (!args)
    return false;
  size_t at = 0;
  bool changed = false;
  for (const char *p = name; *p;) {
    const char *text = p;
    size_t len = 1;
    if (isalpha((unsigned char)*p) || *p == '_') {
      while (isalnum((unsigned char)p[len]) || p[len] == '_')
        len++;
      const char *v = p > args ? value(user, p, len) : NULL;
      if (v)
        text = v, changed = true;
    }
    size_t n = text == p ? len : strlen(text);
    if (at + n >= size)
      return false;
    memcpy(out + at, text, n);
    at += n;
    p += len;
  }
  out[at] = 0;
  return changed;
}

/* NAME is a template's name with its arguments: a (qualified) identifier,
 * then '<' ... '>' balanced, holding only what template arguments of types and
 * constants are written with; nothing after the last '>'.  Returns NULL when
 * it is, else what is wrong. */
static const char *check_name(const char *name) {
  const char *p = name;
  if (!(isalpha((unsigned char)*p) || *p == '_' || (p[0] == ':' && p[1] == ':')))
    return "it does not start with the template's name";
  while (isalnum((unsigned char)*p) || *p == '_' || (p[0] == ':' && p[1] == ':'))
    p += *p == ':' ? 2 : 1;
  if (*p != '<')
    return "no '<' after the template's name";
  int depth = 0;
  for (; *p; p++) {
    if (*p == '<')
      depth++;
    else if (*p == '>') {
      if (--depth == 0) {
        p++;
        break;
      }
    } else if (!(isalnum((unsigned char)*p) || strchr(" _:,*&().+-", *p)))
      return "a character template arguments are not written with";
  }
  if (depth != 0)
    return "its '<' and '>' do not pair up";
  while (*p == ' ')
    p++;
  if (*p)
    return "something after the template's arguments";
  return NULL;
}

wgp_status wgp_source_by_digest(const char *dir, const char *prefix, const char *suffix, const char *text, size_t len,
                                char *out, size_t size, wgp_diag *diag) {
  sha256 h;
  char hex[65];
  sha256_init(&h);
  sha256_update(&h, text, len);
  sha256_hex(&h, hex);
  int w = snprintf(out, size, "%s/%s%.16s%s", dir, prefix, hex, suffix);
  if (w < 0 || (size_t)w >= size)
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: the folder's name is too long", dir);
  /* named by its text: one there already holds it (written whole, renamed into place) */
  if (access(out, F_OK) != 0 && (!wgp_make_dirs(dir) || !wgp_write_atomic(out, text, len)))
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: cannot write: %s", out, strerror(errno));
  return WGP_OK;
}

wgp_status wgp_instance_source(const char *file, const char *const *names, size_t num_names, const char *dir,
                               char *out, size_t size, wgp_diag *diag) {
  char abs[PATH_MAX];
  if (!realpath(file, abs))
    return wgp_diag_set(diag, WGP_ERR_IO, "wgperf: error: %s: %s", file, strerror(errno));
  if (strpbrk(abs, "\"\n"))
    return wgp_diag_set(diag, WGP_ERR_INPUT,
                        "wgperf: error: %s: cannot instantiate its template kernels: its path holds a '\"' or a "
                        "line break, which an #include cannot name",
                        file);
  for (size_t i = 0; i < num_names; i++) {
    const char *why = check_name(names[i]);
    if (why)
      return wgp_diag_set(diag, WGP_ERR_INPUT,
                          "wgperf: error: kernel '%s': not a template kernel's instance wgperf can instantiate "
                          "(%s); write it as NAME<ARGUMENTS>, e.g. 'scale<float, 256>'",
                          names[i], why);
  }
  /* the text, then its name from its digest: the same request, the same file */
  size_t cap = strlen(abs) + 256, len = 0;
  for (size_t i = 0; i < num_names; i++)
    cap += strlen(names[i]) + 96;
  char *text = malloc(cap);
  if (!text)
    return wgp_diag_set(diag, WGP_ERR_NOMEM, "wgperf: error: out of memory");
  len += (size_t)snprintf(text + len, cap - len,
                          "// wgperf: the template kernels asked for by name, instantiated after %s\n"
                          "#include \"%s\"\n",
                          abs, abs);
  for (size_t i = 0; i < num_names; i++)
    len += (size_t)snprintf(text + len, cap - len, "static void *const __wgperf_instance_%zu = (void *)&%s;\n", i,
                            names[i]);
  wgp_status st = wgp_source_by_digest(dir, "wgperf-instances-", ".cu", text, len, out, size, diag);
  free(text);
  return st;
}
