/* gpu.c - load and validate a GPU description (docs/gpu-description.md).
 *
 * The whole file is checked here, once, so the simulator can trust it:
 * every field is an object {"value": V, "source": "..."}; every key of this
 * version must be present and no other key may be (a misspelt unit must not
 * pass silently, so a key whose name differs from a known one only in its unit
 * suffix is reported as a wrong unit); values have the right type and range;
 * and the geometry is possible: a power-of-two warp size, caches that hold a
 * whole number of lines of a whole number of sectors, register and shared
 * memory limits that agree with each other.
 */
#include "gpu_internal.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <dirent.h>

#define WGP_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------------ */
/* Names                                                                    */
/* ------------------------------------------------------------------------ */

static const char *const arch_names[] = {"kepler", "maxwell", "pascal", "volta", "turing", "ampere", "ada", "hopper"};
static const char *const rgran_names[] = {"warp", "block"};
static const char *const coal_names[] = {"sectors32", "kepler_l2_32B"};
static const char *const op_names[WGP_OP_COUNT] = {
    "fp32_add", "fp32_mul",  "fp32_fma",  "fp32_div",   "fp64_add", "fp64_mul",  "fp64_fma",    "fp64_div",
    "fp16_add", "fp16_mul",  "fp16_fma",  "fp16_div",   "int_add",  "int64_add", "int_mul",     "int64_mul",
    "int_div",  "int64_div", "int_logic", "cmp_select", "conv",     "addr",      "sfu_sqrt",    "sfu_rsqrt",
    "sfu_sin",  "sfu_cos",   "sfu_tan",   "sfu_exp",    "sfu_log",  "sfu_pow",   "fp64_special",
    "sfu_fast"};

const char *wgp_arch_name(wgp_arch a) { return (size_t)a < WGP_COUNT(arch_names) ? arch_names[a] : "?"; }
const char *wgp_coalescing_name(wgp_coalescing c) { return (size_t)c < WGP_COUNT(coal_names) ? coal_names[c] : "?"; }
const char *wgp_op_class_name(wgp_op_class c) { return (size_t)c < WGP_COUNT(op_names) ? op_names[c] : "?"; }

/* Names are looked up for every block of every simulation: by a hash of
 * the name into a table of the classes, filled once, then one comparison. */
#define OP_SLOTS 256u
static uint8_t op_slot[OP_SLOTS]; /* class + 1, 0 empty */
static pthread_once_t op_once = PTHREAD_ONCE_INIT;

static unsigned op_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return (unsigned)(h & (OP_SLOTS - 1));
}

static void op_table_fill(void) {
  for (size_t i = 0; i < WGP_COUNT(op_names); i++) {
    unsigned h = op_hash(op_names[i]);
    while (op_slot[h])
      h = (h + 1) & (OP_SLOTS - 1);
    op_slot[h] = (uint8_t)(i + 1);
  }
}

bool wgp_op_class_from_name(const char *name, wgp_op_class *out) {
  pthread_once(&op_once, op_table_fill);
  for (unsigned h = op_hash(name); op_slot[h]; h = (h + 1) & (OP_SLOTS - 1))
    if (strcmp(name, op_names[op_slot[h] - 1]) == 0) {
      *out = (wgp_op_class)(op_slot[h] - 1);
      return true;
    }
  return false;
}

/* ------------------------------------------------------------------------ */
/* Field table                                                              */
/* ------------------------------------------------------------------------ */

typedef enum field_kind {
  FK_STRING, /* non-empty string */
  FK_ARCH,   /* one of arch_names */
  FK_CC,     /* "M.m" */
  FK_COUNT,  /* integer > 0 */
  FK_COUNT0, /* integer >= 0 */
  FK_PNUM,   /* number > 0 */
  FK_NUM,    /* number >= 0 */
  FK_BOOL,
  FK_RGRAN, /* one of rgran_names */
  FK_COAL   /* one of coal_names */
} field_kind;

typedef struct field_desc {
  const char *section;
  const char *key;
  field_kind kind;
} field_desc;

/* The optional fields of the table: left out, the value is 0 and it has no
 * source.  The DRAM row geometry comes all together or not at all
 * (check_dram_rows). */
static bool field_optional(size_t f) {
  return f == WGP_GF_LATENCIES_SHARED_REPLAY_CYCLES || f == WGP_GF_MEMORY_SHARED_OWN_PIPE ||
         (f >= WGP_GF_LIMITS_MAX_GRID_DIM_X && f <= WGP_GF_LIMITS_MAX_GRID_DIM_Z) ||
         f == WGP_GF_MEMORY_DRAM_COPY_BANDWIDTH_GBPS || f == WGP_GF_MEMORY_L2_PORT_BYTES_PER_CYCLE ||
         f == WGP_GF_MEMORY_ATOMIC_SAME_ADDRESS_PER_CYCLE || f == WGP_GF_MEMORY_L1_SHARED_BYTES ||
         (f >= WGP_GF_MEMORY_DRAM_DEVICES && f <= WGP_GF_MEMORY_DRAM_ACTIVATE_WINDOW_NS);
}

static const field_desc fields[WGP_GF_COUNT] = {
    [WGP_GF_IDENTITY_NAME] = {"identity", "name", FK_STRING},
    [WGP_GF_IDENTITY_ARCHITECTURE] = {"identity", "architecture", FK_ARCH},
    [WGP_GF_IDENTITY_COMPUTE_CAPABILITY] = {"identity", "compute_capability", FK_CC},
    [WGP_GF_CHIP_SM_COUNT] = {"chip", "sm_count", FK_COUNT},
    [WGP_GF_CHIP_CORE_CLOCK_MHZ] = {"chip", "core_clock_mhz", FK_PNUM},
    [WGP_GF_CHIP_WARP_SIZE] = {"chip", "warp_size", FK_COUNT},
    [WGP_GF_CHIP_SCHEDULERS_PER_SM] = {"chip", "schedulers_per_sm", FK_COUNT},
    [WGP_GF_LIMITS_MAX_THREADS_PER_BLOCK] = {"limits", "max_threads_per_block", FK_COUNT},
    [WGP_GF_LIMITS_MAX_BLOCK_DIM_X] = {"limits", "max_block_dim_x", FK_COUNT},
    [WGP_GF_LIMITS_MAX_BLOCK_DIM_Y] = {"limits", "max_block_dim_y", FK_COUNT},
    [WGP_GF_LIMITS_MAX_BLOCK_DIM_Z] = {"limits", "max_block_dim_z", FK_COUNT},
    [WGP_GF_LIMITS_MAX_GRID_DIM_X] = {"limits", "max_grid_dim_x", FK_COUNT},
    [WGP_GF_LIMITS_MAX_GRID_DIM_Y] = {"limits", "max_grid_dim_y", FK_COUNT},
    [WGP_GF_LIMITS_MAX_GRID_DIM_Z] = {"limits", "max_grid_dim_z", FK_COUNT},
    [WGP_GF_LIMITS_MAX_WARPS_PER_SM] = {"limits", "max_warps_per_sm", FK_COUNT},
    [WGP_GF_LIMITS_MAX_BLOCKS_PER_SM] = {"limits", "max_blocks_per_sm", FK_COUNT},
    [WGP_GF_LIMITS_REGISTERS_PER_SM] = {"limits", "registers_per_sm", FK_COUNT},
    [WGP_GF_LIMITS_MAX_REGISTERS_PER_BLOCK] = {"limits", "max_registers_per_block", FK_COUNT},
    [WGP_GF_LIMITS_MAX_REGISTERS_PER_THREAD] = {"limits", "max_registers_per_thread", FK_COUNT},
    [WGP_GF_LIMITS_REGISTER_ALLOC_UNIT_REGISTERS] = {"limits", "register_alloc_unit_registers", FK_COUNT},
    [WGP_GF_LIMITS_REGISTER_ALLOC_GRANULARITY] = {"limits", "register_alloc_granularity", FK_RGRAN},
    [WGP_GF_LIMITS_WARP_ALLOC_GRANULARITY_WARPS] = {"limits", "warp_alloc_granularity_warps", FK_COUNT},
    [WGP_GF_LIMITS_SHARED_PER_SM_BYTES] = {"limits", "shared_per_sm_bytes", FK_COUNT},
    [WGP_GF_LIMITS_SHARED_PER_BLOCK_BYTES] = {"limits", "shared_per_block_bytes", FK_COUNT},
    [WGP_GF_LIMITS_SHARED_PER_BLOCK_OPTIN_BYTES] = {"limits", "shared_per_block_optin_bytes", FK_COUNT},
    [WGP_GF_LIMITS_SHARED_ALLOC_UNIT_BYTES] = {"limits", "shared_alloc_unit_bytes", FK_COUNT},
    [WGP_GF_LIMITS_SHARED_RESERVED_PER_BLOCK_BYTES] = {"limits", "shared_reserved_per_block_bytes", FK_COUNT0},
    [WGP_GF_MEMORY_L1_BYTES] = {"memory", "l1_bytes", FK_COUNT},
    [WGP_GF_MEMORY_L1_LINE_BYTES] = {"memory", "l1_line_bytes", FK_COUNT},
    [WGP_GF_MEMORY_L1_SECTOR_BYTES] = {"memory", "l1_sector_bytes", FK_COUNT},
    [WGP_GF_MEMORY_L1_CACHES_GLOBAL_LOADS] = {"memory", "l1_caches_global_loads", FK_BOOL},
    [WGP_GF_MEMORY_L1_SHARED_BYTES] = {"memory", "l1_shared_bytes", FK_COUNT},
    [WGP_GF_MEMORY_L2_BYTES] = {"memory", "l2_bytes", FK_COUNT},
    [WGP_GF_MEMORY_L2_LINE_BYTES] = {"memory", "l2_line_bytes", FK_COUNT},
    [WGP_GF_MEMORY_L2_SECTOR_BYTES] = {"memory", "l2_sector_bytes", FK_COUNT},
    [WGP_GF_MEMORY_DRAM_BANDWIDTH_GBPS] = {"memory", "dram_bandwidth_gbps", FK_PNUM},
    [WGP_GF_MEMORY_DRAM_COPY_BANDWIDTH_GBPS] = {"memory", "dram_copy_bandwidth_gbps", FK_PNUM},
    [WGP_GF_MEMORY_L2_BANDWIDTH_GBPS] = {"memory", "l2_bandwidth_gbps", FK_PNUM},
    [WGP_GF_MEMORY_L2_PORT_BYTES_PER_CYCLE] = {"memory", "l2_port_bytes_per_cycle", FK_PNUM},
    [WGP_GF_MEMORY_ATOMIC_SAME_ADDRESS_PER_CYCLE] = {"memory", "atomic_same_address_per_cycle", FK_PNUM},
    [WGP_GF_MEMORY_GLOBAL_LINE_CYCLES] = {"memory", "global_line_cycles", FK_PNUM},
    [WGP_GF_MEMORY_SHARED_BANKS] = {"memory", "shared_banks", FK_COUNT},
    [WGP_GF_MEMORY_SHARED_BANK_WIDTH_BYTES] = {"memory", "shared_bank_width_bytes", FK_COUNT},
    [WGP_GF_MEMORY_SHARED_BANDWIDTH_BYTES_PER_CYCLE] = {"memory", "shared_bandwidth_bytes_per_cycle", FK_PNUM},
    [WGP_GF_MEMORY_SHARED_OWN_PIPE] = {"memory", "shared_own_pipe", FK_BOOL},
    [WGP_GF_MEMORY_COALESCING] = {"memory", "coalescing", FK_COAL},
    [WGP_GF_MEMORY_DRAM_DEVICES] = {"memory", "dram_devices", FK_COUNT},
    [WGP_GF_MEMORY_DRAM_BANKS_PER_DEVICE] = {"memory", "dram_banks_per_device", FK_COUNT},
    [WGP_GF_MEMORY_DRAM_ROW_BYTES] = {"memory", "dram_row_bytes", FK_COUNT},
    [WGP_GF_MEMORY_DRAM_INTERLEAVE_BYTES] = {"memory", "dram_interleave_bytes", FK_COUNT},
    [WGP_GF_MEMORY_DRAM_ACTIVATE_WINDOW_NS] = {"memory", "dram_activate_window_ns", FK_PNUM},
    [WGP_GF_LATENCIES_SHARED_CYCLES] = {"latencies", "shared_cycles", FK_PNUM},
    [WGP_GF_LATENCIES_L1_HIT_CYCLES] = {"latencies", "l1_hit_cycles", FK_PNUM},
    [WGP_GF_LATENCIES_L2_HIT_CYCLES] = {"latencies", "l2_hit_cycles", FK_PNUM},
    [WGP_GF_LATENCIES_DRAM_CYCLES] = {"latencies", "dram_cycles", FK_PNUM},
    [WGP_GF_LATENCIES_CONSTANT_HIT_CYCLES] = {"latencies", "constant_hit_cycles", FK_PNUM},
    [WGP_GF_LATENCIES_CONSTANT_MISS_CYCLES] = {"latencies", "constant_miss_cycles", FK_PNUM},
    [WGP_GF_LATENCIES_SHARED_REPLAY_CYCLES] = {"latencies", "shared_replay_cycles", FK_NUM},
    [WGP_GF_SYNC_BARRIER_BASE_CYCLES] = {"sync", "barrier_base_cycles", FK_NUM},
    [WGP_GF_SYNC_BARRIER_PER_WARP_CYCLES] = {"sync", "barrier_per_warp_cycles", FK_NUM},
    [WGP_GF_LAUNCH_OVERHEAD_US] = {"launch", "overhead_us", FK_NUM},
    [WGP_GF_LAUNCH_PER_BLOCK_NS] = {"launch", "per_block_ns", FK_NUM},
};

static const char *const sections[] = {"identity", "chip", "limits", "memory", "latencies", "sync", "launch"};

/* Integers in a description stay below this, so products of two of them fit
 * in 64 bits and every count fits in an unsigned. */
#define MAX_INT_VALUE 2147483647.0

/* ------------------------------------------------------------------------ */
/* Loader                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct loader {
  const char *file;
  wgp_diag *diag;
  wgp_status status;
  wgp_gpu *g;
} loader;

static bool fail(loader *ld, const char *fmt, ...) {
  if (ld->status != WGP_OK)
    return false;
  ld->status = WGP_ERR_INPUT;
  if (ld->diag) {
    char *out = ld->diag->message;
    size_t size = sizeof ld->diag->message;
    int n = snprintf(out, size, "wgperf: error: %s: ", ld->file);
    if (n >= 0 && (size_t)n < size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(out + n, size - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  return false;
}

static bool nomem(loader *ld) {
  if (ld->status == WGP_OK) {
    ld->status = WGP_ERR_NOMEM;
    if (ld->diag)
      snprintf(ld->diag->message, sizeof ld->diag->message, "wgperf: error: %s: out of memory", ld->file);
  }
  return false;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p)
    memcpy(p, s, n);
  return p;
}

static const char *type_name(const json_t *j) {
  switch (json_typeof(j)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a real number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  case JSON_NULL: return "null";
  }
  return "?";
}

/* The key without its unit suffix: what follows the last '_'. */
static size_t stem_len(const char *key) {
  const char *u = strrchr(key, '_');
  return u ? (size_t)(u - key) : strlen(key);
}

/* Whether KEY ends in a unit suffix ("_bytes", "_mhz", "_per_cycle"...). */
static bool has_unit(const char *key) {
  static const char *const units[] = {"bytes", "kb",  "kib", "mb",        "mib",   "gb",     "cycles", "cycle",
                                      "mhz",   "ghz", "khz", "hz",        "gbps",  "tbps",   "mbps",   "us",
                                      "ns",    "ms",  "s",   "registers", "warps", "threads"};
  const char *u = strrchr(key, '_');
  if (!u)
    return false;
  for (size_t i = 0; i < WGP_COUNT(units); i++)
    if (strcmp(u + 1, units[i]) == 0)
      return true;
  return false;
}

/* Reports KEY of SECTION, which none of KNOWN[0..n) is: a wrong or missing
 * unit when it names a known quantity, an unknown key otherwise. */
static bool unknown_key(loader *ld, const char *section, const char *key, const char *const *known, size_t n) {
  size_t ks = stem_len(key);
  for (size_t i = 0; i < n; i++) {
    if (!has_unit(known[i]))
      continue;
    size_t s = stem_len(known[i]);
    if (has_unit(key) && s == ks && memcmp(key, known[i], s) == 0)
      return fail(ld, "'%s.%s' has the wrong unit: expected '%s.%s'", section, key, section, known[i]);
    if (strlen(key) == s && memcmp(key, known[i], s) == 0)
      return fail(ld, "'%s.%s' lacks its unit: expected '%s.%s'", section, key, section, known[i]);
  }
  return fail(ld, "unknown key '%s.%s'", section, key);
}

/* Reads the field object at PATH: {"value": V, "source": S}.  Returns V. */
static json_t *field_value(loader *ld, json_t *obj, const char *path, char **src_out) {
  if (!json_is_object(obj))
    return fail(ld, "'%s' must be an object {\"value\": ..., \"source\": \"...\"}, got %s", path, type_name(obj)), NULL;
  const char *k;
  json_t *v;
  json_object_foreach(obj, k, v) {
    if (strcmp(k, "value") != 0 && strcmp(k, "source") != 0 && strcmp(k, "note") != 0)
      return fail(ld, "'%s' has an unknown member '%s' (expected 'value', 'source' and optionally 'note')", path, k),
             NULL;
  }
  json_t *value = json_object_get(obj, "value");
  if (!value)
    return fail(ld, "'%s' has no 'value'", path), NULL;
  json_t *src = json_object_get(obj, "source");
  if (!src)
    return fail(ld, "'%s' has no 'source': every field must say where its value comes from", path), NULL;
  if (!json_is_string(src) || json_string_length(src) == 0)
    return fail(ld, "'%s.source' must be a non-empty string", path), NULL;
  json_t *note = json_object_get(obj, "note");
  if (note && !json_is_string(note))
    return fail(ld, "'%s.note' must be a string, got %s", path, type_name(note)), NULL;
  *src_out = dup_str(json_string_value(src));
  if (!*src_out)
    return nomem(ld), NULL;
  return value;
}

static bool read_enum(loader *ld, const char *path, json_t *v, const char *const *names, size_t n, double *out) {
  if (!json_is_string(v))
    return fail(ld, "'%s' must be a string, got %s", path, type_name(v));
  const char *s = json_string_value(v);
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, names[i]) == 0) {
      *out = (double)i;
      return true;
    }
  char list[256] = "";
  for (size_t i = 0; i < n; i++) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s'%s'", i ? ", " : "", names[i]);
  }
  return fail(ld, "'%s' must be one of %s, got '%s'", path, list, s);
}

static bool read_number(loader *ld, const char *path, json_t *v, bool integer, double min, bool min_open, double *out) {
  if (integer && !json_is_integer(v))
    return fail(ld, "'%s' must be an integer, got %s", path, type_name(v));
  if (!json_is_number(v))
    return fail(ld, "'%s' must be a number, got %s", path, type_name(v));
  double d = json_number_value(v);
  if (!isfinite(d))
    return fail(ld, "'%s' must be finite", path);
  if (min_open ? !(d > min) : !(d >= min))
    return fail(ld, "'%s' must be %s %g, got %g", path, min_open ? "greater than" : "at least", min, d);
  if (integer && d > MAX_INT_VALUE)
    return fail(ld, "'%s' is too large: %g (at most %.0f)", path, d, MAX_INT_VALUE);
  *out = d;
  return true;
}

static bool read_field(loader *ld, wgp_gpu_field f, json_t *obj) {
  const field_desc *fd = &fields[f];
  char path[128];
  snprintf(path, sizeof path, "%s.%s", fd->section, fd->key);
  json_t *v = field_value(ld, obj, path, &ld->g->src[f]);
  if (!v)
    return false;
  switch (fd->kind) {
  case FK_STRING:
  case FK_CC: {
    if (!json_is_string(v) || json_string_length(v) == 0)
      return fail(ld, "'%s' must be a non-empty string, got %s", path, type_name(v));
    const char *s = json_string_value(v);
    if (fd->kind == FK_CC) {
      unsigned major, minor;
      char tail;
      if (sscanf(s, "%u.%u%c", &major, &minor, &tail) != 2 || major == 0 || major > 99 || minor > 9 ||
          strchr(s, '.') - s > 2 || strlen(strchr(s, '.')) != 2)
        return fail(ld, "'%s' must be \"MAJOR.MINOR\" (e.g. \"9.0\"), got '%s'", path, s);
      ld->g->cc_major = major;
      ld->g->cc_minor = minor;
    }
    ld->g->str[f] = dup_str(s);
    if (!ld->g->str[f])
      return nomem(ld);
    return true;
  }
  case FK_ARCH: return read_enum(ld, path, v, arch_names, WGP_COUNT(arch_names), &ld->g->num[f]);
  case FK_RGRAN: return read_enum(ld, path, v, rgran_names, WGP_COUNT(rgran_names), &ld->g->num[f]);
  case FK_COAL: return read_enum(ld, path, v, coal_names, WGP_COUNT(coal_names), &ld->g->num[f]);
  case FK_BOOL:
    if (!json_is_boolean(v))
      return fail(ld, "'%s' must be a boolean, got %s", path, type_name(v));
    ld->g->num[f] = json_is_true(v) ? 1 : 0;
    return true;
  case FK_COUNT: return read_number(ld, path, v, true, 0, true, &ld->g->num[f]);
  case FK_COUNT0: return read_number(ld, path, v, true, 0, false, &ld->g->num[f]);
  case FK_PNUM: return read_number(ld, path, v, false, 0, true, &ld->g->num[f]);
  case FK_NUM: return read_number(ld, path, v, false, 0, false, &ld->g->num[f]);
  }
  return fail(ld, "'%s': internal error: unknown field kind", path);
}

static bool read_section(loader *ld, json_t *root, const char *section) {
  json_t *obj = json_object_get(root, section);
  if (!obj)
    return fail(ld, "missing section '%s'", section);
  if (!json_is_object(obj))
    return fail(ld, "'%s' must be an object, got %s", section, type_name(obj));
  const char *known[WGP_GF_COUNT];
  size_t n = 0;
  for (size_t f = 0; f < WGP_GF_COUNT; f++)
    if (strcmp(fields[f].section, section) == 0)
      known[n++] = fields[f].key;
  const char *k;
  json_t *v;
  json_object_foreach(obj, k, v) {
    bool found = strcmp(section, "identity") == 0 && strcmp(k, "aliases") == 0; /* optional, read_aliases */
    for (size_t i = 0; i < n && !found; i++)
      found = strcmp(k, known[i]) == 0;
    if (!found)
      return unknown_key(ld, section, k, known, n);
  }
  for (size_t f = 0; f < WGP_GF_COUNT; f++) {
    if (strcmp(fields[f].section, section) != 0)
      continue;
    json_t *fv = json_object_get(obj, fields[f].key);
    if (!fv && field_optional(f))
      continue;
    if (!fv)
      return fail(ld, "missing key '%s.%s'", section, fields[f].key);
    if (!read_field(ld, (wgp_gpu_field)f, fv))
      return false;
  }
  return true;
}

#define MAX_ALIAS_LEN 64

/* identity.aliases (optional): other names the GPU goes by, such as the
 * short names of measurement files ("GTX-980"); {"value": [...], "source"}. */
static bool read_aliases(loader *ld, json_t *root) {
  json_t *obj = json_object_get(json_object_get(root, "identity"), "aliases");
  if (!obj)
    return true;
  json_t *v = field_value(ld, obj, "identity.aliases", &ld->g->aliases_src);
  if (!v)
    return false;
  if (!json_is_array(v))
    return fail(ld, "'identity.aliases' must be an array of names, got %s", type_name(v));
  size_t n = json_array_size(v);
  ld->g->aliases = calloc(n ? n : 1, sizeof *ld->g->aliases);
  if (!ld->g->aliases)
    return nomem(ld);
  for (size_t i = 0; i < n; i++) {
    json_t *a = json_array_get(v, i);
    if (!json_is_string(a) || json_string_length(a) == 0)
      return fail(ld, "'identity.aliases'[%zu] must be a non-empty string, got %s", i, type_name(a));
    const char *s = json_string_value(a);
    if (strlen(s) > MAX_ALIAS_LEN)
      return fail(ld, "'identity.aliases'[%zu] is longer than %d characters", i, MAX_ALIAS_LEN);
    for (const char *p = s; *p; p++)
      if ((unsigned char)*p <= ' ' || *p == ',' || *p == '"' || (unsigned char)*p >= 127)
        return fail(ld, "'identity.aliases'[%zu] '%s': a name holds no spaces, commas, quotes or control characters",
                    i, s);
    for (size_t j = 0; j < i; j++)
      if (strcasecmp(ld->g->aliases[j], s) == 0)
        return fail(ld, "'identity.aliases' lists '%s' twice", s);
    if (!(ld->g->aliases[i] = dup_str(s)))
      return nomem(ld);
    ld->g->naliases = i + 1;
  }
  return true;
}

/* compiler (optional): what the GPU's compiler makes of the counted IR.
 * strength_reduces_loop_addresses: whether it keeps a loop's advancing
 * addresses in registers (the blocks' strength_reduced counts); true unless
 * said, as every current nvcc and LLVM do. */
static bool read_compiler(loader *ld, json_t *root) {
  ld->g->strength_reduction = true;
  json_t *obj = json_object_get(root, "compiler");
  if (!obj)
    return true;
  if (!json_is_object(obj))
    return fail(ld, "'compiler' must be an object, got %s", type_name(obj));
  static const char *const known[] = {"strength_reduces_loop_addresses"};
  const char *k;
  json_t *v;
  json_object_foreach(obj, k, v) {
    if (strcmp(k, known[0]) != 0)
      return unknown_key(ld, "compiler", k, known, 1);
  }
  json_t *f = json_object_get(obj, known[0]);
  if (!f)
    return fail(ld, "missing key 'compiler.%s'", known[0]);
  json_t *val = field_value(ld, f, "compiler.strength_reduces_loop_addresses", &ld->g->strength_reduction_src);
  if (!val)
    return false;
  if (!json_is_boolean(val))
    return fail(ld, "'compiler.strength_reduces_loop_addresses' must be a boolean, got %s", type_name(val));
  ld->g->strength_reduction = json_is_true(val);
  return true;
}

static bool read_ops(loader *ld, json_t *root) {
  json_t *ops = json_object_get(root, "ops");
  if (!ops)
    return fail(ld, "missing section 'ops'");
  if (!json_is_object(ops))
    return fail(ld, "'ops' must be an object, got %s", type_name(ops));
  const char *k;
  json_t *v;
  json_object_foreach(ops, k, v) {
    wgp_op_class c;
    if (!wgp_op_class_from_name(k, &c))
      return fail(ld, "unknown cost class 'ops.%s'", k);
  }
  /* "instructions" is optional: machine instructions per operation, 1 unless said */
  static const char *const members[] = {"latency_cycles", "throughput_per_cycle", "instructions"};
  for (size_t c = 0; c < WGP_OP_COUNT; c++) {
    char path[128];
    json_t *op = json_object_get(ops, op_names[c]);
    if (!op && c == WGP_OP_SFU_FAST) {
      /* optional (descriptions before 2026-11-25 lack it): a fast intrinsic
       * is one MUFU instruction, as rsqrt is; read after it */
      size_t r = WGP_OP_SFU_RSQRT;
      ld->g->op_latency[c] = ld->g->op_latency[r];
      ld->g->op_throughput[c] = ld->g->op_throughput[r];
      ld->g->op_instructions[c] = ld->g->op_instructions[r];
      static const char why[] = "as ops.sfu_rsqrt (one MUFU instruction): the description has no ops.sfu_fast";
      ld->g->op_latency_src[c] = dup_str(why);
      ld->g->op_throughput_src[c] = dup_str(why);
      if (!ld->g->op_latency_src[c] || !ld->g->op_throughput_src[c])
        return nomem(ld);
      continue;
    }
    if (!op)
      return fail(ld, "missing key 'ops.%s'", op_names[c]);
    snprintf(path, sizeof path, "ops.%s", op_names[c]);
    if (!json_is_object(op))
      return fail(ld, "'%s' must be an object with 'latency_cycles' and 'throughput_per_cycle', got %s", path,
                  type_name(op));
    json_object_foreach(op, k, v) {
      if (strcmp(k, members[0]) != 0 && strcmp(k, members[1]) != 0 && strcmp(k, members[2]) != 0)
        return unknown_key(ld, path, k, members, 3);
    }
    for (size_t m = 0; m < 2; m++) {
      char mpath[160];
      snprintf(mpath, sizeof mpath, "%s.%s", path, members[m]);
      json_t *fv = json_object_get(op, members[m]);
      if (!fv)
        return fail(ld, "missing key '%s'", mpath);
      char **src = m == 0 ? &ld->g->op_latency_src[c] : &ld->g->op_throughput_src[c];
      double *dst = m == 0 ? &ld->g->op_latency[c] : &ld->g->op_throughput[c];
      json_t *val = field_value(ld, fv, mpath, src);
      if (!val || !read_number(ld, mpath, val, false, 0, true, dst))
        return false;
    }
    ld->g->op_instructions[c] = 1;
    json_t *iv = json_object_get(op, members[2]);
    if (iv) {
      char ipath[160];
      snprintf(ipath, sizeof ipath, "%s.%s", path, members[2]);
      double n;
      json_t *val = field_value(ld, iv, ipath, &ld->g->op_instructions_src[c]);
      if (!val || !read_number(ld, ipath, val, true, 1, false, &n))
        return false;
      if (n > 64)
        return fail(ld, "'%s' must be at most 64 machine instructions per operation, got %g", ipath, n);
      ld->g->op_instructions[c] = (unsigned)n;
    }
  }
  return true;
}

static bool is_pow2(double d) {
  uint64_t v = (uint64_t)d;
  return v != 0 && (v & (v - 1)) == 0;
}

#define NUM(f) (ld->g->num[WGP_GF_##f])

static bool check_pow2(loader *ld, wgp_gpu_field f) {
  if (!is_pow2(ld->g->num[f]))
    return fail(ld, "'%s.%s' must be a power of two, got %.0f", fields[f].section, fields[f].key, ld->g->num[f]);
  return true;
}

/* A must be a whole multiple of B. */
static bool check_multiple(loader *ld, wgp_gpu_field a, wgp_gpu_field b) {
  uint64_t va = (uint64_t)ld->g->num[a], vb = (uint64_t)ld->g->num[b];
  if (va % vb != 0)
    return fail(ld, "'%s.%s' (%llu) must be a multiple of '%s.%s' (%llu)", fields[a].section, fields[a].key,
                (unsigned long long)va, fields[b].section, fields[b].key, (unsigned long long)vb);
  return true;
}

/* A must not exceed B. */
static bool check_le(loader *ld, wgp_gpu_field a, wgp_gpu_field b) {
  if (ld->g->num[a] > ld->g->num[b])
    return fail(ld, "'%s.%s' (%.0f) exceeds '%s.%s' (%.0f)", fields[a].section, fields[a].key, ld->g->num[a],
                fields[b].section, fields[b].key, ld->g->num[b]);
  return true;
}

/* memory.dram_copy_bandwidth_gbps (optional): reads and writes in equal
 * parts; below twice the read bandwidth, or a write would cost nothing. */
static bool check_dram_copy(loader *ld) {
  double copy = NUM(MEMORY_DRAM_COPY_BANDWIDTH_GBPS), rd = NUM(MEMORY_DRAM_BANDWIDTH_GBPS);
  if (copy > 0 && !(copy < 2 * rd))
    return fail(ld,
                "'memory.dram_copy_bandwidth_gbps' (%g) must be below twice 'memory.dram_bandwidth_gbps' (%g): a "
                "copy moves as many bytes in as out, so a write would cost nothing",
                copy, rd);
  return true;
}

/* memory.l1_shared_bytes (optional): the unified L1/shared-memory array holds
 * the largest L1 and the most shared memory an SM may have. */
static bool check_l1_shared(loader *ld) {
  double arr = NUM(MEMORY_L1_SHARED_BYTES);
  if (arr > 0 && (arr < NUM(MEMORY_L1_BYTES) || arr < NUM(LIMITS_SHARED_PER_SM_BYTES)))
    return fail(ld,
                "'memory.l1_shared_bytes' (%g) must be at least 'memory.l1_bytes' (%g) and "
                "'limits.shared_per_sm_bytes' (%g): the unified array holds either",
                arr, NUM(MEMORY_L1_BYTES), NUM(LIMITS_SHARED_PER_SM_BYTES));
  return true;
}

/* memory.l2_port_bytes_per_cycle (optional): at least a byte per cycle; a
 * narrower port would make every L2 sector a wait of thousands of cycles. */
static bool check_l2_port(loader *ld) {
  double port = NUM(MEMORY_L2_PORT_BYTES_PER_CYCLE);
  if (port > 0 && port < 1)
    return fail(ld, "'memory.l2_port_bytes_per_cycle' (%g) must be at least 1: bytes an SM moves to or from L2 "
                "per core cycle", port);
  return true;
}

/* The DRAM row geometry (memory.dram_*): all five keys or none; the
 * interleave and the row are powers of two, the interleave at least an L2
 * sector and at most a row. */
static bool check_dram_rows(loader *ld) {
  size_t given = 0, n = WGP_GF_MEMORY_DRAM_ACTIVATE_WINDOW_NS - WGP_GF_MEMORY_DRAM_DEVICES + 1;
  for (size_t f = WGP_GF_MEMORY_DRAM_DEVICES; f <= WGP_GF_MEMORY_DRAM_ACTIVATE_WINDOW_NS; f++)
    given += ld->g->num[f] > 0;
  if (given == 0)
    return true;
  if (given < n) {
    for (size_t f = WGP_GF_MEMORY_DRAM_DEVICES; f <= WGP_GF_MEMORY_DRAM_ACTIVATE_WINDOW_NS; f++)
      if (!(ld->g->num[f] > 0))
        return fail(ld,
                    "'memory.%s' is missing: the DRAM row geometry needs all of 'memory.dram_devices', "
                    "'dram_banks_per_device', 'dram_row_bytes', 'dram_interleave_bytes' and "
                    "'dram_activate_window_ns', or none of them",
                    fields[f].key);
  }
  if (!check_pow2(ld, WGP_GF_MEMORY_DRAM_ROW_BYTES) || !check_pow2(ld, WGP_GF_MEMORY_DRAM_INTERLEAVE_BYTES) ||
      !check_le(ld, WGP_GF_MEMORY_L2_SECTOR_BYTES, WGP_GF_MEMORY_DRAM_INTERLEAVE_BYTES) ||
      !check_le(ld, WGP_GF_MEMORY_DRAM_INTERLEAVE_BYTES, WGP_GF_MEMORY_DRAM_ROW_BYTES))
    return false;
  if (NUM(MEMORY_DRAM_DEVICES) * NUM(MEMORY_DRAM_BANKS_PER_DEVICE) > 1e6)
    return fail(ld, "'memory.dram_devices' x 'memory.dram_banks_per_device' (%.0f) is more than 1000000 banks",
                NUM(MEMORY_DRAM_DEVICES) * NUM(MEMORY_DRAM_BANKS_PER_DEVICE));
  return true;
}

static bool check_geometry(loader *ld) {
  static const wgp_gpu_field pow2[] = {WGP_GF_CHIP_WARP_SIZE,
                                       WGP_GF_LIMITS_REGISTER_ALLOC_UNIT_REGISTERS,
                                       WGP_GF_LIMITS_SHARED_ALLOC_UNIT_BYTES,
                                       WGP_GF_MEMORY_L1_LINE_BYTES,
                                       WGP_GF_MEMORY_L1_SECTOR_BYTES,
                                       WGP_GF_MEMORY_L2_LINE_BYTES,
                                       WGP_GF_MEMORY_L2_SECTOR_BYTES,
                                       WGP_GF_MEMORY_SHARED_BANKS,
                                       WGP_GF_MEMORY_SHARED_BANK_WIDTH_BYTES,
                                       WGP_GF_LIMITS_WARP_ALLOC_GRANULARITY_WARPS};
  for (size_t i = 0; i < WGP_COUNT(pow2); i++)
    if (!check_pow2(ld, pow2[i]))
      return false;
  if (!check_multiple(ld, WGP_GF_MEMORY_L1_BYTES, WGP_GF_MEMORY_L1_LINE_BYTES) ||
      !check_multiple(ld, WGP_GF_MEMORY_L1_LINE_BYTES, WGP_GF_MEMORY_L1_SECTOR_BYTES) ||
      !check_multiple(ld, WGP_GF_MEMORY_L2_BYTES, WGP_GF_MEMORY_L2_LINE_BYTES) ||
      !check_multiple(ld, WGP_GF_MEMORY_L2_LINE_BYTES, WGP_GF_MEMORY_L2_SECTOR_BYTES) ||
      !check_multiple(ld, WGP_GF_LIMITS_REGISTERS_PER_SM, WGP_GF_LIMITS_REGISTER_ALLOC_UNIT_REGISTERS) ||
      !check_multiple(ld, WGP_GF_LIMITS_SHARED_PER_SM_BYTES, WGP_GF_LIMITS_SHARED_ALLOC_UNIT_BYTES) ||
      !check_multiple(ld, WGP_GF_LIMITS_MAX_THREADS_PER_BLOCK, WGP_GF_CHIP_WARP_SIZE) ||
      !check_multiple(ld, WGP_GF_LIMITS_MAX_WARPS_PER_SM, WGP_GF_LIMITS_WARP_ALLOC_GRANULARITY_WARPS))
    return false;
  /* A block must fit on one SM by itself. */
  double threads_per_sm = NUM(LIMITS_MAX_WARPS_PER_SM) * NUM(CHIP_WARP_SIZE);
  if (NUM(LIMITS_MAX_THREADS_PER_BLOCK) > threads_per_sm)
    return fail(ld,
                "'limits.max_threads_per_block' (%.0f) exceeds what an SM holds: 'limits.max_warps_per_sm' x "
                "'chip.warp_size' = %.0f",
                NUM(LIMITS_MAX_THREADS_PER_BLOCK), threads_per_sm);
  if (!check_le(ld, WGP_GF_LIMITS_MAX_BLOCK_DIM_X, WGP_GF_LIMITS_MAX_THREADS_PER_BLOCK) ||
      !check_le(ld, WGP_GF_LIMITS_MAX_BLOCK_DIM_Y, WGP_GF_LIMITS_MAX_THREADS_PER_BLOCK) ||
      !check_le(ld, WGP_GF_LIMITS_MAX_BLOCK_DIM_Z, WGP_GF_LIMITS_MAX_THREADS_PER_BLOCK) ||
      !check_le(ld, WGP_GF_LIMITS_MAX_REGISTERS_PER_BLOCK, WGP_GF_LIMITS_REGISTERS_PER_SM) ||
      !check_le(ld, WGP_GF_LIMITS_REGISTER_ALLOC_UNIT_REGISTERS, WGP_GF_LIMITS_REGISTERS_PER_SM) ||
      !check_le(ld, WGP_GF_LIMITS_SHARED_PER_BLOCK_BYTES, WGP_GF_LIMITS_SHARED_PER_BLOCK_OPTIN_BYTES) ||
      !check_le(ld, WGP_GF_LIMITS_SHARED_PER_BLOCK_OPTIN_BYTES, WGP_GF_LIMITS_SHARED_PER_SM_BYTES) ||
      !check_le(ld, WGP_GF_LIMITS_SHARED_ALLOC_UNIT_BYTES, WGP_GF_LIMITS_SHARED_PER_SM_BYTES))
    return false;
  /* One warp at the per-thread register maximum must be allocatable. */
  double warp_regs = NUM(LIMITS_MAX_REGISTERS_PER_THREAD) * NUM(CHIP_WARP_SIZE);
  if (warp_regs > NUM(LIMITS_MAX_REGISTERS_PER_BLOCK))
    return fail(ld,
                "one warp at 'limits.max_registers_per_thread' (%.0f) needs %.0f registers, more than "
                "'limits.max_registers_per_block' (%.0f)",
                NUM(LIMITS_MAX_REGISTERS_PER_THREAD), warp_regs, NUM(LIMITS_MAX_REGISTERS_PER_BLOCK));
  if (NUM(LIMITS_SHARED_PER_BLOCK_OPTIN_BYTES) + NUM(LIMITS_SHARED_RESERVED_PER_BLOCK_BYTES) >
      NUM(LIMITS_SHARED_PER_SM_BYTES))
    return fail(ld,
                "'limits.shared_per_block_optin_bytes' (%.0f) plus 'limits.shared_reserved_per_block_bytes' "
                "(%.0f) exceeds 'limits.shared_per_sm_bytes' (%.0f)",
                NUM(LIMITS_SHARED_PER_BLOCK_OPTIN_BYTES), NUM(LIMITS_SHARED_RESERVED_PER_BLOCK_BYTES),
                NUM(LIMITS_SHARED_PER_SM_BYTES));
  if (NUM(MEMORY_COALESCING) == WGP_COALESCE_KEPLER_L2_32B && NUM(MEMORY_L1_CACHES_GLOBAL_LOADS) != 0)
    return fail(ld, "'memory.coalescing' 'kepler_l2_32B' describes global loads that bypass L1, but "
                    "'memory.l1_caches_global_loads' is true");
  return check_dram_rows(ld) && check_dram_copy(ld) && check_l2_port(ld) && check_l1_shared(ld);
}

static wgp_status load_json(json_t *root, const char *name, wgp_gpu **out, wgp_diag *diag) {
  loader ld = {name, diag, WGP_OK, NULL};
  *out = NULL;
  if (!json_is_object(root)) {
    fail(&ld, "a GPU description must be a JSON object, got %s", type_name(root));
    return ld.status;
  }
  json_t *format = json_object_get(root, "format");
  if (!format || !json_is_string(format) || strcmp(json_string_value(format), "wgperf-gpu") != 0) {
    fail(&ld, "not a wgperf GPU description ('format' must be \"wgperf-gpu\")");
    return ld.status;
  }
  json_t *version = json_object_get(root, "version");
  if (!version || !json_is_integer(version)) {
    fail(&ld, "'version' must be an integer");
    return ld.status;
  }
  if (json_integer_value(version) != WGP_GPU_VERSION) {
    fail(&ld, "GPU description version %lld is not supported (this wgperf reads version %d)",
         (long long)json_integer_value(version), WGP_GPU_VERSION);
    return ld.status;
  }
  const char *k;
  json_t *v;
  json_object_foreach(root, k, v) {
    bool found =
        strcmp(k, "format") == 0 || strcmp(k, "version") == 0 || strcmp(k, "ops") == 0 || strcmp(k, "description") == 0 ||
        strcmp(k, "compiler") == 0;
    for (size_t i = 0; i < WGP_COUNT(sections) && !found; i++)
      found = strcmp(k, sections[i]) == 0;
    if (!found) {
      fail(&ld, "unknown section '%s'", k);
      return ld.status;
    }
  }
  json_t *descr = json_object_get(root, "description");
  if (descr && !json_is_string(descr)) {
    fail(&ld, "'description' must be a string, got %s", type_name(descr));
    return ld.status;
  }
  ld.g = calloc(1, sizeof *ld.g);
  if (!ld.g || !(ld.g->file = dup_str(name))) {
    nomem(&ld);
    wgp_gpu_free(ld.g);
    return ld.status;
  }
  bool ok = true;
  for (size_t i = 0; i < WGP_COUNT(sections) && ok; i++)
    ok = read_section(&ld, root, sections[i]);
  ok = ok && read_aliases(&ld, root) && read_compiler(&ld, root) && read_ops(&ld, root) && check_geometry(&ld);
  if (!ok) {
    wgp_gpu_free(ld.g);
    return ld.status;
  }
  *out = ld.g;
  return WGP_OK;
}

static wgp_status parse_error(const char *name, const json_error_t *err, wgp_diag *diag) {
  if (diag) {
    if (err->line > 0)
      snprintf(diag->message, sizeof diag->message, "wgperf: error: %s:%d: %s", name, err->line, err->text);
    else
      snprintf(diag->message, sizeof diag->message, "wgperf: error: %s: %s", name, err->text);
  }
  return WGP_ERR_INPUT;
}

wgp_status wgp_gpu_load_string(const char *text, size_t len, const char *name, wgp_gpu **out, wgp_diag *diag) {
  json_error_t err;
  *out = NULL;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
  if (!root)
    return parse_error(name, &err, diag);
  wgp_status st = load_json(root, name, out, diag);
  json_decref(root);
  return st;
}

wgp_status wgp_gpu_load_file(const char *file, wgp_gpu **out, wgp_diag *diag) {
  *out = NULL;
  FILE *fp = fopen(file, "rb");
  if (!fp) {
    if (diag)
      snprintf(diag->message, sizeof diag->message, "wgperf: error: %s: cannot open: %s", file, strerror(errno));
    return WGP_ERR_IO;
  }
  json_error_t err;
  json_t *root = json_loadf(fp, JSON_REJECT_DUPLICATES, &err);
  fclose(fp);
  if (!root)
    return parse_error(file, &err, diag);
  wgp_status st = load_json(root, file, out, diag);
  json_decref(root);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Shipped descriptions                                                     */
/* ------------------------------------------------------------------------ */

#ifndef WGPERF_GPU_SOURCE_DIR
#define WGPERF_GPU_SOURCE_DIR ""
#endif
#ifndef WGPERF_GPU_INSTALL_DIR
#define WGPERF_GPU_INSTALL_DIR ""
#endif

static bool valid_builtin_name(const char *name) {
  if (!*name || name[0] == '.' || strlen(name) > 64)
    return false;
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
      return false;
  return true;
}

wgp_status wgp_gpu_load_builtin(const char *name, wgp_gpu **out, wgp_diag *diag) {
  *out = NULL;
  if (!name)
    name = WGP_GPU_DEFAULT;
  if (!valid_builtin_name(name)) {
    if (diag)
      snprintf(diag->message, sizeof diag->message,
               "wgperf: error: '%s' is not a GPU name (names hold lower-case letters, digits, '-', '_' and '.')", name);
    return WGP_ERR_INPUT;
  }
  const char *env = getenv("WGPERF_GPU_DIR");
  const char *dirs[] = {env ? env : "", WGPERF_GPU_SOURCE_DIR, WGPERF_GPU_INSTALL_DIR};
  char searched[512] = "";
  for (size_t i = 0; i < WGP_COUNT(dirs); i++) {
    if (!dirs[i][0])
      continue;
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s.json", dirs[i], name);
    if (n < 0 || (size_t)n >= sizeof path)
      continue;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
      size_t used = strlen(searched);
      snprintf(searched + used, sizeof searched - used, "%s%s", used ? ", " : "", dirs[i]);
      continue;
    }
    fclose(fp);
    return wgp_gpu_load_file(path, out, diag);
  }
  if (diag)
    snprintf(diag->message, sizeof diag->message, "wgperf: error: no GPU description named '%s' (searched: %s)", name,
             searched[0] ? searched : "no directory; set WGPERF_GPU_DIR");
  return WGP_ERR_INPUT;
}

size_t wgp_gpu_num_aliases(const wgp_gpu *g) { return g->naliases; }
const char *wgp_gpu_alias(const wgp_gpu *g, size_t i) { return i < g->naliases ? g->aliases[i] : NULL; }

bool wgp_gpu_has_alias(const wgp_gpu *g, const char *name) {
  for (size_t i = 0; i < g->naliases; i++)
    if (strcasecmp(g->aliases[i], name) == 0)
      return true;
  return false;
}

/* Sorted names of the *.json files of DIR (give), so the first match of an
 * alias does not depend on the order readdir happens to return. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char **json_files(const char *dir, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d)
    return NULL;
  char **names = NULL;
  size_t cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 || e->d_name[0] == '.')
      continue;
    if (*n == cap) {
      size_t nc = cap ? 2 * cap : 32;
      char **p = realloc(names, nc * sizeof *p);
      if (!p)
        break;
      names = p;
      cap = nc;
    }
    if (!(names[*n] = dup_str(e->d_name)))
      break;
    (*n)++;
  }
  closedir(d);
  if (*n)
    qsort(names, *n, sizeof *names, cmp_str);
  return names;
}

/* Whether a shipped description file NAME.json exists in one of the directories. */
static bool builtin_exists(const char *name, const char *const *dirs, size_t ndirs) {
  for (size_t i = 0; i < ndirs; i++) {
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s.json", dirs[i], name);
    if (dirs[i][0] && n > 0 && (size_t)n < sizeof path && access(path, F_OK) == 0)
      return true;
  }
  return false;
}

/* NAME lower-cased without '-', '_' and white space into OUT: "GTX-980",
 * "gtx980" and "GTX 980" are one name. */
static void normalize_name(const char *name, char *out, size_t size) {
  size_t k = 0;
  for (const char *p = name; *p && k + 1 < size; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '-' || c == '_' || c == ' ' || c == '\t')
      continue;
    out[k++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  out[k] = '\0';
}

/* Whether description G, whose file is STEM.json, goes by NORM (a
 * normalized name): its file name, its identity.name with or without the
 * leading "NVIDIA", or one of its aliases; NORM with a leading "NVIDIA" (the
 * name CUDA and OpenCL report, "NVIDIA H200") also as it is without it. */
static bool goes_by(const wgp_gpu *g, const char *stem, const char *norm) {
  if (strncmp(norm, "nvidia", 6) == 0 && norm[6] && goes_by(g, stem, norm + 6))
    return true;
  char buf[256];
  normalize_name(stem, buf, sizeof buf);
  if (strcmp(buf, norm) == 0)
    return true;
  normalize_name(wgp_gpu_name(g), buf, sizeof buf);
  if (strcmp(buf, norm) == 0 || (strncmp(buf, "nvidia", 6) == 0 && strcmp(buf + 6, norm) == 0))
    return true;
  for (size_t i = 0; i < g->naliases; i++) {
    normalize_name(g->aliases[i], buf, sizeof buf);
    if (strcmp(buf, norm) == 0)
      return true;
  }
  return false;
}

wgp_status wgp_gpu_find(const char *name, wgp_gpu **out, wgp_diag *diag) {
  *out = NULL;
  const char *env = getenv("WGPERF_GPU_DIR");
  const char *dirs[] = {env ? env : "", WGPERF_GPU_SOURCE_DIR, WGPERF_GPU_INSTALL_DIR};
  if (valid_builtin_name(name)) {
    /* a file of that name that does not load is reported as it is, not
     * looked past for an alias */
    if (builtin_exists(name, dirs, WGP_COUNT(dirs)))
      return wgp_gpu_load_builtin(name, out, diag);
  }
  char norm[256], matches[512] = "";
  normalize_name(name, norm, sizeof norm);
  size_t nmatch = 0;
  for (size_t i = 0; i < WGP_COUNT(dirs) && norm[0]; i++) {
    if (!dirs[i][0])
      continue;
    size_t n;
    char **files = json_files(dirs[i], &n);
    for (size_t f = 0; f < n; f++) {
      char path[4096];
      int len = snprintf(path, sizeof path, "%s/%s", dirs[i], files[f]);
      files[f][strlen(files[f]) - 5] = '\0'; /* the stem */
      /* a file an earlier directory's file of the same name hides is not
       * what its name finds */
      if (len < 0 || (size_t)len >= sizeof path || builtin_exists(files[f], dirs, i))
        continue;
      wgp_gpu *g;
      /* A broken file elsewhere in the directory is not this lookup's
       * business: loading it by its own name reports it. */
      if (wgp_gpu_load_file(path, &g, NULL) != WGP_OK)
        continue;
      if (goes_by(g, files[f], norm)) {
        size_t used = strlen(matches);
        snprintf(matches + used, sizeof matches - used, "%s%s", used ? ", " : "", files[f]);
        if (nmatch++ == 0) {
          *out = g;
          continue;
        }
      }
      wgp_gpu_free(g);
    }
    for (size_t f = 0; f < n; f++)
      free(files[f]);
    free(files);
  }
  if (nmatch == 1)
    return WGP_OK;
  wgp_gpu_free(*out);
  *out = NULL;
  if (diag && nmatch > 1)
    snprintf(diag->message, sizeof diag->message,
             "wgperf: error: '%s' names more than one GPU description: %s; give one of those names", name, matches);
  else if (diag)
    snprintf(diag->message, sizeof diag->message,
             "wgperf: error: no GPU description named '%s' or listing it in 'identity.aliases'", name);
  return WGP_ERR_INPUT;
}

size_t wgp_gpu_list_builtin(char *buf, size_t size) {
  const char *env = getenv("WGPERF_GPU_DIR");
  const char *dirs[] = {env ? env : "", WGPERF_GPU_SOURCE_DIR, WGPERF_GPU_INSTALL_DIR};
  size_t used = 0, count = 0;
  if (size)
    buf[0] = '\0';
  for (size_t i = 0; i < WGP_COUNT(dirs); i++) {
    if (!dirs[i][0])
      continue;
    size_t n;
    char **files = json_files(dirs[i], &n);
    for (size_t f = 0; f < n; f++) {
      size_t len = strlen(files[f]) - 5; /* without .json */
      files[f][len] = '\0';
      /* listed once, the first directory's (the one a lookup finds) */
      bool seen = builtin_exists(files[f], dirs, i);
      if (!seen && valid_builtin_name(files[f])) {
        count++;
        if (size && used < size) {
          int k = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", files[f]);
          used = k > 0 && (size_t)k < size - used ? used + (size_t)k : size;
        }
      }
      free(files[f]);
    }
    free(files);
  }
  return count;
}

wgp_status wgp_gpu_open(const char *spec, wgp_gpu **out, wgp_diag *diag) {
  *out = NULL;
  if (!spec)
    return wgp_gpu_load_builtin(NULL, out, diag);
  size_t n = strlen(spec);
  if (strchr(spec, '/') || (n >= 5 && strcmp(spec + n - 5, ".json") == 0))
    return wgp_gpu_load_file(spec, out, diag);
  wgp_status st = wgp_gpu_find(spec, out, diag);
  if (st != WGP_OK && diag && strstr(diag->message, "no GPU description named")) {
    char names[WGP_DIAG_SIZE];
    if (wgp_gpu_list_builtin(names, sizeof names) > 0) {
      size_t used = strlen(diag->message);
      snprintf(diag->message + used, sizeof diag->message - used,
               "; shipped: %s; or give a description file (NAME.json or a path)", names);
    }
  }
  return st;
}

void wgp_gpu_free(wgp_gpu *g) {
  if (!g)
    return;
  for (size_t f = 0; f < WGP_GF_COUNT; f++) {
    free(g->str[f]);
    free(g->src[f]);
  }
  for (size_t c = 0; c < WGP_OP_COUNT; c++) {
    free(g->op_latency_src[c]);
    free(g->op_throughput_src[c]);
    free(g->op_instructions_src[c]);
  }
  for (size_t i = 0; i < g->naliases; i++)
    free(g->aliases[i]);
  free(g->aliases);
  free(g->aliases_src);
  free(g->strength_reduction_src);
  free(g->file);
  free(g);
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */
/* ------------------------------------------------------------------------ */

const char *wgp_gpu_file(const wgp_gpu *g) { return g->file; }

const char *wgp_gpu_source(const wgp_gpu *g, const char *key) {
  if (strcmp(key, "identity.aliases") == 0)
    return g->aliases_src;
  if (strcmp(key, "compiler.strength_reduces_loop_addresses") == 0)
    return g->strength_reduction_src;
  for (size_t f = 0; f < WGP_GF_COUNT; f++) {
    size_t s = strlen(fields[f].section);
    if (strncmp(key, fields[f].section, s) == 0 && key[s] == '.' && strcmp(key + s + 1, fields[f].key) == 0)
      return g->src[f];
  }
  if (strncmp(key, "ops.", 4) == 0) {
    const char *dot = strchr(key + 4, '.');
    if (!dot)
      return NULL;
    for (size_t c = 0; c < WGP_OP_COUNT; c++) {
      size_t n = strlen(op_names[c]);
      if ((size_t)(dot - (key + 4)) != n || strncmp(key + 4, op_names[c], n) != 0)
        continue;
      if (strcmp(dot + 1, "latency_cycles") == 0)
        return g->op_latency_src[c];
      if (strcmp(dot + 1, "throughput_per_cycle") == 0)
        return g->op_throughput_src[c];
      if (strcmp(dot + 1, "instructions") == 0)
        return g->op_instructions_src[c];
    }
  }
  return NULL;
}

double wgp_gpu_op_latency_cycles(const wgp_gpu *g, wgp_op_class c) {
  return (size_t)c < WGP_OP_COUNT ? g->op_latency[c] : 0;
}
double wgp_gpu_op_throughput_per_cycle(const wgp_gpu *g, wgp_op_class c) {
  return (size_t)c < WGP_OP_COUNT ? g->op_throughput[c] : 0;
}
unsigned wgp_gpu_op_instructions(const wgp_gpu *g, wgp_op_class c) {
  return (size_t)c < WGP_OP_COUNT ? g->op_instructions[c] : 1;
}
unsigned wgp_gpu_cc_major(const wgp_gpu *g) { return g->cc_major; }
unsigned wgp_gpu_cc_minor(const wgp_gpu *g) { return g->cc_minor; }

const char *wgp_gpu_name(const wgp_gpu *g) { return g->str[WGP_GF_IDENTITY_NAME]; }
wgp_arch wgp_gpu_architecture(const wgp_gpu *g) { return (wgp_arch)g->num[WGP_GF_IDENTITY_ARCHITECTURE]; }
const char *wgp_gpu_compute_capability(const wgp_gpu *g) { return g->str[WGP_GF_IDENTITY_COMPUTE_CAPABILITY]; }
unsigned wgp_gpu_sm_count(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_CHIP_SM_COUNT]; }
double wgp_gpu_core_clock_mhz(const wgp_gpu *g) { return g->num[WGP_GF_CHIP_CORE_CLOCK_MHZ]; }
unsigned wgp_gpu_warp_size(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_CHIP_WARP_SIZE]; }
unsigned wgp_gpu_schedulers_per_sm(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_CHIP_SCHEDULERS_PER_SM]; }
unsigned wgp_gpu_max_threads_per_block(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_MAX_THREADS_PER_BLOCK];
}
unsigned wgp_gpu_max_block_dim_x(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_LIMITS_MAX_BLOCK_DIM_X]; }
unsigned wgp_gpu_max_block_dim_y(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_LIMITS_MAX_BLOCK_DIM_Y]; }
unsigned wgp_gpu_max_block_dim_z(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_LIMITS_MAX_BLOCK_DIM_Z]; }
/* CUDA C++ Programming Guide, "Technical Specifications per Compute
 * Capability": a grid of at most 2^31-1 blocks in x from compute capability
 * 3.0 (65535 before), 65535 in y and z on every one. */
unsigned wgp_gpu_max_grid_dim(const wgp_gpu *g, unsigned d) {
  if (d > 2)
    return 0;
  unsigned v = (unsigned)g->num[WGP_GF_LIMITS_MAX_GRID_DIM_X + d];
  if (v)
    return v;
  return d == 0 && g->cc_major >= 3 ? 2147483647u : 65535u;
}
bool wgp_gpu_grid_fits(const wgp_gpu *g, const uint64_t global[3], const uint64_t local[3], char *why, size_t size) {
  for (unsigned d = 0; d < 3; d++) {
    uint64_t groups = local[d] ? (global[d] + local[d] - 1) / local[d] : 0;
    if (groups > wgp_gpu_max_grid_dim(g, d)) {
      if (why && size)
        snprintf(why, size,
                 "the launch has %llu work-groups (blocks) in dimension %c (global %llu / local %llu), above %s's "
                 "grid limit of %u (gridDim.%c)",
                 (unsigned long long)groups, "xyz"[d], (unsigned long long)global[d], (unsigned long long)local[d],
                 wgp_gpu_name(g), wgp_gpu_max_grid_dim(g, d), "xyz"[d]);
      return false;
    }
  }
  return true;
}
unsigned wgp_gpu_max_warps_per_sm(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_LIMITS_MAX_WARPS_PER_SM]; }
unsigned wgp_gpu_max_blocks_per_sm(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_LIMITS_MAX_BLOCKS_PER_SM]; }
unsigned wgp_gpu_registers_per_sm(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_LIMITS_REGISTERS_PER_SM]; }
unsigned wgp_gpu_max_registers_per_block(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_MAX_REGISTERS_PER_BLOCK];
}
unsigned wgp_gpu_max_registers_per_thread(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_MAX_REGISTERS_PER_THREAD];
}
unsigned wgp_gpu_register_alloc_unit_registers(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_REGISTER_ALLOC_UNIT_REGISTERS];
}
wgp_reg_granularity wgp_gpu_register_alloc_granularity(const wgp_gpu *g) {
  return (wgp_reg_granularity)g->num[WGP_GF_LIMITS_REGISTER_ALLOC_GRANULARITY];
}
unsigned wgp_gpu_warp_alloc_granularity_warps(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_WARP_ALLOC_GRANULARITY_WARPS];
}
unsigned wgp_gpu_shared_per_sm_bytes(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_LIMITS_SHARED_PER_SM_BYTES]; }
unsigned wgp_gpu_shared_per_block_bytes(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_SHARED_PER_BLOCK_BYTES];
}
unsigned wgp_gpu_shared_per_block_optin_bytes(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_SHARED_PER_BLOCK_OPTIN_BYTES];
}
unsigned wgp_gpu_shared_alloc_unit_bytes(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_SHARED_ALLOC_UNIT_BYTES];
}
unsigned wgp_gpu_shared_reserved_per_block_bytes(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_LIMITS_SHARED_RESERVED_PER_BLOCK_BYTES];
}
unsigned wgp_gpu_l1_bytes(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_L1_BYTES]; }
double wgp_gpu_l1_shared_bytes(const wgp_gpu *g) {
  double arr = g->num[WGP_GF_MEMORY_L1_SHARED_BYTES];
  return arr > 0 ? arr : g->num[WGP_GF_MEMORY_L1_BYTES];
}
double wgp_gpu_l1_beside_shared(const wgp_gpu *g, double shared_bytes) {
  double l1 = g->num[WGP_GF_MEMORY_L1_BYTES];
  if (wgp_gpu_architecture(g) < WGP_ARCH_VOLTA) /* L1 and shared memory apart */
    return l1;
  double rest = wgp_gpu_l1_shared_bytes(g) - shared_bytes;
  return rest < 0 ? 0 : rest < l1 ? rest : l1;
}
unsigned wgp_gpu_l1_line_bytes(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_L1_LINE_BYTES]; }
unsigned wgp_gpu_l1_sector_bytes(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_L1_SECTOR_BYTES]; }
bool wgp_gpu_strength_reduces_loop_addresses(const wgp_gpu *g) { return g->strength_reduction; }
bool wgp_gpu_l1_caches_global_loads(const wgp_gpu *g) { return (bool)g->num[WGP_GF_MEMORY_L1_CACHES_GLOBAL_LOADS]; }
bool wgp_gpu_l1_wavefronts_by_phase(const wgp_gpu *g) { return wgp_gpu_architecture(g) >= WGP_ARCH_VOLTA; }
bool wgp_gpu_shared_own_pipe(const wgp_gpu *g) { return (bool)g->num[WGP_GF_MEMORY_SHARED_OWN_PIPE]; }
unsigned wgp_gpu_dram_devices(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_DRAM_DEVICES]; }
unsigned wgp_gpu_dram_banks_per_device(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_MEMORY_DRAM_BANKS_PER_DEVICE];
}
unsigned wgp_gpu_dram_row_bytes(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_DRAM_ROW_BYTES]; }
unsigned wgp_gpu_dram_interleave_bytes(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_MEMORY_DRAM_INTERLEAVE_BYTES];
}
double wgp_gpu_dram_activate_window_ns(const wgp_gpu *g) { return g->num[WGP_GF_MEMORY_DRAM_ACTIVATE_WINDOW_NS]; }
double wgp_gpu_dram_activations_per_ns(const wgp_gpu *g) {
  double w = wgp_gpu_dram_activate_window_ns(g);
  return w > 0 ? WGP_DRAM_ACTIVATIONS_PER_WINDOW * wgp_gpu_dram_devices(g) / w : 0;
}
unsigned wgp_gpu_l2_bytes(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_L2_BYTES]; }
unsigned wgp_gpu_l2_line_bytes(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_L2_LINE_BYTES]; }
unsigned wgp_gpu_l2_sector_bytes(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_L2_SECTOR_BYTES]; }
double wgp_gpu_dram_bandwidth_gbps(const wgp_gpu *g) { return g->num[WGP_GF_MEMORY_DRAM_BANDWIDTH_GBPS]; }
double wgp_gpu_dram_copy_bandwidth_gbps(const wgp_gpu *g) { return g->num[WGP_GF_MEMORY_DRAM_COPY_BANDWIDTH_GBPS]; }
double wgp_gpu_dram_write_ns_per_byte(const wgp_gpu *g) {
  double rd = wgp_gpu_dram_bandwidth_gbps(g), copy = wgp_gpu_dram_copy_bandwidth_gbps(g);
  /* a copy of B bytes each way takes B / rd + B x w = 2B / copy */
  return copy > 0 ? 2 / copy - 1 / rd : 1 / rd;
}
double wgp_gpu_l2_bandwidth_gbps(const wgp_gpu *g) { return g->num[WGP_GF_MEMORY_L2_BANDWIDTH_GBPS]; }
double wgp_gpu_l2_port_bytes_per_cycle(const wgp_gpu *g) { return g->num[WGP_GF_MEMORY_L2_PORT_BYTES_PER_CYCLE]; }
double wgp_gpu_atomic_same_address_per_cycle(const wgp_gpu *g) {
  double v = g->num[WGP_GF_MEMORY_ATOMIC_SAME_ADDRESS_PER_CYCLE];
  return v > 0 ? v : WGP_ATOMIC_SAME_ADDRESS_PER_CYCLE_DEFAULT;
}
double wgp_gpu_global_line_cycles(const wgp_gpu *g) { return g->num[WGP_GF_MEMORY_GLOBAL_LINE_CYCLES]; }
unsigned wgp_gpu_shared_banks(const wgp_gpu *g) { return (unsigned)g->num[WGP_GF_MEMORY_SHARED_BANKS]; }
unsigned wgp_gpu_shared_bank_width_bytes(const wgp_gpu *g) {
  return (unsigned)g->num[WGP_GF_MEMORY_SHARED_BANK_WIDTH_BYTES];
}
double wgp_gpu_shared_bandwidth_bytes_per_cycle(const wgp_gpu *g) {
  return g->num[WGP_GF_MEMORY_SHARED_BANDWIDTH_BYTES_PER_CYCLE];
}
wgp_coalescing wgp_gpu_coalescing(const wgp_gpu *g) { return (wgp_coalescing)g->num[WGP_GF_MEMORY_COALESCING]; }
double wgp_gpu_latency_shared_cycles(const wgp_gpu *g) { return g->num[WGP_GF_LATENCIES_SHARED_CYCLES]; }
double wgp_gpu_latency_l1_hit_cycles(const wgp_gpu *g) { return g->num[WGP_GF_LATENCIES_L1_HIT_CYCLES]; }
double wgp_gpu_latency_l2_hit_cycles(const wgp_gpu *g) { return g->num[WGP_GF_LATENCIES_L2_HIT_CYCLES]; }
double wgp_gpu_latency_dram_cycles(const wgp_gpu *g) { return g->num[WGP_GF_LATENCIES_DRAM_CYCLES]; }
double wgp_gpu_latency_constant_hit_cycles(const wgp_gpu *g) { return g->num[WGP_GF_LATENCIES_CONSTANT_HIT_CYCLES]; }
double wgp_gpu_latency_constant_miss_cycles(const wgp_gpu *g) { return g->num[WGP_GF_LATENCIES_CONSTANT_MISS_CYCLES]; }
double wgp_gpu_latency_shared_replay_cycles(const wgp_gpu *g) { return g->num[WGP_GF_LATENCIES_SHARED_REPLAY_CYCLES]; }
double wgp_gpu_barrier_base_cycles(const wgp_gpu *g) { return g->num[WGP_GF_SYNC_BARRIER_BASE_CYCLES]; }
double wgp_gpu_barrier_per_warp_cycles(const wgp_gpu *g) { return g->num[WGP_GF_SYNC_BARRIER_PER_WARP_CYCLES]; }
double wgp_gpu_launch_overhead_us(const wgp_gpu *g) { return g->num[WGP_GF_LAUNCH_OVERHEAD_US]; }
double wgp_gpu_launch_per_block_ns(const wgp_gpu *g) { return g->num[WGP_GF_LAUNCH_PER_BLOCK_NS]; }
