#include "fixtures.hpp"

#include <sstream>

#include "proc_util.hpp"

namespace arena::testing {

tournament::Config bare_config(int bots, int games_per_pair, int rounds,
                               tournament::ScheduleType type) {
    tournament::Config c;
    c.name = "t";
    c.game = "connect4";
    c.schedule = type;
    c.games_per_pair = games_per_pair;
    c.rounds = rounds;
    for (int i = 0; i < bots; ++i) {
        tournament::BotConfig b;
        b.name = "b" + std::to_string(i);
        c.bots.push_back(b);
    }
    if (type == tournament::ScheduleType::kGauntlet) c.challenger = "b2";
    return c;
}

session::BotSpec random_bot(const std::string& name, const std::string& seed) {
    return {name, {bin("bots/random"), "--seed", seed}, {}};
}

session::SessionOptions quick_options(std::chrono::milliseconds startup) {
    session::SessionOptions o;
    o.startup_limit = startup;
    o.quit_grace = std::chrono::milliseconds(300);
    return o;
}

std::vector<std::string> game_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("game ")) lines.push_back(line);
    return lines;
}

int occurrences(const std::string& text, const std::string& needle) {
    int n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

}  // namespace arena::testing
