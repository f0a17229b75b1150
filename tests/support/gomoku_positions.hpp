#pragma once
// What the tests of the Gomoku bots share: positions from move lists, an
// independent judge of winning cells, a move chosen at a fixed depth, a
// forced win played out against a defender, the check of a defence against
// a VCF, and matches through the arena.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/games/gomoku.hpp"
#include "arena/games/registry.hpp"
#include "bots/gomoku/engine.hpp"
#include "bots/gomoku/threats.hpp"
#include "proc_util.hpp"

namespace arena::gomoku_test {

// The state after `moves` ("h8 i9 ...") on a new board; throws on an illegal
// move or a finished game.
inline std::unique_ptr<games::State> position(int size, const std::string& rule,
                                              const std::string& moves) {
    const auto game = games::make_game("gomoku", {{"size", std::to_string(size)}, {"rule", rule}});
    auto state = game->new_initial_state();
    std::istringstream in(moves);
    std::string word;
    while (in >> word) {
        const auto m = state->parse_move(word);
        if (!m || !state->is_legal(*m)) throw std::runtime_error("bad move " + word);
        state->apply(*m);
        if (state->is_over()) throw std::runtime_error("game over at " + word);
    }
    return state;
}

// Cells (row * size + col) where `color` would complete a winning line,
// judged from the arena's state alone, without the bots' code: a run of
// exactly five under exact5, five or more under freestyle.
inline std::vector<int> win_cells(const games::State& state, int color) {
    const auto& g = dynamic_cast<const games::GomokuState&>(state);
    const int n = g.size();
    const bool exact5 = g.rule() == games::GomokuRule::kExact5;
    const auto at = [&](int c, int r) {
        return c < 0 || r < 0 || c >= n || r >= n ? -1 : g.at(c, r);
    };
    std::vector<int> out;
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            if (g.at(c, r) != games::GomokuState::kEmpty) continue;
            for (const auto& [dc, dr] : {std::pair{1, 0}, {0, 1}, {1, 1}, {1, -1}}) {
                int run = 1;
                for (int k = 1; at(c + k * dc, r + k * dr) == color; ++k)
                    ++run;
                for (int k = 1; at(c - k * dc, r - k * dr) == color; ++k)
                    ++run;
                if (exact5 ? run == 5 : run >= 5) {
                    out.push_back(r * n + c);
                    break;
                }
            }
        }
    }
    return out;
}

// The move `engine` chooses (checked legal), its info lines in `infos`. The
// default time is far beyond what the fixed depths of the tests need.
inline std::string choose(bots::gomoku::GomokuEngine& engine, const games::State& state,
                          std::vector<std::string>* infos = nullptr,
                          std::int64_t move_ms = 60'000) {
    protocol::Go go;
    go.move_ms = move_ms;
    const games::Move m = engine.choose(state, go, [&](std::string_view text) {
        if (infos) infos->emplace_back(text);
    });
    EXPECT_TRUE(state.is_legal(m));
    return state.format_move(m);
}

// Plays the engine against a defender that completes a five when it can and
// otherwise blocks the engine's winning cell: the engine must win within
// `limit` of its moves, by fours, never letting the defender choose.
inline void expect_forced_win(bots::gomoku::GomokuEngine& engine,
                              std::unique_ptr<games::State> state, int limit) {
    const int attacker = state->current_player();
    for (int move = 0; move < limit; ++move) {
        const std::string m = choose(engine, *state);
        state->apply(*state->parse_move(m));
        if (state->is_over()) {
            EXPECT_EQ(games::winner_of(state->outcome()), attacker) << state->render();
            return;
        }
        ASSERT_TRUE(win_cells(*state, 3 - attacker).empty())
            << "the defender can win after " << m << "\n"
            << state->render();
        const auto threats = win_cells(*state, attacker);
        ASSERT_FALSE(threats.empty()) << m << " is not a four\n" << state->render();
        state->apply(threats.front());
    }
    FAIL() << "no five within " << limit << " moves\n" << state->render();
}

// The engine said it saw the opponent's VCF, and after its move `m` the
// opponent has none (a search that was not cut short).
inline void expect_vcf_defended(const games::State& state, const std::string& m,
                                const std::vector<std::string>& infos) {
    bool saw = false;
    for (const auto& i : infos)
        saw |= i.starts_with("string opponent threatens a vcf");
    EXPECT_TRUE(saw);
    auto after = state.clone();
    after->apply(*after->parse_move(m));
    bots::gomoku::Board board;
    bots::gomoku::load_state(board, *after);
    bots::gomoku::ThreatSolver solver(board);
    solver.set_limits(5'000'000);
    EXPECT_EQ(solver.vcf(30), bots::gomoku::kNoSq) << "after " << m;
    EXPECT_FALSE(solver.aborted());
}

// The JSON of `arena match --game gomoku <args> --json` (discarded when it
// does not parse); the match must exit 0.
inline nlohmann::json arena_match(const std::string& args) {
    const std::string base = ::testing::TempDir() + "gomoku_" + testing::unique_marker();
    const std::string cmd = "timeout 300 " + testing::bin("bin/arena") + " match --game gomoku " +
                            args + " --json >" + base + ".out 2>" + base + ".err";
    const int status = std::system(cmd.c_str());
    const std::string out = testing::slurp(base + ".out"), err = testing::slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << err;
    return nlohmann::json::parse(out, nullptr, false);
}

// Every game of the match `j` (`games` of them) ended by the rules: no
// timeout, crash, illegal move, protocol fault or failed start.
inline void expect_games_by_the_rules(const nlohmann::json& j, int games,
                                      const std::string& label) {
    ASSERT_FALSE(j.is_discarded()) << label;
    ASSERT_EQ(j["games"], games) << label;
    for (const auto& b : j["bots"])
        for (const char* reason : {"timeout", "crash", "illegal", "protocol", "startup"})
            EXPECT_EQ(b[reason], 0) << reason << " " << b["name"] << " in " << label;
}

}  // namespace arena::gomoku_test
