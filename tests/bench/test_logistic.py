import warnings

import numpy as np

from segmint_bench.untangle.logistic import logistic


def test_logistic_of_far_scores_is_0_or_1_without_an_overflow_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning would reach the bench's output
        p = logistic(np.array([-1e4, -800.0, 0.0, 2.0, 800.0, 1e4]))
    assert p[0] == p[1] and p[0] < 1e-300
    assert p[2] == 0.5 and abs(p[3] - 1 / (1 + np.exp(-2.0))) < 1e-15
    assert p[4] == p[5] == 1.0
