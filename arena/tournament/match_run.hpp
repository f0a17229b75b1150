#pragma once
// `arena match` played: the match as a tournament of its own in a results
// database (--db, or one in memory), its games played by the tournament
// runner and told to the match's lines (match_lines.hpp).

#include <cstdint>
#include <ostream>
#include <stop_token>
#include <string>
#include <vector>

#include "arena/session/bot_host.hpp"
#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/match_config.hpp"
#include "arena/tournament/match_lines.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

// Creates the match's tournament in `store` and marks it running: named
// m.name, or BOT1-vs-BOT2 (-2, -3, ... when taken); sets config.name and
// config.text (config_text, with command_comment(m.args)). Throws
// store::StoreError when m.name is taken.
[[nodiscard]] std::int64_t create_match_tournament(store::ResultsStore& store,
                                                   const MatchSettings& m, Config& config);

// How a match ended: every game played, stopped by a failure (a bot that
// kept failing to start, the runner's error, or a status that could not be
// stored), or interrupted by a stop request.
enum class MatchEnd : std::uint8_t { kPlayed, kFailed, kInterrupted };

// The match's tournament in its database, the runner that plays it and
// the lines that tell its games.
class MatchRun {
  public:
    // Opens the database (m.db, or one in memory) and creates the match's
    // tournament in it; `config` is match_config(m). The lines of the games
    // go to `lines_out`, the SPRT's in `sprt_text`. Throws what opening or
    // creating throws.
    MatchRun(const MatchSettings& m, Config config, SprtText sprt_text, std::ostream& lines_out);
    MatchRun(const MatchRun&) = delete;
    MatchRun& operator=(const MatchRun&) = delete;

    [[nodiscard]] const Config& config() const { return config_; }
    [[nodiscard]] const MatchLines& lines() const { return lines_; }

    // Plays the games (the first m.games of the config's schedule: with an
    // odd number, the last pair is half played), the bots started under
    // `host`, until all are played or `stop` is requested; the runner's
    // notices about bots go to `messages`. Returns what stopped the match
    // otherwise: the runner's error, or a bot that kept failing to start;
    // "" when nothing did.
    [[nodiscard]] std::string play(session::BotHost& host, std::ostream& messages,
                                   std::stop_token stop);

    // Marks the stored tournament finished, or interrupted when the match
    // stopped early. Returns what went wrong, "" when nothing did.
    [[nodiscard]] std::string set_status(bool stopped_early);

    // The end of the match after play(), whose result is `failure`;
    // `interrupted`: a stop was requested (and nothing failed). The lines'
    // end on `out` (MatchLines::print_end, as JSON with `json`), then on
    // `err` the close-call warnings and, each after "arena match: ", where
    // the match is stored (with a database of the user's) and what stopped
    // it; the stored status is set (set_status).
    [[nodiscard]] MatchEnd finish(bool json, bool interrupted, std::string failure,
                                  std::ostream& out, std::ostream& err);

  private:
    int games_;
    std::string db_;  // the user's database; "" for one in memory
    Config config_;
    store::ResultsStore store_;
    std::int64_t id_;
    Lineup lineup_;
    MatchLines lines_;
};

}  // namespace arena::tournament
