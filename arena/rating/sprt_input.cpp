#include "arena/rating/sprt_input.hpp"

#include <cmath>
#include <exception>
#include <sstream>
#include <stdexcept>

namespace arena::rating {
namespace {

// The comma-separated fields of `text`; an empty text, or one ending in a
// comma, has an empty last field.
std::vector<std::string> split_commas(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> fields;
    for (std::string field; std::getline(in, field, ',');)
        fields.push_back(field);
    return fields;
}

// parse_sprt_model(), or throws "`what`'NAME' is not a model ...".
SprtModel model_or_throw(const std::string& what, const std::string& name) {
    const auto model = parse_sprt_model(name);
    if (!model) {
        throw std::invalid_argument(what + "'" + name +
                                    "' is not a model (normalized or logistic)");
    }
    return *model;
}

}  // namespace

SprtModel parse_sprt_model_option(std::string_view option, const std::string& name) {
    return model_or_throw(std::string(option) + ": ", name);
}

SprtOptions parse_sprt_options(const std::string& text, std::string_view option) {
    const std::string opt(option);
    SprtOptions o;
    bool elo0 = false, elo1 = false, alpha = false, beta = false, model = false;
    const std::string expected =
        "(expected elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic])";
    std::vector<std::string> parts = split_commas(text);
    if (text.empty() || text.back() == ',') parts.emplace_back();
    for (const auto& part : parts) {
        const auto eq = part.find('=');
        if (part.empty()) throw std::invalid_argument(opt + ": an empty part " + expected);
        if (eq == std::string::npos) {
            throw std::invalid_argument(opt + ": '" + part + "' is not KEY=VALUE " + expected);
        }
        const std::string key = part.substr(0, eq), value = part.substr(eq + 1);
        auto seen = [&](bool& flag) {
            if (flag) throw std::invalid_argument(opt + ": " + key + " is given twice");
            flag = true;
        };
        auto number = [&]() {
            std::size_t used = 0;
            double x = 0.0;
            try {
                x = std::stod(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (value.empty() || used != value.size() || !std::isfinite(x)) {
                throw std::invalid_argument(opt + ": " + key + "='" + value +
                                            "' is not a finite number");
            }
            return x;
        };
        if (key == "elo0") {
            seen(elo0);
            o.elo0 = number();
        } else if (key == "elo1") {
            seen(elo1);
            o.elo1 = number();
        } else if (key == "alpha") {
            seen(alpha);
            o.alpha = number();
        } else if (key == "beta") {
            seen(beta);
            o.beta = number();
        } else if (key == "model") {
            seen(model);
            o.model = model_or_throw(opt + ": model=", value);
        } else {
            throw std::invalid_argument(opt + ": unknown key '" + key +
                                        "' (keys: elo0, elo1, alpha, beta, model)");
        }
    }
    if (!elo0) throw std::invalid_argument(opt + ": elo0 is missing " + expected);
    if (!elo1) throw std::invalid_argument(opt + ": elo1 is missing " + expected);
    if (const std::string problem = sprt_options_problem(o); !problem.empty())
        throw std::invalid_argument(opt + ": " + problem);
    return o;
}

std::vector<std::int64_t> parse_counts(std::string_view option, const std::string& text,
                                       std::size_t n, const std::string& what) {
    const std::string opt(option);
    std::vector<std::string> fields = split_commas(text);
    if (!text.empty() && text.back() == ',') fields.emplace_back();
    if (fields.size() != n) {
        throw std::invalid_argument(opt + ": expected " + std::to_string(n) +
                                    " comma-separated counts (" + what + "), got " +
                                    std::to_string(fields.size()));
    }
    std::vector<std::int64_t> counts;
    for (const auto& f : fields) {
        std::size_t used = 0;
        long long value = 0;
        try {
            value = std::stoll(f, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != f.size()) {
            throw std::invalid_argument(opt + ": '" + f + "' is not a whole number");
        }
        if (value < 0) {
            throw std::invalid_argument(opt + ": a count cannot be negative (" + f + ")");
        }
        counts.push_back(value);
    }
    return counts;
}

Pentanomial parse_pentanomial(std::string_view option, const std::string& text) {
    const auto c = parse_counts(option, text, 5, "LL,LD,DD+WL,WD,WW");
    Pentanomial p;
    for (std::size_t i = 0; i < 5; ++i)
        p.bins[i] = c[i];
    if (p.pairs() == 0) throw std::invalid_argument(std::string(option) + ": every count is 0");
    return p;
}

Trinomial parse_trinomial(std::string_view option, const std::string& text) {
    const auto c = parse_counts(option, text, 3, "W,D,L");
    const Trinomial t{c[0], c[1], c[2]};
    if (t.games() == 0) throw std::invalid_argument(std::string(option) + ": every count is 0");
    return t;
}

}  // namespace arena::rating
