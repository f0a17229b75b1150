#include "arena/tune/spsa.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace arena::tune {
namespace {

// splitmix64: a well-mixed 64-bit value of its input.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

std::string quoted(const std::string& name) {
    return "param '" + name + "': ";
}

std::string number(double x) {
    std::string text = std::to_string(x);
    while (text.size() > 1 && text.back() == '0')
        text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

}  // namespace

std::string spsa_problem(const std::vector<SpsaParam>& params, const SpsaOptions& options) {
    if (params.empty()) return "no parameters to tune";
    if (options.iterations < 1) return "iterations must be at least 1";
    if (options.batch < 1) return "the batch must be at least 1";
    if (!(options.alpha > 0.0 && options.alpha <= 1.0)) return "alpha must lie in (0, 1]";
    if (!(options.gamma > 0.0 && options.gamma <= 1.0)) return "gamma must lie in (0, 1]";
    if (options.A && !(*options.A >= 0.0 && std::isfinite(*options.A)))
        return "A must be a finite number of at least 0";
    for (std::size_t i = 0; i < params.size(); ++i) {
        const auto& p = params[i];
        if (p.name.empty()) return "a parameter has no name";
        for (std::size_t j = 0; j < i; ++j)
            if (params[j].name == p.name) return quoted(p.name) + "named twice";
        for (const double x : {p.start, p.min, p.max, p.c_end, p.r_end})
            if (!std::isfinite(x)) return quoted(p.name) + "every value must be a finite number";
        if (!(p.min < p.max))
            return quoted(p.name) + "min " + number(p.min) + " is not below max " + number(p.max);
        if (p.start < p.min || p.start > p.max) {
            return quoted(p.name) + "start " + number(p.start) + " lies outside [" + number(p.min) +
                   ", " + number(p.max) + "]";
        }
        if (!(p.c_end > 0.0)) return quoted(p.name) + "c_end must be above 0";
        if (!(p.r_end > 0.0)) return quoted(p.name) + "r_end must be above 0";
    }
    return "";
}

Spsa::Spsa(std::vector<SpsaParam> params, SpsaOptions options)
    : params_(std::move(params)), options_(options) {
    if (const auto problem = spsa_problem(params_, options_); !problem.empty())
        throw std::invalid_argument(problem);
    const auto n = static_cast<double>(options_.iterations);
    A_ = options_.A.value_or(0.1 * n);
    for (const auto& p : params_) {
        // c_{N-1} = c / N^gamma = c_end; a_{N-1} / c_{N-1}^2 = r_end.
        c_.push_back(p.c_end * std::pow(n, options_.gamma));
        a_.push_back(p.r_end * p.c_end * p.c_end * std::pow(A_ + n, options_.alpha));
        theta_.push_back(p.start);
    }
    pending_.assign(static_cast<std::size_t>(batch_end() - applied_), std::nullopt);
}

double Spsa::c_k(std::size_t i, std::int64_t k) const {
    return c_.at(i) / std::pow(static_cast<double>(k + 1), options_.gamma);
}

double Spsa::a_k(std::size_t i, std::int64_t k) const {
    return a_.at(i) / std::pow(A_ + static_cast<double>(k + 1), options_.alpha);
}

std::int64_t Spsa::batch_end() const {
    return std::min(options_.iterations, applied_ + options_.batch);
}

int Spsa::flip(std::int64_t k, std::size_t i) const {
    const std::uint64_t h = mix(mix(options_.seed ^ mix(static_cast<std::uint64_t>(k))) +
                                static_cast<std::uint64_t>(i));
    return (h >> 63) != 0 ? 1 : -1;
}

SpsaPoint Spsa::point(std::int64_t k) const {
    if (k < applied_ || k >= batch_end()) {
        throw std::out_of_range("iteration " + std::to_string(k) +
                                " is not in the batch under way (" + std::to_string(applied_) +
                                " to " + std::to_string(batch_end() - 1) + ")");
    }
    SpsaPoint point;
    point.k = k;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const auto& p = params_[i];
        const int f = flip(k, i);
        const double c = c_k(i, k);
        point.flip.push_back(f);
        point.c.push_back(c);
        point.plus.push_back(delivered(p, std::clamp(theta_[i] + c * f, p.min, p.max)));
        point.minus.push_back(delivered(p, std::clamp(theta_[i] - c * f, p.min, p.max)));
    }
    return point;
}

void Spsa::record(std::int64_t k, double result) {
    if (k < applied_ || k >= batch_end()) {
        throw std::out_of_range("iteration " + std::to_string(k) +
                                " is not in the batch under way (" + std::to_string(applied_) +
                                " to " + std::to_string(batch_end() - 1) + ")");
    }
    if (!(result >= -2.0 && result <= 2.0))
        throw std::invalid_argument("a pair's result must lie in [-2, 2], got " + number(result));
    pending_[static_cast<std::size_t>(k - applied_)] = result;
    if (std::any_of(pending_.begin(), pending_.end(), [](const auto& r) { return !r; })) return;
    // The batch is complete: its steps, in order, each from the theta before
    // the batch plus the steps before it (the points were all drawn from the
    // theta at its start).
    for (std::size_t j = 0; j < pending_.size(); ++j) {
        const std::int64_t it = applied_ + static_cast<std::int64_t>(j);
        for (std::size_t i = 0; i < params_.size(); ++i) {
            const double step = a_k(i, it) / c_k(i, it) * *pending_[j] * flip(it, i);
            theta_[i] = std::clamp(theta_[i] + step, params_[i].min, params_[i].max);
        }
    }
    applied_ = batch_end();
    pending_.assign(static_cast<std::size_t>(batch_end() - applied_), std::nullopt);
}

double delivered(const SpsaParam& param, double value) {
    return param.integer ? std::round(value) : value;
}

}  // namespace arena::tune
