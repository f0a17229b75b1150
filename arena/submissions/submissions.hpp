#pragma once
// `check: true` (docs/config.md): before a run plays, every submission of
// `bots_dir` whose program did not pass the checks before (a new name, or a
// changed program) is checked as `arena check-bot` checks it. The programs
// that passed are remembered in a table next to the database; one that
// fails is left out of the run, with its check log kept next to the
// database too.

#include <filesystem>
#include <ostream>
#include <stop_token>
#include <string>
#include <vector>

#include "arena/session/bot_host.hpp"
#include "arena/tournament/config.hpp"

namespace arena::submissions {

// A submission that fails the checks, and where its check log is.
struct LeftOut {
    std::string bot;
    std::filesystem::path log;
};

// The checks of one submission, as arena check-bot runs them at the config's
// time control.
struct CheckOutcome {
    bool passed = false;
    std::string summary;  // "7 ok, 0 warnings, 1 skipped, 2 failed", or why they could not run
    std::string why;      // when failed: the first failed checks by name, and the summary
    std::string log;      // every check, and for a failure what was sent and received
};

// Runs them on `bot`, its processes started under `host`. Throws
// check::Stopped when `stop` ends them before every check was decided.
[[nodiscard]] CheckOutcome check_submission(session::BotHost& host,
                                            const tournament::Config& config,
                                            const tournament::BotConfig& bot, std::stop_token stop);

// `check: true`: runs the checks on each bot of bots_dir whose program did
// not pass them before, its processes started under `host`. One that fails is reported on `err` in
// one line naming its log, is added to `left_out`, and is left out of `config` for this run: it
// enters as a late entrant once a later run finds it fixed. `stop` (Ctrl-C) ends the checks after
// the step in progress: what passed is remembered, and `interrupted` is set. False after saying why
// the run cannot go on.
[[nodiscard]] bool check_submissions(session::BotHost& host, tournament::Config& config,
                                     std::vector<LeftOut>& left_out, std::ostream& err,
                                     bool& interrupted, std::stop_token stop);

// Under the standings: the submissions this run left out, with their logs.
void print_left_out(const std::vector<LeftOut>& left_out, std::ostream& out);

}  // namespace arena::submissions
