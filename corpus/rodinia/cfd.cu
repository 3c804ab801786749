/* cfd: explicit Euler solver on an unstructured grid (Rodinia CFD
 * pattern); CUDA twin of cfd.cl.  The far-field state is in __constant__
 * memory.  Blocks of 192 threads. */
#define GAMMA 1.4f
#define NNB 4
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY 4
#define NVAR 5

__constant__ float ff_variable[NVAR];

__device__ float pressure(float density, float density_energy, float speed_sqd)
{
    return (GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

__device__ float speed_of_sound(float density, float p)
{
    return sqrtf(GAMMA * p / density);
}

extern "C" __global__ void step_factor(const float *variables, const float *areas, float *step_factors, int nelr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr)
        return;
    float density = variables[i + VAR_DENSITY * nelr];
    float mx = variables[i + (VAR_MOMENTUM + 0) * nelr];
    float my = variables[i + (VAR_MOMENTUM + 1) * nelr];
    float mz = variables[i + (VAR_MOMENTUM + 2) * nelr];
    float de = variables[i + VAR_DENSITY_ENERGY * nelr];
    float vx = mx / density, vy = my / density, vz = mz / density;
    float speed_sqd = vx * vx + vy * vy + vz * vz;
    float p = pressure(density, de, speed_sqd);
    float c = speed_of_sound(density, p);
    step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + c));
}

extern "C" __global__ void compute_flux(const int *elements_surrounding, const float *normals,
                                        const float *variables, float *fluxes, int nelr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr)
        return;
    float density_i = variables[i + VAR_DENSITY * nelr];
    float mx_i = variables[i + (VAR_MOMENTUM + 0) * nelr];
    float de_i = variables[i + VAR_DENSITY_ENERGY * nelr];
    float vx_i = mx_i / density_i;
    float p_i = pressure(density_i, de_i, vx_i * vx_i);
    float flux_density = 0.0f, flux_mx = 0.0f, flux_de = 0.0f;

    for (int j = 0; j < NNB; j++) {
        int nb = elements_surrounding[i + j * nelr];
        float nx = normals[i + (j + 0 * NNB) * nelr];
        float ny = normals[i + (j + 1 * NNB) * nelr];
        float nz = normals[i + (j + 2 * NNB) * nelr];
        float normal_len = sqrtf(nx * nx + ny * ny + nz * nz);
        if (nb >= 0) {
            float density_nb = variables[nb + VAR_DENSITY * nelr];
            float mx_nb = variables[nb + (VAR_MOMENTUM + 0) * nelr];
            float de_nb = variables[nb + VAR_DENSITY_ENERGY * nelr];
            float vx_nb = mx_nb / density_nb;
            float p_nb = pressure(density_nb, de_nb, vx_nb * vx_nb);
            float factor = -normal_len * 0.2f * 0.5f;
            flux_density += factor * (density_i - density_nb) + 0.5f * nx * (mx_i + mx_nb);
            flux_mx += 0.5f * nx * (vx_i * mx_i + vx_nb * mx_nb + p_i + p_nb);
            flux_de += factor * (de_i - de_nb) + 0.5f * nx * (vx_i * (de_i + p_i) + vx_nb * (de_nb + p_nb));
        } else if (nb == -1) {
            flux_mx += nx * p_i;
        } else if (nb == -2) {
            flux_density += 0.5f * nx * (mx_i + ff_variable[VAR_MOMENTUM]);
            flux_mx += 0.5f * nx * (ff_variable[VAR_DENSITY] + p_i);
            flux_de += 0.5f * ny * (ff_variable[VAR_DENSITY_ENERGY] + de_i) + nz;
        }
    }
    fluxes[i + VAR_DENSITY * nelr] = flux_density;
    fluxes[i + VAR_MOMENTUM * nelr] = flux_mx;
    fluxes[i + VAR_DENSITY_ENERGY * nelr] = flux_de;
}

extern "C" __global__ void time_step(int j, int nelr, const float *old_variables, float *variables,
                                     const float *step_factors, const float *fluxes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nelr)
        return;
    float factor = step_factors[i] / (float)(3 + 1 - j);
    for (int v = 0; v < NVAR; v++)
        variables[i + v * nelr] = old_variables[i + v * nelr] + factor * fluxes[i + v * nelr];
}
