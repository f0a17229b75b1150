#pragma once
// Evaluation weights on a bot's command line, for `arena tune`
// (docs/tuning.md): each weight is an integer flag whose default is the
// shipped value. A tuner may pass decimals, so a value is any decimal number
// ("8", "8.0", "7.6", "1e1"), rounded to the nearest integer (halves away
// from zero), and must then lie in the flag's range. Anything else (not a
// number, "inf", "nan", out of range) is refused by the command line parser:
// bot_main() prints the message, which names the flag and the value, with a
// usage line, and exits 2.

#include <boost/program_options.hpp>
#include <span>
#include <string>
#include <string_view>

namespace arena::bots {

struct WeightFlag {
    const char* name;  // without the dashes: "corner"
    int* value;        // holds the default, and receives the flag's value
    int min;
    int max;
    const char* meaning;  // for --help
};

// The value of --`name` written `text`, rounded; throws std::invalid_argument
// naming the flag and the text unless it rounds into [min, max].
[[nodiscard]] int parse_weight(std::string_view name, std::string_view text, int min, int max);

// Adds each weight to `flags`: its --help line shows the default and range,
// and po::notify() stores the parsed value (the default when not given).
void add_weight_flags(boost::program_options::options_description& flags,
                      std::span<const WeightFlag> weights);

}  // namespace arena::bots
