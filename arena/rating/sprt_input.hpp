#pragma once
// The SPRT's settings and counts as people type them: "elo0=0,elo1=5" for
// `arena match --sprt`, "LL,LD,DD+WL,WD,WW" and "W,D,L" for `arena sprt
// --penta` and `--wdl`. Pure parsers: each throws std::invalid_argument with
// one line that starts with `option` (the option the text came from, e.g.
// "--sprt") and names the bad part.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arena/rating/pentanomial.hpp"
#include "arena/rating/sprt.hpp"

namespace arena::rating {

// "elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic]": elo0 and
// elo1 required, each key at most once, and the options valid
// (sprt_options_problem).
[[nodiscard]] SprtOptions parse_sprt_options(const std::string& text, std::string_view option);

// parse_sprt_model(`name`): "normalized" or "logistic".
[[nodiscard]] SprtModel parse_sprt_model_option(std::string_view option, const std::string& name);

// "a,b,c" as exactly `n` whole, non-negative counts; `what` names them in
// the message about their number (e.g. "W,D,L").
[[nodiscard]] std::vector<std::int64_t> parse_counts(std::string_view option,
                                                     const std::string& text, std::size_t n,
                                                     const std::string& what);

// "LL,LD,DD+WL,WD,WW" (pairs) and "W,D,L" (games), from A's side: counts
// as parse_counts() reads them, not all 0.
[[nodiscard]] Pentanomial parse_pentanomial(std::string_view option, const std::string& text);
[[nodiscard]] Trinomial parse_trinomial(std::string_view option, const std::string& text);

}  // namespace arena::rating
