/* OpenCL math that libclc leaves as LLVM intrinsics (llvm.exp, llvm.log,
 * llvm.pow, llvm.sin): llc cannot lower them for NVPTX. */
__kernel void transcendental(__global float *a, __global double *d) {
  int i = get_global_id(0);
  a[i] = native_exp(a[i]) + exp(a[i]) + log(a[i]) + pow(a[i], 2.5f) + sin(a[i]) + native_log(a[i]);
  d[i] = exp(d[i]) + log10(d[i]);
}
