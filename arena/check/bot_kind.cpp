#include "arena/check/bot_kind.hpp"

#include <stdexcept>

namespace arena::check {

BotKind bot_kind(session::BotProtocol protocol, bool strategy_library) {
    if (strategy_library) return BotKind::kTsinghuaSo;
    if (protocol == session::BotProtocol::kGomocup) return BotKind::kGomocup;
    if (protocol == session::BotProtocol::kNboard) return BotKind::kNboard;
    return BotKind::kArena1;
}

std::optional<std::string> implied_game(BotKind kind) {
    switch (kind) {
        case BotKind::kGomocup:
            return "gomoku";
        case BotKind::kNboard:
            return "reversi";
        case BotKind::kTsinghuaSo:
            return "connect4";
        case BotKind::kArena1:
            break;
    }
    return std::nullopt;
}

void set_kind_and_game(CheckOptions& options, bool strategy_library) {
    options.kind = bot_kind(options.bot.protocol, strategy_library);
    if (!options.game.empty()) return;
    const auto implied = implied_game(options.kind);
    if (!implied) {
        throw std::invalid_argument(
            "--game is required for a protocol v1 bot (connect4, gomoku or reversi)");
    }
    options.game = *implied;
}

std::string_view kind_name(BotKind kind) {
    switch (kind) {
        case BotKind::kArena1:
            return "arena1";
        case BotKind::kGomocup:
            return "gomocup";
        case BotKind::kNboard:
            return "nboard";
        case BotKind::kTsinghuaSo:
            return "tsinghua-so";
    }
    return "?";
}

}  // namespace arena::check
