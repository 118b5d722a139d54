/* See _softmax_rows.c. */
#ifndef SKLEARN_SOFTATTN_SOFTMAX_ROWS_H
#define SKLEARN_SOFTATTN_SOFTMAX_ROWS_H
#include <stddef.h>
void sa_softmax_rows_d(double *S, ptrdiff_t rows, ptrdiff_t m, const double *scale);
void sa_softmax_rows_f(float *S, ptrdiff_t rows, ptrdiff_t m, const float *scale);
void sa_exp_vector_d(double *x, ptrdiff_t n);
void sa_exp_vector_f(float *x, ptrdiff_t n);
#endif
