#pragma once
// SPSA, simultaneous perturbation stochastic approximation, as fishtest runs
// it for engine parameters (docs/tuning.md). Each iteration moves every
// parameter at once by ±c_k (a seeded coin per parameter), plays theta+
// against theta- in one colour-swapped pair, and steps theta towards the
// side that scored better:
//
//   c_k = c / (k + 1)^gamma          a_k = a / (A + k + 1)^alpha
//   theta_i += a_k / c_k * result * flip_i       (result = theta+'s points
//                                                  minus theta-'s, -2..2)
//
// with alpha 0.602, gamma 0.101 and A a tenth of the iterations, c fixed so
// that c_N = c_end and a so that a_N / c_N^2 = r_end (N the last iteration),
// values clipped to [min, max].
//
// Iterations are played `batch` at a time (the concurrency): every iteration
// of a batch starts from theta as it stood when the batch began, and a batch's
// results are applied in iteration order once all of them are in. So the
// path is a function of the results alone, not of the order in which the
// games finished or of where a run was stopped and resumed.
//
// Pure: no games, no files, no clock.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace arena::tune {

struct SpsaParam {
    std::string name;
    double start = 0.0;
    double min = 0.0, max = 0.0;
    double c_end = 0.0;    // the perturbation at the last iteration
    double r_end = 0.0;    // a_N / c_N^2: the learning rate at the last iteration
    bool integer = false;  // the bot receives the value rounded
};

struct SpsaOptions {
    std::int64_t iterations = 0;  // N: one colour-swapped pair each
    double alpha = 0.602;
    double gamma = 0.101;
    std::optional<double> A;  // the stability constant; default 10 % of the iterations
    std::uint64_t seed = 0;   // of the perturbations' signs
    std::int64_t batch = 1;   // iterations played at once
};

// What is wrong with the parameters and options ("param 'x': min 5 is not
// below max 5"), or "" when they can be used.
[[nodiscard]] std::string spsa_problem(const std::vector<SpsaParam>& params,
                                       const SpsaOptions& options);

// What iteration k plays: theta+ and theta- (clipped; rounded where the
// parameter is an integer), the signs and the perturbation's size.
struct SpsaPoint {
    std::int64_t k = 0;
    std::vector<double> plus, minus;
    std::vector<int> flip;  // +1 or -1 per parameter
    std::vector<double> c;  // c_k per parameter
};

class Spsa {
  public:
    // Throws std::invalid_argument with spsa_problem() when it is not "".
    Spsa(std::vector<SpsaParam> params, SpsaOptions options);

    // Iteration k's point. k must lie in the batch under way: from applied()
    // to the end of its batch (and below the iterations). Throws
    // std::out_of_range otherwise.
    [[nodiscard]] SpsaPoint point(std::int64_t k) const;

    // The result of iteration k of the batch under way: theta+'s points
    // minus theta-'s over its pair, from -2 to 2. Once every iteration of
    // the batch has one, they are applied in order and the next batch
    // begins. Throws std::out_of_range for an iteration outside the batch,
    // and std::invalid_argument for a result outside [-2, 2].
    void record(std::int64_t k, double result);

    // theta as of the last applied iteration: unclipped arithmetic, clipped
    // after each step, not rounded.
    [[nodiscard]] const std::vector<double>& theta() const { return theta_; }
    // Iterations applied so far; the batch under way begins there.
    [[nodiscard]] std::int64_t applied() const { return applied_; }
    [[nodiscard]] bool finished() const { return applied_ >= options_.iterations; }
    [[nodiscard]] const std::vector<SpsaParam>& params() const { return params_; }
    [[nodiscard]] const SpsaOptions& options() const { return options_; }

    // The gains of iteration k for parameter i.
    [[nodiscard]] double c_k(std::size_t i, std::int64_t k) const;
    [[nodiscard]] double a_k(std::size_t i, std::int64_t k) const;

  private:
    [[nodiscard]] std::int64_t batch_end() const;
    [[nodiscard]] int flip(std::int64_t k, std::size_t i) const;

    std::vector<SpsaParam> params_;
    SpsaOptions options_;
    double A_ = 0.0;
    std::vector<double> c_, a_;  // per parameter
    std::vector<double> theta_;
    std::int64_t applied_ = 0;
    std::vector<std::optional<double>> pending_;  // results of the batch under way
};

// A value as the bot receives it: rounded to the nearest integer when the
// parameter is an integer.
[[nodiscard]] double delivered(const SpsaParam& param, double value);

}  // namespace arena::tune
