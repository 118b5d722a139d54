/* Shifted exponentials of rows of scores, for the attention kernel (_kernel.pyx).

   For each row i of the (rows x m) block S, in place:
       S[i, j] = exp((S[i, j] - max_j S[i, j]) / scale[i])
   and, with scale == NULL, the same without the division.

   The exponential is a polynomial one written to vectorize (no call into
   libm): x = k ln 2 + r with |r| <= ln 2 / 2 (Cody-Waite split of ln 2),
   e^r by its Taylor polynomial (degree 13 in double, 7 in single precision:
   truncation below half an ulp on that interval), and 2^k built in the
   exponent bits. Its arguments are never positive here; below the smallest
   normal result (x < -708.3 in double, -87.3 in single) it returns 0, so
   -inf (an excluded token) gives exactly 0. Against exp in long double: at
   most 0.9 ulp measured, 2 ulp tested (tests/test_attention.py).

   Run-time dispatch: with GCC on x86-64, the row loop is compiled three
   times (AVX-512, AVX2 + FMA, and the baseline SSE2 of any x86-64 CPU) and
   the loader picks the one the CPU runs (target_clones, an ifunc). Other
   compilers and CPUs get the one portable version. The results of the
   versions differ by round-off (FMA contraction), never by more than the
   2 ulp above. */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_softmax_rows.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 12
#define SA_DISPATCH __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SA_DISPATCH
#endif

static inline double sa_exp_d(double x)
{
    const double shifter = 0x1.8p52, log2e = 0x1.71547652b82fep0;
    const double ln2_hi = 0x1.62e42fefa39efp-1, ln2_lo = 0x1.abc9e3b39803fp-56;
    double xc = x < -708.3 ? -708.3 : (x > 709.0 ? 709.0 : x);
    double t = xc * log2e + shifter;
    double k = t - shifter; /* round(xc / ln 2) */
    double r = (xc - k * ln2_hi) - k * ln2_lo;
    double p = 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    uint64_t bits;
    memcpy(&bits, &t, sizeof bits);
    bits = (bits + 1023) << 52; /* 2^k: k sits in the low bits of t's mantissa */
    double two_k;
    memcpy(&two_k, &bits, sizeof two_k);
    return x < -708.3 ? 0.0 : p * two_k;
}

static inline float sa_exp_f(float x)
{
    const float shifter = 0x1.8p23f, log2e = 0x1.715476p0f;
    const float ln2_hi = 0x1.62e4p-1f, ln2_lo = 0x1.7f7d1cp-20f;
    float xc = x < -87.3f ? -87.3f : (x > 88.0f ? 88.0f : x);
    float t = xc * log2e + shifter;
    float k = t - shifter;
    float r = (xc - k * ln2_hi) - k * ln2_lo;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    uint32_t bits;
    memcpy(&bits, &t, sizeof bits);
    bits = (bits + 127) << 23;
    float two_k;
    memcpy(&two_k, &bits, sizeof two_k);
    return x < -87.3f ? 0.0f : p * two_k;
}

#define SA_SOFTMAX_ROWS(NAME, T, EXP)                                          \
    SA_DISPATCH void NAME(T *S, ptrdiff_t rows, ptrdiff_t m, const T *scale)  \
    {                                                                          \
        for (ptrdiff_t i = 0; i < rows; i++) {                                 \
            T *s = S + i * m;                                                  \
            T top = s[0];                                                      \
            _Pragma("omp simd reduction(max:top)")                             \
            for (ptrdiff_t j = 1; j < m; j++)                                  \
                top = s[j] > top ? s[j] : top;                                 \
            if (scale == NULL || scale[i] == 1) {                              \
                for (ptrdiff_t j = 0; j < m; j++)                              \
                    s[j] = EXP(s[j] - top);                                    \
            } else {                                                           \
                T f = scale[i];                                                \
                for (ptrdiff_t j = 0; j < m; j++)                              \
                    s[j] = EXP((s[j] - top) / f);                              \
            }                                                                  \
        }                                                                      \
    }

SA_SOFTMAX_ROWS(sa_softmax_rows_d, double, sa_exp_d)
SA_SOFTMAX_ROWS(sa_softmax_rows_f, float, sa_exp_f)

/* The exponential alone, over a vector (for the tests and the benchmark). */
SA_DISPATCH void sa_exp_vector_d(double *x, ptrdiff_t n)
{
    for (ptrdiff_t j = 0; j < n; j++)
        x[j] = sa_exp_d(x[j]);
}

SA_DISPATCH void sa_exp_vector_f(float *x, ptrdiff_t n)
{
    for (ptrdiff_t j = 0; j < n; j++)
        x[j] = sa_exp_f(x[j]);
}
