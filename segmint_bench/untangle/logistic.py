"""The logistic function over arrays, for the fits of the untangling bench."""

from __future__ import annotations

import numpy as np

# Beyond this |z| the result is 0 or 1 to float64's precision; clipping keeps np.exp from
# overflowing (and printing a RuntimeWarning into a bench's output) on separable data.
_LIMIT = 700.0


def logistic(z: np.ndarray) -> np.ndarray:
    """``1 / (1 + e^-z)`` element by element."""
    return 1.0 / (1.0 + np.exp(-np.clip(z, -_LIMIT, _LIMIT)))
