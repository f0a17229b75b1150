// libFuzzer target: the protocol codec (protocol/codec.hpp).
//
// Properties, for any input line:
//   - parse_arena_command and parse_bot_line never throw nor crash;
//   - an arena command that parses formats to a line that parses back to the
//     same command (format is a right inverse of parse);
//   - a bot line formats to a line that parses back to the same BotLine.
// A value that ends in '\r' (a '\r' inside a line is part of a word, see
// PROTOCOL.md section 2) formats to a line ending in '\r', which a reader
// takes for a terminator; and a reader never delivers a '\n' inside a line.
// So the round trip is checked when the formatted line ends in neither.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "protocol/codec.hpp"

namespace {

using namespace arena::protocol;

[[nodiscard]] bool same(const ArenaCommand& a, const ArenaCommand& b) {
    if (a.index() != b.index()) return false;
    if (const auto* x = std::get_if<Hello>(&a)) return x->version == std::get<Hello>(b).version;
    if (const auto* x = std::get_if<GameStart>(&a)) {
        const auto& y = std::get<GameStart>(b);
        return x->game == y.game && x->player == y.player && x->params == y.params;
    }
    if (const auto* x = std::get_if<Position>(&a)) return x->moves == std::get<Position>(b).moves;
    if (const auto* x = std::get_if<Go>(&a)) {
        const auto& y = std::get<Go>(b);
        return x->move_ms == y.move_ms && x->clock_ms == y.clock_ms &&
               x->opp_clock_ms == y.opp_clock_ms;
    }
    if (const auto* x = std::get_if<End>(&a)) {
        const auto& y = std::get<End>(b);
        return x->result == y.result && x->reason == y.reason;
    }
    return true;  // Quit
}

void check(bool ok) {
    if (!ok) std::abort();
}

// True when `line` can be sent as one line: it does not end in a terminator.
[[nodiscard]] bool sendable(std::string_view line) {
    return line.empty() || (line.back() != '\r' && line.back() != '\n');
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    const auto command = parse_arena_command(line);
    const BotLine bot = parse_bot_line(line);
    (void)split_words(line);
    (void)parse_int(line);

    if (command) {
        const std::string text = format(*command);
        if (sendable(text)) {
            const auto again = parse_arena_command(text);
            check(again.has_value() && same(*command, *again));
            check(format(*again) == text);
        }
    }

    const std::string text = format(bot);
    if (sendable(text)) {
        const BotLine again = parse_bot_line(text);
        check(again.kind == bot.kind && again.text == bot.text);
    }
    return 0;
}
