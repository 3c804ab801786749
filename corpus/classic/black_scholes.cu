/* black_scholes: European option pricing, grid-stride loop (CUDA SDK
 * BlackScholes scheme); CUDA twin of black_scholes.cl.  480 blocks of 128. */
#define A1 0.31938153f
#define A2 -0.356563782f
#define A3 1.781477937f
#define A4 -1.821255978f
#define A5 1.330274429f
#define RSQRT2PI 0.39894228040143267793994605993438f

__device__ float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0 ? 1.0f - c : c;
}

extern "C" __global__ void black_scholes(float *call, float *put, const float *price, const float *strike,
                                         const float *years, float riskfree, float volatility, int opt_n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < opt_n; i += (gridDim.x * blockDim.x)) {
        float s = price[i], x = strike[i], t = years[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / x) + (riskfree + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
        float d2 = d1 - volatility * sqrt_t;
        float cnd1 = cnd(d1), cnd2 = cnd(d2);
        float expRT = expf(-riskfree * t);
        call[i] = s * cnd1 - x * expRT * cnd2;
        put[i] = x * expRT * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}
