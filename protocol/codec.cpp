#include "protocol/codec.hpp"

#include <charconv>
#include <limits>
#include <system_error>

namespace arena::protocol {

namespace {

[[nodiscard]] bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

// Drops the line terminator a reader may have left: "\n", "\r\n" or "\r".
[[nodiscard]] std::string_view strip_terminator(std::string_view line) {
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

[[nodiscard]] std::string_view trim(std::string_view text) {
    while (!text.empty() && is_blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && is_blank(text.back()))
        text.remove_suffix(1);
    return text;
}

// The text after the first word, trimmed. Precondition: `line` has a first word.
[[nodiscard]] std::string_view rest_after_first_word(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && is_blank(line[i]))
        ++i;
    while (i < line.size() && !is_blank(line[i]))
        ++i;
    return trim(line.substr(i));
}

struct KeyValue {
    std::string_view key;
    std::string_view value;
};

// "key=value" with a non-empty key; the value may be empty.
[[nodiscard]] std::optional<KeyValue> split_key_value(std::string_view word) {
    const auto eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    return KeyValue{word.substr(0, eq), word.substr(eq + 1)};
}

[[nodiscard]] std::optional<std::int64_t> parse_non_negative(std::string_view text) {
    auto value = parse_int(text);
    if (!value || *value < 0) return std::nullopt;
    return value;
}

// "arena <version> [key=value ...]"
[[nodiscard]] std::optional<ArenaCommand> parse_hello(const std::vector<std::string_view>& words) {
    if (words.size() < 2) return std::nullopt;
    const auto version = parse_int(words[1]);
    if (!version || *version < std::numeric_limits<int>::min() ||
        *version > std::numeric_limits<int>::max()) {
        return std::nullopt;
    }
    for (std::size_t i = 2; i < words.size(); ++i) {
        if (!split_key_value(words[i])) return std::nullopt;
    }
    return Hello{static_cast<int>(*version)};
}

// "game <game> player=<1|2> [key=value ...]"
[[nodiscard]] std::optional<ArenaCommand> parse_game(const std::vector<std::string_view>& words) {
    if (words.size() < 2 || words[1].find('=') != std::string_view::npos) return std::nullopt;
    GameStart game;
    game.game = std::string(words[1]);
    bool have_player = false;
    for (std::size_t i = 2; i < words.size(); ++i) {
        const auto kv = split_key_value(words[i]);
        if (!kv) return std::nullopt;
        if (kv->key == "player") {
            const auto player = parse_int(kv->value);
            if (have_player || !player || (*player != 1 && *player != 2)) return std::nullopt;
            game.player = static_cast<int>(*player);
            have_player = true;
        } else {
            game.params.emplace_back(std::string(kv->key), std::string(kv->value));
        }
    }
    if (!have_player) return std::nullopt;
    return game;
}

// "position [<move> ...]"
[[nodiscard]] std::optional<ArenaCommand> parse_position(
    const std::vector<std::string_view>& words) {
    Position position;
    position.moves.reserve(words.size() - 1);
    for (std::size_t i = 1; i < words.size(); ++i)
        position.moves.emplace_back(words[i]);
    return position;
}

// "go move_ms=<n> [clock_ms=<n>] [opp_clock_ms=<n>] [key=value ...]"
[[nodiscard]] std::optional<ArenaCommand> parse_go(const std::vector<std::string_view>& words) {
    Go go;
    bool have_move_ms = false;
    bool bad_depth = false;
    bool bad_nodes = false;
    for (std::size_t i = 1; i < words.size(); ++i) {
        const auto kv = split_key_value(words[i]);
        if (!kv) return std::nullopt;
        if (kv->key == "move_ms") {
            const auto value = parse_non_negative(kv->value);
            if (have_move_ms || !value) return std::nullopt;
            go.move_ms = *value;
            have_move_ms = true;
        } else if (kv->key == "clock_ms" || kv->key == "opp_clock_ms") {
            auto& slot = kv->key == "clock_ms" ? go.clock_ms : go.opp_clock_ms;
            const auto value = parse_non_negative(kv->value);
            if (slot || !value) return std::nullopt;
            slot = *value;
        } else if (kv->key == "depth" || kv->key == "nodes") {
            // A search limit is advice: one that is malformed or repeated is
            // dropped rather than costing the bot its move.
            auto& slot = kv->key == "depth" ? go.depth : go.nodes;
            const auto value = parse_non_negative(kv->value);
            if (slot || !value || *value < 1) {
                (kv->key == "depth" ? bad_depth : bad_nodes) = true;
            } else {
                slot = *value;
            }
        }
        // Other keys belong to later protocol revisions: ignored.
    }
    if (!have_move_ms) return std::nullopt;
    if (bad_depth) go.depth.reset();
    if (bad_nodes) go.nodes.reset();
    return go;
}

[[nodiscard]] std::optional<GameResult> parse_result(std::string_view word) {
    if (word == "win") return GameResult::kWin;
    if (word == "loss") return GameResult::kLoss;
    if (word == "draw") return GameResult::kDraw;
    return std::nullopt;
}

// "end <win|loss|draw> [reason=<word>] [key=value ...]"
[[nodiscard]] std::optional<ArenaCommand> parse_end(const std::vector<std::string_view>& words) {
    if (words.size() < 2) return std::nullopt;
    const auto result = parse_result(words[1]);
    if (!result) return std::nullopt;
    End end;
    end.result = *result;
    bool have_reason = false;
    for (std::size_t i = 2; i < words.size(); ++i) {
        const auto kv = split_key_value(words[i]);
        if (!kv) return std::nullopt;
        if (kv->key == "reason") {
            if (have_reason) return std::nullopt;
            end.reason = std::string(kv->value);
            have_reason = true;
        }
    }
    return end;
}

// "quit [key=value ...]"
[[nodiscard]] std::optional<ArenaCommand> parse_quit(const std::vector<std::string_view>& words) {
    for (std::size_t i = 1; i < words.size(); ++i) {
        if (!split_key_value(words[i])) return std::nullopt;
    }
    return Quit{};
}

void append_key_value(std::string& out, std::string_view key, std::string_view value) {
    out += ' ';
    out += key;
    out += '=';
    out += value;
}

void append_key_value(std::string& out, std::string_view key, std::int64_t value) {
    append_key_value(out, key, std::to_string(value));
}

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace

std::vector<std::string_view> split_words(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_blank(line[i]))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && !is_blank(line[i]))
            ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
    }
    return words;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
    // from_chars takes an optional '-' and decimal digits only: no '+', no
    // blanks, and it reports overflow. All of the text must be consumed.
    if (text.empty()) return std::nullopt;
    std::int64_t value = 0;
    const char* const end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end) return std::nullopt;
    return value;
}

const std::string* find_key(const KeyValues& kv, std::string_view key) {
    for (const auto& [k, v] : kv) {
        if (k == key) return &v;
    }
    return nullptr;
}

std::string_view to_string(GameResult r) {
    switch (r) {
        case GameResult::kWin:
            return "win";
        case GameResult::kLoss:
            return "loss";
        case GameResult::kDraw:
            return "draw";
    }
    return "draw";
}

std::string format(const ArenaCommand& command) {
    return std::visit(
        Overloaded{
            [](const Hello& hello) { return "arena " + std::to_string(hello.version); },
            [](const GameStart& game) {
                std::string out = "game " + game.game;
                append_key_value(out, "player", game.player);
                for (const auto& [key, value] : game.params)
                    append_key_value(out, key, value);
                return out;
            },
            [](const Position& position) {
                std::string out = "position";
                for (const auto& move : position.moves) {
                    out += ' ';
                    out += move;
                }
                return out;
            },
            [](const Go& go) {
                std::string out = "go";
                append_key_value(out, "move_ms", go.move_ms);
                if (go.clock_ms) append_key_value(out, "clock_ms", *go.clock_ms);
                if (go.opp_clock_ms) append_key_value(out, "opp_clock_ms", *go.opp_clock_ms);
                if (go.depth) append_key_value(out, "depth", *go.depth);
                if (go.nodes) append_key_value(out, "nodes", *go.nodes);
                return out;
            },
            [](const End& end) {
                std::string out = "end ";
                out += to_string(end.result);
                if (!end.reason.empty()) append_key_value(out, "reason", end.reason);
                return out;
            },
            [](const Quit&) { return std::string("quit"); },
        },
        command);
}

std::optional<ArenaCommand> parse_arena_command(std::string_view line) {
    const auto words = split_words(strip_terminator(line));
    if (words.empty()) return std::nullopt;
    const std::string_view command = words.front();
    if (command == "arena") return parse_hello(words);
    if (command == "game") return parse_game(words);
    if (command == "position") return parse_position(words);
    if (command == "go") return parse_go(words);
    if (command == "end") return parse_end(words);
    if (command == "quit") return parse_quit(words);
    return std::nullopt;
}

std::optional<std::int64_t> info_value(std::string_view info, std::string_view key) {
    const auto words = split_words(info);
    for (std::size_t i = 0; i + 1 < words.size(); ++i)
        if (words[i] == key) return parse_int(words[i + 1]);
    return std::nullopt;
}

BotLine parse_bot_line(std::string_view line) {
    line = strip_terminator(line);
    const auto invalid = [line] { return BotLine{BotLine::Kind::kInvalid, std::string(line)}; };
    const auto words = split_words(line);
    if (words.empty()) return invalid();
    const std::string_view keyword = words.front();
    const std::string_view rest = rest_after_first_word(line);

    using Kind = BotLine::Kind;
    const auto text_line = [rest](Kind kind) { return BotLine{kind, std::string(rest)}; };
    if (keyword == "name") return text_line(Kind::kName);
    if (keyword == "author") return text_line(Kind::kAuthor);
    if (keyword == "version") return text_line(Kind::kVersion);
    if (keyword == "info") return text_line(Kind::kInfo);
    if (keyword == "debug") return text_line(Kind::kDebug);
    if (keyword == "ready") return words.size() == 1 ? BotLine{Kind::kReady, {}} : invalid();
    if (keyword == "move") {
        return words.size() == 2 ? BotLine{Kind::kMove, std::string(words[1])} : invalid();
    }
    return invalid();
}

std::string format(const BotLine& line) {
    const auto with_text = [&line](std::string_view keyword) {
        std::string out(keyword);
        if (!line.text.empty()) {
            out += ' ';
            out += line.text;
        }
        return out;
    };
    using Kind = BotLine::Kind;
    switch (line.kind) {
        case Kind::kName:
            return with_text("name");
        case Kind::kAuthor:
            return with_text("author");
        case Kind::kVersion:
            return with_text("version");
        case Kind::kReady:
            return "ready";
        case Kind::kInfo:
            return with_text("info");
        case Kind::kDebug:
            return with_text("debug");
        case Kind::kMove:
            return with_text("move");
        case Kind::kInvalid:
            return line.text;
    }
    return line.text;
}

}  // namespace arena::protocol
