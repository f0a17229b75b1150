#include "arena/tournament/config.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "arena/games/registry.hpp"
#include "arena/record/suggest.hpp"
#include "arena/session/command_line.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/openings.hpp"
#include "arena/tournament/scoring.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::tournament {
namespace {

constexpr std::string_view kNameChars =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-";
constexpr std::string_view kRoundRobin = "round-robin";
constexpr std::string_view kGauntlet = "gauntlet";
constexpr std::string_view kLadder = "ladder";
constexpr int kMinBots = 2;
using bounds::kMaxConcurrency;
using bounds::kMaxGames;
using bounds::kMaxMillis;
using bounds::kMaxPlies;
// Used when PATH is unset, as execvp does.
constexpr std::string_view kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

const std::initializer_list<std::string_view> kTopKeys = {
    "name",    "game",     "time",     "schedule",     "openings", "concurrency",
    "seed",    "database", "bots",     "bot_defaults", "scoring",  "transcript",
    "anchors", "versions", "bots_dir", "check"};
const std::initializer_list<std::string_view> kTimeKeys = {"move_ms", "tolerance_ms", "game_ms",
                                                           "inc_ms",  "startup_ms",   "realtime"};
const std::initializer_list<std::string_view> kScheduleKeys = {
    "type", "games_per_pair",    "rounds",       "challenger",         "challengers",
    "sprt", "games_per_entrant", "target_error", "opponents_per_round"};
const std::initializer_list<std::string_view> kSprtKeys = {"elo0", "elo1", "alpha", "beta",
                                                           "model"};
// Ratings and SPRT bounds beyond this are typing mistakes.
constexpr double kMaxElo = 100'000.0;
const std::initializer_list<std::string_view> kOpeningsKeys = {"random_plies", "file", "order",
                                                               "start"};
constexpr std::string_view kSequential = "sequential";
constexpr std::string_view kRandomOrder = "random";
const std::initializer_list<std::string_view> kScoringKeys = {"win", "draw", "loss"};
const std::initializer_list<std::string_view> kIsolationKeys = {
    "memory_mb",   "file_size_mb",   "open_files",       "processes",
    "cpu_seconds", "max_line_bytes", "freeze_when_idle", "freeze_grace_ms",
    "sandbox",     "pass_env",       "restart",          "nice",
    "cgroup"};
const std::initializer_list<std::string_view> kBotKeys = {
    "name",           "command",          "args",
    "protocol",       "memory_mb",        "file_size_mb",
    "open_files",     "processes",        "cpu_seconds",
    "max_line_bytes", "freeze_when_idle", "freeze_grace_ms",
    "sandbox",        "pass_env",         "restart",
    "nice",           "cgroup",           "dir",
    "workdir",        "library",          "library_dir"};
// A submission's manifest, <bots_dir>/<folder>/bot.yaml.
constexpr std::string_view kManifestName = "bot.yaml";
const std::initializer_list<std::string_view> kManifestKeys = {"command", "protocol", "name",
                                                               "author", "library"};
using bounds::kMaxCount;
using bounds::kMaxFreezeGraceMs;
using bounds::kMaxLineBytes;
using bounds::kMaxMegabytes;
using bounds::kMinLineBytes;

}  // namespace

std::int64_t parse_bounded_integer(const std::string& name, const std::string& text,
                                   std::int64_t lo, std::int64_t hi) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    const bool overflow = ec == std::errc::result_out_of_range && ptr == end;
    if (text.empty() || ptr != end || (ec != std::errc() && !overflow)) {
        // 'move_ms' from a config, --move-ms as typed on a command line.
        std::string message = "expected an integer for ";
        if (name.starts_with('-')) {
            message += name;
        } else {
            message.append("'").append(name).append("'");
        }
        message.append(", got '").append(text).append("'");
        throw std::invalid_argument(message);
    }
    const bool negative = text.front() == '-';
    if (!overflow && value >= lo && value <= hi) return value;
    std::string rule;
    if (negative && lo == 0) {
        rule = "must not be negative";
    } else if (lo == 1 && (negative || value < 1)) {
        rule = "must be positive";
    } else if (negative || (!overflow && value < lo)) {
        rule = "must be at least " + std::to_string(lo);
    } else {
        rule = "must be at most " + std::to_string(hi);
    }
    throw std::invalid_argument(name + " " + rule + ", got " + text);
}

namespace {

bool is_valid_name(std::string_view name) {
    return !name.empty() && name.find_first_not_of(kNameChars) == std::string_view::npos;
}

// "" when `name` is short enough; else the message, the name shortened.
std::string name_length_problem(const std::string& what, const std::string& name) {
    if (name.size() <= bounds::kMaxNameLength) return "";
    return what + " '" + name.substr(0, 24) + "...' is " + std::to_string(name.size()) +
           " characters long; at most " + std::to_string(bounds::kMaxNameLength) +
           " are allowed (it becomes part of file names)";
}

// How a value that has the wrong type is shown in a message.
std::string describe(const YAML::Node& node) {
    if (node.IsMap()) return "a map";
    if (node.IsSequence()) return "a list";
    if (node.IsScalar()) return "'" + node.Scalar() + "'";
    return "nothing";
}

std::string in_quotes(std::string_view s) {
    return "'" + std::string(s) + "'";
}

// A key and its value in a map. The key's mark is where a missing value is
// reported (yaml-cpp marks an empty value at the next token).
struct Field {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
};

enum class ExecStatus { kOk, kNotFound, kNotExecutable };

ExecStatus check_executable(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return ExecStatus::kNotFound;
    if (!S_ISREG(st.st_mode) || ::access(path.c_str(), X_OK) != 0) {
        return ExecStatus::kNotExecutable;
    }
    return ExecStatus::kOk;
}

// argv[0] as execvp would find it from `dir`: a path (taken from `dir` when
// relative) when it contains '/', else the first executable regular file of
// that name in PATH.
std::pair<ExecStatus, std::filesystem::path> resolve_command(const std::string& word,
                                                             const std::filesystem::path& dir) {
    if (word.find('/') != std::string::npos) {
        const std::filesystem::path path =
            dir.empty() ? std::filesystem::path(word) : (dir / word).lexically_normal();
        return {check_executable(path.string()), path};
    }
    const char* env = std::getenv("PATH");
    const std::string path_list = env != nullptr ? env : std::string(kDefaultPath);
    ExecStatus status = ExecStatus::kNotFound;
    std::filesystem::path first_found;
    std::size_t start = 0;
    while (start <= path_list.size()) {
        const std::size_t colon = std::min(path_list.find(':', start), path_list.size());
        std::string entry = path_list.substr(start, colon - start);
        if (entry.empty()) entry = ".";  // an empty PATH entry is the current directory
        const std::string candidate = entry + "/" + word;
        const ExecStatus s = check_executable(candidate);
        if (s == ExecStatus::kOk) return {s, candidate};
        if (s == ExecStatus::kNotExecutable && status == ExecStatus::kNotFound) {
            status = s;
            first_found = candidate;
        }
        start = colon + 1;
    }
    return {status, first_found};
}

// The arguments after argv[0] that name existing regular files from `dir`
// (options, and key=value words, excepted).
std::vector<std::filesystem::path> argument_files(const std::vector<std::string>& argv,
                                                  const std::filesystem::path& dir) {
    namespace fs = std::filesystem;
    const fs::path base = dir.empty() ? fs::path(".") : dir;
    std::vector<fs::path> files;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.empty() || arg.front() == '-' || arg.find('=') != std::string::npos) continue;
        const fs::path path = (base / arg).lexically_normal();
        std::error_code ec;
        if (fs::is_regular_file(path, ec)) files.push_back(path);
    }
    return files;
}

// Where a second YAML document with content starts, if the text has one. A
// line that begins with `---` or `...` (then a blank or its end) is a
// document marker wherever it stands; the first document may open with one.
// The text is read rather than given to YAML::LoadAll, which loops forever
// on some malformed input (yaml-cpp 0.7; found by fuzz_config).
std::optional<YAML::Mark> second_document(const std::string& text) {
    const auto is_marker = [](std::string_view line, std::string_view marker) {
        return line.starts_with(marker) && (line.size() == 3 || line[3] == ' ' || line[3] == '\t');
    };
    std::istringstream in(text);
    bool content = false;  // the document so far has content
    bool ended = false;    // and a marker has ended it
    int number = 0;
    for (std::string line; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::size_t from = 0;
        if (is_marker(line, "---") || is_marker(line, "...")) {
            ended = ended || content;
            if (line[0] == '.') continue;
            from = 3;  // `--- {a: 1}` holds content on the marker's line
        } else if (!content && line.starts_with("%")) {
            continue;  // a directive (%YAML, %TAG)
        }
        const auto first = line.find_first_not_of(" \t", from);
        if (first == std::string::npos || line[first] == '#') continue;
        if (ended) {
            YAML::Mark mark;
            mark.line = number;
            mark.column = static_cast<int>(first);
            return mark;
        }
        content = true;
    }
    return std::nullopt;
}

class Parser {
  public:
    Parser(const std::string& text, const std::filesystem::path& path) : file_(path.string()) {
        config_.path = path;
        config_.text = text;
    }

    Config parse() {
        YAML::Node root;
        try {
            root = YAML::Load(config_.text);
        } catch (const YAML::Exception& e) {
            fail(e.mark, "YAML syntax error: " + e.msg);
        }
        // A config is one document: a second one (after '---') would be read
        // by nothing.
        if (const auto second = second_document(config_.text)) {
            fail(*second,
                 "a second YAML document (after '---'), which the arena would not read: a "
                 "config is one document (merge its settings into the first, or remove it)");
        }
        if (!root.IsMap()) {
            fail(root.Mark(), root.IsNull() ? "the config is empty (expected a map of settings)"
                                            : "expected a map of settings at the top level, got " +
                                                  describe(root));
        }
        const std::vector<Field> fields = fields_of(root, kTopKeys, "");
        // Defaults first: every bot starts from them, wherever they are written.
        if (const Field* defaults = find(fields, "bot_defaults")) {
            require_map(*defaults);
            for (const Field& d : fields_of(defaults->value, kIsolationKeys, "'bot_defaults'")) {
                parse_isolation_key(d, defaults_);
                if (d.key == "restart") restart_in_defaults_ = true;
            }
        }
        // Sections in the order they are written, so the first problem in the
        // file is the one reported.
        for (const Field& f : fields) {
            if (f.key == "name") {
                parse_name(f);
            } else if (f.key == "game") {
                parse_game(f);
            } else if (f.key == "time") {
                parse_time(f);
            } else if (f.key == "schedule") {
                parse_schedule(f);
            } else if (f.key == "openings") {
                parse_openings(f);
            } else if (f.key == "concurrency") {
                config_.concurrency = static_cast<int>(integer(f, 0, kMaxConcurrency));
            } else if (f.key == "seed") {
                config_.seed = unsigned_integer(f);
            } else if (f.key == "database") {
                config_.database = string_value(f);
                if (config_.database.empty()) fail(f.value.Mark(), "'database' is empty");
            } else if (f.key == "scoring") {
                parse_scoring(f);
            } else if (f.key == "transcript") {
                config_.transcript = boolean(f);
            } else if (f.key == "anchors") {
                anchors_ = f;
            } else if (f.key == "versions") {
                parse_versions(f);
            } else if (f.key == "bots") {
                parse_bots(f);
            } else if (f.key == "check") {
                config_.check = boolean(f);
            }
        }
        // Then what is missing, and what depends on more than one section.
        for (const std::string_view key : {"name", "game"}) {
            if (find(fields, key) == nullptr) missing(root, key, "");
        }
        const Field* bots_dir = find(fields, "bots_dir");
        if (find(fields, "bots") == nullptr && bots_dir == nullptr) missing(root, "bots", "");
        if (bots_dir != nullptr) parse_bots_dir(*bots_dir);
        if (const Field* check = find(fields, "check");
            check != nullptr && config_.check && bots_dir == nullptr) {
            fail(check->value.Mark(),
                 "'check: true' checks the bots of 'bots_dir', and there is no 'bots_dir'");
        }
        if (static_cast<int>(config_.bots.size()) < kMinBots) {
            const Field* where = find(fields, "bots");
            if (where == nullptr) where = bots_dir;
            fail(where->value.Mark(),
                 "at least " + std::to_string(kMinBots) + " bots are needed, got " +
                     std::to_string(config_.bots.size()) +
                     (bots_dir != nullptr ? " (with those of 'bots_dir')" : ""));
        }
        if (config_.schedule == ScheduleType::kGauntlet && challenger_) check_challenger();
        if (challengers_) check_challengers(find(fields, "bots"), bots_dir);
        if (anchors_) parse_anchors(*anchors_);
        check_protocols();
        check_tsinghua_bots();
        if (!config_.openings.file.empty()) check_openings();
        if (config_.database.empty()) config_.database = "results/" + config_.name + ".db";
        return std::move(config_);
    }

  private:
    // The host that runs strategy libraries, or one error at `mark`.
    [[nodiscard]] std::filesystem::path so_host(const YAML::Mark& mark,
                                                const std::string& who) const {
        const auto host = find_so_host();
        if (!host) {
            fail(mark, who +
                           "protocol: tsinghua-so needs the arena-so-host executable, which is "
                           "neither next to the arena executable nor in PATH");
        }
        return *host;
    }

    [[noreturn]] void fail(const YAML::Mark& mark, const std::string& problem) const {
        // An empty document has no mark; point at its start.
        const int line = mark.is_null() ? 1 : mark.line + 1;
        const int column = mark.is_null() ? 1 : mark.column + 1;
        throw ConfigError(file_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                          problem);
    }

    [[noreturn]] void missing(const YAML::Node& map, std::string_view key,
                              std::string_view where) const {
        fail(map.Mark(), "missing required key " + in_quotes(key) +
                             (where.empty() ? std::string() : " in " + std::string(where)));
    }

    // The entries of a map, checked against the known keys (when given) and
    // for duplicates. `where` names the map in messages ("" at the top).
    std::vector<Field> fields_of(const YAML::Node& map,
                                 std::initializer_list<std::string_view> known,
                                 std::string_view where) const {
        std::vector<Field> fields;
        const std::string in = where.empty() ? std::string() : " in " + std::string(where);
        for (const auto& entry : map) {
            const YAML::Node key = entry.first;
            if (!key.IsScalar())
                fail(key.Mark(), "expected a key name" + in + ", got " + describe(key));
            const std::string name = key.Scalar();
            if (known.size() != 0 && std::find(known.begin(), known.end(), name) == known.end()) {
                fail(key.Mark(), "unknown key " + in_quotes(name) + in + record::suggestion(name, known));
            }
            if (const Field* first = find(fields, name)) {
                fail(key.Mark(), "duplicate key " + in_quotes(name) + in + " (first at line " +
                                     std::to_string(first->key_node.Mark().line + 1) + ")");
            }
            fields.push_back({name, key, entry.second});
        }
        return fields;
    }

    static const Field* find(const std::vector<Field>& fields, std::string_view key) {
        const auto it = std::find_if(fields.begin(), fields.end(),
                                     [&](const Field& f) { return f.key == key; });
        return it == fields.end() ? nullptr : &*it;
    }

    void require_value(const Field& f) const {
        if (!f.value.IsDefined() || f.value.IsNull()) {
            fail(f.key_node.Mark(), "missing value for " + in_quotes(f.key));
        }
    }

    void require_map(const Field& f) const {
        require_value(f);
        if (!f.value.IsMap()) {
            fail(f.value.Mark(),
                 "expected a map for " + in_quotes(f.key) + ", got " + describe(f.value));
        }
    }

    [[nodiscard]] std::string string_value(const Field& f) const {
        require_value(f);
        if (!f.value.IsScalar()) {
            fail(f.value.Mark(),
                 "expected a string for " + in_quotes(f.key) + ", got " + describe(f.value));
        }
        return f.value.Scalar();
    }

    // A decimal integer in [lo, hi].
    [[nodiscard]] std::int64_t integer(const Field& f, std::int64_t lo, std::int64_t hi) const {
        require_value(f);
        if (!f.value.IsScalar()) {
            fail(f.value.Mark(),
                 "expected an integer for " + in_quotes(f.key) + ", got " + describe(f.value));
        }
        try {
            return parse_bounded_integer(f.key, f.value.Scalar(), lo, hi);
        } catch (const std::invalid_argument& e) {
            fail(f.value.Mark(), e.what());
        }
    }

    [[nodiscard]] std::uint64_t unsigned_integer(const Field& f) const {
        require_value(f);
        const std::string text = f.value.IsScalar() ? f.value.Scalar() : std::string();
        if (f.value.IsScalar() && text.starts_with('-')) {
            // Still an integer? Then the sign is the problem.
            std::int64_t ignored = 0;
            const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), ignored);
            if (ptr == text.data() + text.size() && ec != std::errc::invalid_argument) {
                fail(f.value.Mark(), f.key + " must not be negative, got " + text);
            }
        }
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (!f.value.IsScalar() || ptr != end || ec == std::errc::invalid_argument) {
            fail(f.value.Mark(), "expected an integer for " + in_quotes(f.key) + ", got " +
                                     (f.value.IsScalar() ? in_quotes(text) : describe(f.value)));
        }
        if (ec == std::errc::result_out_of_range) {
            fail(f.value.Mark(), f.key + " must be at most " +
                                     std::to_string(std::numeric_limits<std::uint64_t>::max()) +
                                     ", got " + text);
        }
        return value;
    }

    void parse_name(const Field& f) {
        config_.name = string_value(f);
        if (const auto problem = name_length_problem("name", config_.name); !problem.empty())
            fail(f.value.Mark(), problem);
        if (!is_valid_name(config_.name)) {
            fail(f.value.Mark(), "name " + in_quotes(config_.name) +
                                     " is not valid: it names the results file (use only "
                                     "letters, digits and _ . + -)");
        }
    }

    void parse_game(const Field& f) {
        require_map(f);
        const std::vector<Field> fields = fields_of(f.value, {}, "'game'");
        bool has_name = false;
        for (const Field& p : fields) {
            if (p.key == "name") {
                config_.game = string_value(p);
                has_name = true;
                continue;
            }
            require_value(p);
            if (!p.value.IsScalar()) {
                fail(p.value.Mark(), "expected a scalar for game parameter " + in_quotes(p.key) +
                                         ", got " + describe(p.value));
            }
            config_.game_params.emplace_back(p.key, p.value.Scalar());
        }
        if (!has_name) missing(f.value, "name", "'game'");
        try {
            const games::Params board =
                games::realize(config_.game, config_.game_params, config_.seed);
            static_cast<void>(games::make_game(config_.game, board));
        } catch (const games::GameError& e) {
            fail(f.value.Mark(), e.what());
        }
    }

    void parse_time(const Field& f) {
        require_map(f);
        const std::vector<Field> fields = fields_of(f.value, kTimeKeys, "'time'");
        bool move_given = false;
        for (const Field& t : fields) {
            if (t.key == "startup_ms") {
                config_.startup_ms = integer(t, 1, kMaxMillis);
                continue;
            }
            if (t.key == "realtime") {
                config_.realtime_deadlines = boolean(t);
                continue;
            }
            const match::Millis ms{integer(t, 0, kMaxMillis)};
            if (t.key == "move_ms") {
                config_.time.move = ms;
                move_given = true;
            } else if (t.key == "tolerance_ms") {
                config_.time.tolerance = ms;
            } else if (t.key == "game_ms") {
                config_.time.game = ms;
            } else if (t.key == "inc_ms") {
                config_.time.increment = ms;
            }
        }
        // A game clock alone means no per-move limit beyond the clock.
        if (!move_given && config_.time.game.count() > 0) config_.time.move = match::Millis{0};
        if (const std::string problem = config_.time.validate(); !problem.empty()) {
            fail(f.value.Mark(), problem);
        }
    }

    void parse_versions(const Field& f) {
        const std::string value = string_value(f);
        if (value == "warn") {
            config_.versions = Versions::kWarn;
        } else if (value == "refuse") {
            config_.versions = Versions::kRefuse;
        } else if (value == "keep") {
            config_.versions = Versions::kKeep;
        } else {
            fail(f.value.Mark(), "unknown value " + in_quotes(value) +
                                     " for 'versions' (known: warn, refuse, keep)" +
                                     record::suggestion(value, {"warn", "refuse", "keep"}));
        }
    }

    void parse_schedule(const Field& f) {
        require_map(f);
        const std::vector<Field> fields = fields_of(f.value, kScheduleKeys, "'schedule'");
        for (const Field& s : fields) {
            if (s.key == "type") {
                const std::string type = string_value(s);
                if (type == kRoundRobin) {
                    config_.schedule = ScheduleType::kRoundRobin;
                } else if (type == kGauntlet) {
                    config_.schedule = ScheduleType::kGauntlet;
                } else if (type == kLadder) {
                    config_.schedule = ScheduleType::kLadder;
                } else {
                    fail(s.value.Mark(), "unknown schedule type " + in_quotes(type) +
                                             " (known: round-robin, gauntlet, ladder)" +
                                             record::suggestion(type, {kRoundRobin, kGauntlet, kLadder}));
                }
            } else if (s.key == "games_per_pair") {
                const auto games = integer(s, 1, kMaxGames);
                if (games % 2 != 0) {
                    fail(s.value.Mark(),
                         "games_per_pair must be even (games come in colour-swapped pairs), got " +
                             std::to_string(games));
                }
                config_.games_per_pair = static_cast<int>(games);
            } else if (s.key == "rounds") {
                config_.rounds = static_cast<int>(integer(s, 1, kMaxGames));
            } else if (s.key == "challenger") {
                config_.challenger = string_value(s);
                challenger_ = s;
            } else if (s.key == "challengers") {
                const std::string value = string_value(s);
                if (value != "bots_dir") {
                    fail(s.value.Mark(), "unknown value " + in_quotes(value) +
                                             " for 'challengers' (known: bots_dir, every bot of "
                                             "'bots_dir' against each bot of 'bots')");
                }
                config_.challengers_from_bots_dir = true;
                challengers_ = s;
            } else if (s.key == "sprt") {
                sprt_ = s;
                parse_sprt(s);
            } else if (s.key == "games_per_entrant") {
                config_.games_per_entrant = static_cast<int>(integer(s, 1, kMaxGames));
            } else if (s.key == "target_error") {
                config_.target_error = real(s, 0.0, kMaxElo);
            } else if (s.key == "opponents_per_round") {
                config_.opponents_per_round = static_cast<int>(integer(s, 1, kMaxGames));
            }
        }
        check_ladder(fields);
        if (sprt_ && config_.schedule != ScheduleType::kGauntlet) {
            fail(sprt_->key_node.Mark(),
                 "'sprt' is only for a gauntlet schedule (type: gauntlet): one test per opponent "
                 "of the challenger");
        }
        if (challenger_ && challengers_) {
            fail(challengers_->key_node.Mark(),
                 "give either 'challenger' (one bot) or 'challengers' (the bots of bots_dir), "
                 "not both");
        }
        if (challengers_ && sprt_) {
            fail(sprt_->key_node.Mark(),
                 "'sprt' needs one challenger ('challenger'), not 'challengers'");
        }
        if (config_.schedule == ScheduleType::kGauntlet && !challenger_ && !challengers_) {
            missing(f.value, "challenger", "'schedule' (a gauntlet needs one)");
        }
        for (const auto& given : {challenger_, challengers_}) {
            if (config_.schedule == ScheduleType::kRoundRobin && given) {
                fail(given->key_node.Mark(),
                     in_quotes(given->key) + " is only for a gauntlet schedule (type: gauntlet)");
            }
        }
    }

    // The ladder's keys belong to a ladder, and a ladder has no rounds or
    // challenger; its games per entrant come in whole rounds of pairs.
    void check_ladder(const std::vector<Field>& fields) const {
        const bool ladder = config_.schedule == ScheduleType::kLadder;
        for (const std::string_view key :
             {"games_per_entrant", "target_error", "opponents_per_round"}) {
            if (const Field* k = find(fields, key); k != nullptr && !ladder) {
                fail(k->key_node.Mark(),
                     in_quotes(k->key) + " is only for a ladder schedule (type: ladder)");
            }
        }
        if (!ladder) return;
        // `rounds: 1` (the default) is harmless.
        for (const std::string_view key : {"rounds", "challenger", "challengers", "sprt"}) {
            if (const Field* k = find(fields, key);
                k != nullptr && !(key == "rounds" && config_.rounds == 1)) {
                fail(k->key_node.Mark(),
                     in_quotes(k->key) +
                         " is not for a ladder schedule (each entrant plays until it is placed: "
                         "see games_per_entrant and target_error)");
            }
        }
        if (const Field* k = find(fields, "target_error");
            k != nullptr && config_.target_error <= 0) {
            fail(k->value.Mark(), "target_error must be positive (Elo), got " + k->value.Scalar());
        }
        if (config_.games_per_entrant % config_.games_per_pair != 0) {
            const Field* k = find(fields, "games_per_entrant");
            const Field* at = k != nullptr ? k : find(fields, "games_per_pair");
            fail(at != nullptr ? at->value.Mark() : fields.front().value.Mark(),
                 "games_per_entrant must be a multiple of games_per_pair (" +
                     std::to_string(config_.games_per_pair) + "), got " +
                     std::to_string(config_.games_per_entrant));
        }
    }

    void parse_openings(const Field& f) {
        require_map(f);
        const std::vector<Field> fields = fields_of(f.value, kOpeningsKeys, "'openings'");
        const Field* plies = find(fields, "random_plies");
        const Field* file = find(fields, "file");
        if (plies != nullptr && file != nullptr) {
            fail(f.value.Mark(), "give either 'random_plies' or 'file' in 'openings', not both");
        }
        if (plies != nullptr) {
            config_.openings.random_plies = static_cast<int>(integer(*plies, 0, kMaxPlies));
        }
        const Field* order = find(fields, "order");
        const Field* start = find(fields, "start");
        if (file == nullptr) {
            if (const Field* extra = order != nullptr ? order : start; extra != nullptr) {
                fail(extra->value.Mark(),
                     in_quotes(extra->key) + " in 'openings' needs an openings 'file'");
            }
        }
        if (file != nullptr) {
            const std::string name = string_value(*file);
            if (name.empty()) fail(file->value.Mark(), "'file' is empty");
            config_.openings.file = name;
            openings_file_ = *file;
            read_openings();
        }
        if (order != nullptr) {
            const std::string text = string_value(*order);
            if (text == kSequential) {
                config_.openings.order = OpeningOrder::kSequential;
            } else if (text == kRandomOrder) {
                config_.openings.order = OpeningOrder::kRandom;
            } else {
                fail(order->value.Mark(), "unknown openings order " + in_quotes(text) +
                                              " (known: sequential, random)" +
                                              record::suggestion(text, {kSequential, kRandomOrder}));
            }
        }
        if (start != nullptr) {
            // `start` alone means sequential.
            if (order == nullptr) config_.openings.order = OpeningOrder::kSequential;
            const auto count = static_cast<std::int64_t>(config_.openings.lines.size());
            const std::int64_t first = integer(*start, 1, std::numeric_limits<int>::max());
            if (first > count) {
                fail(start->value.Mark(), "start " + std::to_string(first) +
                                              " is past the last of the " + std::to_string(count) +
                                              " openings in " +
                                              in_quotes(config_.openings.file.string()));
            }
            config_.openings.start = static_cast<int>(first);
        }
    }

    // Reads the lines now; they are checked against the game at the end,
    // when the game is known whatever the order of the sections.
    void read_openings() {
        try {
            OpeningsFile file = read_openings_file(config_.openings.file);
            config_.openings.lines = std::move(file.lines);
            opening_line_numbers_ = std::move(file.line_numbers);
        } catch (const std::runtime_error& e) {
            fail(openings_file_->value.Mark(), e.what());
        }
    }

    // Every line is played on the board the config describes (for a family
    // of boards, the one realized from `seed`).
    void check_openings() {
        const auto game = games::make_game(
            config_.game, games::realize(config_.game, config_.game_params, config_.seed));
        OpeningsFile file{std::move(config_.openings.lines), opening_line_numbers_};
        const std::string problem = tournament::check_openings(*game, config_.game, file);
        config_.openings.lines = std::move(file.lines);
        if (!problem.empty()) {
            fail(openings_file_->value.Mark(),
                 "openings file " + in_quotes(config_.openings.file.string()) + " " + problem);
        }
    }

    void parse_bots(const Field& f) {
        require_value(f);
        if (!f.value.IsSequence()) {
            fail(f.value.Mark(), "expected a list for 'bots', got " + describe(f.value));
        }
        std::vector<int> name_lines;
        int index = 0;
        for (const YAML::Node& node : f.value) {
            ++index;
            const std::string which = "bot #" + std::to_string(index);
            if (!node.IsMap()) {
                fail(node.Mark(), "expected a map for " + which + ", got " + describe(node));
            }
            const std::vector<Field> fields = fields_of(node, kBotKeys, which);
            if (is_tsinghua_entry(fields)) {
                parse_tsinghua_bots(node, fields, which, name_lines);
                continue;
            }
            BotConfig bot = defaults_;
            const Field* name = find(fields, "name");
            if (name == nullptr) missing(node, "name", which);
            bot.name = string_value(*name);
            if (const auto problem = name_length_problem("bot name", bot.name); !problem.empty())
                fail(name->value.Mark(), problem);
            if (!is_valid_name(bot.name)) {
                fail(name->value.Mark(),
                     "bot name " + in_quotes(bot.name) +
                         " is not valid (use only letters, digits and _ . + -)");
            }
            for (std::size_t i = 0; i < config_.bots.size(); ++i) {
                if (config_.bots[i].name == bot.name) {
                    fail(name->value.Mark(), "duplicate bot name " + in_quotes(bot.name) +
                                                 " (first defined at line " +
                                                 std::to_string(name_lines[i]) + ")");
                }
            }
            const std::string who = "bot " + in_quotes(bot.name) + ": ";
            const Field* command = find(fields, "command");
            if (command == nullptr) missing(node, "command", "bot " + in_quotes(bot.name));
            parse_dir(fields, who, bot);
            const auto executable = parse_command(*command, who, bot);
            if (const Field* args = find(fields, "args")) append_args(*args, bot.argv);
            if (const Field* protocol = find(fields, "protocol")) {
                bot.protocol = string_value(*protocol);
                if (!session::parse_bot_protocol(bot.protocol)) {
                    fail(protocol->value.Mark(), who + "unknown protocol " +
                                                     in_quotes(bot.protocol) + " (expected " +
                                                     session::bot_protocol_names() +
                                                     ", or 'tsinghua-so' with a 'library')");
                }
                protocol_marks_.emplace_back(config_.bots.size(), protocol->value.Mark());
            }
            parse_bot_settings(node, fields, who, bot);
            bot.executable = executable;
            find_argument_files(*command, who, bot);
            name_lines.push_back(name->value.Mark().line + 1);
            config_.bots.push_back(std::move(bot));
        }
        name_lines_ = std::move(name_lines);
    }

    // `command`: split into bot.command and bot.argv, and its program found
    // from the bot's dir; returns the executable.
    std::filesystem::path parse_command(const Field& command, const std::string& who,
                                        BotConfig& bot) const {
        bot.command = string_value(command);
        try {
            bot.argv = session::split_command(bot.command);
        } catch (const std::invalid_argument& e) {
            fail(command.value.Mark(), who + e.what());
        }
        if (bot.argv.front().empty()) fail(command.value.Mark(), who + "empty command");
        {
            const auto [status, executable] = resolve_command(bot.argv.front(), bot.dir);
            const std::string in_dir =
                bot.dir.empty() ? "" : " in dir " + in_quotes(bot.dir.string());
            if (status == ExecStatus::kNotFound) {
                fail(command.value.Mark(),
                     who + "command " + in_quotes(bot.argv.front()) + " not found" +
                         (bot.argv.front().find('/') == std::string::npos ? " in PATH" : in_dir));
            }
            if (status == ExecStatus::kNotExecutable) {
                std::error_code ec;
                const bool file = std::filesystem::is_regular_file(executable, ec);
                fail(command.value.Mark(),
                     who + "command " + in_quotes(bot.argv.front()) + in_dir +
                         " is not executable" +
                         (file ? " (chmod +x it, or name its interpreter first, e.g. 'python3 " +
                                     bot.argv.front() + "')"
                               : std::string()));
            }
            return executable;
        }
    }

    // `bots_dir`: one bot per subfolder that holds a bot.yaml, in folder name
    // order (so the schedule is the same from run to run), after the `bots:`
    // list. Each starts in its folder. A subfolder without a manifest gets a
    // warning and is skipped. Problems in a manifest name the manifest.
    void parse_bots_dir(const Field& f) {
        namespace fs = std::filesystem;
        config_.bots_dir = string_value(f);
        if (config_.bots_dir.empty()) fail(f.value.Mark(), "'bots_dir' is empty");
        std::error_code ec;
        if (!fs::is_directory(config_.bots_dir, ec)) {
            fail(f.value.Mark(),
                 "bots_dir " + in_quotes(config_.bots_dir.string()) + " is not a directory");
        }
        std::vector<fs::path> folders;
        for (fs::directory_iterator it(config_.bots_dir, ec), end; !ec && it != end;
             it.increment(ec)) {
            const std::string leaf = it->path().filename().string();
            if (leaf.empty() || leaf.front() == '.') continue;
            std::error_code dir_ec;
            if (it->is_directory(dir_ec)) folders.push_back(it->path());
        }
        if (ec) {
            fail(f.value.Mark(), "cannot read bots_dir " + in_quotes(config_.bots_dir.string()) +
                                     " (" + ec.message() + ")");
        }
        std::sort(folders.begin(), folders.end());
        const std::size_t listed = config_.bots.size();
        std::vector<std::string> manifests;  // per bot from bots_dir, where its name is written
        for (const fs::path& folder : folders) {
            const fs::path manifest = folder / kManifestName;
            if (!fs::exists(manifest, ec)) {
                config_.warnings.push_back(folder.string() + ": warning: no " +
                                           std::string(kManifestName) +
                                           " in this folder of bots_dir; skipped");
                continue;
            }
            parse_manifest(folder, manifest, listed, manifests);
        }
    }

    void parse_manifest(const std::filesystem::path& folder, const std::filesystem::path& manifest,
                        std::size_t listed, std::vector<std::string>& manifests) {
        const std::string config_file = file_;
        file_ = manifest.string();  // what fail() names from here on
        std::ifstream in(manifest, std::ios::binary);
        if (!in) fail(YAML::Mark(), "cannot read the manifest");
        std::ostringstream content;
        content << in.rdbuf();
        YAML::Node root;
        try {
            root = YAML::Load(content.str());
        } catch (const YAML::Exception& e) {
            fail(e.mark, "YAML syntax error: " + e.msg);
        }
        if (!root.IsMap()) {
            fail(root.Mark(), root.IsNull() ? "the manifest is empty (expected 'command: ...')"
                                            : "expected a map (command, protocol, name, author)"
                                              ", got " +
                                                  describe(root));
        }
        const std::vector<Field> fields = fields_of(root, kManifestKeys, "");
        BotConfig bot = defaults_;
        bot.manifest = manifest;
        bot.dir = folder;
        const Field* name = find(fields, "name");
        bot.name = name != nullptr ? string_value(*name) : folder.filename().string();
        const YAML::Mark name_mark = name != nullptr ? name->value.Mark() : root.Mark();
        if (const auto problem = name_length_problem("bot name", bot.name); !problem.empty())
            fail(name_mark, problem);
        if (!is_valid_name(bot.name)) {
            fail(name_mark, "bot name " + in_quotes(bot.name) +
                                (name != nullptr ? std::string() : " (the folder's name)") +
                                " is not valid (use only letters, digits and _ . + -; or give "
                                "'name')");
        }
        for (std::size_t i = 0; i < config_.bots.size(); ++i) {
            if (config_.bots[i].name != bot.name) continue;
            fail(name_mark, "duplicate bot name " + in_quotes(bot.name) + " (first defined " +
                                (i < listed ? "at line " + std::to_string(name_lines_.at(i)) +
                                                  " of " + config_file
                                            : "in " + manifests.at(i - listed)) +
                                ")");
        }
        const std::string who = "bot " + in_quotes(bot.name) + ": ";
        if (const Field* author = find(fields, "author")) bot.author = string_value(*author);
        if (is_tsinghua_entry(fields)) {
            parse_manifest_library(fields, who, bot);
            manifests.push_back(manifest.string() + ":" + std::to_string(name_mark.line + 1));
            config_.bots.push_back(std::move(bot));
            file_ = config_file;
            return;
        }
        const Field* command = find(fields, "command");
        if (command == nullptr) missing(root, "command", "");
        const auto executable = parse_command(*command, who, bot);
        if (const Field* protocol = find(fields, "protocol")) {
            bot.protocol = string_value(*protocol);
            const auto parsed = session::parse_bot_protocol(bot.protocol);
            if (!parsed) {
                fail(protocol->value.Mark(), who + "unknown protocol " + in_quotes(bot.protocol) +
                                                 " (expected " + session::bot_protocol_names() +
                                                 ")");
            }
            if (!config_.game.empty()) {
                const std::string problem =
                    session::protocol_problem(*parsed, config_.game, config_.game_params);
                if (!problem.empty()) fail(protocol->value.Mark(), who + problem);
            }
        }
        bot.executable = executable;
        find_argument_files(*command, who, bot);
        manifests.push_back(manifest.string() + ":" + std::to_string(name_mark.line + 1));
        config_.bots.push_back(std::move(bot));
        file_ = config_file;
    }

    // A manifest with `protocol: tsinghua-so`: `library` names the strategy
    // library, from the submission's folder; arena-so-host plays it, a fresh
    // load for every game unless bot_defaults says otherwise.
    void parse_manifest_library(const std::vector<Field>& fields, const std::string& who,
                                BotConfig& bot) const {
        const Field* protocol = find(fields, "protocol");
        const Field* library = find(fields, "library");
        if (protocol == nullptr || string_value(*protocol) != kTsinghuaSo) {
            fail(library->key_node.Mark(),
                 who + "'library' needs 'protocol: tsinghua-so' (a Tsinghua strategy library)");
        }
        if (const Field* command = find(fields, "command")) {
            fail(command->key_node.Mark(), who +
                                               "'command' is not for protocol: tsinghua-so (the "
                                               "arena runs arena-so-host with the 'library')");
        }
        if (library == nullptr) {
            fail(protocol->value.Mark(),
                 who +
                     "missing 'library' (protocol: tsinghua-so plays a strategy library, e.g. "
                     "'library: strategy.so')");
        }
        if (!config_.game.empty()) {
            const std::string problem = tsinghua_game_problem(config_.game, config_.game_params);
            if (!problem.empty()) fail(protocol->value.Mark(), who + problem);
        }
        const auto host = so_host(protocol->value.Mark(), who);
        const std::string text = string_value(*library);
        if (text.empty()) fail(library->value.Mark(), who + "'library' is empty");
        const std::filesystem::path path = (bot.dir / text).lexically_normal();
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) {
            fail(library->value.Mark(), who + "library " + in_quotes(text) + " not found in " +
                                            in_quotes(bot.dir.string()));
        }
        if (!std::filesystem::is_regular_file(path, ec) || ::access(path.c_str(), R_OK) != 0) {
            fail(library->value.Mark(),
                 who + "library " + in_quotes(path.string()) + " is not a readable file");
        }
        bot.protocol = std::string(kTsinghuaSo);
        bot.command = path.string();
        bot.argv = so_host_argv(host, path);
        bot.executable = path;  // what the results' sha256 identifies: the strategy
        if (!restart_in_defaults_) bot.restart_each_game = true;
    }

    // `dir` (or its alias `workdir`): where the bot starts, into `bot`.
    void parse_dir(const std::vector<Field>& fields, const std::string& who, BotConfig& bot) const {
        const Field* dir = find(fields, "dir");
        const Field* workdir = find(fields, "workdir");
        if (dir != nullptr && workdir != nullptr) {
            fail(workdir->key_node.Mark(),
                 who + "give either 'dir' or 'workdir' (the same setting), not both");
        }
        if (dir == nullptr) dir = workdir;
        if (dir == nullptr) return;
        bot.dir = string_value(*dir);
        if (bot.dir.empty()) fail(dir->value.Mark(), who + in_quotes(dir->key) + " is empty");
        std::error_code ec;
        if (!std::filesystem::is_directory(bot.dir, ec)) {
            fail(dir->value.Mark(),
                 who + dir->key + " " + in_quotes(dir->value.Scalar()) + " is not a directory");
        }
    }

    // The arguments that name existing files (from the bot's dir) go into
    // bot.files; one that looks like a relative file path but names nothing
    // there gets a warning, since the bot will not find it either.
    void find_argument_files(const Field& command, const std::string& who, BotConfig& bot) {
        namespace fs = std::filesystem;
        bot.files = argument_files(bot.argv, bot.dir);
        const fs::path base = bot.dir.empty() ? fs::path(".") : bot.dir;
        for (std::size_t i = 1; i < bot.argv.size(); ++i) {
            const std::string& arg = bot.argv[i];
            if (arg.empty() || arg.front() == '-' || !fs::path(arg).is_relative() ||
                !looks_like_file(arg))
                continue;
            std::error_code ec;
            if (fs::exists(base / arg, ec)) continue;
            const YAML::Mark mark = command.value.Mark();
            config_.warnings.push_back(file_ + ":" + std::to_string(mark.line + 1) + ":" +
                                       std::to_string(mark.column + 1) + ": warning: " + who +
                                       "argument " + in_quotes(arg) + " names no file in " +
                                       (bot.dir.empty() ? std::string("the current directory")
                                                        : in_quotes(bot.dir.string())) +
                                       ", where the bot starts");
        }
    }

    // A path with a directory part, or a name with a script's or archive's extension.
    static bool looks_like_file(std::string_view arg) {
        if (arg.find('/') != std::string_view::npos) return true;
        for (const std::string_view ext :
             {".py", ".js", ".mjs", ".jar", ".rb", ".pl", ".sh", ".lua", ".php", ".R", ".class"}) {
            if (arg.size() > ext.size() && arg.ends_with(ext)) return true;
        }
        return false;
    }

    // The limits and isolation keys of a bot entry, into `bot`.
    void parse_bot_settings(const YAML::Node& node, const std::vector<Field>& fields,
                            const std::string& who, BotConfig& bot) const {
        for (const Field& field : fields) {
            if (std::find(kIsolationKeys.begin(), kIsolationKeys.end(), field.key) !=
                kIsolationKeys.end()) {
                parse_isolation_key(field, bot);
            }
        }
        if (bot.isolation.sandbox && !session::sandbox_available()) {
            fail(node.Mark(), who +
                                  "sandbox: true needs bubblewrap ('bwrap'), which is not "
                                  "installed or cannot create a sandbox here");
        }
    }

    // An entry that names a strategy library, or says protocol: tsinghua-so.
    static bool is_tsinghua_entry(const std::vector<Field>& fields) {
        const Field* protocol = find(fields, "protocol");
        return find(fields, "library") != nullptr || find(fields, "library_dir") != nullptr ||
               (protocol != nullptr && protocol->value.IsScalar() &&
                protocol->value.Scalar() == kTsinghuaSo);
    }

    // A bot entry with protocol: tsinghua-so (protocol/TSINGHUA.md), played by
    // arena-so-host. `library` names one strategy library and `name` the bot;
    // `library_dir` names a directory whose .so files become one bot each,
    // named after the file (with `name`, if given, as a prefix: name-file),
    // in file name order, so the schedule stays the same from run to run.
    void parse_tsinghua_bots(const YAML::Node& node, const std::vector<Field>& fields,
                             const std::string& which, std::vector<int>& name_lines) {
        const Field* protocol = find(fields, "protocol");
        const Field* library = find(fields, "library");
        const Field* library_dir = find(fields, "library_dir");
        const Field* name = find(fields, "name");
        const std::string label = name != nullptr ? "bot " + in_quotes(string_value(*name)) : which;
        const std::string who = label + ": ";
        if (protocol == nullptr || string_value(*protocol) != kTsinghuaSo) {
            const Field* key = library != nullptr ? library : library_dir;
            fail(key->key_node.Mark(), who + in_quotes(key->key) +
                                           " needs 'protocol: tsinghua-so' (a Tsinghua strategy "
                                           "library)");
        }
        for (const char* key : {"command", "args"}) {
            if (const Field* f = find(fields, key)) {
                fail(f->key_node.Mark(),
                     who + in_quotes(key) +
                         " is not for protocol: tsinghua-so (the arena runs arena-so-host with "
                         "the 'library')");
            }
        }
        if (library != nullptr && library_dir != nullptr) {
            fail(library_dir->key_node.Mark(),
                 who + "give either 'library' or 'library_dir', not both");
        }
        if (library == nullptr && library_dir == nullptr) {
            missing(node, "library", label + " (protocol: tsinghua-so plays a strategy library)");
        }
        if (library != nullptr && name == nullptr) missing(node, "name", which);
        BotConfig bot = defaults_;
        bot.protocol = std::string(kTsinghuaSo);
        const auto host = so_host(protocol->value.Mark(), who);
        // (library as written, path, where its bot's name comes from)
        std::vector<std::pair<std::string, std::filesystem::path>> libraries;
        const Field& where = library != nullptr ? *library : *library_dir;
        const std::string text = string_value(where);
        if (text.empty()) fail(where.value.Mark(), who + in_quotes(where.key) + " is empty");
        std::error_code ec;
        if (library != nullptr) {
            if (!std::filesystem::exists(text, ec)) {
                fail(where.value.Mark(), who + "library " + in_quotes(text) + " not found");
            }
            if (!std::filesystem::is_regular_file(text, ec) || ::access(text.c_str(), R_OK) != 0) {
                fail(where.value.Mark(),
                     who + "library " + in_quotes(text) + " is not a readable file");
            }
            libraries.emplace_back(text, text);
        } else {
            if (!std::filesystem::is_directory(text, ec)) {
                fail(where.value.Mark(),
                     who + "library_dir " + in_quotes(text) + " is not a directory");
            }
            for (const auto& path : strategy_libraries(text))
                libraries.emplace_back(path.string(), path);
            if (libraries.empty()) {
                fail(where.value.Mark(),
                     who + "library_dir " + in_quotes(text) + " holds no .so files");
            }
        }
        parse_dir(fields, who, bot);
        parse_bot_settings(node, fields, who, bot);
        // A fresh load of the strategy for every game unless `restart` is
        // written: course strategies keep global state that assumes one game
        // per load (protocol/TSINGHUA.md).
        if (!restart_in_defaults_ && find(fields, "restart") == nullptr)
            bot.restart_each_game = true;
        tsinghua_marks_.emplace_back(label, protocol->value.Mark());
        for (const auto& [written, path] : libraries) {
            BotConfig b = bot;
            if (library != nullptr) {
                b.name = string_value(*name);
            } else {
                b.name = path.stem().string();
                if (name != nullptr) b.name = string_value(*name) + "-" + b.name;
            }
            const YAML::Mark mark =
                name != nullptr && library != nullptr ? name->value.Mark() : where.value.Mark();
            if (const auto problem = name_length_problem("bot name", b.name); !problem.empty())
                fail(mark, problem);
            if (!is_valid_name(b.name)) {
                fail(mark, "bot name " + in_quotes(b.name) +
                               (library != nullptr ? std::string() : " (from " + written + ")") +
                               " is not valid (use only letters, digits and _ . + -)");
            }
            for (std::size_t i = 0; i < config_.bots.size(); ++i) {
                if (config_.bots[i].name == b.name) {
                    fail(mark, "duplicate bot name " + in_quotes(b.name) +
                                   " (first defined at line " + std::to_string(name_lines[i]) +
                                   ")");
                }
            }
            b.command = written;
            b.argv = so_host_argv(host, path);
            b.executable = path;  // what the results' sha256 identifies: the strategy
            name_lines.push_back(mark.line + 1);
            config_.bots.push_back(std::move(b));
        }
    }

    // Tsinghua strategies play Connect-4 only (checked once the game is known,
    // whatever the order of the sections).
    void check_tsinghua_bots() const {
        if (tsinghua_marks_.empty()) return;
        const std::string problem = tsinghua_game_problem(config_.game, config_.game_params);
        const auto& [label, mark] = tsinghua_marks_.front();
        if (!problem.empty()) fail(mark, label + ": " + problem);
    }

    void parse_sprt(const Field& f) {
        require_map(f);
        const std::vector<Field> fields = fields_of(f.value, kSprtKeys, "'sprt'");
        for (const std::string_view key : {"elo0", "elo1"}) {
            if (find(fields, key) == nullptr) missing(f.value, key, "'sprt'");
        }
        rating::SprtOptions options;
        for (const Field& s : fields) {
            if (s.key == "elo0") options.elo0 = real(s, -kMaxElo, kMaxElo);
            if (s.key == "elo1") options.elo1 = real(s, -kMaxElo, kMaxElo);
            if (s.key == "alpha") options.alpha = real(s, 0.0, 1.0);
            if (s.key == "beta") options.beta = real(s, 0.0, 1.0);
            if (s.key == "model") {
                const std::string name = string_value(s);
                const auto model = rating::parse_sprt_model(name);
                if (!model) {
                    fail(s.value.Mark(), "unknown SPRT model " + in_quotes(name) +
                                             " (known: normalized, logistic)" +
                                             record::suggestion(name, {"normalized", "logistic"}));
                }
                options.model = *model;
            }
        }
        if (const std::string problem = rating::sprt_options_problem(options); !problem.empty())
            fail(f.value.Mark(), "in 'sprt': " + problem);
        config_.sprt = options;
    }

    // After the bots: every anchor names one of them.
    void parse_anchors(const Field& f) {
        require_map(f);
        for (const Field& a : fields_of(f.value, {}, "'anchors'")) {
            const bool known = std::any_of(config_.bots.begin(), config_.bots.end(),
                                           [&](const BotConfig& b) { return b.name == a.key; });
            if (!known) {
                std::vector<std::string_view> names;
                for (const BotConfig& b : config_.bots)
                    names.push_back(b.name);
                fail(a.key_node.Mark(), "anchor " + in_quotes(a.key) + " is not one of the bots" +
                                            record::suggestion(a.key, names));
            }
            config_.anchors.push_back({a.key, real(a, -kMaxElo, kMaxElo)});
        }
        if (config_.anchors.empty())
            fail(f.value.Mark(), "'anchors' is empty (give bot: rating pairs, or leave it out)");
    }

    // A finite number in [lo, hi].
    [[nodiscard]] double real(const Field& f, double lo, double hi) const {
        require_value(f);
        const std::string text = f.value.IsScalar() ? f.value.Scalar() : std::string();
        double value = 0.0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (!f.value.IsScalar() || text.empty() || ptr != end || ec != std::errc() ||
            !std::isfinite(value)) {
            fail(f.value.Mark(), "expected a number for " + in_quotes(f.key) + ", got " +
                                     (f.value.IsScalar() ? in_quotes(text) : describe(f.value)));
        }
        if (value < lo || value > hi) {
            std::ostringstream range;
            range << f.key << " must be between " << lo << " and " << hi << ", got " << text;
            fail(f.value.Mark(), range.str());
        }
        return value;
    }

    void parse_scoring(const Field& f) {
        require_map(f);
        Scoring scoring;
        for (const Field& s : fields_of(f.value, kScoringKeys, "'scoring'")) {
            const int points = static_cast<int>(integer(s, 0, kMaxScoringPoints));
            if (s.key == "win") scoring.win = points;
            if (s.key == "draw") scoring.draw = points;
            if (s.key == "loss") scoring.loss = points;
        }
        config_.scoring = scoring;
    }

    [[nodiscard]] bool boolean(const Field& f) const {
        require_value(f);
        const std::string text = f.value.IsScalar() ? f.value.Scalar() : std::string();
        if (text == "true") return true;
        if (text == "false") return false;
        fail(f.value.Mark(), "expected true or false for " + in_quotes(f.key) + ", got " +
                                 (f.value.IsScalar() ? in_quotes(text) : describe(f.value)));
    }

    // One of kIsolationKeys, into `bot`.
    void parse_isolation_key(const Field& f, BotConfig& bot) const {
        auto& limits = bot.isolation.limits;
        const auto count = [&](std::int64_t hi) {
            return static_cast<std::uint64_t>(integer(f, 0, hi));
        };
        if (f.key == "memory_mb") {
            limits.memory_mb = count(kMaxMegabytes);
        } else if (f.key == "file_size_mb") {
            limits.file_size_mb = count(kMaxMegabytes);
        } else if (f.key == "open_files") {
            limits.open_files = count(kMaxCount);
        } else if (f.key == "processes") {
            limits.processes = count(kMaxCount);
        } else if (f.key == "cpu_seconds") {
            limits.cpu_seconds = count(kMaxCount);
        } else if (f.key == "nice") {
            limits.nice = static_cast<int>(integer(f, 0, bounds::kMaxNice));
        } else if (f.key == "max_line_bytes") {
            bot.max_line_bytes = static_cast<std::size_t>(integer(f, kMinLineBytes, kMaxLineBytes));
        } else if (f.key == "freeze_when_idle") {
            bot.isolation.freeze_when_idle = boolean(f);
        } else if (f.key == "freeze_grace_ms") {
            bot.isolation.freeze_grace = session::Millis{integer(f, 0, kMaxFreezeGraceMs)};
        } else if (f.key == "sandbox") {
            bot.isolation.sandbox = boolean(f);
        } else if (f.key == "cgroup") {
            bot.isolation.cgroup = boolean(f);
        } else if (f.key == "restart") {
            require_value(f);
            const std::string text = f.value.IsScalar() ? f.value.Scalar() : std::string();
            if (text == "per-game") {
                bot.restart_each_game = true;
            } else if (text == "on-fault") {
                bot.restart_each_game = false;
            } else {
                fail(f.value.Mark(),
                     "expected per-game or on-fault for 'restart', got " +
                         (f.value.IsScalar() ? in_quotes(text) : describe(f.value)));
            }
        } else if (f.key == "pass_env") {
            require_value(f);
            if (!f.value.IsSequence()) {
                fail(f.value.Mark(),
                     "expected a list of variable names for 'pass_env', got " + describe(f.value));
            }
            bot.isolation.pass_env.clear();
            for (const YAML::Node& name : f.value) {
                if (!name.IsScalar() || name.Scalar().empty() ||
                    name.Scalar().find('=') != std::string::npos) {
                    fail(name.Mark(),
                         "expected a variable name in 'pass_env', got " + describe(name));
                }
                bot.isolation.pass_env.push_back(name.Scalar());
            }
        }
    }

    void append_args(const Field& f, std::vector<std::string>& argv) const {
        require_value(f);
        if (!f.value.IsSequence()) {
            fail(f.value.Mark(), "expected a list for 'args', got " + describe(f.value));
        }
        for (const YAML::Node& arg : f.value) {
            if (!arg.IsScalar()) {
                fail(arg.Mark(), "expected a string in 'args', got " + describe(arg));
            }
            argv.push_back(arg.Scalar());
        }
    }

    // Each bot's protocol can play the game (a gomocup bot plays only gomoku).
    void check_protocols() const {
        for (const auto& [index, mark] : protocol_marks_) {
            const BotConfig& bot = config_.bots[index];
            const auto protocol = session::parse_bot_protocol(bot.protocol);
            const std::string problem =
                session::protocol_problem(*protocol, config_.game, config_.game_params);
            if (!problem.empty()) fail(mark, "bot " + in_quotes(bot.name) + ": " + problem);
        }
    }

    void check_challenger() const {
        const auto& bots = config_.bots;
        const bool known = std::any_of(bots.begin(), bots.end(), [&](const BotConfig& b) {
            return b.name == config_.challenger;
        });
        if (!known) {
            fail(challenger_->value.Mark(),
                 "challenger " + in_quotes(config_.challenger) + " is not one of the bots");
        }
        // Unique names and at least two bots leave at least one opponent.
    }

    // `challengers: bots_dir`: the submissions of bots_dir against the
    // references of `bots:`, so both must be there.
    void check_challengers(const Field* bots, const Field* bots_dir) const {
        if (bots_dir == nullptr) {
            fail(challengers_->value.Mark(),
                 "'challengers: bots_dir' plays the bots of 'bots_dir', and there is no "
                 "'bots_dir'");
        }
        if (bots == nullptr || name_lines_.empty()) {
            fail(challengers_->value.Mark(),
                 "'challengers: bots_dir' plays each bot of bots_dir against the bots of "
                 "'bots' (the references), and there are none");
        }
    }

    std::string file_;
    Config config_;
    BotConfig defaults_;                // from `bot_defaults`
    bool restart_in_defaults_ = false;  // `bot_defaults` writes `restart`
    std::optional<Field> challenger_;
    std::optional<Field> challengers_;
    std::optional<Field> sprt_;
    std::optional<Field> anchors_;  // parsed once the bots are known
    std::vector<int> name_lines_;   // per bot of the `bots:` list, the line of its name
    std::optional<Field> openings_file_;
    std::vector<int> opening_line_numbers_;  // per entry of config_.openings.lines
    // Bots that name their protocol: index in config_.bots, where it is written.
    std::vector<std::pair<std::size_t, YAML::Mark>> protocol_marks_;
    // Each tsinghua-so entry ("bot 'x'" or "bot #n") and where it says so.
    std::vector<std::pair<std::string, YAML::Mark>> tsinghua_marks_;
};

}  // namespace

session::BotSpec bot_spec(const BotConfig& bot) {
    session::BotSpec spec{bot.name, bot.argv, bot.dir, bot.isolation};
    spec.protocol = session::parse_bot_protocol(bot.protocol).value_or(spec.protocol);
    return spec;
}

session::SessionOptions session_options(const Config& config, const BotConfig& bot) {
    session::SessionOptions options;
    options.startup_limit = session::Millis{config.startup_ms};
    options.max_line_bytes = bot.max_line_bytes;
    options.realtime_deadlines = config.realtime_deadlines;
    options.transcript = config.transcript;
    if (bot.isolation.sandbox) options.sandbox_hidden = sandbox_hidden(config, bot);
    return options;
}

std::vector<std::filesystem::path> sandbox_hidden(const Config& config, const BotConfig& bot) {
    namespace fs = std::filesystem;
    const auto absolute = [](const fs::path& path) {
        std::error_code ec;
        const fs::path a = fs::absolute(path, ec);
        return ec ? path : a.lexically_normal();
    };
    std::vector<fs::path> own = {absolute(bot.executable)};
    for (const auto& file : bot.files)
        own.push_back(absolute(file));
    std::vector<fs::path> hidden;
    const auto hide = [&](const fs::path& path) {
        if (path.empty()) return;
        const fs::path a = absolute(path);
        if (std::find(own.begin(), own.end(), a) == own.end()) hidden.push_back(a);
    };
    // The results (with SQLite's side files), the config, and the folder
    // that later submissions arrive in.
    hide(config.database);
    hide(config.database.string() + "-wal");
    hide(config.database.string() + "-journal");
    hide(config.path);
    hide(config.bots_dir);
    // Every other bot's folder and program files (a bot's own are shown).
    for (const BotConfig& other : config.bots) {
        if (&other == &bot || other.name == bot.name) continue;
        if (!other.dir.empty() && absolute(other.dir) != absolute(bot.dir)) hide(other.dir);
        hide(other.executable);
        for (const auto& file : other.files)
            hide(file);
    }
    return hidden;
}

ProgramFiles program_files(const std::vector<std::string>& argv, const std::filesystem::path& dir) {
    ProgramFiles program;
    if (argv.empty()) return program;
    if (const auto [status, path] = resolve_command(argv.front(), dir); status == ExecStatus::kOk)
        program.executable = path;
    program.files = argument_files(argv, dir);
    return program;
}

std::string program_sha256(const ProgramFiles& program) {
    const std::string sha = sha256_file(program.executable);
    if (program.files.empty() || sha.empty()) return sha;
    std::string listing = sha + "  " + program.executable.string() + "\n";
    for (const auto& file : program.files)
        listing += sha256_file(file) + "  " + file.string() + "\n";
    return sha256_text(listing);
}

std::string bot_sha256(const BotConfig& bot) {
    return program_sha256({bot.executable, bot.files});
}

Config parse_config(const std::string& text, const std::filesystem::path& path) {
    return Parser(text, path).parse();
}

Config load_config(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        throw ConfigError(path.string() + ": cannot read the config file (it is a directory)");
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int error = errno;
        throw ConfigError(path.string() + ": cannot read the config file" +
                          (error != 0 ? std::string(" (") + std::strerror(error) + ")" : ""));
    }
    std::ostringstream content;
    content << in.rdbuf();
    return parse_config(content.str(), path);
}

}  // namespace arena::tournament
