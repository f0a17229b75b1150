#include "arena/match/game_record.hpp"

namespace arena::match {

std::string_view to_string(Termination t) {
    switch (t) {
        case Termination::kNormal:
            return "normal";
        case Termination::kTimeout:
            return "timeout";
        case Termination::kCrash:
            return "crash";
        case Termination::kIllegal:
            return "illegal";
        case Termination::kProtocol:
            return "protocol";
        case Termination::kStartup:
            return "startup";
    }
    return "unknown";
}

std::string_view score_text(games::Outcome o) {
    switch (o) {
        case games::Outcome::kWin1:
            return "1-0";
        case games::Outcome::kWin2:
            return "0-1";
        case games::Outcome::kDraw:
            return "1/2-1/2";
        case games::Outcome::kOngoing:
            break;
    }
    return "*";
}

}  // namespace arena::match
