#include "arena/games/registry.hpp"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <string>

#include "arena/games/connect4.hpp"
#include "arena/games/gomoku.hpp"
#include "arena/games/reversi.hpp"

namespace arena::games {
namespace {

constexpr std::string_view kConnect4 = "connect4";
constexpr std::string_view kGomoku = "gomoku";
constexpr std::string_view kReversi = "reversi";

[[noreturn]] void fail(std::string_view game, const std::string& what) {
    throw GameError(std::string(game) + ": " + what);
}

std::string key_value(std::string_view key, std::string_view value) {
    return std::string(key) + "=" + std::string(value);
}

// Every key must be known and appear once.
void check_keys(std::string_view game, const Params& params,
                std::initializer_list<std::string_view> known) {
    for (auto it = params.begin(); it != params.end(); ++it) {
        const auto& [key, value] = *it;
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            std::string list;
            for (const auto k : known) {
                if (!list.empty()) list += ", ";
                list += k;
            }
            fail(game, "unknown parameter " + key_value(key, value) +
                           (known.size() == 0 ? " (it takes none)" : " (known: " + list + ")"));
        }
        if (std::any_of(params.begin(), it, [&](const auto& p) { return p.first == it->first; })) {
            fail(game, "parameter " + key + " is given twice");
        }
    }
}

enum class IntStatus { kOk, kNotInteger, kOverflow };

// Plain decimal, optional '-', nothing else (no spaces, no '+').
IntStatus parse_int(std::string_view text, int& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    if (ptr != end || ec == std::errc::invalid_argument) return IntStatus::kNotInteger;
    if (ec == std::errc::result_out_of_range) return IntStatus::kOverflow;
    return IntStatus::kOk;
}

int int_param(std::string_view game, const Params& params, std::string_view key, int fallback,
              int lo, int hi) {
    const std::string* text = find_param(params, key);
    if (text == nullptr) return fallback;
    int value = 0;
    const IntStatus status = parse_int(*text, value);
    if (status == IntStatus::kNotInteger) {
        fail(game, key_value(key, *text) + " is not an integer");
    }
    if (status == IntStatus::kOverflow || value < lo || value > hi) {
        fail(game, key_value(key, *text) + " is out of range (" + std::to_string(lo) + ".." +
                       std::to_string(hi) + ")");
    }
    return value;
}

// "<col>:<row>,..." with 1-based numbers; returns 0-based cells.
std::vector<Connect4Cell> parse_blocked(const std::string& text, int rows, int cols) {
    std::vector<Connect4Cell> cells;
    if (text.empty()) return cells;
    const std::string prefix = key_value("blocked", text) + ": ";
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view item = std::string_view(text).substr(start, comma - start);
        const std::size_t colon = item.find(':');
        int col = 0;
        int row = 0;
        const bool has_colon = colon != std::string_view::npos;
        const IntStatus col_status =
            has_colon ? parse_int(item.substr(0, colon), col) : IntStatus::kNotInteger;
        const IntStatus row_status =
            has_colon ? parse_int(item.substr(colon + 1), row) : IntStatus::kNotInteger;
        if (col_status == IntStatus::kNotInteger || row_status == IntStatus::kNotInteger) {
            fail(kConnect4, prefix + "'" + std::string(item) + "' is not a cell <col>:<row>");
        }
        if (col_status == IntStatus::kOverflow || row_status == IntStatus::kOverflow || col < 1 ||
            col > cols || row < 1 || row > rows) {
            fail(kConnect4, prefix + "cell " + std::string(item) +
                                " is outside the board (cols 1.." + std::to_string(cols) +
                                ", rows 1.." + std::to_string(rows) + ")");
        }
        const Connect4Cell cell{col - 1, row - 1};
        if (std::find(cells.begin(), cells.end(), cell) != cells.end()) {
            fail(kConnect4, prefix + "cell " + std::string(item) + " is listed twice");
        }
        cells.push_back(cell);
        if (comma == text.size()) break;
        start = comma + 1;
    }
    return cells;
}

// True for variant=tsinghua, false for standard or no variant.
bool is_tsinghua(const Params& params) {
    const std::string* variant = find_param(params, "variant");
    if (variant == nullptr || *variant == "standard") return false;
    if (*variant == "tsinghua") return true;
    fail(kConnect4, key_value("variant", *variant) + " is unknown (standard, tsinghua)");
}

void check_connect4_keys(const Params& params) {
    check_keys(kConnect4, params, {"rows", "cols", "connect", "blocked", "variant"});
}

std::unique_ptr<Game> make_connect4(const Params& params) {
    check_connect4_keys(params);
    if (is_tsinghua(params)) {
        fail(kConnect4,
             "variant=tsinghua describes a family of boards: realize() it with a seed first");
    }
    Connect4Config config;
    config.rows =
        int_param(kConnect4, params, "rows", config.rows, kConnect4MinSize, kConnect4MaxSize);
    config.cols =
        int_param(kConnect4, params, "cols", config.cols, kConnect4MinSize, kConnect4MaxSize);
    config.connect = int_param(kConnect4, params, "connect", config.connect, kConnect4MinConnect,
                               std::max(config.rows, config.cols));
    if (const std::string* blocked = find_param(params, "blocked")) {
        config.blocked = parse_blocked(*blocked, config.rows, config.cols);
    }
    return std::make_unique<Connect4Game>(std::move(config));
}

std::unique_ptr<Game> make_gomoku(const Params& params) {
    check_keys(kGomoku, params, {"size", "rule"});
    GomokuConfig config;
    config.size = int_param(kGomoku, params, "size", config.size, kGomokuMinSize, kGomokuMaxSize);
    if (const std::string* rule = find_param(params, "rule")) {
        if (*rule == to_string(GomokuRule::kFreestyle)) {
            config.rule = GomokuRule::kFreestyle;
        } else if (*rule == to_string(GomokuRule::kExact5)) {
            config.rule = GomokuRule::kExact5;
        } else {
            fail(kGomoku, key_value("rule", *rule) + " is unknown (freestyle, exact5)");
        }
    }
    return std::make_unique<GomokuGame>(config);
}

std::unique_ptr<Game> make_reversi(const Params& params) {
    check_keys(kReversi, params, {});
    return std::make_unique<ReversiGame>();
}

}  // namespace

std::vector<std::string> game_names() {
    return {std::string(kConnect4), std::string(kGomoku), std::string(kReversi)};
}

std::unique_ptr<Game> make_game(std::string_view name, const Params& params) {
    if (name == kConnect4) return make_connect4(params);
    if (name == kGomoku) return make_gomoku(params);
    if (name == kReversi) return make_reversi(params);
    throw GameError("unknown game '" + std::string(name) + "' (known: connect4, gomoku, reversi)");
}

Params realize(std::string_view name, const Params& params, std::uint64_t seed) {
    if (name == kConnect4) {
        check_connect4_keys(params);
        if (is_tsinghua(params)) {
            for (const auto& [key, value] : params) {
                if (key != "variant") {
                    fail(kConnect4,
                         "variant=tsinghua chooses rows, cols, connect and blocked "
                         "itself; " +
                             key_value(key, value) + " is not allowed with it");
                }
            }
            return Connect4Game(tsinghua_config(seed)).params();
        }
    }
    // A single board already: validate it so a bad set fails early.
    static_cast<void>(make_game(name, params));
    return params;
}

const std::string* find_param(const Params& params, std::string_view key) {
    const auto it =
        std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.first == key; });
    return it == params.end() ? nullptr : &it->second;
}

}  // namespace arena::games
