#include "arena/tournament/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "arena/games/registry.hpp"
#include "arena/record/suggest.hpp"
#include "arena/tournament/config_bots.hpp"
#include "arena/tournament/config_fields.hpp"
#include "arena/tournament/config_league.hpp"
#include "arena/tournament/config_tune.hpp"
#include "arena/tournament/openings.hpp"
#include "arena/tournament/scoring.hpp"

namespace arena::tournament {
namespace {

constexpr std::string_view kRoundRobin = "round-robin";
constexpr std::string_view kGauntlet = "gauntlet";
constexpr std::string_view kLadder = "ladder";
constexpr int kMinBots = 2;
using bounds::kMaxConcurrency;
using bounds::kMaxGames;
using bounds::kMaxMillis;
using bounds::kMaxPlies;

const std::initializer_list<std::string_view> kTopKeys = {
    "name",     "game",         "time",  "schedule",      "openings", "concurrency", "seed",
    "database", "journal_mode", "bots",  "bot_defaults",  "scoring",  "transcript",  "anchors",
    "versions", "bots_dir",     "check", "count_repeats", "tune",     "league"};
// What a tuning config (`tune:`) makes itself, or has no use for.
const std::initializer_list<std::string_view> kNotWithTune = {
    "bots", "bots_dir", "schedule", "anchors", "scoring", "check", "league"};
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
                                                               "start", "per_opponent"};
constexpr std::string_view kSequential = "sequential";
constexpr std::string_view kRandomOrder = "random";
const std::initializer_list<std::string_view> kScoringKeys = {"win", "draw", "loss"};

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

// One submission folder read in place of bots_dir's (submission_config).
struct Submission {
    std::filesystem::path folder;
    std::string name;
};

class Parser : FieldReader {
  public:
    Parser(const std::string& text, const std::filesystem::path& path,
           std::optional<Submission> submission = std::nullopt)
        : FieldReader(path.string()),
          bots_(path.string(), config_),
          submission_(std::move(submission)) {
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
        // Defaults first: every bot starts from them, wherever they are written;
        // and the time control, which a bot's own `time:` starts from.
        if (const Field* defaults = find(fields, "bot_defaults")) bots_.parse_defaults(*defaults);
        if (const Field* time = find(fields, "time")) parse_time(*time);
        // Sections in the order they are written, so the first problem in the
        // file is the one reported.
        for (const Field& f : fields) {
            if (f.key == "name") {
                parse_name(f);
            } else if (f.key == "game") {
                parse_game(f);
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
            } else if (f.key == "journal_mode") {
                parse_journal_mode(f);
            } else if (f.key == "scoring") {
                parse_scoring(f);
            } else if (f.key == "transcript") {
                config_.transcript = boolean(f);
            } else if (f.key == "anchors") {
                anchors_ = f;
            } else if (f.key == "versions") {
                parse_versions(f);
            } else if (f.key == "bots") {
                bots_.parse_bots(f);
            } else if (f.key == "check") {
                config_.check = boolean(f);
            } else if (f.key == "count_repeats") {
                config_.count_repeats = boolean(f);
            } else if (f.key == "tune") {
                TuneParser(file_, config_, bots_).parse(f);
            } else if (f.key == "league") {
                config_.league = LeagueParser(file_).parse(f);
                bots_.run_sandboxed(f.key_node.Mark());
            }
        }
        if (config_.tune) check_tune(fields);
        // Then what is missing, and what depends on more than one section.
        for (const std::string_view key : {"name", "game"}) {
            if (find(fields, key) == nullptr) missing(root, key, "");
        }
        const Field* bots_dir = find(fields, "bots_dir");
        check_bots_dir(fields, bots_dir);
        if (find(fields, "bots") == nullptr && bots_dir == nullptr && !config_.tune)
            missing(root, "bots", "");
        if (bots_dir != nullptr && submission_) {
            bots_.parse_submission(*bots_dir, submission_->folder, submission_->name);
        } else if (bots_dir != nullptr) {
            bots_.parse_bots_dir(*bots_dir);
        }
        if (const Field* check = find(fields, "check");
            check != nullptr && config_.check && bots_dir == nullptr) {
            fail(check->value.Mark(),
                 "'check: true' checks the bots of 'bots_dir', and there is no 'bots_dir'");
        }
        // A league may have fewer (too_few_bots), and a submission is read alone.
        if (static_cast<int>(config_.bots.size()) < kMinBots && !config_.league && !submission_) {
            const Field* where = find(fields, "bots");
            if (where == nullptr) where = bots_dir;
            fail(where->value.Mark(),
                 "at least " + std::to_string(kMinBots) + " bots are needed, got " +
                     std::to_string(config_.bots.size()) +
                     (bots_dir != nullptr ? " (with those of 'bots_dir')" : ""));
        }
        // (Both name bots that a submission read alone goes without.)
        if (config_.schedule == ScheduleType::kGauntlet && challenger_ && !submission_)
            check_challenger();
        if (challengers_) check_challengers(find(fields, "bots"), bots_dir);
        if (anchors_ && !submission_) parse_anchors(*anchors_);
        bots_.check_protocols();
        bots_.check_tsinghua_bots();
        if (!config_.openings.file.empty()) check_openings();
        if (config_.database.empty()) config_.database = "results/" + config_.name + ".db";
        return std::move(config_);
    }

  private:
    // A league plays the uploads of bots_dir, and a submission is a folder
    // of it: both need it.
    void check_bots_dir(const std::vector<Field>& fields, const Field* bots_dir) const {
        if (bots_dir != nullptr) return;
        if (const Field* league = find(fields, "league")) {
            fail(league->key_node.Mark(),
                 "'league' needs 'bots_dir', the folder the participants' uploads go to (one "
                 "folder each, named after them)");
        }
        if (submission_) {
            fail(YAML::Mark(), "there is no 'bots_dir', so " +
                                   in_quotes(submission_->folder.string()) +
                                   " cannot be read as one of its submissions");
        }
    }

    // A tuning config makes its bots and schedule.
    void check_tune(const std::vector<Field>& fields) {
        for (const std::string_view key : kNotWithTune) {
            if (const Field* f = find(fields, key)) {
                fail(f->key_node.Mark(), in_quotes(key) +
                                             " is not for a tuning config: 'tune' makes its bots "
                                             "(theta+ and theta-, and the opponent) and its "
                                             "schedule (docs/tuning.md)");
            }
        }
        config_.tune->spsa.seed = config_.seed;
        // Without `openings`, the game's balanced suite, as in `arena match`:
        // from one position, deterministic bots would play one game over and
        // over, and the tune would learn nothing.
        if (find(fields, "openings") == nullptr && find(fields, "game") != nullptr) {
            if (const auto suite = default_suite(config_.game, config_.game_params)) {
                config_.openings.file = *suite;
                read_openings();
            } else {
                config_.warnings.push_back(
                    file_ + ":" + std::to_string(find(fields, "tune")->key_node.Mark().line + 1) +
                    ":1: warning: no opening suite is shipped for this board: give the tune "
                    "'openings' (a file or random_plies), or deterministic bots play the same "
                    "games at every iteration");
            }
        }
        // Against a fixed opponent, theta+ and theta- of one iteration play
        // the same opening and board.
        if (!config_.tune->self) config_.openings.same_per_opponent = true;
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

    void parse_journal_mode(const Field& f) {
        const std::string value = string_value(f);
        if (value == store::journal_mode_name(store::JournalMode::kWal)) {
            config_.journal_mode = store::JournalMode::kWal;
        } else if (value == store::journal_mode_name(store::JournalMode::kDelete)) {
            config_.journal_mode = store::JournalMode::kDelete;
        } else {
            fail(f.value.Mark(), "unknown value " + in_quotes(value) +
                                     " for 'journal_mode' (known: wal, the default, and "
                                     "delete, for a database on a network filesystem)" +
                                     record::suggestion(value, {"wal", "delete"}));
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
                    fail(s.value.Mark(),
                         "unknown schedule type " + in_quotes(type) +
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
                fail(order->value.Mark(),
                     "unknown openings order " + in_quotes(text) + " (known: sequential, random)" +
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
        if (const Field* per = find(fields, "per_opponent"); per != nullptr) {
            const std::string text = string_value(*per);
            if (text != "same" && text != "different") {
                fail(per->value.Mark(), "unknown per_opponent " + in_quotes(text) +
                                            " (known: same, different)" +
                                            record::suggestion(text, {"same", "different"}));
            }
            config_.openings.same_per_opponent = text == "same";
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
        if (bots == nullptr || !bots_.has_listed_bots()) {
            fail(challengers_->value.Mark(),
                 "'challengers: bots_dir' plays each bot of bots_dir against the bots of "
                 "'bots' (the references), and there are none");
        }
    }

    Config config_;
    BotsParser bots_;                       // the bots, into config_
    std::optional<Submission> submission_;  // read in place of bots_dir's folders
    std::optional<Field> challenger_;
    std::optional<Field> challengers_;
    std::optional<Field> sprt_;
    std::optional<Field> anchors_;  // parsed once the bots are known
    std::optional<Field> openings_file_;
    std::vector<int> opening_line_numbers_;  // per entry of config_.openings.lines
};

}  // namespace

match::SideControl side_control(const Config& config, const BotConfig& bot) {
    return {bot.time.value_or(config.time), bot.limits};
}

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

Config parse_config(const std::string& text, const std::filesystem::path& path) {
    return Parser(text, path).parse();
}

namespace {

std::string config_file_text(const std::filesystem::path& path) {
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
    return content.str();
}

}  // namespace

Config load_config(const std::filesystem::path& path) {
    return parse_config(config_file_text(path), path);
}

Config submission_config(const std::filesystem::path& config_path,
                         const std::filesystem::path& folder, const std::string& name) {
    return Parser(config_file_text(config_path), config_path, Submission{folder, name}).parse();
}

BotConfig submission_bot(const std::filesystem::path& config_path,
                         const std::filesystem::path& folder, const std::string& name) {
    Config config = submission_config(config_path, folder, name);
    return std::move(config.bots.back());
}

std::string too_few_bots(const Config& config) {
    const std::size_t n = config.bots.size();
    if (static_cast<int>(n) >= kMinBots) return "";
    std::string text = (config.league ? "league '" : "tournament '") + config.name + "' has " +
                       std::to_string(n) + (n == 1 ? " bot" : " bots") + "; at least " +
                       std::to_string(kMinBots) + " are needed to play";
    if (config.league) text += "; uploads add more";
    return text;
}

std::optional<Config> load_config(const std::filesystem::path& path, std::ostream& err) {
    try {
        return load_config(path);
    } catch (const ConfigError& e) {
        err << e.what() << "\n";
        return std::nullopt;
    }
}

}  // namespace arena::tournament
