#include "arena/record/game_record.hpp"

#include <vector>

#include "arena/record/escape.hpp"

namespace arena::record {

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

std::string stderr_tail(std::string_view log, std::size_t max_lines, std::size_t max_bytes) {
    // The last max_lines lines with something on them, newest last.
    std::vector<std::string_view> lines;
    std::size_t end = log.size();
    while (end > 0 && lines.size() < max_lines) {
        const std::size_t newline = log.rfind('\n', end - 1);
        const std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
        std::string_view line = log.substr(start, end - start);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        const std::size_t first = line.find_first_not_of(" \t");
        if (first != std::string_view::npos) lines.push_back(line.substr(first));
        end = newline == std::string_view::npos ? 0 : newline;
    }
    std::string text;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        if (!text.empty()) text += " | ";
        text += *it;
    }
    if (text.size() <= max_bytes) return escape_controls(text);
    return "..." + escape_controls(std::string_view(text).substr(text.size() - max_bytes));
}

std::string fault_description(const GameRecord& game) {
    if (game.termination == Termination::kNormal) return {};
    std::string text = game.detail;
    const int offender = game.offender();
    for (int p = 1; p <= 2; ++p) {
        if (offender != 0 && offender != p) continue;
        const std::string tail = stderr_tail(game.stderr_logs[p - 1]);
        if (tail.empty()) continue;
        text += "; " + game.players[p - 1] + "'s stderr: " + tail;
    }
    return text;
}

}  // namespace arena::record
