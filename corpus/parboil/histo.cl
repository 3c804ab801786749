/* histo: a saturating histogram of an image in two kernels (the pattern of
 * Parboil's histo).  histo_main: each work-group clears a local
 * sub-histogram, strides over the image adding each pixel's bin with a local
 * atomic (the bin is a loaded value: data-dependent addresses and bank
 * conflicts), and merges its non-zero bins into the global histogram with
 * global atomics (a branch on loaded counts).  histo_final converts the
 * 32-bit counts to saturated 8-bit bins.  996x1040 image, 4096 bins,
 * 42 groups of 768 work-items (histo_final: 4096 work-items). */
#define BINS 4096

__kernel void histo_main(__global const uint *img, int size, __global uint *global_histo)
{
    __local uint sub[BINS];
    int t = get_local_id(0);
    int lsz = get_local_size(0);
    for (int b = t; b < BINS; b += lsz)
        sub[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < size; i += get_global_size(0))
        atomic_inc(&sub[img[i] % BINS]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = t; b < BINS; b += lsz) {
        uint c = sub[b];
        if (c)
            atomic_add(&global_histo[b], c);
    }
}

__kernel void histo_final(__global const uint *global_histo, __global uchar *final_histo)
{
    int i = get_global_id(0);
    uint v = global_histo[i];
    final_histo[i] = (uchar)min(v, 255u);
}
