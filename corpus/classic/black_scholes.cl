/* black_scholes: European option pricing (the scheme of the CUDA SDK's
 * BlackScholes sample): a grid-stride loop over the options (trip count
 * from the option count and the launch), each computing d1 and d2 with
 * log, sqrt and division, the cumulative normal distribution by a
 * polynomial approximation with exp and fabs in a helper, and both call
 * and put prices.  4 Mi options on 480 groups of 128 work-items. */
#define A1 0.31938153f
#define A2 -0.356563782f
#define A3 1.781477937f
#define A4 -1.821255978f
#define A5 1.330274429f
#define RSQRT2PI 0.39894228040143267793994605993438f

static float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float c = RSQRT2PI * exp(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0 ? 1.0f - c : c;
}

__kernel void black_scholes(__global float *call, __global float *put, __global const float *price,
                            __global const float *strike, __global const float *years, float riskfree,
                            float volatility, int opt_n)
{
    for (int i = get_global_id(0); i < opt_n; i += get_global_size(0)) {
        float s = price[i], x = strike[i], t = years[i];
        float sqrt_t = sqrt(t);
        float d1 = (log(s / x) + (riskfree + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
        float d2 = d1 - volatility * sqrt_t;
        float cnd1 = cnd(d1), cnd2 = cnd(d2);
        float expRT = exp(-riskfree * t);
        call[i] = s * cnd1 - x * expRT * cnd2;
        put[i] = x * expRT * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}
