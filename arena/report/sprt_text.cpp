#include "arena/report/sprt_text.hpp"

#include <cmath>
#include <cstdint>

#include "arena/record/escape.hpp"
#include "arena/report/head_to_head_text.hpp"

namespace arena::report {
namespace {

// A number for JSON: null when infinite or undefined.
nlohmann::json sprt_json_number(double x) {
    return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

}  // namespace

std::string_view sprt_model_name(rating::SprtModel model) {
    return model == rating::SprtModel::logistic ? "logistic" : "normalized";
}

void print_sprt_llr(std::ostream& out, const rating::SprtResult& result,
                    const rating::SprtOptions& options) {
    out << "LLR: " << fixed_decimals(result.llr, 2) << " (" << fixed_decimals(result.lower, 2)
        << ", " << fixed_decimals(result.upper, 2) << ") [" << fixed_decimals(options.elo0, 2)
        << ", " << fixed_decimals(options.elo1, 2) << "]\n";
}

std::string sprt_llr_suffix(const rating::SprtResult& result) {
    return "  LLR " + fixed_decimals(result.llr, 2) + " (" + fixed_decimals(result.lower, 2) +
           ", " + fixed_decimals(result.upper, 2) + ")";
}

void print_sprt_decision(std::ostream& out, rating::SprtDecision decision,
                         const std::string& undecided) {
    if (decision == rating::SprtDecision::accept_h1) {
        out << "SPRT: H1 accepted\n";
    } else if (decision == rating::SprtDecision::accept_h0) {
        out << "SPRT: H0 accepted\n";
    } else {
        out << undecided << "\n";
    }
}

void print_pairs_block(std::ostream& out, const std::string& a, const std::string& b,
                       const rating::Pentanomial& pairs, const rating::Trinomial& paired,
                       std::int64_t repeated_pairs) {
    const std::string ea = record::escape_controls(a), eb = record::escape_controls(b);
    const std::int64_t n = pairs.pairs();
    out << "--------------------------------------------------\n"
        << "Results of " << ea << " vs " << eb << " (from " << ea << "'s side), " << n
        << " colour-swapped pair" << (n == 1 ? "" : "s") << ":\n";
    if (repeated_pairs > 0) {
        out << "Repeats: " << repeated_pairs << " more pair" << (repeated_pairs == 1 ? "" : "s")
            << " set aside, each a move-for-move copy of an earlier pair\n";
    }
    if (n > 0) {
        print_head_to_head(out, rating::head_to_head(pairs), paired, pairs);
    } else {
        out << "no complete pair yet\n";
    }
}

void print_sprt_block(std::ostream& out, const std::string& a, const std::string& b,
                      const rating::SprtOptions& options, const rating::SprtResult& result,
                      const rating::Pentanomial& pairs, const rating::Trinomial& paired,
                      std::int64_t repeated_pairs) {
    print_pairs_block(out, a, b, pairs, paired, repeated_pairs);
    print_sprt_llr(out, result, options);
}

nlohmann::json sprt_json(const rating::SprtOptions& options, const rating::SprtResult& result,
                         const rating::HeadToHead& h, const std::optional<rating::Trinomial>& games,
                         const std::optional<rating::Pentanomial>& pairs) {
    nlohmann::json j = {
        {"model", std::string(sprt_model_name(options.model))},
        {"elo0", options.elo0},
        {"elo1", options.elo1},
        {"alpha", options.alpha},
        {"beta", options.beta},
        {"llr", sprt_json_number(result.llr)},
        {"lower", sprt_json_number(result.lower)},
        {"upper", sprt_json_number(result.upper)},
        {"decision", std::string(rating::decision_name(result.decision))},
        {"score", sprt_json_number(h.score)},
        {"elo", sprt_json_number(h.elo)},
        {"elo_error", sprt_json_number(h.elo_error)},
        {"elo_lower", sprt_json_number(h.elo_lower)},
        {"elo_upper", sprt_json_number(h.elo_upper)},
        {"nelo", sprt_json_number(h.nelo)},
        {"nelo_error", sprt_json_number(h.nelo_error)},
        {"los", sprt_json_number(h.los)},
        {"draw_ratio", sprt_json_number(h.draw_ratio)},
    };
    if (games) {
        j["games"] = games->games();
        j["wins"] = games->wins;
        j["draws"] = games->draws;
        j["losses"] = games->losses;
        j["points"] = games->points();
    }
    if (pairs) {
        j["pairs"] = pairs->pairs();
        j["games"] = 2 * pairs->pairs();
        j["points"] = pairs->points();
        j["ptnml"] = pairs->bins;
        j["pairs_ratio"] = sprt_json_number(h.pairs_ratio);
    }
    return j;
}

void print_sprt_calculation(std::ostream& out, const rating::SprtOptions& options,
                            const std::optional<rating::Pentanomial>& pairs,
                            const std::optional<rating::Trinomial>& games, bool json) {
    const auto result = pairs ? rating::sprt(*pairs, options) : rating::sprt(*games, options);
    const auto h = pairs ? rating::head_to_head(*pairs) : rating::head_to_head(*games);
    if (json) {
        out << sprt_json(options, result, h, games, pairs).dump() << "\n";
        return;
    }
    print_head_to_head(out, h, games, pairs);
    print_sprt_llr(out, result, options);
    print_sprt_decision(out, result.decision, "SPRT: no decision yet (continue)");
}

nlohmann::json sprt_test_json(const rating::SprtOptions& options, const rating::SprtResult& result,
                              const rating::Pentanomial& pairs, const rating::Trinomial& games,
                              std::int64_t counted_pairs, std::int64_t repeated_pairs) {
    nlohmann::json j;
    if (counted_pairs == 0) {
        j = {{"model", std::string(sprt_model_name(options.model))},
             {"elo0", options.elo0},
             {"elo1", options.elo1},
             {"alpha", options.alpha},
             {"beta", options.beta},
             {"llr", result.llr},
             {"lower", result.lower},
             {"upper", result.upper},
             {"decision", std::string(rating::decision_name(result.decision))},
             {"pairs", 0},
             {"games", 0}};
    } else {
        j = sprt_json(options, result, rating::head_to_head(pairs), games, pairs);
    }
    j["pairs_counted"] = counted_pairs;
    j["repeated_pairs"] = repeated_pairs;
    return j;
}

}  // namespace arena::report
