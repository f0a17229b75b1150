#include "arena/tournament/run_summary.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>

#include "arena/match/close_calls.hpp"
#include "arena/record/escape.hpp"

namespace arena::tournament {
namespace {

double seconds(const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

}  // namespace

ProcessUsage own_usage() {
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    return {seconds(self.ru_utime), seconds(self.ru_stime), static_cast<double>(self.ru_maxrss)};
}

std::string stats_line(const RunOutcome& outcome, std::chrono::steady_clock::duration wall,
                       const ProcessUsage& usage) {
    const double user = usage.user_s, sys = usage.sys_s;
    const double moves = static_cast<double>(std::max<std::int64_t>(outcome.moves, 1));
    const double wall_s = std::chrono::duration<double>(wall).count();
    char line[512];
    std::snprintf(line, sizeof line,
                  "stats: games=%lld moves=%lld wall_s=%.3f games_per_s=%.1f cpu_user_s=%.3f "
                  "cpu_sys_s=%.3f cpu_us_per_move=%.2f game_cpu_us_per_move=%.2f "
                  "storage_cpu_us_per_move=%.2f wall_us_per_move=%.2f peak_rss_mb=%.1f "
                  "bot_starts=%lld bots_retired=%lld process_capacity=%zu\n",
                  static_cast<long long>(outcome.played), static_cast<long long>(outcome.moves),
                  wall_s, wall_s > 0 ? static_cast<double>(outcome.played) / wall_s : 0.0, user,
                  sys, (user + sys) * 1e6 / moves,
                  std::chrono::duration<double, std::micro>(outcome.game_cpu).count() / moves,
                  std::chrono::duration<double, std::micro>(outcome.storage_cpu).count() / moves,
                  wall_s * 1e6 / moves, usage.peak_rss_kb / 1024.0,
                  static_cast<long long>(outcome.process_starts),
                  static_cast<long long>(outcome.processes_retired), outcome.process_capacity);
    return line;
}

std::vector<std::string> close_call_warnings(store::ResultsStore& store, std::int64_t tournament,
                                             const Config& config) {
    match::CloseCallCounter counter(config.time);
    for (const auto& bot : config.bots)
        if (bot.time) counter.set_time(bot.name, *bot.time);
    for (const auto& summary : store.games(tournament)) {
        const auto game = store.load_game(summary.id);
        if (!game) continue;
        std::vector<match::TimedMove> moves;
        for (const auto& m : game->moves)
            moves.push_back({m.side, std::chrono::microseconds{m.time_us}, m.by_arena});
        counter.add(summary.first, summary.second, moves);
    }
    std::vector<std::string> lines;
    for (const auto& [bot, count] : counter.warnings())
        lines.push_back(
            match::close_call_warning(bot, count, "let it stop earlier, or raise tolerance_ms"));
    return lines;
}

void note_failed_run(store::ResultsStore& store, std::int64_t id, const RunOutcome& outcome,
                     std::ostream& err) {
    err << "arena run: " << record::escape_controls(outcome.error) << "\n";
    try {
        store.set_status(id, "interrupted");
    } catch (const std::exception&) {
        // The same failure again; the status is only informative.
    }
    err << "arena run: stopped with " << outcome.stored << " of " << outcome.total
        << " games stored; run the same command again to play the rest\n";
}

std::string stopped_text(const RunOutcome& outcome, const Config& config) {
    const auto left = std::max<std::int64_t>(0, outcome.total - outcome.stored);
    return std::to_string(outcome.stored) + " of " + std::to_string(outcome.total) +
           " games stored in " + config.database.string() +
           "; run the same command again to play the other " + std::to_string(left) +
           " (it resumes where this run stopped)";
}

std::string given_up_text(const RunOutcome::GivenUp& given_up) {
    return record::escape_controls(given_up.bot.describe()) + ", so its " +
           std::to_string(given_up.missing_games) +
           " remaining games were not played: fix it and run the same command again";
}

std::string undecided_text(const OpponentTest& test, const Lineup& lineup) {
    std::string text = "SPRT: no decision after " + std::to_string(test.counted_pairs) + " of " +
                       std::to_string(test.scheduled_pairs) + " pairs";
    if (test.stopped_repeating) {
        text += " (stopped: the last " + std::to_string(kRepeatsInARowToStop) +
                " pairs each repeated an earlier pair move for move)";
    } else if (!test.playable) {
        const auto index = [](int entrant) { return static_cast<std::size_t>(entrant); };
        const bool opponent_gone = lineup.bot_of[index(test.opponent)] < 0;
        text += " (" + lineup.names[index(opponent_gone ? test.opponent : test.challenger)] +
                " plays no more)";
    } else if (test.counted_pairs == test.scheduled_pairs) {
        text += " (the most games_per_pair allows)";
    }
    return text;
}

std::string uncounted_pairs_text(const OpponentTest& test) {
    std::string text;
    if (test.repeated_pairs > 0) {
        text += std::to_string(test.repeated_pairs) +
                (test.repeated_pairs == 1 ? " pair was" : " pairs were") +
                " set aside: each repeated an earlier pair move for move (docs/ratings.md)\n";
    }
    if (test.late_pairs > 0) {
        text += std::to_string(test.late_pairs) + " more pair" +
                (test.late_pairs == 1 ? " was" : "s were") +
                " finished after the decision: stored, not counted in the test\n";
    }
    return text;
}

std::string repeated_pairs_text(const OpponentTest& test) {
    if (test.repeated_pairs <= 0) return "";
    return ", " + std::to_string(test.repeated_pairs) + " repeated pair" +
           (test.repeated_pairs == 1 ? "" : "s") + " set aside";
}

std::string repeats_stop_text(const OpponentTest& test) {
    return "stopped after " + std::to_string(test.counted_pairs) + " counted pair" +
           (test.counted_pairs == 1 ? "" : "s") + ": the last " +
           std::to_string(kRepeatsInARowToStop) +
           " pairs each repeated an earlier pair move for move, so the bots play the same "
           "games whatever the openings and more would be copies (docs/ratings.md)";
}

}  // namespace arena::tournament
