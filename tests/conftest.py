import os

import numpy as np
import pytest

try:
    from hypothesis import settings
except ImportError:  # hypothesis is in the tests extra; only the property tests need it
    pass
else:
    # CI runs the same examples every time, so that a red build is reproducible;
    # elsewhere each run explores new ones.
    settings.register_profile("ci", derandomize=True, database=None)
    if os.environ.get("CI"):
        settings.load_profile("ci")


@pytest.fixture
def numeric_gradient():
    """Central finite differences of ``f()`` with respect to the array ``P``.

    Their error is about ``h² |f'''| / 6`` (truncation, the same on every machine) plus
    ``δf / h``, ``δf`` the round-off of ``f``, which depends on the BLAS kernel's order
    of summation. A step near ``eps^(1/3)`` balances the two: at 1e-6 the round-off
    term dominated and varied fivefold between OpenBLAS kernels (up to a tenth of the
    tests' atol of 1e-9); at 1e-5 both are some 1e-11 on the tests' problems.
    """

    def gradient(f, P, h=1e-5):
        g = np.zeros_like(P)
        for idx in np.ndindex(P.shape):
            old = P[idx]
            P[idx] = old + h
            up = f()
            P[idx] = old - h
            down = f()
            P[idx] = old
            g[idx] = (up - down) / (2 * h)
        return g

    return gradient


@pytest.fixture
def openmp_threads():
    """``openmp_threads(limit)``: a context in which the compiled kernel runs on at most
    ``limit`` OpenMP threads (None: no limit), as ``OMP_NUM_THREADS`` or a joblib worker
    would limit it."""
    from threadpoolctl import threadpool_limits

    return lambda limit: threadpool_limits(limits=limit, user_api="openmp")
