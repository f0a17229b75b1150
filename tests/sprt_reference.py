#!/usr/bin/env python3
"""Reference log-likelihood ratios of the generalized SPRT, for sprt_test.

Reads cases from standard input, one a line:

    MODEL ELO0 ELO1 C0 C1 ... Ck

(MODEL is normalized or logistic; 3 counts are games L, D, W; 5 counts are
pairs LL, LD, DD+WL, WD, WW) and prints one LLR a line, with 12 decimals.

Written separately from arena/rating/sprt.cpp, with the standard library
only. Every constrained maximum likelihood is found by bisection on the
Lagrange multiplier: the observed distribution w on the scores a_i is
reweighted as p_i = w_i / (1 + x v_i), where v is the gradient of the
constraint, and x is the root of sum w_i v_i / (1 + x v_i), which falls
monotonically on the interval where every 1 + x v_i is positive.
"""

import math
import sys


def bisect_multiplier(w, v):
    hi_v, lo_v = max(v), min(v)
    assert hi_v > 0 > lo_v, "constraint out of reach"
    lo, hi = -1.0 / hi_v, -1.0 / lo_v
    # Stay strictly inside the open interval.
    for _ in range(400):
        mid = 0.5 * (lo + hi)
        if mid == lo or mid == hi:
            break
        f = sum(wi * vi / (1.0 + mid * vi) for wi, vi in zip(w, v))
        if f > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def reweighted(w, v):
    x = bisect_multiplier(w, v)
    return [wi / (1.0 + x * vi) for wi, vi in zip(w, v)]


def moments(a, p):
    mu = sum(pi * ai for pi, ai in zip(p, a))
    var = sum(pi * (ai - mu) ** 2 for pi, ai in zip(p, a))
    return mu, var


def mle_mean(a, w, target):
    """Maximum of sum w log p with sum p a = target."""
    return reweighted(w, [ai - target for ai in a])


def mle_t(a, w, t):
    """Maximum of sum w log p with (mean - 1/2) / sd = t.

    Stationarity of the Lagrangian: w_i / p_i = 1 + x * d/dp_i [mu - 1/2 -
    t sd], where the derivative of sd is ((a_i - mu)^2 - var) / (2 sd) on the
    simplex. Shifting it by a constant so that its p-mean is the constraint
    gives v_i = a_i - 1/2 - t (var + (a_i - mu)^2) / (2 sd). Iterate from the
    uniform distribution, recomputing mu and sd each time.
    """
    p = [1.0 / len(a)] * len(a)
    for _ in range(2000):
        mu, var = moments(a, p)
        sd = math.sqrt(var)
        v = [ai - 0.5 - t * (var + (ai - mu) ** 2) / (2.0 * sd) for ai in a]
        q = reweighted(w, v)
        done = max(abs(qi - pi) for qi, pi in zip(q, p)) < 1e-15
        p = q
        if done:
            break
    mu, var = moments(a, p)
    assert abs(mu - 0.5 - t * math.sqrt(var)) < 1e-9, "t-value constraint not met"
    return p


def llr(model, elo0, elo1, counts):
    n = [max(c, 1e-3) for c in counts]
    total = sum(n)
    w = [c / total for c in n]
    k = len(n)
    a = [i / (k - 1) for i in range(k)]
    if model == "logistic":
        def fit(elo):
            return mle_mean(a, w, 1.0 / (1.0 + 10.0 ** (-elo / 400.0)))
    else:
        scale = math.sqrt(2.0) if k == 5 else 1.0

        def fit(elo):
            return mle_t(a, w, elo / (800.0 / math.log(10.0)) * scale)
    p0, p1 = fit(elo0), fit(elo1)
    return total * sum(wi * math.log(q1 / q0) for wi, q0, q1 in zip(w, p0, p1))


def main():
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        model, elo0, elo1 = fields[0], float(fields[1]), float(fields[2])
        counts = [float(c) for c in fields[3:]]
        assert model in ("normalized", "logistic") and len(counts) in (3, 5)
        print("%.12f" % llr(model, elo0, elo1, counts))


if __name__ == "__main__":
    main()
