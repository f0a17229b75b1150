#include "arena/terminal/terminal_play.hpp"

#include <filesystem>
#include <stdexcept>

#include "arena/match/match.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/params_text.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::terminal {

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
