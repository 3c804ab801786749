/* measure_cuda: times the validation kernels (the .cu files in ../kernels) on the local CUDA GPU and
 * writes one CSV row per launch configuration, in the columns of
 * ../shared/data/amaris-nvprof/measurements.csv (counters left empty).
 *
 *   nvcc -O3 -arch=sm_90 -Xcompiler -Wall -o measure_cuda measure_cuda.cu
 *   ./measure_cuda -o h100.csv [--gpu-name NAME] [--quick] [--budget-s 200]
 *   ./measure_cuda --list          # configurations only, no GPU needed
 *
 * How a row is measured (assumptions, see also validation/README.md):
 * - each kernel group (one dataset kernel name) runs in its own child process, so a
 *   kernel that corrupts its CUDA context or hangs costs only its own group; the parent
 *   never touches CUDA;
 * - one warm-up launch, then up to 10 timed launches (fewer when a launch is long:
 *   reps = clamp(config_cap / warm-up time, 3, 10), 1 when the warm-up exceeds
 *   --max-launch-s); duration_s is their median, from CUDA events around each launch;
 * - before each timed launch a short spin kernel keeps the GPU busy while the events
 *   and the launch are queued, so the events bracket the kernel without the host's
 *   launch latency (nvprof's duration also excludes it);
 * - sizes grow within a sweep (same kernel and block); a configuration whose launch,
 *   extrapolated from the previous size of the sweep, would exceed --max-launch-s, or
 *   whose whole cost would overrun the group's share of --budget-s, is skipped and
 *   written to the skipped list;
 * - every result is checked on the CPU; a wrong one is reported on stderr and its row
 *   gets notes=verification_failed.
 */
#include <cuda_runtime.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the kernels, built once per tile width ------------------------------------- */

#define WGP_KERNEL __global__

#define TW 4
#define WGP_TW_NS tw4
#include "tw_kernels.inc"
#undef WGP_TW_NS
#undef TW
#define TW 8
#define WGP_TW_NS tw8
#include "tw_kernels.inc"
#undef WGP_TW_NS
#undef TW
#define TW 12
#define WGP_TW_NS tw12
#include "tw_kernels.inc"
#undef WGP_TW_NS
#undef TW
#define TW 16
#define WGP_TW_NS tw16
#include "tw_kernels.inc"
#undef WGP_TW_NS
#undef TW
#define TW 20
#define WGP_TW_NS tw20
#include "tw_kernels.inc"
#undef WGP_TW_NS
#undef TW
#define TW 24
#define WGP_TW_NS tw24
#include "tw_kernels.inc"
#undef WGP_TW_NS
#undef TW
#define TW 28
#define WGP_TW_NS tw28
#include "tw_kernels.inc"
#undef WGP_TW_NS
#undef TW
#define TW 32
#define WGP_TW_NS tw32
#include "tw_kernels.inc"
#undef WGP_TW_NS
#undef TW

/* kernels whose body does not use TW */
#include "../kernels/bitonic.cu"
#include "../kernels/matrix_sum_coalesced.cu"
#include "../kernels/matrix_sum_normal.cu"
#include "../kernels/quicksort.cu"
#include "../kernels/subSeqMax.cu"
#include "../kernels/vectorAdd.cu"

/* Keeps the GPU busy for about ns nanoseconds (bounded even if the timer stalls). */
__global__ void wgp_spin(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (int i = 0; i < (1 << 22); ++i) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 >= ns)
            break;
    }
}

typedef void (*mat_fn)(float *, float *, float *, int);

struct tw_set {
    int tw;
    mat_fn mm, mm_unc, mm_sm, mm_sm_unc;
    mat_fn dot;
};

#define WGP_TW_ENTRY(T)                                                                    \
    {                                                                                      \
        T, tw##T::matMul_gpu, tw##T::matMul_gpu_uncoalesced, tw##T::matMul_gpu_sharedmem, \
            tw##T::matMul_gpu_sharedmem_uncoalesced, tw##T::dotProd                        \
    }

static const struct tw_set tw_sets[] = {WGP_TW_ENTRY(4),  WGP_TW_ENTRY(8),  WGP_TW_ENTRY(12),
                                        WGP_TW_ENTRY(16), WGP_TW_ENTRY(20), WGP_TW_ENTRY(24),
                                        WGP_TW_ENTRY(28), WGP_TW_ENTRY(32)};

static const struct tw_set *find_tw(int tw)
{
    for (size_t i = 0; i < sizeof tw_sets / sizeof tw_sets[0]; ++i)
        if (tw_sets[i].tw == tw)
            return &tw_sets[i];
    return NULL;
}

/* ---- kernels, groups and configurations -------------------------------------------- */

enum kid {
    K_SUM_NORMAL,
    K_SUM_COAL,
    K_VECADD,
    K_DOTPROD,
    K_SUBSEQ,
    K_BITONIC,
    K_QSORT,
    K_MATMUL,
    K_MATMUL_SM,
    K_MATMUL_SM_UNC,
    K_MATMUL_UNC,
    K_COUNT
};

/* execution order = enum order: cheap groups first; the matMul groups last, since they
   inherit whatever time the earlier groups left unused */
static const char *const kname[K_COUNT] = {
    "matrix_sum_normal", "matrix_sum_coalesced", "vectorAdd", "dotProd", "subSeqMax",
    "bitonic", "quicksort", "matMul_gpu", "matMul_gpu_sharedmem",
    "matMul_gpu_sharedmem_uncoalesced", "matMul_gpu_uncoalesced"};

/* share of the time budget per group (relative) */
static const double kweight[K_COUNT] = {6, 6, 12, 12, 8, 8, 12, 25, 40, 25, 25};

/* growth exponent of the work with input_size, used to extrapolate the next size */
static const double kexp[K_COUNT] = {2, 2, 1, 1, 1, 1.2, 2, 3, 3, 3, 3};

struct config {
    int kid;
    int tw; /* tile width (2-D kernels, dotProd); 0 otherwise */
    long long n; /* input_size: W or N */
    unsigned gx, gy, bx, by;
    int dyn_smem;
};

#define MAX_CONFIGS 4096

static int is_matmul(int k)
{
    return k == K_MATMUL || k == K_MATMUL_UNC || k == K_MATMUL_SM || k == K_MATMUL_SM_UNC;
}

static int is_mat(int k) { return is_matmul(k) || k == K_SUM_NORMAL || k == K_SUM_COAL; }

/* W steps of the dataset for each tile width (W is always a multiple of TW) */
static int w_step(int tw)
{
    switch (tw) {
    case 12:
    case 28:
        return 252;
    case 20:
        return 240;
    case 24:
        return 288;
    default:
        return 256;
    }
}

static void add_cfg(struct config *c, int *n, int kid, int tw, long long size)
{
    struct config x;
    if (*n >= MAX_CONFIGS)
        return;
    memset(&x, 0, sizeof x);
    x.kid = kid;
    x.tw = tw;
    x.n = size;
    if (is_mat(kid)) {
        x.bx = x.by = (unsigned)tw;
        x.gx = x.gy = (unsigned)((size + tw - 1) / tw);
    } else if (kid == K_VECADD || kid == K_DOTPROD) {
        x.bx = (unsigned)(tw * tw);
        x.by = 1;
        x.gx = (unsigned)((size + x.bx - 1) / x.bx);
        x.gy = 1;
    } else if (kid == K_SUBSEQ) {
        x.bx = 128, x.by = 1, x.gx = 32, x.gy = 1;
    } else if (kid == K_BITONIC) {
        x.bx = 128, x.by = 1, x.gx = (unsigned)(size / 128), x.gy = 1;
    } else { /* quicksort */
        x.bx = 1, x.by = 1, x.gx = 1, x.gy = 1, x.dyn_smem = 128;
    }
    c[(*n)++] = x;
}

/* Builds the configurations of one group, in execution order: size-major, then launch
   shape, so that a group cut short by the budget loses its largest sizes for every
   shape alike. */
static int build_group(int kid, int quick, struct config *c)
{
    static const int tw3[] = {8, 16, 32};
    static const int tw_sm[] = {4, 8, 12, 16, 20, 24, 28, 32};
    static const int tw_sm_quick[] = {4, 12, 16, 32};
    static const int mult[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32};
    static const int mult_quick[] = {1, 2};
    int n = 0;

    if (is_mat(kid)) {
        const int *tws = tw3;
        int ntw = 3;
        const int *m = is_matmul(kid) ? (quick ? mult_quick : mult) : NULL;
        int nm = is_matmul(kid) ? (quick ? 2 : 15) : 0;
        if (kid == K_MATMUL_SM) {
            tws = quick ? tw_sm_quick : tw_sm;
            ntw = quick ? 4 : 8;
        }
        if (!is_matmul(kid)) { /* matrix_sum: W = 256 * mult */
            m = quick ? mult_quick + 1 : mult;
            nm = quick ? 1 : 15;
        }
        for (int i = 0; i < nm; ++i)
            for (int t = 0; t < ntw; ++t) {
                int step = is_matmul(kid) ? w_step(tws[t]) : 256;
                int mm = (!is_matmul(kid) && quick) ? 4 : m[i];
                add_cfg(c, &n, kid, tws[t], (long long)step * mm);
            }
    } else if (kid == K_VECADD || kid == K_DOTPROD) {
        static const long long extra[] = {12582912LL, 50331648LL, 201326592LL};
        long long sizes[32];
        int ns = 0;
        if (quick) {
            sizes[ns++] = 1LL << 20;
        } else {
            for (int e = 17; e <= 28; ++e)
                sizes[ns++] = 1LL << e;
            for (int i = 0; i < 3; ++i)
                sizes[ns++] = extra[i];
            /* sort ascending (insertion) */
            for (int i = 1; i < ns; ++i)
                for (int j = i; j > 0 && sizes[j - 1] > sizes[j]; --j) {
                    long long t = sizes[j];
                    sizes[j] = sizes[j - 1];
                    sizes[j - 1] = t;
                }
        }
        for (int i = 0; i < ns; ++i)
            for (int t = 0; t < 3; ++t)
                add_cfg(c, &n, kid, tw3[t], sizes[i]);
    } else if (kid == K_SUBSEQ) {
        int top = quick ? 1 : 11;
        for (int e = 0; e <= top; ++e)
            add_cfg(c, &n, kid, 0, 131072LL << e);
    } else if (kid == K_BITONIC) {
        int top = quick ? 16 : 22;
        for (int e = 15; e <= top; ++e)
            add_cfg(c, &n, kid, 0, 1LL << e);
    } else if (kid == K_QSORT) {
        static const long long qs[] = {2048, 4096, 8192, 16384, 32768, 65536};
        int nq = quick ? 1 : 6;
        for (int i = 0; i < nq; ++i)
            add_cfg(c, &n, kid, 0, qs[i]);
    }
    return n;
}

/* ---- options ---------------------------------------------------------------------- */

struct opts {
    const char *out;       /* NULL = stdout */
    const char *skipped;   /* NULL = none */
    const char *gpu_name;  /* NULL = derived */
    int quick, list, no_fork;
    double budget_s;
    double max_launch_s;
    double config_cap_s;
    int only[K_COUNT]; /* 1 = run this group */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void logf_(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("measure_cuda: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
}

/* ---- CSV -------------------------------------------------------------------------- */

static const char csv_header[] =
    "gpu,compute_capability,kernel,input_size,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
    "regs_per_thread,static_smem_bytes,dynamic_smem_bytes,duration_s,n_runs,duration_min_s,"
    "duration_max_s,launches_per_run,duration_sum_per_run_s,n_runs_repeat,n_runs_profiled,"
    "achieved_occupancy,inst_executed,global_load_transactions,global_store_transactions,"
    "gld_transactions_per_request,gst_transactions_per_request,shared_load_transactions,"
    "shared_store_transactions,shared_ld_transactions_per_request,"
    "shared_st_transactions_per_request,shared_ld_bank_conflict,shared_st_bank_conflict,"
    "l2_read_transactions,l2_write_transactions,dram_read_transactions,"
    "dram_write_transactions,global_hit_rate,branch,divergent_branch,warps_launched,"
    "elapsed_cycles_sm,counters_source,notes";

#define N_COUNTER_COLS 21

static const char skipped_header[] = "kernel,input_size,block_x,block_y,reason";

/* ---- per-group context ------------------------------------------------------------- */

struct ctx {
    const struct opts *o;
    FILE *csv, *skip;
    char gpu[64];
    char cc[16];
    int sm_count;
    cudaStream_t st;
    cudaEvent_t ev[2 * 256 + 2]; /* bitonic: two per launch, at most 253 launches */
    int nev;
    unsigned long long spin_ns; /* 0 = spin disabled */
    double deadline;            /* stop starting configs after this (monotonic s) */
    int measured, skipped, failed;
    /* device and host buffers */
    void *d[3];
    void *h[4];
    size_t hcap[4];
};

static int ck_(cudaError_t e, const char *what, int line)
{
    if (e == cudaSuccess)
        return 0;
    logf_("error: line %d: %s: %s (%s)", line, what, cudaGetErrorString(e), cudaGetErrorName(e));
    return -1;
}
#define CK(call) ck_((call), #call, __LINE__)

static void record_skip(struct ctx *x, const struct config *c, const char *reason)
{
    x->skipped++;
    logf_("skipped: %s n=%lld block=%ux%u: %s", kname[c->kid], c->n, c->bx, c->by, reason);
    if (x->skip) {
        fprintf(x->skip, "%s,%lld,%u,%u,%s\n", kname[c->kid], c->n, c->bx, c->by, reason);
        fflush(x->skip);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    if (n <= 0)
        return 0;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct result {
    int regs, static_smem;
    int n_runs, launches, n_repeat;
    double med, mn, mx, sum_med; /* sum_med < 0: not a multi-launch row */
    const char *notes;
};

static void write_row(struct ctx *x, const struct config *c, const struct result *r)
{
    char line[2048];
    int p = snprintf(line, sizeof line,
                     "%s,%s,%s,%lld,%u,%u,1,%u,%u,1,%d,%d,%d,%.6g,%d,%.6g,%.6g,%d,", x->gpu,
                     x->cc, kname[c->kid], c->n, c->gx, c->gy, c->bx, c->by, r->regs,
                     r->static_smem, c->dyn_smem, r->med, r->n_runs, r->mn, r->mx, r->launches);
    if (r->sum_med >= 0)
        p += snprintf(line + p, sizeof line - (size_t)p, "%.6g", r->sum_med);
    p += snprintf(line + p, sizeof line - (size_t)p, ",%d,0,", r->n_repeat);
    /* the counters, then counters_source: all empty */
    for (int i = 0; i < N_COUNTER_COLS + 1; ++i)
        line[p++] = ',';
    p += snprintf(line + p, sizeof line - (size_t)p, "%s\n", r->notes ? r->notes : "");
    fputs(line, x->csv);
    fflush(x->csv);
}

/* ---- random inputs ------------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static void rng_seed(uint64_t s) { rng_state = s ? s : 0x9e3779b97f4a7c15ULL; }

static uint32_t rng_u32(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

/* uniform in (0, 1], never zero (the dataset used rand()/RAND_MAX) */
static float rng_unit(void) { return (float)((rng_u32() >> 8) + 1) * (1.0f / 16777216.0f); }

/* ---- waiting and timing --------------------------------------------------------------- */

#define WAIT_LIMIT_S 30.0

/* subSeqMax output: 5 ints for each of 32 x 128 threads (the original allocated 640) */
#define SUBSEQ_OUT_INTS (5 * 32 * 128)

/* Polls an event; a kernel still running after WAIT_LIMIT_S is taken as hung: the
   child exits at once (the parent goes on with the next group). */
static int wait_event(cudaEvent_t e)
{
    double t0 = now_s();
    for (;;) {
        cudaError_t q = cudaEventQuery(e);
        if (q == cudaSuccess)
            return 0;
        if (q != cudaErrorNotReady)
            return CK(q);
        if (now_s() - t0 > WAIT_LIMIT_S) {
            logf_("error: kernel still running after %.0f s; giving up on this group",
                  WAIT_LIMIT_S);
            fflush(NULL);
            _exit(3);
        }
        usleep(50);
    }
}

static int spin(struct ctx *x, unsigned long long ns)
{
    if (!x->spin_ns || !ns)
        return 0;
    wgp_spin<<<1, 1, 0, x->st>>>(ns);
    return CK(cudaGetLastError());
}

/* ---- launching ------------------------------------------------------------------------ */

static const void *kernel_ptr(const struct config *c)
{
    const struct tw_set *s = find_tw(c->tw);
    switch (c->kid) {
    case K_MATMUL:
        return s ? (const void *)s->mm : NULL;
    case K_MATMUL_UNC:
        return s ? (const void *)s->mm_unc : NULL;
    case K_MATMUL_SM:
        return s ? (const void *)s->mm_sm : NULL;
    case K_MATMUL_SM_UNC:
        return s ? (const void *)s->mm_sm_unc : NULL;
    case K_DOTPROD:
        return s ? (const void *)s->dot : NULL;
    case K_SUM_NORMAL:
        return (const void *)matrix_sum_normal;
    case K_SUM_COAL:
        return (const void *)matrix_sum_coalesced;
    case K_VECADD:
        return (const void *)vectorAdd;
    case K_SUBSEQ:
        return (const void *)subSeqMax;
    case K_BITONIC:
        return (const void *)bitonic;
    case K_QSORT:
        return (const void *)quicksort;
    }
    return NULL;
}

/* Queues one launch of a single-launch kernel. */
static int launch(struct ctx *x, const struct config *c)
{
    dim3 grid(c->gx, c->gy, 1), block(c->bx, c->by, 1);
    int n = (int)c->n;
    float *f0 = (float *)x->d[0], *f1 = (float *)x->d[1], *f2 = (float *)x->d[2];
    const struct tw_set *s = find_tw(c->tw);

    switch (c->kid) {
    case K_MATMUL: /* (P, M, N, W) */
        s->mm<<<grid, block, 0, x->st>>>(f2, f0, f1, n);
        break;
    case K_MATMUL_UNC:
        s->mm_unc<<<grid, block, 0, x->st>>>(f2, f0, f1, n);
        break;
    case K_MATMUL_SM:
        s->mm_sm<<<grid, block, 0, x->st>>>(f2, f0, f1, n);
        break;
    case K_MATMUL_SM_UNC:
        s->mm_sm_unc<<<grid, block, 0, x->st>>>(f2, f0, f1, n);
        break;
    case K_SUM_NORMAL: /* (S, A, B, W) */
        matrix_sum_normal<<<grid, block, 0, x->st>>>(f2, f0, f1, n);
        break;
    case K_SUM_COAL:
        matrix_sum_coalesced<<<grid, block, 0, x->st>>>(f2, f0, f1, n);
        break;
    case K_VECADD: /* (A, B, C, N) */
        vectorAdd<<<grid, block, 0, x->st>>>(f0, f1, f2, n);
        break;
    case K_DOTPROD: /* (a, b, c, N) */
        s->dot<<<grid, block, 0, x->st>>>(f0, f1, f2, n);
        break;
    case K_SUBSEQ: /* (v, out, unused, n = N/32) */
        subSeqMax<<<grid, block, 0, x->st>>>((int *)x->d[0], (int *)x->d[1], n, n / 32);
        break;
    case K_QSORT: /* (v, N); 128 B dynamic shared memory, unused, as in the original */
        quicksort<<<grid, block, (size_t)c->dyn_smem, x->st>>>((int *)x->d[0], n);
        break;
    default:
        return -1;
    }
    return CK(cudaGetLastError());
}

/* Restores the input of kernels that modify it in place (sorts). */
static int reset_input(struct ctx *x, const struct config *c)
{
    if (c->kid == K_BITONIC || c->kid == K_QSORT)
        return CK(cudaMemcpy(x->d[0], x->h[0], (size_t)c->n * sizeof(int),
                             cudaMemcpyHostToDevice));
    return 0;
}

/* Poisons the output region so that a launch that writes nothing cannot pass the
   check on a previous configuration's result. */
static int clear_output(struct ctx *x, const struct config *c)
{
    size_t bytes = 0;
    int i = 2;
    if (is_mat(c->kid))
        bytes = (size_t)c->n * (size_t)c->n * sizeof(float);
    else if (c->kid == K_VECADD)
        bytes = (size_t)c->n * sizeof(float);
    else if (c->kid == K_DOTPROD)
        bytes = (size_t)c->gx * sizeof(float);
    else if (c->kid == K_SUBSEQ)
        bytes = SUBSEQ_OUT_INTS * sizeof(int), i = 1;
    if (!bytes)
        return 0;
    return CK(cudaMemsetAsync(x->d[i], 0xff, bytes, x->st));
}

/* One timed launch; *sec receives its event time. */
static int timed_launch(struct ctx *x, const struct config *c, double *sec)
{
    float ms = 0;
    if (reset_input(x, c) || spin(x, 30000) || CK(cudaEventRecord(x->ev[0], x->st)) ||
        launch(x, c) || CK(cudaEventRecord(x->ev[1], x->st)) || wait_event(x->ev[1]) ||
        CK(cudaEventElapsedTime(&ms, x->ev[0], x->ev[1])))
        return -1;
    *sec = 1e-3 * ms;
    return 0;
}

static int bitonic_launches(long long n)
{
    int lg = 0;
    while ((1LL << lg) < n)
        ++lg;
    return lg * (lg + 1) / 2;
}

/* One timed bitonic sort: per-launch times into t[], returns their sum in *sum. */
static int timed_sort(struct ctx *x, const struct config *c, double *t, double *sum)
{
    int L = bitonic_launches(c->n), i = 0;
    int n = (int)c->n;
    dim3 grid(c->gx, 1, 1), block(128, 1, 1);

    if (2 * L > x->nev) {
        logf_("error: bitonic with %d launches needs more events", L);
        return -1;
    }
    /* the spin covers the time the host needs to queue all launches */
    if (reset_input(x, c) || spin(x, 50000ULL + 12000ULL * (unsigned long long)L))
        return -1;
    for (int k = 2; k <= n; k *= 2)
        for (int j = k / 2; j > 0; j /= 2, ++i) {
            if (CK(cudaEventRecord(x->ev[2 * i], x->st)))
                return -1;
            bitonic<<<grid, block, 0, x->st>>>((int *)x->d[0], j, k, n);
            if (CK(cudaGetLastError()) || CK(cudaEventRecord(x->ev[2 * i + 1], x->st)))
                return -1;
        }
    if (wait_event(x->ev[2 * L - 1]))
        return -1;
    *sum = 0;
    for (i = 0; i < L; ++i) {
        float ms = 0;
        if (CK(cudaEventElapsedTime(&ms, x->ev[2 * i], x->ev[2 * i + 1])))
            return -1;
        t[i] = 1e-3 * ms;
        *sum += t[i];
    }
    return 0;
}

/* ---- verification ------------------------------------------------------------------------- */

/* Each returns 0 when the device result matches the CPU reference, 1 when it does not,
   -1 on a CUDA error; why is filled for the log. */

static int verify_matmul(struct ctx *x, const struct config *c, char *why, size_t whylen)
{
    int W = (int)c->n;
    const float *M = (const float *)x->h[0], *N = (const float *)x->h[1];
    float *P = (float *)x->h[2];
    double *col = (double *)x->h[3];
    int bad = 0, checked = 0;

    if (CK(cudaMemcpy(P, x->d[2], (size_t)W * W * sizeof(float), cudaMemcpyDeviceToHost)))
        return -1;
    rng_seed(0x5eed0000ULL + (uint64_t)W);
    /* 16 columns (first, last, random) x 64 rows (first, last, random) */
    for (int ci = 0; ci < 16; ++ci) {
        int cc = ci == 0 ? 0 : ci == 1 ? W - 1 : (int)(rng_u32() % (uint32_t)W);
        for (int k = 0; k < W; ++k)
            col[k] = N[(size_t)k * W + cc];
        for (int ri = 0; ri < 64; ++ri) {
            int r = ri == 0 ? 0 : ri == 1 ? W - 1 : (int)(rng_u32() % (uint32_t)W);
            const float *mr = M + (size_t)r * W;
            double ref = 0;
            for (int k = 0; k < W; ++k)
                ref += (double)mr[k] * col[k];
            double got = P[(size_t)r * W + cc];
            ++checked;
            /* all terms positive: float accumulation error <= W * 2^-24 relative */
            if (!(fabs(got - ref) <= 2e-3 * ref + 1e-6)) {
                if (!bad)
                    snprintf(why, whylen, "P[%d][%d] = %.9g, expected %.9g", r, cc, got, ref);
                ++bad;
            }
        }
    }
    if (bad)
        snprintf(why + strlen(why), whylen - strlen(why), " (%d of %d sampled wrong)", bad,
                 checked);
    return bad ? 1 : 0;
}

static int verify_sum(struct ctx *x, const struct config *c, char *why, size_t whylen)
{
    size_t n = c->kid == K_VECADD ? (size_t)c->n : (size_t)c->n * (size_t)c->n;
    const float *A = (const float *)x->h[0], *B = (const float *)x->h[1];
    float *S = (float *)x->h[2];
    size_t bad = 0, first = 0;

    if (CK(cudaMemcpy(S, x->d[2], n * sizeof(float), cudaMemcpyDeviceToHost)))
        return -1;
    for (size_t i = 0; i < n; ++i) {
        float ref = A[i] + B[i];
        if (S[i] != ref) {
            if (!bad)
                first = i;
            ++bad;
        }
    }
    if (bad)
        snprintf(why, whylen, "%zu of %zu elements wrong, first at %zu: %.9g != %.9g", bad, n,
                 first, (double)S[first], (double)(A[first] + B[first]));
    return bad ? 1 : 0;
}

static int verify_dot(struct ctx *x, const struct config *c, char *why, size_t whylen)
{
    long long N = c->n;
    int bs = (int)c->bx;
    int blocks = (int)c->gx;
    const float *a = (const float *)x->h[0], *b = (const float *)x->h[1];
    float *part = (float *)x->h[2];
    int bad = 0;
    double total = 0, ref_total = 0;

    if (CK(cudaMemcpy(part, x->d[2], (size_t)blocks * sizeof(float), cudaMemcpyDeviceToHost)))
        return -1;
    for (int blk = 0; blk < blocks; ++blk) {
        double ref = 0;
        long long lo = (long long)blk * bs, hi = lo + bs < N ? lo + bs : N;
        for (long long i = lo; i < hi; ++i)
            ref += (double)a[i] * (double)b[i];
        total += part[blk];
        ref_total += ref;
        /* positive terms; float products and a log2(bs)-deep float tree */
        if (!(fabs((double)part[blk] - ref) <= 1e-5 * ref + 1e-30)) {
            if (!bad)
                snprintf(why, whylen, "block %d: %.9g, expected %.9g", blk, (double)part[blk],
                         ref);
            ++bad;
        }
    }
    if (bad)
        snprintf(why + strlen(why), whylen - strlen(why), " (%d of %d blocks wrong)", bad,
                 blocks);
    else if (!(fabs(total - ref_total) <= 1e-5 * ref_total))
        snprintf(why, whylen, "host total %.9g, expected %.9g", total, ref_total), bad = 1;
    return bad ? 1 : 0;
}

/* CPU model of subSeqMax without the load/scan race (see the kernel's comments). */
static void subseq_reference(const int *v, long long N, int *out)
{
    int n = (int)(N / 32), seg = n / 128, iters = n / 4096;
    for (int b = 0; b < 32; ++b) {
        const int *vb = v + (size_t)b * n;
        for (int t = 0; t < 128; ++t) {
            int chunk = 32 * t, best = 0, suf = 0;
            int blo = chunk - 1, bhi = chunk - 1, slo = chunk - 1, shi = chunk - 1;
            for (int it = 0; it < iters; ++it) {
                blo = bhi = slo = shi = chunk - 1;
                for (int m = 0; m < 32; ++m) {
                    int xv = vb[t * seg + 32 * it + m];
                    if (suf >= 0) {
                        suf += xv;
                        shi = chunk + m;
                    } else {
                        suf = xv;
                        slo = shi = chunk + m;
                    }
                    if (suf > best) {
                        best = suf;
                        blo = slo;
                        bhi = shi;
                    }
                }
            }
            /* buffer after the last iteration: buf[32 s + l] */
            int last = iters - 1;
#define BUF(p) (vb[((p) / 32) * seg + 32 * last + (p) % 32])
            int *o = out + 5 * (b * 128 + t);
            o[0] = o[1] = o[3] = o[4] = -1;
            o[2] = best;
            if (blo > chunk) {
                int sum = 0, top = 0;
                for (int p = 0; p < blo; ++p) {
                    sum += BUF(p);
                    if (sum > top)
                        top = sum;
                }
                o[0] = top;
                o[1] = sum - top;
            }
            if (bhi < chunk + 31) {
                int sum = 0, top = 0;
                for (int p = chunk + 31; p > bhi; --p) {
                    sum += BUF(p);
                    if (sum > top)
                        top = sum;
                }
                o[3] = top;
                o[4] = sum - top;
            }
#undef BUF
        }
    }
}

static int verify_subseq(struct ctx *x, const struct config *c, char *why, size_t whylen,
                         const char **note)
{
    int *got = (int *)x->h[1], *ref = (int *)x->h[2];
    int n = (int)(c->n / 32), seg = n / 128;
    /* block-0 threads whose segment holds the two non -1 inputs: the only ones the
       missing barrier can affect with this input */
    int race_a = 131 / seg, race_b = 132 / seg;
    int bad = 0, bad_other = 0;

    if (CK(cudaMemcpy(got, x->d[1], SUBSEQ_OUT_INTS * sizeof(int), cudaMemcpyDeviceToHost)))
        return -1;
    subseq_reference((const int *)x->h[0], c->n, ref);
    for (int g = 0; g < 32 * 128; ++g)
        for (int f = 0; f < 5; ++f)
            if (got[5 * g + f] != ref[5 * g + f]) {
                if (!bad)
                    snprintf(why, whylen, "thread %d field %d: %d, expected %d", g, f,
                             got[5 * g + f], ref[5 * g + f]);
                ++bad;
                if (g != race_a && g != race_b)
                    ++bad_other;
            }
    if (bad && !bad_other) {
        *note = "race_affected_thread_differs";
        logf_("warning: subSeqMax n=%lld: only the thread the load/scan race can touch "
              "differs from the race-free reference (%s)",
              c->n, why);
        return 0;
    }
    return bad ? 1 : 0;
}

static int verify_sorted(struct ctx *x, const struct config *c, char *why, size_t whylen)
{
    size_t n = (size_t)c->n;
    const int *in = (const int *)x->h[0];
    int *got = (int *)x->h[1];
    long long hist[100];

    if (CK(cudaMemcpy(got, x->d[0], n * sizeof(int), cudaMemcpyDeviceToHost)))
        return -1;
    memset(hist, 0, sizeof hist);
    for (size_t i = 0; i < n; ++i)
        hist[in[i]]++;
    for (size_t i = 0; i < n; ++i) {
        if (got[i] < 0 || got[i] >= 100) {
            snprintf(why, whylen, "element %zu = %d is not an input key", i, got[i]);
            return 1;
        }
        if (i > 0 && got[i - 1] > got[i]) {
            snprintf(why, whylen, "not sorted at %zu: %d > %d", i, got[i - 1], got[i]);
            return 1;
        }
        hist[got[i]]--;
    }
    for (int k = 0; k < 100; ++k)
        if (hist[k]) {
            snprintf(why, whylen, "key %d count differs by %lld", k, hist[k]);
            return 1;
        }
    return 0;
}

static int verify(struct ctx *x, const struct config *c, char *why, size_t whylen,
                  const char **note)
{
    switch (c->kid) {
    case K_MATMUL:
    case K_MATMUL_UNC:
    case K_MATMUL_SM:
    case K_MATMUL_SM_UNC:
        return verify_matmul(x, c, why, whylen);
    case K_SUM_NORMAL:
    case K_SUM_COAL:
    case K_VECADD:
        return verify_sum(x, c, why, whylen);
    case K_DOTPROD:
        return verify_dot(x, c, why, whylen);
    case K_SUBSEQ:
        return verify_subseq(x, c, why, whylen, note);
    case K_BITONIC:
    case K_QSORT:
        return verify_sorted(x, c, why, whylen);
    }
    return -1;
}

/* ---- buffers per group ----------------------------------------------------------------- */

static int host_alloc(struct ctx *x, int i, size_t bytes)
{
    x->h[i] = malloc(bytes ? bytes : 1);
    x->hcap[i] = bytes;
    if (!x->h[i]) {
        logf_("error: cannot allocate %zu bytes of host memory", bytes);
        return -1;
    }
    return 0;
}

static int dev_alloc(struct ctx *x, int i, size_t bytes)
{
    return CK(cudaMalloc(&x->d[i], bytes ? bytes : 4));
}

/* Allocates and fills the inputs for the largest configuration of the group; smaller
   configurations use a prefix (same random distribution). */
static int setup_group(struct ctx *x, int kid, const struct config *c, int nc)
{
    long long maxn = 0;
    for (int i = 0; i < nc; ++i)
        if (c[i].n > maxn)
            maxn = c[i].n;

    if (is_mat(kid) || kid == K_VECADD) {
        size_t e = is_mat(kid) ? (size_t)maxn * (size_t)maxn : (size_t)maxn;
        size_t bytes = e * sizeof(float);
        if (host_alloc(x, 0, bytes) || host_alloc(x, 1, bytes) || host_alloc(x, 2, bytes) ||
            (is_matmul(kid) && host_alloc(x, 3, (size_t)maxn * sizeof(double))))
            return -1;
        float *A = (float *)x->h[0], *B = (float *)x->h[1];
        rng_seed(0xa11ce000ULL + (uint64_t)kid);
        for (size_t i = 0; i < e; ++i)
            A[i] = rng_unit();
        for (size_t i = 0; i < e; ++i)
            B[i] = rng_unit();
        if (dev_alloc(x, 0, bytes) || dev_alloc(x, 1, bytes) || dev_alloc(x, 2, bytes) ||
            CK(cudaMemcpy(x->d[0], A, bytes, cudaMemcpyHostToDevice)) ||
            CK(cudaMemcpy(x->d[1], B, bytes, cudaMemcpyHostToDevice)) ||
            CK(cudaMemset(x->d[2], 0, bytes)))
            return -1;
    } else if (kid == K_DOTPROD) {
        size_t bytes = (size_t)maxn * sizeof(float);
        size_t parts = (size_t)(maxn / 64 + 1) * sizeof(float);
        if (host_alloc(x, 0, bytes) || host_alloc(x, 1, bytes) || host_alloc(x, 2, parts))
            return -1;
        float *a = (float *)x->h[0], *b = (float *)x->h[1];
        for (long long i = 0; i < maxn; ++i) { /* as the original host: a[i]=i, b[i]=2i */
            a[i] = (float)i;
            b[i] = (float)(2 * i);
        }
        if (dev_alloc(x, 0, bytes) || dev_alloc(x, 1, bytes) || dev_alloc(x, 2, parts) ||
            CK(cudaMemcpy(x->d[0], a, bytes, cudaMemcpyHostToDevice)) ||
            CK(cudaMemcpy(x->d[1], b, bytes, cudaMemcpyHostToDevice)) ||
            CK(cudaMemset(x->d[2], 0, parts)))
            return -1;
    } else if (kid == K_SUBSEQ) {
        size_t bytes = (size_t)maxn * sizeof(int);
        size_t ob = SUBSEQ_OUT_INTS * sizeof(int);
        if (host_alloc(x, 0, bytes) || host_alloc(x, 1, ob) || host_alloc(x, 2, ob))
            return -1;
        int *v = (int *)x->h[0];
        for (long long i = 0; i < maxn; ++i) /* the original host's input */
            v[i] = -1;
        v[131] = 954;
        v[132] = 10;
        if (dev_alloc(x, 0, bytes) || dev_alloc(x, 1, ob) ||
            CK(cudaMemcpy(x->d[0], v, bytes, cudaMemcpyHostToDevice)) ||
            CK(cudaMemset(x->d[1], 0x7f, ob)))
            return -1;
    } else if (kid == K_BITONIC || kid == K_QSORT) {
        size_t bytes = (size_t)maxn * sizeof(int);
        if (host_alloc(x, 0, bytes) || host_alloc(x, 1, bytes) || dev_alloc(x, 0, bytes))
            return -1;
        int *v = (int *)x->h[0];
        rng_seed(0xb170c000ULL + (uint64_t)kid);
        for (long long i = 0; i < maxn; ++i) /* like rand() % 100 */
            v[i] = (int)(rng_u32() % 100u);
    }
    return 0;
}

/* ---- running one group --------------------------------------------------------------------- */

struct sweep {
    int key; /* tw or block size */
    long long n;
    double t_launch, wall;
};

static struct sweep *find_sweep(struct sweep *s, int *ns, int key)
{
    for (int i = 0; i < *ns; ++i)
        if (s[i].key == key)
            return &s[i];
    if (*ns >= 64)
        return NULL;
    s[*ns].key = key;
    s[*ns].n = 0;
    return &s[(*ns)++];
}

static void derive_gpu_name(const char *dev, char *out, size_t len)
{
    const char *p = dev;
    if (strstr(dev, "H100")) {
        if (strstr(dev, "PCIe"))
            snprintf(out, len, "H100-PCIe");
        else if (strstr(dev, "NVL"))
            snprintf(out, len, "H100-NVL");
        else
            snprintf(out, len, "H100-SXM");
        return;
    }
    if (strstr(dev, "H200")) {
        snprintf(out, len, "H200");
        return;
    }
    if (!strncmp(p, "NVIDIA ", 7))
        p += 7;
    size_t i = 0;
    for (; *p && i + 1 < len; ++p) {
        char ch = *p;
        if (ch == ' ')
            ch = '-';
        if (ch == ',' || ch == '"')
            continue;
        out[i++] = ch;
    }
    out[i] = 0;
}

/* Measures one configuration; returns 0 (row written or verification failure row
   written), -1 on a CUDA error. */
static int run_config(struct ctx *x, const struct config *c, struct sweep *sw)
{
    struct cudaFuncAttributes attr;
    const void *fn = kernel_ptr(c);
    struct result r;
    char why[512] = "";
    const char *note = NULL;
    double t0 = now_s();
    static double times[10 * 256];
    static double sums[10];
    int reps;

    memset(&r, 0, sizeof r);
    r.sum_med = -1;
    r.launches = 1;
    if (!fn) {
        logf_("error: no kernel for %s tw=%d", kname[c->kid], c->tw);
        return -1;
    }
    if (CK(cudaFuncGetAttributes(&attr, fn)))
        return -1;
    r.regs = attr.numRegs;
    r.static_smem = (int)attr.sharedSizeBytes;

    if (c->kid == K_BITONIC) {
        int L = bitonic_launches(c->n);
        double warm;
        if (timed_sort(x, c, times, &warm))
            return -1;
        reps = warm > 0 ? (int)(x->o->config_cap_s / warm) : 10;
        reps = reps > 10 ? 10 : reps < 3 ? 3 : reps;
        if (warm > x->o->max_launch_s)
            reps = 1;
        while (reps > 1 && now_s() + reps * warm > x->deadline)
            --reps;
        for (int i = 0; i < reps; ++i)
            if (timed_sort(x, c, times + (size_t)i * L, &sums[i]))
                return -1;
        r.launches = L;
        r.n_runs = reps * L;
        r.n_repeat = reps;
        r.mn = r.mx = times[0];
        for (int i = 0; i < reps * L; ++i) {
            r.mn = times[i] < r.mn ? times[i] : r.mn;
            r.mx = times[i] > r.mx ? times[i] : r.mx;
        }
        r.med = median(times, reps * L);
        r.sum_med = median(sums, reps);
        sw->t_launch = r.sum_med;
    } else {
        double warm;
        if (clear_output(x, c) || timed_launch(x, c, &warm))
            return -1;
        reps = warm > 0 ? (int)(x->o->config_cap_s / warm) : 10;
        reps = reps > 10 ? 10 : reps < 3 ? 3 : reps;
        if (warm > x->o->max_launch_s)
            reps = 1;
        while (reps > 1 && now_s() + reps * warm > x->deadline)
            --reps;
        for (int i = 0; i < reps; ++i)
            if (timed_launch(x, c, &times[i]))
                return -1;
        r.n_runs = r.n_repeat = reps;
        r.mn = r.mx = times[0];
        for (int i = 0; i < reps; ++i) {
            r.mn = times[i] < r.mn ? times[i] : r.mn;
            r.mx = times[i] > r.mx ? times[i] : r.mx;
        }
        r.med = median(times, reps);
        sw->t_launch = r.med;
    }

    int v = verify(x, c, why, sizeof why, &note);
    if (v < 0)
        return -1;
    if (v > 0) {
        logf_("error: %s n=%lld block=%ux%u: verification failed: %s", kname[c->kid], c->n,
              c->bx, c->by, why);
        note = "verification_failed";
        x->failed++;
    } else {
        x->measured++;
    }
    r.notes = note;
    write_row(x, c, &r);
    sw->n = c->n;
    sw->wall = now_s() - t0;
    return 0;
}

static int run_group(const struct opts *o, int kid, const struct config *c, int nc,
                     double budget_s)
{
    struct ctx x;
    struct cudaDeviceProp prop;
    struct sweep sweeps[64];
    int nsweeps = 0, dev = 0;
    double start = now_s();

    memset(&x, 0, sizeof x);
    x.o = o;
    x.deadline = start + budget_s;
    /* load every kernel at context creation, not inside the first timed launch */
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);

    x.csv = o->out ? fopen(o->out, "a") : stdout;
    if (!x.csv) {
        logf_("error: %s: %s", o->out, strerror(errno));
        return 1;
    }
    if (o->skipped) {
        x.skip = fopen(o->skipped, "a");
        if (!x.skip)
            logf_("warning: %s: %s", o->skipped, strerror(errno));
    }

    if (CK(cudaSetDevice(dev)) || CK(cudaGetDeviceProperties(&prop, dev)) ||
        CK(cudaStreamCreate(&x.st)))
        return 1;
    snprintf(x.cc, sizeof x.cc, "%d.%d", prop.major, prop.minor);
    x.sm_count = prop.multiProcessorCount;
    if (o->gpu_name)
        snprintf(x.gpu, sizeof x.gpu, "%s", o->gpu_name);
    else
        derive_gpu_name(prop.name, x.gpu, sizeof x.gpu);
    x.nev = (int)(sizeof x.ev / sizeof x.ev[0]);
    for (int i = 0; i < x.nev; ++i)
        if (CK(cudaEventCreate(&x.ev[i])))
            return 1;

    /* check the spin kernel: it must take about what it is asked for */
    {
        float ms = 0;
        x.spin_ns = 1;
        if (CK(cudaEventRecord(x.ev[0], x.st)) || spin(&x, 100000) ||
            CK(cudaEventRecord(x.ev[1], x.st)) || wait_event(x.ev[1]) ||
            CK(cudaEventElapsedTime(&ms, x.ev[0], x.ev[1])))
            return 1;
        if (ms < 0.05f || ms > 5.0f) {
            logf_("warning: spin kernel took %.3f ms for 0.1 ms; launches are timed "
                  "without it",
                  (double)ms);
            x.spin_ns = 0;
        } else {
            /* bring the clocks up before the first measurement */
            wgp_spin<<<x.sm_count * 4, 128, 0, x.st>>>(50000000ULL);
            if (CK(cudaGetLastError()) || CK(cudaStreamSynchronize(x.st)))
                return 1;
        }
    }

    logf_("%s: %d configurations on %s (%s, cc %s), budget %.1f s", kname[kid], nc, prop.name,
          x.gpu, x.cc, budget_s);
    if (setup_group(&x, kid, c, nc)) {
        logf_("error: %s: setup failed; group skipped", kname[kid]);
        for (int i = 0; i < nc; ++i)
            record_skip(&x, &c[i], "setup_failed");
        return 1;
    }

    for (int i = 0; i < nc; ++i) {
        int key = c[i].kid == K_VECADD || c[i].kid == K_DOTPROD ? (int)c[i].bx : c[i].tw;
        struct sweep *s = find_sweep(sweeps, &nsweeps, key);
        double now = now_s();
        char reason[128];

        if (!s) {
            record_skip(&x, &c[i], "internal_too_many_sweeps");
            continue;
        }
        if (now >= x.deadline) {
            record_skip(&x, &c[i], "budget_exhausted");
            continue;
        }
        if (s->n > 0) {
            double ratio = pow((double)c[i].n / (double)s->n, kexp[kid]);
            double pl = s->t_launch * ratio, pw = s->wall * ratio;
            if (pl > o->max_launch_s) {
                snprintf(reason, sizeof reason, "predicted_launch_%.3gs_over_max_launch_s", pl);
                record_skip(&x, &c[i], reason);
                continue;
            }
            if (now + pw > x.deadline) {
                snprintf(reason, sizeof reason, "predicted_cost_%.3gs_over_budget", pw);
                record_skip(&x, &c[i], reason);
                continue;
            }
        }
        if (run_config(&x, &c[i], s)) {
            x.failed++;
            record_skip(&x, &c[i], "cuda_error");
            /* a sticky error poisons the context: stop this group */
            cudaError_t e = cudaDeviceSynchronize();
            if (e != cudaSuccess) {
                logf_("error: %s: CUDA context unusable (%s); rest of the group skipped",
                      kname[kid], cudaGetErrorString(e));
                for (int j = i + 1; j < nc; ++j)
                    record_skip(&x, &c[j], "context_lost");
                return 2;
            }
            (void)cudaGetLastError();
        }
    }
    logf_("%s: %d measured, %d verification failures, %d skipped, %.1f s", kname[kid],
          x.measured, x.failed, x.skipped, now_s() - start);
    for (int i = 0; i < 3; ++i)
        if (x.d[i])
            cudaFree(x.d[i]);
    for (int i = 0; i < 4; ++i)
        free(x.h[i]);
    if (x.skip)
        fclose(x.skip);
    if (x.csv != stdout)
        fclose(x.csv);
    else
        fflush(stdout);
    return x.failed ? 2 : 0;
}

/* ---- parent: one child per group ------------------------------------------------------------ */

static int run_child(const struct opts *o, int kid, const struct config *c, int nc,
                     double budget_s, double hard_s)
{
    pid_t pid;
    int status = 0;
    double t0 = now_s();

    if (o->no_fork)
        return run_group(o, kid, c, nc, budget_s);
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        logf_("error: fork: %s", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        int rc = run_group(o, kid, c, nc, budget_s);
        fflush(NULL);
        _exit(rc);
    }
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            logf_("error: waitpid: %s", strerror(errno));
            return 1;
        }
        if (now_s() - t0 > hard_s) {
            logf_("error: %s: still running after %.0f s; killed", kname[kid], hard_s);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return 3;
        }
        usleep(20000);
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    logf_("error: %s: child ended by signal %d", kname[kid],
          WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    return 3;
}

static void usage(FILE *f)
{
    fputs("usage: measure_cuda [-o FILE.csv] [--gpu-name NAME] [--quick] [--list]\n"
          "                    [--budget-s S] [--max-launch-s S] [--config-cap-s S]\n"
          "                    [--only KERNEL[,KERNEL...]] [--skipped FILE.csv] [--no-fork]\n"
          "  -o FILE.csv        rows in the columns of amaris-nvprof/measurements.csv\n"
          "                     (default: stdout)\n"
          "  --gpu-name NAME    value of the gpu column (default: from the device name)\n"
          "  --quick            a small subset that runs in seconds\n"
          "  --list             print the configurations and exit (no GPU used)\n"
          "  --budget-s S       stop starting configurations after S seconds (default 200)\n"
          "  --max-launch-s S   skip a size whose launch would take longer (default 2.5)\n"
          "  --config-cap-s S   time per configuration that sets the repeats (default 2.0)\n"
          "  --only K1,K2       run only these kernels (dataset names)\n"
          "  --skipped FILE     list of skipped configurations (default: next to -o)\n"
          "  --no-fork          run every group in this process (debugging)\n",
          f);
}

static int parse_only(struct opts *o, const char *arg)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", arg);
    memset(o->only, 0, sizeof o->only);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int found = 0;
        for (int k = 0; k < K_COUNT; ++k)
            if (!strcmp(tok, kname[k]))
                o->only[k] = found = 1;
        if (!found) {
            fprintf(stderr, "measure_cuda: error: unknown kernel '%s'\n", tok);
            return -1;
        }
    }
    return 0;
}

static int parse_pos(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v > 0)) {
        fprintf(stderr, "measure_cuda: error: expected a positive number, got '%s'\n", s);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    static struct config cfg[K_COUNT][MAX_CONFIGS];
    int ncfg[K_COUNT];
    char skipped_path[4096];
    int total = 0, rc = 0;
    double start = now_s();

    memset(&o, 0, sizeof o);
    o.budget_s = 200;
    o.max_launch_s = 2.5;
    o.config_cap_s = 2.0;
    for (int k = 0; k < K_COUNT; ++k)
        o.only[k] = 1;

    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && more) {
            o.out = argv[++i];
        } else if (!strcmp(a, "--gpu-name") && more) {
            o.gpu_name = argv[++i];
        } else if (!strcmp(a, "--skipped") && more) {
            o.skipped = argv[++i];
        } else if (!strcmp(a, "--quick")) {
            o.quick = 1;
        } else if (!strcmp(a, "--list")) {
            o.list = 1;
        } else if (!strcmp(a, "--no-fork")) {
            o.no_fork = 1;
        } else if (!strcmp(a, "--budget-s") && more) {
            if (parse_pos(argv[++i], &o.budget_s))
                return 2;
        } else if (!strcmp(a, "--max-launch-s") && more) {
            if (parse_pos(argv[++i], &o.max_launch_s))
                return 2;
        } else if (!strcmp(a, "--config-cap-s") && more) {
            if (parse_pos(argv[++i], &o.config_cap_s))
                return 2;
        } else if (!strcmp(a, "--only") && more) {
            if (parse_only(&o, argv[++i]))
                return 2;
        } else {
            fprintf(stderr, "measure_cuda: error: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (o.gpu_name && (strchr(o.gpu_name, ',') || strchr(o.gpu_name, '\n'))) {
        fprintf(stderr, "measure_cuda: error: --gpu-name must not contain ',' or newlines\n");
        return 2;
    }

    for (int k = 0; k < K_COUNT; ++k) {
        ncfg[k] = o.only[k] ? build_group(k, o.quick, cfg[k]) : 0;
        total += ncfg[k];
    }

    if (o.list) {
        printf("kernel,input_size,grid_x,grid_y,block_x,block_y,dynamic_smem_bytes,"
               "launches_per_run\n");
        for (int k = 0; k < K_COUNT; ++k)
            for (int i = 0; i < ncfg[k]; ++i) {
                const struct config *c = &cfg[k][i];
                printf("%s,%lld,%u,%u,%u,%u,%d,%d\n", kname[k], c->n, c->gx, c->gy, c->bx,
                       c->by, c->dyn_smem, k == K_BITONIC ? bitonic_launches(c->n) : 1);
            }
        fprintf(stderr, "measure_cuda: %d configurations%s\n", total, o.quick ? " (quick)" : "");
        return 0;
    }

    if (o.out && !o.skipped) {
        const char *dot = strrchr(o.out, '.');
        size_t base = dot && dot > strrchr(o.out, '/') ? (size_t)(dot - o.out) : strlen(o.out);
        snprintf(skipped_path, sizeof skipped_path, "%.*s-skipped.csv", (int)base, o.out);
        o.skipped = skipped_path;
    }
    /* headers; the children append */
    {
        FILE *f = o.out ? fopen(o.out, "w") : stdout;
        if (!f) {
            fprintf(stderr, "measure_cuda: error: %s: %s\n", o.out, strerror(errno));
            return 1;
        }
        fprintf(f, "%s\n", csv_header);
        if (f != stdout)
            fclose(f);
        else
            fflush(stdout);
        if (o.skipped) {
            f = fopen(o.skipped, "w");
            if (f) {
                fprintf(f, "%s\n", skipped_header);
                fclose(f);
            }
        }
    }

    for (int k = 0; k < K_COUNT; ++k) {
        double wsum = 0, remaining, share;
        if (!ncfg[k])
            continue;
        for (int j = k; j < K_COUNT; ++j)
            wsum += ncfg[j] ? kweight[j] : 0;
        remaining = o.budget_s - (now_s() - start);
        if (remaining < 1.0) {
            logf_("budget of %.0f s exhausted: %s not started (%d configurations)", o.budget_s,
                  kname[k], ncfg[k]);
            if (o.skipped) {
                FILE *f = fopen(o.skipped, "a");
                for (int i = 0; f && i < ncfg[k]; ++i)
                    fprintf(f, "%s,%lld,%u,%u,budget_exhausted\n", kname[k], cfg[k][i].n,
                            cfg[k][i].bx, cfg[k][i].by);
                if (f)
                    fclose(f);
            }
            rc = rc ? rc : 4;
            continue;
        }
        share = remaining * kweight[k] / wsum;
        int r = run_child(&o, k, cfg[k], ncfg[k], share, share + 45.0);
        if (r) {
            logf_("%s: finished with status %d", kname[k], r);
            rc = rc ? rc : r;
        }
    }
    logf_("done in %.1f s", now_s() - start);
    return rc;
}
