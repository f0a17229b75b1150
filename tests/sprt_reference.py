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
monotonically on the interval where every 1 + x v_i is positive. The
arithmetic is decimal with 60 digits, so that a root very close to an end of
that interval (a hypothesis that needs a score almost never seen) keeps its
precision without any change of variable.
"""

import decimal
import sys

from decimal import Decimal as D

decimal.getcontext().prec = 60


def bisect_multiplier(w, v):
    hi_v, lo_v = max(v), min(v)
    assert hi_v > 0 > lo_v, "constraint out of reach"
    lo, hi = -1 / hi_v, -1 / lo_v
    # Stay strictly inside the open interval.
    for _ in range(600):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            break
        f = sum(wi * vi / (1 + mid * vi) for wi, vi in zip(w, v))
        if f > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def reweighted(w, v):
    x = bisect_multiplier(w, v)
    return [wi / (1 + x * vi) for wi, vi in zip(w, v)]


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
    p = [D(1) / len(a)] * len(a)
    half = D(1) / 2
    for _ in range(5000):
        mu, var = moments(a, p)
        sd = var.sqrt()
        v = [ai - half - t * (var + (ai - mu) ** 2) / (2 * sd) for ai in a]
        q = reweighted(w, v)
        done = max(abs(qi - pi) / qi for qi, pi in zip(q, p)) < D("1e-30")
        p = q
        if done:
            break
    mu, var = moments(a, p)
    assert abs(mu - half - t * var.sqrt()) < D("1e-25"), "t-value constraint not met"
    return p


def llr(model, elo0, elo1, counts):
    n = [max(D(c), D("0.001")) for c in counts]
    total = sum(n)
    w = [c / total for c in n]
    k = len(n)
    a = [D(i) / (k - 1) for i in range(k)]
    if model == "logistic":
        def fit(elo):
            return mle_mean(a, w, 1 / (1 + D(10) ** (-D(elo) / 400)))
    else:
        scale = D(2).sqrt() if k == 5 else D(1)

        def fit(elo):
            return mle_t(a, w, D(elo) / (800 / D(10).ln()) * scale)
    p0, p1 = fit(elo0), fit(elo1)
    return total * sum(wi * (q1 / q0).ln() for wi, q0, q1 in zip(w, p0, p1))


def main():
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        model, elo0, elo1 = fields[0], fields[1], fields[2]
        counts = fields[3:]
        assert model in ("normalized", "logistic") and len(counts) in (3, 5)
        print("%.12f" % float(llr(model, elo0, elo1, counts)))


if __name__ == "__main__":
    main()
