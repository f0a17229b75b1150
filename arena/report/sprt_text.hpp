#pragma once
// The GSPRT's part of the head-to-head block, shared by `arena sprt` (the
// offline calculator), `arena match --sprt` and the SPRT gauntlet of `arena
// run` (the live tests): the LLR line in the form fastchess prints it, the
// decision, and the same as JSON fields. The rest of the block is
// print_head_to_head() (head_to_head_text.hpp).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "arena/rating/head_to_head.hpp"
#include "arena/rating/pentanomial.hpp"
#include "arena/rating/sprt.hpp"

namespace arena::report {

// "logistic" or "normalized".
[[nodiscard]] std::string_view sprt_model_name(rating::SprtModel model);

// "LLR: x (lo, hi) [e0, e1]"
void print_sprt_llr(std::ostream& out, const rating::SprtResult& result,
                    const rating::SprtOptions& options);

// "  LLR x (lo, hi)": what follows a game's line in `arena match --sprt`.
[[nodiscard]] std::string sprt_llr_suffix(const rating::SprtResult& result);

// "SPRT: H1 accepted", "SPRT: H0 accepted", or `undecided` (a line of its own).
void print_sprt_decision(std::ostream& out, rating::SprtDecision decision,
                         const std::string& undecided);

// The verdict of `a` against `b`: a heading naming both and the counted
// pairs, the pairs set aside as repeats (when there are any), and the
// head-to-head of the counted pairs (from a's side). Names are escaped: they
// come from configs and command lines.
void print_pairs_block(std::ostream& out, const std::string& a, const std::string& b,
                       const rating::Pentanomial& pairs, const rating::Trinomial& paired,
                       std::int64_t repeated_pairs);

// The block of one test of `a` against `b`: print_pairs_block, then the LLR
// line.
void print_sprt_block(std::ostream& out, const std::string& a, const std::string& b,
                      const rating::SprtOptions& options, const rating::SprtResult& result,
                      const rating::Pentanomial& pairs, const rating::Trinomial& paired,
                      std::int64_t repeated_pairs = 0);

// The test and the head-to-head as one JSON object: the hypotheses, llr,
// lower, upper, decision ("H0", "H1" or "continue"), score, elo, elo_error,
// elo_lower, elo_upper, nelo, nelo_error, los, draw_ratio, and the counts
// (pairs, games, points, ptnml, pairs_ratio from `pairs`; else games,
// wins, draws, losses, points from `games`). With both, the games' W/D/L
// are added to the pairs' fields.
[[nodiscard]] nlohmann::json sprt_json(const rating::SprtOptions& options,
                                       const rating::SprtResult& result,
                                       const rating::HeadToHead& h,
                                       const std::optional<rating::Trinomial>& games,
                                       const std::optional<rating::Pentanomial>& pairs);

// `arena sprt`: the test of `pairs`, else of `games`, under `options`, as
// one JSON object (sprt_json) or as the head-to-head block
// (print_head_to_head), the LLR line and the decision. Throws
// std::invalid_argument as rating::sprt does, having printed nothing.
void print_sprt_calculation(std::ostream& out, const rating::SprtOptions& options,
                            const std::optional<rating::Pentanomial>& pairs,
                            const std::optional<rating::Trinomial>& games, bool json);

// A live test (`arena match --sprt`) as JSON: sprt_json of its counted
// pairs (`counted_pairs` of them, counted in `pairs`) and of their games;
// before the first, only the hypotheses, the bounds and the decision, with
// pairs and games 0. Then pairs_counted and repeated_pairs (the pairs set
// aside as repeats).
[[nodiscard]] nlohmann::json sprt_test_json(const rating::SprtOptions& options,
                                            const rating::SprtResult& result,
                                            const rating::Pentanomial& pairs,
                                            const rating::Trinomial& games,
                                            std::int64_t counted_pairs,
                                            std::int64_t repeated_pairs);

}  // namespace arena::report
