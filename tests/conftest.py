import numpy as np
import pytest


@pytest.fixture
def numeric_gradient():
    """Central finite differences of ``f()`` with respect to the array ``P``."""

    def gradient(f, P, h=1e-6):
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
