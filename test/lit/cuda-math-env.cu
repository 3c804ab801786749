// nvcc's math environment without an #include: INFINITY, NAN, HUGE_VALF, the M_ constants,
// isinf/isnan/isfinite/signbit (cuda_compat.h), <math_constants.h> (CUDART_*), and the
// rest of CUDA's math library through libdevice: lrintf/llrintf (one conversion each), the
// normal distribution, 3D/4D norms, reciprocal hypotenuse, sinpi/cospi, Bessel I0 and
// their double versions.  Every one is an operation of its class, none an unresolved call.
// RUN: %wgperf extract %s -o %t.json --print 2>&1 | FileCheck %s
// RUN: %wgperf analyze %t.json --kernel more_math --global 4096 --local 128 | FileCheck %s --check-prefix=AN
// A later #include of <cmath> or <math.h> (a program's own) redefines nothing differently:
// RUN: %clang_cu -isystem %src/include/wgperf/cuda -include cmath -include math.h -fsyntax-only -Werror %s
// CHECK-NOT: warning: kernel
// CHECK-NOT: error
#include <math_constants.h>

// the constants are the IEEE values of what they name, and agree with <math.h>'s
static_assert(CUDART_PI == M_PI && CUDART_PI_F == (float)M_PI && CUDART_PI_F == M_PIf, "pi");
static_assert(CUDART_L2E == M_LOG2E && CUDART_LN2 == M_LN2 && CUDART_SQRT_HALF == M_SQRT1_2, "logs");
static_assert(CUDART_PI_HI + CUDART_PI_LO == CUDART_PI && CUDART_PI_LO > 0 && CUDART_PI_LO < 1.3e-16, "pi lo");
static_assert(CUDART_TWO_TO_M1022 == 0x1p-1022 && CUDART_NORM_HUGE_F == 0x1.fffffep127f, "limits");

// CHECK-LABEL: kernel classify
// CHECK-NOT: call=
// CHECK: totals:
__global__ void classify(const float *x, const double *d, float *y, int *flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  double w = d[i];
  flags[i] = isinf(v) | isnan(v) << 1 | !isfinite(w) << 2 | signbit(w) << 3;
  float c = CUDART_PI_F + (float)CUDART_SQRT_2PI + CUDART_INF_F * 0.0f + HUGE_VALF;
  y[i] = isnan(v) ? NAN : isinf(v) ? INFINITY : v * (float)M_PI + M_PI_2f + c;
}

// CHECK-LABEL: kernel more_math
// CHECK-NOT: call=
// CHECK: totals: {{.*}}conv=
// CHECK-SAME: fp64_special=8
// CHECK-SAME: sfu_cos=1 sfu_exp=3 sfu_rsqrt=3 sfu_sin=1 sfu_sqrt=2
// AN-NOT: unresolved
// AN-NOT: fallback
__global__ void more_math(const float *x, const double *d, float *y, double *z, long long *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  double w = d[i];
  r[i] = lrintf(v) + llrintf(v * 2.0f) + lround(w);
  y[i] = normcdff(v) + normcdfinvf(v) + norm3df(v, v, 1.0f) + rnorm3df(v, 1.0f, v) + norm4df(v, v, v, 1.0f) +
         rnorm4df(v, 1.0f, 1.0f, v) + rhypotf(v, 2.0f) + sinpif(v) + cospif(v) + cyl_bessel_i0f(v);
  z[i] = normcdf(w) + normcdfinv(w) + norm3d(w, w, 1.0) + rnorm3d(w, 1.0, w) + norm4d(w, w, w, 1.0) +
         rhypot(w, 2.0) + sinpi(w) + cyl_bessel_i0(w) + (double)lrint(w);
}
