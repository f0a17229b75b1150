#include "arena/check/plan.hpp"

#include <utility>

#include "arena/games/registry.hpp"
#include "arena/match/opening.hpp"

namespace arena::check {
namespace {

using games::Params;

// After these Reversi moves black (player 1) has no legal move but white
// has (PROTOCOL.md, section 10.2): the arena plays black's pass.
const std::vector<std::string> kReversiPassOpening = {"c4", "c3", "e6", "b4",
                                                      "a4", "a5", "b2", "a3"};

// Plies of the opening-position game: an odd number, so the bot's first
// `go` comes as player 2 on a board the arena filled.
constexpr int kOpeningPlies = 5;

Params connect4(int cols, int rows, int connect = 4, std::string blocked = {}) {
    Params p{{"rows", std::to_string(rows)},
             {"cols", std::to_string(cols)},
             {"connect", std::to_string(connect)}};
    if (!blocked.empty()) p.emplace_back("blocked", std::move(blocked));
    return p;
}

Params gomoku(int size, const std::string& rule) {
    return {{"size", std::to_string(size)}, {"rule", rule}};
}

GamePlan game(std::string check, const std::string& name, Params params, int bot_player,
              Probe probe = Probe::kNone) {
    GamePlan g;
    g.check = std::move(check);
    g.board = describe_board(name, params);
    g.params = std::move(params);
    g.bot_player = bot_player;
    g.probe = probe;
    return g;
}

// A game from kOpeningPlies random plies, the bot to move after them.
GamePlan from_opening(const std::string& name, Params params, std::uint64_t seed) {
    const auto rules = games::make_game(name, params);
    const auto moves = match::random_opening(*rules, kOpeningPlies, match::derive_seed(seed, 99));
    GamePlan g = game("opening position", name, std::move(params), 0);
    auto state = rules->new_initial_state();
    for (const auto m : moves) {
        g.opening.push_back(state->format_move(m));
        state->apply(m);
    }
    g.board += ", after " + std::to_string(g.opening.size()) + " plies";
    return g;
}

// The probes of protocol v1, and what other kinds get instead.
void add_probes(Plan& plan, const std::string& name, const Params& params, BotKind kind) {
    switch (kind) {
        case BotKind::kArena1:
            plan.games.push_back(
                game("unknown commands and keys", name, params, 1, Probe::kUnknown));
            plan.games.push_back(game("one move per go", name, params, 2, Probe::kOutOfTurn));
            return;
        case BotKind::kGomocup:
            plan.skipped.push_back(
                {"unknown commands and keys",
                 "the arena sends a Gomocup brain only the commands of its protocol"});
            return;
        case BotKind::kNboard:
            plan.skipped.push_back(
                {"unknown commands and keys",
                 "the arena sends an NBoard engine only the commands of its protocol"});
            plan.skipped.push_back(
                {"one move per go",
                 "NBoard's ping/pong discards every line an engine sends out of turn"});
            return;
        case BotKind::kTsinghuaSo:
            plan.skipped.push_back({"unknown commands and keys",
                                    "arena-so-host speaks the protocol; the library only "
                                    "chooses moves"});
            plan.skipped.push_back({"one move per go",
                                    "arena-so-host speaks the protocol; the library only "
                                    "chooses moves"});
            return;
    }
}

void plan_connect4(Plan& plan, BotKind kind, std::uint64_t seed) {
    const std::string name = "connect4";
    if (kind == BotKind::kTsinghuaSo) {
        // The course's boards: 9..12 rows and columns, one blocked cell.
        const Params tsinghua = {{"variant", "tsinghua"}};
        plan.games.push_back(game("plays as player 1", name,
                                  games::realize(name, tsinghua, match::derive_seed(seed, 1)), 1));
        plan.games.push_back(game("plays as player 2", name,
                                  games::realize(name, tsinghua, match::derive_seed(seed, 2)), 2));
        plan.games.push_back(
            game("board 9x9 (the smallest of the course)", name, connect4(9, 9, 4, "5:3"), 1));
        plan.games.push_back(
            game("board 12x12 (the largest of the course)", name, connect4(12, 12, 4, "1:1"), 2));
        plan.games.push_back(
            from_opening(name, games::realize(name, tsinghua, match::derive_seed(seed, 3)), seed));
        plan.skipped.push_back({"other boards",
                                "a Tsinghua strategy plays four in a row with at most one "
                                "blocked cell; the check plays the course's boards"});
        add_probes(plan, name, connect4(7, 6), kind);
        return;
    }
    plan.games.push_back(game("plays as player 1", name, connect4(7, 6), 1));
    plan.games.push_back(game("plays as player 2", name, connect4(7, 6), 2));
    plan.games.push_back(game("board 9x7 (odd size)", name, connect4(9, 7), 1));
    plan.games.push_back(game("board 4x4 (the smallest)", name, connect4(4, 4), 2));
    plan.games.push_back(game("board 16x16 (the largest)", name, connect4(16, 16), 1));
    plan.games.push_back(game("board 5x5, connect 3", name, connect4(5, 5, 3), 2));
    plan.games.push_back(game("board 8x8, connect 5", name, connect4(8, 8, 5), 1));
    plan.games.push_back(
        game("board 7x6 with blocked cells", name, connect4(7, 6, 4, "2:3,4:1,7:6"), 2));
    plan.games.push_back(
        game("board tsinghua variant", name,
             games::realize(name, {{"variant", "tsinghua"}}, match::derive_seed(seed, 1)), 1));
    plan.games.push_back(from_opening(name, connect4(7, 6), seed));
    add_probes(plan, name, connect4(7, 6), kind);
}

void plan_gomoku(Plan& plan, BotKind kind, std::uint64_t seed) {
    const std::string name = "gomoku";
    plan.games.push_back(game("plays as player 1", name, gomoku(15, "freestyle"), 1));
    plan.games.push_back(game("plays as player 2", name, gomoku(15, "freestyle"), 2));
    plan.games.push_back(game("board 15x15 exact5", name, gomoku(15, "exact5"), 2));
    plan.games.push_back(game("board 19x19 freestyle", name, gomoku(19, "freestyle"), 1));
    plan.games.push_back(game("board 19x19 exact5", name, gomoku(19, "exact5"), 2));
    plan.games.push_back(from_opening(name, gomoku(15, "freestyle"), seed));
    add_probes(plan, name, gomoku(15, "freestyle"), kind);
}

void plan_reversi(Plan& plan, BotKind kind, std::uint64_t seed) {
    const std::string name = "reversi";
    plan.games.push_back(game("plays as player 1", name, {}, 1));
    plan.games.push_back(game("plays as player 2", name, {}, 2));
    // The same position, once with the opponent to pass and once with the
    // bot: its next `position` lists the pass either way.
    GamePlan theirs = game("forced pass by the opponent", name, {}, 2);
    theirs.opening = kReversiPassOpening;
    theirs.board += ", black must pass after " + std::to_string(theirs.opening.size()) + " plies";
    plan.games.push_back(std::move(theirs));
    GamePlan own = game("forced pass by the bot", name, {}, 1);
    own.opening = kReversiPassOpening;
    own.board +=
        ", black (the bot) must pass after " + std::to_string(own.opening.size()) + " plies";
    plan.games.push_back(std::move(own));
    plan.games.push_back(from_opening(name, {}, seed));
    add_probes(plan, name, {}, kind);
}

}  // namespace

std::string describe_board(const std::string& game, const games::Params& params) {
    const auto param = [&](std::string_view key) {
        const std::string* value = games::find_param(params, key);
        return value != nullptr ? *value : std::string();
    };
    if (game == "connect4") {
        std::string text = "connect4 " + param("cols") + "x" + param("rows");
        if (const auto connect = param("connect"); !connect.empty() && connect != "4")
            text += ", connect " + connect;
        if (const auto blocked = param("blocked"); !blocked.empty()) text += ", blocked " + blocked;
        return text;
    }
    if (game == "gomoku") {
        const auto size = param("size");
        return "gomoku " + size + "x" + size + " " + param("rule");
    }
    return game;
}

Plan make_plan(const std::string& game, BotKind kind, std::uint64_t seed) {
    const auto refuse = [&](std::string_view protocol, std::string_view plays) {
        throw games::GameError("protocol '" + std::string(protocol) + "' plays only " +
                               std::string(plays) + ", not " + game);
    };
    if (kind == BotKind::kGomocup && game != "gomoku") refuse("gomocup", "gomoku");
    if (kind == BotKind::kNboard && game != "reversi") refuse("nboard", "reversi");
    if (kind == BotKind::kTsinghuaSo && game != "connect4") refuse("tsinghua-so", "connect4");
    Plan plan;
    if (game == "connect4") {
        plan_connect4(plan, kind, seed);
    } else if (game == "gomoku") {
        plan_gomoku(plan, kind, seed);
    } else if (game == "reversi") {
        plan_reversi(plan, kind, seed);
    } else {
        throw games::GameError("unknown game '" + game +
                               "' (expected connect4, gomoku or reversi)");
    }
    return plan;
}

}  // namespace arena::check
