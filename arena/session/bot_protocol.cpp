#include "arena/session/bot_protocol.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

#include "arena/games/registry.hpp"

namespace arena::session {
namespace {

struct ProtocolInfo {
    BotProtocol protocol;
    std::string_view name;
    std::string_view game;  // the only game it can play; empty: any
};

constexpr std::array kProtocols = {
    ProtocolInfo{BotProtocol::kArena1, "arena1", ""},
    ProtocolInfo{BotProtocol::kGomocup, "gomocup", "gomoku"},
    ProtocolInfo{BotProtocol::kNboard, "nboard", "reversi"},
};

const ProtocolInfo& info_of(BotProtocol protocol) {
    for (const auto& p : kProtocols)
        if (p.protocol == protocol) return p;
    return kProtocols.front();
}

std::string quoted(std::string_view s) {
    return "'" + std::string(s) + "'";
}

// Gomocup's `INFO rule` expresses freestyle (0) and exact five (1); any other
// parameter would be a rule it cannot tell the engine.
std::string gomocup_problem(const games::Params& params) {
    for (const auto& [key, value] : params) {
        if (key == "size") continue;
        if (key == "rule" && (value == "freestyle" || value == "exact5")) continue;
        return "protocol 'gomocup' cannot express the gomoku parameter " + key + "=" + value;
    }
    return {};
}

}  // namespace

std::string_view to_string(BotProtocol protocol) {
    return info_of(protocol).name;
}

std::optional<BotProtocol> parse_bot_protocol(std::string_view name) {
    for (const auto& p : kProtocols)
        if (p.name == name) return p.protocol;
    return std::nullopt;
}

std::string bot_protocol_names() {
    std::string out;
    for (std::size_t i = 0; i < kProtocols.size(); ++i) {
        if (i > 0) out += i + 1 == kProtocols.size() ? " or " : ", ";
        out += quoted(kProtocols[i].name);
    }
    return out;
}

std::string move_form(BotProtocol protocol, std::string_view game, const games::Params& params) {
    // A parameter's value, or its default when it is not given (or not a number).
    const auto number = [&](std::string_view key, int fallback) {
        const std::string* text = games::find_param(params, key);
        int value = fallback;
        if (text == nullptr) return fallback;
        const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
        return ec == std::errc{} && end == text->data() + text->size() && value > 0 ? value
                                                                                    : fallback;
    };
    switch (protocol) {
        case BotProtocol::kGomocup:
            return "an answer `x,y` (0-based, 0.." + std::to_string(number("size", 15) - 1) +
                   ", a free cell)";
        case BotProtocol::kNboard:
            return "`=== <move>` (a legal cell A1..H8, row 1 at the top)";
        case BotProtocol::kArena1:
            break;
    }
    if (game == "connect4") {
        return "`move <column>` (1.." + std::to_string(number("cols", 7)) + ", not full)";
    }
    if (game == "gomoku") {
        const int size = std::min(number("size", 15), 26);
        const std::string last(1, static_cast<char>('a' + size - 1));
        return "`move <cell>` (a free cell a1.." + last + std::to_string(size) +
               " such as h8: columns from a, rows from 1 at the bottom)";
    }
    if (game == "reversi") {
        return "`move <cell>` (a legal cell a1..h8 such as d3: rows from 1 at the top; never "
               "`move pass`)";
    }
    return "`move <move>`";
}

std::string protocol_problem(BotProtocol protocol, std::string_view game,
                             const games::Params& params) {
    const ProtocolInfo& info = info_of(protocol);
    if (!info.game.empty() && info.game != game) {
        return "protocol " + quoted(info.name) + " plays only " + std::string(info.game);
    }
    if (protocol == BotProtocol::kGomocup) return gomocup_problem(params);
    return {};
}

}  // namespace arena::session
