#pragma once
// Dense linear algebra for the Elo fit (elo.cpp), on d x d row-major
// matrices: the Cholesky factorisation of the information matrix, and with
// it the Newton step (a solve) and the covariance (the inverse). Each costs
// O(d^3) for d players.

#include <cstddef>
#include <vector>

namespace arena::rating {

// In-place Cholesky a = U^T U of a symmetric positive definite matrix given
// by its upper triangle (the lower one must be zero and stays zero); U
// overwrites it. False if not positive definite.
[[nodiscard]] bool cholesky(std::vector<double>& a, std::size_t d);

// Relative pivot check of a factor U against the diagonal of the matrix it
// came from: the Cholesky itself only fails on exact singularity.
[[nodiscard]] bool well_conditioned(const std::vector<double>& u, const std::vector<double>& diag,
                                    std::size_t d);

// Solves U^T U x = b.
[[nodiscard]] std::vector<double> cholesky_solve(const std::vector<double>& u, std::size_t d,
                                                 std::vector<double> b);

// (U^T U)^-1 = V V^T with V = U^-1; the full symmetric matrix.
[[nodiscard]] std::vector<double> cholesky_inverse(const std::vector<double>& u, std::size_t d);

}  // namespace arena::rating
