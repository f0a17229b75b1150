#include "arena/session/bot_protocol.hpp"

#include <array>
#include <utility>

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
