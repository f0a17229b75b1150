#include "arena/terminal/terminal_play.hpp"

#include <filesystem>
#include <stdexcept>

#include "arena/games/registry.hpp"
#include "arena/match/match.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/params_text.hpp"
#include "arena/tournament/bot_argument.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::terminal {

void seat_person(PlaySetup& setup, const std::string& color) {
    if (color == "first") {
        setup.human_side = 1;
    } else if (color == "second") {
        setup.human_side = 2;
    } else {
        throw std::invalid_argument("--color must be first or second, not '" + color + "'");
    }
    if (setup.person.empty()) throw std::invalid_argument("--name must not be empty");
    if (setup.person == setup.bot.name) {
        throw std::invalid_argument("the bot is also called '" + setup.person +
                                    "': choose another --name, or name the bot (name=command)");
    }
}

void set_clocks(PlaySetup& setup, std::chrono::milliseconds move,
                std::chrono::milliseconds tolerance, std::chrono::milliseconds human) {
    if (human.count() < 0) throw std::invalid_argument("--human-ms must not be negative");
    setup.human_limit = human;
    setup.time.move = move;
    setup.time.tolerance = tolerance;
    if (move.count() <= 0) throw std::invalid_argument("--move-ms must be positive");
    if (auto problem = setup.time.validate(); !problem.empty())
        throw std::invalid_argument(problem);
}

void settle_board(PlaySetup& setup, std::uint64_t seed) {
    setup.params = games::realize(setup.game, setup.params, seed);
    (void)games::make_game(setup.game, setup.params);  // checks the game and its board
    tournament::check_bot_game(setup.bot, setup.game, setup.params);
}

std::string intro_text(const PlaySetup& setup, const games::Game& game) {
    const std::string bot_name = record::escape_controls(setup.bot.name);
    const auto limit = setup.human_limit.count();
    return "arena play: you (" + record::escape_controls(setup.person) + ") play " +
           (setup.human_side == 1 ? "X, first," : "O, second,") + " against " + bot_name + " at " +
           setup.game + " " + record::params_text(game.params()) + "; " + bot_name + " has " +
           std::to_string(setup.time.move.count()) + " ms a move, you have " +
           (limit > 0 ? std::to_string(limit) + " ms" : std::string("no limit")) + ".\n" +
           notation_help(setup.game, *game.new_initial_state()) +
           "; 'help' for help, 'quit' to leave.\n";
}

std::string result_text(const PlaySetup& setup, const games::Game& game,
                        const record::GameRecord& record) {
    const std::string bot_name = record::escape_controls(setup.bot.name);
    auto final_state = game.new_initial_state();
    for (const auto& m : record.moves)
        final_state->apply(*final_state->parse_move(m.move));
    const int winner = record.winner();
    std::string text = "\n" + final_state->render() + "result " +
                       std::string(record::score_text(record.outcome)) + ": " +
                       (winner == games::kNoPlayer   ? std::string("a draw")
                        : winner == setup.human_side ? std::string("you win")
                                                     : bot_name + " wins") +
                       " (" + std::string(record::to_string(record.termination));
    if (!record.detail.empty()) text += ": " + record::escape_controls(record.detail);
    text += ")\n";
    if (record.offender() != 0 && record.offender() != setup.human_side) {
        const std::string tail = record::stderr_tail(record.stderr_logs[record.offender() - 1]);
        if (!tail.empty()) text += bot_name + "'s stderr: " + tail + "\n";
    }
    return text;
}

TerminalMatch::TerminalMatch(session::BotHost& host, const PlaySetup& setup,
                             const games::Game& game, std::ostream& out)
    : setup_(setup),
      game_(game),
      person_(out, setup.game, setup.human_side, setup.bot.name),
      human_(setup.person, person_, setup.human_limit),
      bot_(host, setup.bot, setup.session) {}

record::GameRecord TerminalMatch::play(std::stop_token stop) {
    return setup_.human_side == 1 ? match::play_game(game_, human_, bot_, setup_.time, {}, stop)
                                  : match::play_game(game_, bot_, human_, setup_.time, {}, stop);
}

}  // namespace arena::terminal
