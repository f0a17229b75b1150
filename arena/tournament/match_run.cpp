#include "arena/tournament/match_run.hpp"

#include <exception>
#include <filesystem>
#include <utility>

#include "arena/record/escape.hpp"
#include "arena/tournament/config_text.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/runner.hpp"

namespace arena::tournament {
namespace {

// The first `games` of the lineup's schedule.
Lineup cut_schedule(Lineup lineup, int games) {
    lineup.schedule.resize(static_cast<std::size_t>(games));
    return lineup;
}

}  // namespace

std::int64_t create_match_tournament(store::ResultsStore& store, const MatchSettings& m,
                                     Config& config) {
    std::string name = m.name.empty() ? m.bots[0].name + "-vs-" + m.bots[1].name : m.name;
    if (store.find_tournament(name)) {
        if (!m.name.empty()) {
            throw store::StoreError(m.db + " already holds a tournament named '" + name +
                                    "' (choose another --name)");
        }
        const std::string base = name;
        for (int n = 2; store.find_tournament(name); ++n)
            name = base + "-" + std::to_string(n);
    }
    config.name = name;
    config.text = config_text(config, command_comment(m.args));
    std::vector<store::BotEntry> bots;
    for (const auto& b : config.bots)
        bots.push_back({b.name, b.command, b.protocol, bot_sha256(b)});
    const auto id = store.create_tournament({name, m.game, config.text, sha256_text(config.text),
                                             m.seed, static_cast<std::int64_t>(m.games)},
                                            bots);
    store.set_status(id, "running");
    return id;
}

MatchRun::MatchRun(const MatchSettings& m, Config config, SprtText sprt_text,
                   std::ostream& lines_out)
    : games_(m.games),
      db_(m.db),
      config_(std::move(config)),
      store_(m.db.empty() ? std::filesystem::path(":memory:") : std::filesystem::path(m.db)),
      id_(create_match_tournament(store_, m, config_)),
      lineup_(cut_schedule(base_lineup(config_), m.games)),
      lines_(config_, lineup_.schedule, m.games, !m.db.empty(), std::move(sprt_text), lines_out) {}

std::string MatchRun::play(session::BotHost& host, std::ostream& messages, std::stop_token stop) {
    Runner runner(host, config_, store_, id_, lineup_);
    RunOptions options;
    options.progress = &lines_;
    options.messages = &messages;
    options.command = "arena match";
    const RunOutcome outcome = runner.run(options, std::move(stop));
    if (!outcome.error.empty() || outcome.given_up.empty()) return outcome.error;
    // A bot that keeps failing to start is not started for every game.
    return outcome.given_up.front().bot.describe() + ", so the match stopped after " +
           std::to_string(lines_.tally().games()) + " of " + std::to_string(games_) +
           " games (failed starts are not results): fix it and run it again";
}

std::string MatchRun::set_status(bool stopped_early) {
    try {
        store_.set_status(id_, stopped_early ? "interrupted" : "finished");
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

MatchEnd MatchRun::finish(bool json, bool interrupted, std::string failure, std::ostream& out,
                          std::ostream& err) {
    const bool stopped_early = interrupted || !failure.empty();
    lines_.print_end(out, json, stopped_early);
    lines_.print_warnings(err);
    const std::string status_error = set_status(stopped_early);
    if (status_error.empty() && !db_.empty())
        err << "arena match: stored as tournament '" << config_.name << "' in " << db_ << "\n";
    if (failure.empty()) failure = status_error;
    if (!failure.empty()) {
        err << "arena match: " << record::escape_controls(failure) << "\n";
        return MatchEnd::kFailed;
    }
    if (interrupted) {
        err << "arena match: interrupted after " << lines_.tally().games() << " of " << games_
            << " games\n";
        return MatchEnd::kInterrupted;
    }
    return MatchEnd::kPlayed;
}

}  // namespace arena::tournament
