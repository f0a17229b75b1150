#include "bots/common/weight_flags.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>

namespace arena::bots {

int parse_weight(std::string_view name, std::string_view text, int min, int max) {
    double x = 0;
    const char* first = text.data();
    const char* last = first + text.size();
    const auto [end, error] = std::from_chars(first, last, x);
    const bool number = !text.empty() && error == std::errc() && end == last && std::isfinite(x);
    const double rounded = number ? std::round(x) : 0;
    if (!number || rounded < min || rounded > max) {
        throw std::invalid_argument("--" + std::string(name) + " must be a number from " +
                                    std::to_string(min) + " to " + std::to_string(max) +
                                    " (rounded to an integer), not '" + std::string(text) + "'");
    }
    return static_cast<int>(rounded);
}

void add_weight_flags(boost::program_options::options_description& flags,
                      std::span<const WeightFlag> weights) {
    namespace po = boost::program_options;
    for (const WeightFlag& w : weights) {
        const std::string help = std::string(w.meaning) + " (" + std::to_string(w.min) + ".." +
                                 std::to_string(w.max) + ", rounded)";
        flags.add_options()(w.name,
                            po::value<std::string>()
                                ->value_name("W")
                                ->default_value(std::to_string(*w.value))
                                ->notifier([w](const std::string& text) {
                                    *w.value = parse_weight(w.name, text, w.min, w.max);
                                }),
                            help.c_str());
    }
}

}  // namespace arena::bots
