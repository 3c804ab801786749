// 12289 floats (49156 bytes) of static __local memory: more than ptxas
// accepts for any architecture.
__kernel void bigshared(__global float *out) {
  __local float tile[12289];
  size_t i = get_local_id(0);
  tile[i] = out[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tile[(i + 1) % 12289];
}
