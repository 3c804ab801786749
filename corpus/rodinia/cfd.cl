/* cfd: an explicit Euler solver on an unstructured 3-D grid (the pattern of
 * Rodinia's CFD solver).  Variables are stored as structure of arrays
 * (variable v of cell i at v*nelr + i).  step_factor: per cell, speed of
 * sound through sqrt.  compute_flux: per cell, four faces; each neighbour
 * index is loaded: >= 0 is an interior face (indirect loads of the
 * neighbour's variables), -1 a wall, -2 the far field (data-dependent
 * branches).  time_step: the Runge-Kutta update.  97,046 cells (fvcorr.domn.
 * 097K) padded to nelr = 97,152, 192 work-items per group. */
#define GAMMA 1.4f
#define NNB 4
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY 4
#define NVAR 5

static float pressure(float density, float density_energy, float speed_sqd)
{
    return (GAMMA - 1.0f) * (density_energy - 0.5f * density * speed_sqd);
}

static float speed_of_sound(float density, float p)
{
    return sqrt(GAMMA * p / density);
}

__kernel void step_factor(__global const float *variables, __global const float *areas,
                          __global float *step_factors, int nelr)
{
    int i = get_global_id(0);
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
    step_factors[i] = 0.5f / (sqrt(areas[i]) * (sqrt(speed_sqd) + c));
}

__kernel void compute_flux(__global const int *elements_surrounding, __global const float *normals,
                           __global const float *variables, __constant float *ff_variable,
                           __global float *fluxes, int nelr)
{
    int i = get_global_id(0);
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
        float normal_len = sqrt(nx * nx + ny * ny + nz * nz);
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

__kernel void time_step(int j, int nelr, __global const float *old_variables, __global float *variables,
                        __global const float *step_factors, __global const float *fluxes)
{
    int i = get_global_id(0);
    if (i >= nelr)
        return;
    float factor = step_factors[i] / (float)(3 + 1 - j);
    for (int v = 0; v < NVAR; v++)
        variables[i + v * nelr] = old_variables[i + v * nelr] + factor * fluxes[i + v * nelr];
}
