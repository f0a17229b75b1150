#include "arena/tournament/config_tune.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <set>
#include <string_view>

namespace arena::tournament {
namespace {

// (As a table: clang-format would put one key a line.)
// clang-format off
// A bot entry's keys but its name (the tuned bot is theta+ and theta-) and a
// library's, then the tune's own.
const std::initializer_list<std::string_view> kTuneKeys = {
    "command",        "args",             "protocol",
    "memory_mb",      "file_size_mb",     "open_files",
    "processes",      "cpu_seconds",      "max_line_bytes",
    "freeze_when_idle", "freeze_grace_ms", "sandbox",
    "pass_env",       "restart",          "nice",
    "cgroup",         "dir",              "workdir",
    "time",           "depth",            "nodes",
    "params",         "pairs",            "opponent",
    "alpha",          "gamma",            "A",
    "batch"};
// clang-format on
const std::initializer_list<std::string_view> kTuneOwnKeys = {
    "params", "pairs", "opponent", "alpha", "gamma", "A", "batch"};
const std::initializer_list<std::string_view> kParamKeys = {"name",  "start", "min",    "max",
                                                            "c_end", "r_end", "integer"};
// Parameter values beyond this are typing mistakes.
constexpr double kMaxValue = 1e15;
// Iterations: each plays 2 games (4 against a fixed opponent), within kMaxGames.
constexpr std::int64_t kMaxPairs = bounds::kMaxGames / 4;

bool is_identifier(std::string_view s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) != 0) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
}

// Calls `each(name)` for every `{name}` in `word`, and `text(part)` for the
// text between them; a brace that opens no placeholder is text.
template <typename Each, typename Text>
void scan_placeholders(std::string_view word, Each each, Text text) {
    std::size_t from = 0;
    for (std::size_t open = word.find('{'); open != std::string_view::npos;
         open = word.find('{', open + 1)) {
        const auto close = word.find('}', open + 1);
        if (close == std::string_view::npos) break;
        const auto name = word.substr(open + 1, close - open - 1);
        if (!is_identifier(name)) continue;
        text(word.substr(from, open - from));
        each(name);
        from = close + 1;
        open = close;
    }
    text(word.substr(from));
}

}  // namespace

void TuneParser::parse(const Field& f) {
    require_map(f);
    const std::vector<Field> fields = fields_of(f.value, kTuneKeys, "'tune'");
    TuneConfig& tune = config_.tune.emplace();
    const Field* params = find(fields, "params");
    if (params == nullptr) missing(f.value, "params", "'tune'");
    parse_params(*params);
    const Field* pairs = find(fields, "pairs");
    if (pairs == nullptr) missing(f.value, "pairs", "'tune'");
    tune.spsa.iterations = integer(*pairs, 1, kMaxPairs);
    for (const Field& o : fields) {
        if (o.key == "alpha") tune.spsa.alpha = real(o, 0.0, 10.0);
        if (o.key == "gamma") tune.spsa.gamma = real(o, 0.0, 10.0);
        if (o.key == "A") tune.spsa.A = real(o, 0.0, static_cast<double>(bounds::kMaxGames));
        if (o.key == "batch") tune.batch = integer(o, 1, bounds::kMaxConcurrency);
    }
    check_options(f);
    std::vector<Field> bot_fields;
    std::copy_if(fields.begin(), fields.end(), std::back_inserter(bot_fields), [](const Field& b) {
        return std::find(kTuneOwnKeys.begin(), kTuneOwnKeys.end(), b.key) == kTuneOwnKeys.end();
    });
    parse_bot(f.value, bot_fields);
    if (const Field* opponent = find(fields, "opponent")) parse_opponent(*opponent);
    // The schedule: a gauntlet of `pairs` pairs a meeting.
    config_.schedule = ScheduleType::kGauntlet;
    config_.challenger = tune.self ? std::string(kThetaPlus) : config_.bots[2].name;
    config_.games_per_pair = static_cast<int>(2 * tune.spsa.iterations);
    config_.rounds = 1;
}

void TuneParser::parse_params(const Field& f) {
    require_value(f);
    if (!f.value.IsSequence() || f.value.size() == 0) {
        fail(f.value.Mark(),
             "expected a list of parameters for 'params' ({ name, start, min, "
             "max, c_end, r_end }), got " +
                 describe(f.value));
    }
    auto& params = config_.tune->params;
    int index = 0;
    for (const YAML::Node& node : f.value) {
        auto param = parse_param(node, ++index);
        for (std::size_t i = 0; i < params.size(); ++i) {
            if (params[i].name == param.name) {
                fail(param_marks_.back(), "duplicate parameter " + in_quotes(param.name) +
                                              " (first defined at line " +
                                              std::to_string(param_marks_[i].line + 1) + ")");
            }
        }
        params.push_back(std::move(param));
    }
}

tune::SpsaParam TuneParser::parse_param(const YAML::Node& node, int index) {
    const std::string which = "parameter #" + std::to_string(index);
    if (!node.IsMap()) fail(node.Mark(), "expected a map for " + which + ", got " + describe(node));
    const std::vector<Field> fields = fields_of(node, kParamKeys, which);
    for (const std::string_view key : {"name", "start", "min", "max", "c_end", "r_end"})
        if (find(fields, key) == nullptr) missing(node, key, which);
    tune::SpsaParam p;
    const Field& name = *find(fields, "name");
    p.name = string_value(name);
    if (!is_identifier(p.name)) {
        fail(name.value.Mark(), "parameter name " + in_quotes(p.name) +
                                    " is not valid: it is written {" + p.name +
                                    "} in the command (use letters, digits and _, not first a "
                                    "digit)");
    }
    param_marks_.push_back(name.value.Mark());
    const auto number = [&](std::string_view key) {
        return real(*find(fields, key), -kMaxValue, kMaxValue);
    };
    p.start = number("start");
    p.min = number("min");
    p.max = number("max");
    const std::string who = "parameter " + in_quotes(p.name) + ": ";
    if (p.min >= p.max) fail(find(fields, "max")->value.Mark(), who + "max must be above min");
    if (p.start < p.min || p.start > p.max)
        fail(find(fields, "start")->value.Mark(), who + "start must lie between min and max");
    p.c_end = number("c_end");
    if (p.c_end <= 0.0) {
        fail(find(fields, "c_end")->value.Mark(),
             who + "c_end must be positive (the perturbation at the last iteration)");
    }
    p.r_end = number("r_end");
    if (p.r_end <= 0.0) {
        fail(find(fields, "r_end")->value.Mark(),
             who + "r_end must be positive (the learning rate at the last iteration)");
    }
    if (const Field* integer = find(fields, "integer")) p.integer = boolean(*integer);
    return p;
}

// The tuned bot: an entry named theta+, copied as theta-, each with its
// command at the start values.
void TuneParser::parse_bot(const YAML::Node& node, const std::vector<Field>& fields) {
    const Field* command = find(fields, "command");
    if (command == nullptr) missing(node, "command", "'tune'");
    for (const std::string_view key : {"dir", "workdir"}) {
        const Field* dir = find(fields, key);
        if (dir != nullptr && dir->value.IsScalar() &&
            dir->value.Scalar().find('{') != std::string::npos) {
            fail(dir->value.Mark(),
                 "a parameter's value goes in the command or 'args', not in " + in_quotes(key));
        }
    }
    const auto text = string_value(*command);
    const auto program = text.substr(0, text.find_first_of(" \t", text.find_first_not_of(" \t")));
    if (program.find('{') != std::string::npos) {
        fail(command->value.Mark(),
             "the program of 'tune' cannot hold a parameter: put {name} in its arguments");
    }
    BotConfig bot = bots_.defaults();
    bot.name = kThetaPlus;
    bots_.add_bot(node, fields, std::move(bot));
    auto& tune = *config_.tune;
    tune.argv = config_.bots.back().argv;
    check_placeholders(*command);
    std::vector<double> start;
    for (const auto& p : tune.params)
        start.push_back(p.start);
    auto& plus = config_.bots.back();
    plus.argv = tune_argv(tune, start);
    BotConfig minus = plus;
    minus.name = kThetaMinus;
    config_.bots.push_back(std::move(minus));
}

// Every `{name}` names a parameter, and every parameter is somewhere.
void TuneParser::check_placeholders(const Field& command) const {
    const auto& tune = *config_.tune;
    std::set<std::string, std::less<>> used;
    for (const auto& word : tune.argv) {
        scan_placeholders(
            word,
            [&](std::string_view name) {
                const bool known = std::any_of(tune.params.begin(), tune.params.end(),
                                               [&](const auto& p) { return p.name == name; });
                if (!known) {
                    std::string names;
                    for (const auto& p : tune.params)
                        names += (names.empty() ? "" : ", ") + p.name;
                    fail(command.value.Mark(), "{" + std::string(name) +
                                                   "} in the command of 'tune' is not one of "
                                                   "the params (" +
                                                   names + ")");
                }
                used.emplace(name);
            },
            [](std::string_view) {});
    }
    for (std::size_t i = 0; i < tune.params.size(); ++i) {
        const auto& name = tune.params[i].name;
        if (!used.contains(name)) {
            fail(param_marks_[i], "parameter " + in_quotes(name) +
                                      " is not in the command or 'args' of 'tune': write {" + name +
                                      "} where the bot takes its value");
        }
    }
}

void TuneParser::parse_opponent(const Field& f) {
    require_value(f);
    if (f.value.IsScalar()) {
        if (f.value.Scalar() == "self") return;
        fail(f.value.Mark(),
             "expected 'self' or a bot ({ name, command, ... }) for 'opponent', "
             "got " +
                 describe(f.value));
    }
    if (!f.value.IsMap()) {
        fail(f.value.Mark(),
             "expected 'self' or a bot ({ name, command, ... }) for 'opponent', "
             "got " +
                 describe(f.value));
    }
    const std::vector<Field> fields = fields_of(f.value, BotsParser::entry_keys(), "'opponent'");
    const Field* name = find(fields, "name");
    if (name == nullptr) missing(f.value, "name", "'opponent'");
    BotConfig bot = bots_.defaults();
    bot.name = bots_.bot_name(*name);
    if (bot.name == kThetaPlus || bot.name == kThetaMinus) {
        fail(name->value.Mark(), "the opponent cannot be called " + in_quotes(bot.name) +
                                     ": that is the tuned bot's name");
    }
    if (find(fields, "library") != nullptr || find(fields, "library_dir") != nullptr) {
        fail(f.value.Mark(), "the opponent of 'tune' is a command, not a tsinghua-so library");
    }
    bots_.add_bot(f.value, fields, std::move(bot));
    config_.tune->self = false;
}

// The SPSA options as a whole (spsa_problem), at the section.
void TuneParser::check_options(const Field& f) const {
    auto options = config_.tune->spsa;
    options.batch = 1;
    const auto problem = tune::spsa_problem(config_.tune->params, options);
    if (!problem.empty()) fail(f.value.Mark(), "'tune': " + problem);
}

std::vector<std::string> tune_argv(const TuneConfig& tune, const std::vector<double>& values) {
    std::vector<std::string> argv;
    for (const auto& word : tune.argv) {
        std::string out;
        scan_placeholders(
            word,
            [&](std::string_view name) {
                for (std::size_t i = 0; i < tune.params.size(); ++i)
                    if (tune.params[i].name == name) out += param_text(tune.params[i], values[i]);
            },
            [&](std::string_view text) { out += text; });
        argv.push_back(std::move(out));
    }
    return argv;
}

std::string param_text(const tune::SpsaParam& param, double value) {
    const double v = tune::delivered(param, value);
    char text[64];
    const auto [end, ec] = std::to_chars(std::begin(text), std::end(text), v);
    std::string s(text, ec == std::errc() ? end : text);
    return s == "-0" ? "0" : s;
}

}  // namespace arena::tournament
