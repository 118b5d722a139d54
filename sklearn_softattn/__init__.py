"""Softmax self-attention regression as a scikit-learn estimator.

Implements the structure-aware training of Goel, Soltanolkotabi and Bartlett,
"Training Dynamics of Softmax Self-Attention: Fast Global Convergence via
Preconditioning" (2026).
"""

from ._cv import SoftmaxAttentionRegressorCV
from ._display import ScorePathDisplay
from ._estimator import PAPER_BASELINE, SoftmaxAttentionRegressor

__all__ = [
    "PAPER_BASELINE",
    "ScorePathDisplay",
    "SoftmaxAttentionRegressor",
    "SoftmaxAttentionRegressorCV",
]
__version__ = "0.1.0"
