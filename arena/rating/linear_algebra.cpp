#include "arena/rating/linear_algebra.hpp"

#include <algorithm>
#include <cmath>

namespace arena::rating {
namespace {

// Dense linear algebra on d x d row-major matrices. The cost is O(d^3), so
// the loops are blocked: kBlock rows are kept in cache while others stream
// past, and rows are combined four at a time, so that a thousand players
// stay well under a second.
constexpr std::size_t kBlock = 32;

// target[j] -= c * row[j] for j in [from, to).
void subtract1(double* target, const double* row, double c, std::size_t from, std::size_t to) {
    for (std::size_t j = from; j < to; ++j)
        target[j] -= c * row[j];
}

// target[j] -= sum_q c[q] * rows[q][j] for j in [from, to).
void subtract4(double* target, const double* const rows[4], const double c[4], std::size_t from,
               std::size_t to) {
    const double *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3];
    const double c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
    for (std::size_t j = from; j < to; ++j) {
        target[j] -= c0 * r0[j] + c1 * r1[j] + c2 * r2[j] + c3 * r3[j];
    }
}

// A Cholesky pivot below this fraction of its diagonal entry is singular.
constexpr double kPivotTolerance = 1e-12;

}  // namespace

// In-place Cholesky a = U^T U of a symmetric positive definite matrix given
// by its upper triangle (the lower one must be zero and stays zero); U
// overwrites it. False if not positive definite.
bool cholesky(std::vector<double>& a, std::size_t d) {
    const auto row = [&](std::size_t i) { return &a[i * d]; };
    for (std::size_t k0 = 0; k0 < d; k0 += kBlock) {
        const std::size_t k1 = std::min(d, k0 + kBlock);
        for (std::size_t k = k0; k < k1; ++k) {
            double* row_k = row(k);
            const double diag = row_k[k];
            if (!(diag > 0.0) || !std::isfinite(diag)) return false;
            const double pivot = std::sqrt(diag);
            row_k[k] = pivot;
            for (std::size_t j = k + 1; j < d; ++j)
                row_k[j] /= pivot;
            for (std::size_t i = k + 1; i < k1; ++i)
                subtract1(row(i), row_k, row_k[i], i, d);
        }
        for (std::size_t i = k1; i < d; ++i) {
            std::size_t k = k0;
            for (; k + 4 <= k1; k += 4) {
                const double* rows[4] = {row(k), row(k + 1), row(k + 2), row(k + 3)};
                const double c[4] = {rows[0][i], rows[1][i], rows[2][i], rows[3][i]};
                subtract4(row(i), rows, c, i, d);
            }
            for (; k < k1; ++k)
                subtract1(row(i), row(k), row(k)[i], i, d);
        }
    }
    return true;
}

// Relative pivot check: the Cholesky itself only fails on exact singularity.
bool well_conditioned(const std::vector<double>& u, const std::vector<double>& diag,
                      std::size_t d) {
    for (std::size_t k = 0; k < d; ++k) {
        const double pivot = u[k * d + k];
        if (pivot * pivot < kPivotTolerance * diag[k]) return false;
    }
    return true;
}

// Solves U^T U x = b.
std::vector<double> cholesky_solve(const std::vector<double>& u, std::size_t d,
                                   std::vector<double> b) {
    for (std::size_t k = 0; k < d; ++k) {
        const double* row = &u[k * d];
        b[k] /= row[k];
        for (std::size_t j = k + 1; j < d; ++j)
            b[j] -= row[j] * b[k];
    }
    for (std::size_t k = d; k-- > 0;) {
        const double* row = &u[k * d];
        double sum = b[k];
        for (std::size_t j = k + 1; j < d; ++j)
            sum -= row[j] * b[j];
        b[k] = sum / row[k];
    }
    return b;
}

// (U^T U)^-1 = V V^T with V = U^-1; the full symmetric matrix.
std::vector<double> cholesky_inverse(const std::vector<double>& u, std::size_t d) {
    // V, upper triangular, from U V = I bottom-up:
    // V_i. = (e_i - sum_{k>i} U_ik V_k.) / U_ii.
    std::vector<double> v(d * d, 0.0);
    const auto v_row = [&](std::size_t i) { return &v[i * d]; };
    for (std::size_t i1 = d; i1 > 0;) {
        const std::size_t i0 = i1 > kBlock ? i1 - kBlock : 0;
        std::size_t k = i1;  // rows k >= i1 are final
        for (; k + 4 <= d; k += 4) {
            const double* rows[4] = {v_row(k), v_row(k + 1), v_row(k + 2), v_row(k + 3)};
            for (std::size_t i = i0; i < i1; ++i) {
                const double* u_i = &u[i * d];
                const double c[4] = {u_i[k], u_i[k + 1], u_i[k + 2], u_i[k + 3]};
                subtract4(v_row(i), rows, c, k, d);
            }
        }
        for (; k < d; ++k) {
            for (std::size_t i = i0; i < i1; ++i)
                subtract1(v_row(i), v_row(k), u[i * d + k], k, d);
        }
        for (std::size_t i = i1; i-- > i0;) {
            const double* u_i = &u[i * d];
            double* v_i = v_row(i);
            for (std::size_t kk = i + 1; kk < i1; ++kk)
                subtract1(v_i, v_row(kk), u_i[kk], kk, d);
            const double inv = 1.0 / u_i[i];
            for (std::size_t j = i + 1; j < d; ++j)
                v_i[j] *= inv;
            v_i[i] = inv;
        }
        i1 = i0;
    }
    // C = V V^T, row i: C_i. = sum_{k>=i} V_ik (V^T)_k., where row k of V^T
    // is column k of V, non-zero up to index k. Upper triangle, then mirrored.
    std::vector<double> t(d * d);
    for (std::size_t i = 0; i < d; ++i) {
        for (std::size_t j = 0; j < d; ++j)
            t[j * d + i] = v[i * d + j];
    }
    std::vector<double> c(d * d, 0.0);
    for (std::size_t i0 = 0; i0 < d; i0 += kBlock) {
        const std::size_t i1 = std::min(d, i0 + kBlock);
        std::size_t k = i0;
        for (; k + 4 <= d; k += 4) {
            const double* rows[4] = {&t[k * d], &t[(k + 1) * d], &t[(k + 2) * d], &t[(k + 3) * d]};
            const std::size_t end = k + 4;
            for (std::size_t i = i0; i < std::min(i1, end); ++i) {
                const double* v_i = v_row(i);
                const double neg[4] = {-v_i[k], -v_i[k + 1], -v_i[k + 2], -v_i[k + 3]};
                subtract4(&c[i * d], rows, neg, i, end);
            }
        }
        for (; k < d; ++k) {
            for (std::size_t i = i0; i < std::min(i1, k + 1); ++i) {
                subtract1(&c[i * d], &t[k * d], -v[i * d + k], i, k + 1);
            }
        }
    }
    for (std::size_t i = 0; i < d; ++i) {
        for (std::size_t j = i + 1; j < d; ++j)
            c[j * d + i] = c[i * d + j];
    }
    return c;
}

}  // namespace arena::rating
