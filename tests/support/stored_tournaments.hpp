#pragma once
// Tournaments stored the short way, for tests of what reads a results
// database: a spec with what the store requires, and bots by name.

#include <string>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::testing {

// Tournament `name` of `game`, two games, its config text "name: NAME".
inline store::TournamentSpec tournament_spec(const std::string& name,
                                             const std::string& game = "connect4") {
    store::TournamentSpec spec;
    spec.name = name;
    spec.game = game;
    spec.config_text = "name: " + name + "\n";
    spec.fingerprint = "fp";
    spec.total_games = 2;
    return spec;
}

// Bots that run ./NAME and speak arena1.
inline std::vector<store::BotEntry> bots_named(const std::vector<std::string>& names) {
    std::vector<store::BotEntry> bots;
    for (const auto& name : names)
        bots.push_back({name, "./" + name, "arena1", ""});
    return bots;
}

}  // namespace arena::testing
