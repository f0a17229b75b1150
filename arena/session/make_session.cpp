#include <utility>

#include "arena/session/gomocup_session.hpp"
#include "arena/session/nboard_session.hpp"
#include "arena/session/session.hpp"

namespace arena::session {

std::unique_ptr<BotSession> make_session(BotHost& host, BotSpec spec, SessionOptions options) {
    switch (spec.protocol) {
        case BotProtocol::kArena1:
            break;
        case BotProtocol::kGomocup:
            return std::make_unique<GomocupSession>(host, std::move(spec), options);
        case BotProtocol::kNboard:
            return std::make_unique<NboardSession>(host, std::move(spec), options);
    }
    return std::make_unique<Session>(host, std::move(spec), options);
}

}  // namespace arena::session
