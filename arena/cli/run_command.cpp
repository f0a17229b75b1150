// `arena run CONFIG`: plays a tournament into its results database, resuming
// where an earlier run stopped, and prints the standings.

#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "arena/check/check.hpp"
#include "arena/check/report.hpp"
#include "arena/cli/commands.hpp"
#include "arena/cli/config_args.hpp"
#include "arena/cli/serve_setup.hpp"
#include "arena/cli/stop_signal.hpp"
#include "arena/match/close_calls.hpp"
#include "arena/record/escape.hpp"
#include "arena/report/sprt_text.hpp"
#include "arena/report/text_standings.hpp"
#include "arena/session/cgroup.hpp"
#include "arena/store/run_lock.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/growth.hpp"
#include "arena/tournament/progress.hpp"
#include "arena/tournament/runner.hpp"
#include "arena/tournament/schedule.hpp"
#include "arena/tournament/scoring.hpp"
#include "arena/tournament/shard.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kRunUsage =
    R"(usage: arena run CONFIG [--db PATH] [--concurrency N] [--shard K/N] [--stats] [--serve PORT]

Plays the tournament described by CONFIG (YAML, see docs/config.md) and
stores every game in its SQLite database. Running the same command again
after an interruption plays exactly the games that are missing; running it
on a finished tournament prints its standings. With --shard K/N it plays
only shard K of N of the schedule, into results/<name>.shard-K-of-N.db
unless --db is given; `arena merge` joins the shards (docs/cluster.md).

)";

double seconds(const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

// One line of key=value figures about this run, for benchmarks and people:
// what the arena process itself (all its threads, not the bots) used.
void print_stats(const tournament::RunOutcome& outcome, std::chrono::steady_clock::duration wall,
                 std::ostream& out) {
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    const double user = seconds(self.ru_utime), sys = seconds(self.ru_stime);
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
                  wall_s * 1e6 / moves, static_cast<double>(self.ru_maxrss) / 1024.0,
                  static_cast<long long>(outcome.process_starts),
                  static_cast<long long>(outcome.processes_retired), outcome.process_capacity);
    out << line;
}

// Warns about each bot whose moves keep finishing within a hair of their
// limit, from the move times of the tournament's stored games.
void warn_close_calls(store::ResultsStore& store, std::int64_t id, const match::TimeControl& time,
                      std::ostream& err) {
    match::CloseCallCounter counter(time);
    for (const auto& summary : store.games(id)) {
        const auto game = store.load_game(summary.id);
        if (!game) continue;
        std::vector<match::TimedMove> moves;
        for (const auto& m : game->moves)
            moves.push_back({m.side, std::chrono::microseconds{m.time_us}, m.by_arena});
        counter.add(summary.first, summary.second, moves);
    }
    for (const auto& [bot, count] : counter.warnings())
        err << match::close_call_warning(bot, count, "let it stop earlier, or raise tolerance_ms")
            << "\n";
}

// Each config bot's bot_sha256, in config order.
std::vector<std::string> program_sha256s(const tournament::Config& config) {
    std::vector<std::string> sha256;
    for (const auto& b : config.bots)
        sha256.push_back(tournament::bot_sha256(b));
    return sha256;
}

store::BotEntry bot_entry(const tournament::BotConfig& bot, const std::string& sha256) {
    return {bot.name, bot.command, bot.protocol, sha256};
}

std::vector<store::BotEntry> bot_entries(const tournament::Config& config,
                                         const std::vector<std::string>& sha256) {
    std::vector<store::BotEntry> entries;
    for (std::size_t i = 0; i < config.bots.size(); ++i)
        entries.push_back(bot_entry(config.bots[i], sha256[i]));
    return entries;
}

store::SegmentRow segment_row(const tournament::StoredSegment& segment, int number) {
    return {number,        segment.games_per_pair, segment.rounds,      segment.first_game,
            segment.games, segment.description,    segment.fingerprint, segment.active};
}

// A stored tournament as the growth planner takes it: its bots in the order
// they entered, and its segments; with `count_games`, each bot's stored
// games (read from the standings index: only when they matter).
tournament::StoredTournament read_stored(store::ResultsStore& store,
                                         const store::TournamentRow& row, bool count_games) {
    tournament::StoredTournament stored;
    stored.fingerprint = row.spec.fingerprint;
    for (const auto& bot : store.bots(row.id)) {
        tournament::StoredEntrant entrant;
        entrant.name = bot.name;
        entrant.sha256 = bot.sha256;
        entrant.version = bot.version;
        stored.entrants.push_back(std::move(entrant));
    }
    for (const auto& c :
         count_games ? store.result_counts(row.id) : std::vector<store::ResultCount>{}) {
        stored.entrants[static_cast<std::size_t>(c.first)].games += c.games;
        stored.entrants[static_cast<std::size_t>(c.second)].games += c.games;
    }
    for (const auto& s : store.segments(row.id)) {
        tournament::StoredSegment segment;
        segment.active = s.active;
        segment.games_per_pair = s.games_per_pair;
        segment.rounds = s.rounds;
        segment.fingerprint = s.fingerprint;
        segment.description = s.description;
        segment.first_game = s.first_game;
        segment.games = s.games;
        stored.segments.push_back(std::move(segment));
    }
    if (!stored.segments.empty()) {
        const auto& active = stored.segments.back().active;
        for (std::size_t e = 0; e < stored.entrants.size(); ++e) {
            stored.entrants[e].active =
                std::find(active.begin(), active.end(), static_cast<int>(e)) != active.end();
        }
    }
    return stored;
}

// The games a lineup needs: those stored, and those it can still play.
std::int64_t needed_games(const tournament::Lineup& lineup,
                          const std::vector<std::int64_t>& recorded) {
    const std::unordered_set<std::int64_t> done(recorded.begin(), recorded.end());
    std::int64_t needed = 0;
    for (const auto& p : lineup.schedule)
        if (done.contains(p.index) || lineup.playable(p)) ++needed;
    return needed;
}

// Where a stored tournament's run starts from: its lineup, after recording
// what the config changes in it; nullopt after saying why the config is
// refused. `print` is the config's fingerprint.
std::optional<tournament::Lineup> standing_lineup(store::ResultsStore& store,
                                                  const store::TournamentRow& row,
                                                  const tournament::Config& config,
                                                  const std::string& print, std::ostream& err) {
    const auto refuse = [&](const std::string& why) {
        err << "arena run: " << config.path.string() << " no longer matches tournament '"
            << config.name << "' stored in " << config.database.string() << ": " << why
            << "\n(give the tournament a new name, or use another --db)\n";
        return std::nullopt;
    };
    const auto sha256 = program_sha256s(config);
    // A new version needs to know whether the earlier one played (growth.hpp).
    auto stored = read_stored(store, row, config.versions == tournament::Versions::kKeep);
    bool first_recorded = true;
    if (stored.segments.empty()) {
        // Stored by an arena that kept no segments: its first is implicit.
        if (auto first = tournament::implicit_first_segment(stored)) {
            stored.segments.push_back(std::move(*first));
            first_recorded = false;
        }
    }
    if (stored.segments.empty()) {
        // Not a schedule of arena run's (arena match's): it cannot grow.
        if (auto diff = tournament::fingerprint_difference(row.spec.fingerprint, print))
            return refuse(*diff);
        return tournament::base_lineup(config);
    }
    const auto growth = tournament::plan_growth(stored, config, sha256);
    if (!growth.refusal.empty()) return refuse(growth.refusal);
    for (const auto& warning : growth.warnings)
        err << warning << "\n";
    if (growth.changed()) {
        const auto before =
            tournament::make_schedule(tournament::schedule_segments(stored, config));
        auto after = tournament::apply_growth(stored, growth, config, sha256);
        auto lineup = tournament::make_lineup(after, config);
        tournament::segment_extents(after, lineup.schedule);
        const auto recorded = store.recorded_indices(row.id);
        store::TournamentChange change;
        for (const auto& [e, name] : growth.renamed)
            change.renamed.emplace_back(stored.entrants[static_cast<std::size_t>(e)].name, name);
        for (const auto& [e, sha] : growth.new_sha256)
            change.new_sha256.emplace_back(stored.entrants[static_cast<std::size_t>(e)].name, sha);
        for (const int i : growth.entering) {
            auto entry = bot_entry(config.bots[static_cast<std::size_t>(i)],
                                   sha256[static_cast<std::size_t>(i)]);
            entry.version = after.entrants[stored.entrants.size() + change.entering.size()].version;
            change.entering.push_back(std::move(entry));
        }
        for (std::size_t k = first_recorded ? stored.segments.size() : 0; k < after.segments.size();
             ++k)
            change.segments.push_back(segment_row(after.segments[k], static_cast<int>(k)));
        change.config_text = config.text;
        change.fingerprint = print;
        change.total_games = needed_games(lineup, recorded);
        store.change_tournament(row.id, change);

        const auto added = static_cast<std::int64_t>(lineup.schedule.size() - before.size());
        // Unplayed games of bots that played until now, and play no more.
        const std::unordered_set<std::int64_t> done(recorded.begin(), recorded.end());
        const auto was_active = [&](int e) {
            return stored.entrants[static_cast<std::size_t>(e)].active;
        };
        std::int64_t dropped = 0;
        for (const auto& p : before) {
            if (!done.contains(p.index) && !lineup.playable(p) && was_active(p.first) &&
                was_active(p.second))
                ++dropped;
        }
        err << "arena run: tournament '" << config.name << "' changes:";
        const char* sep = " ";
        for (const auto& c : growth.changes) {
            err << sep << c;
            sep = "; ";
        }
        if (config.schedule == tournament::ScheduleType::kLadder) {
            // No games are scheduled ahead: the ladder chooses them as it goes.
            const auto n = growth.entering.size();
            if (n > 0)
                err << ". The ladder places " << n << (n == 1 ? " entrant" : " entrants")
                    << " round by round";
        } else {
            err << ". " << added << " new game" << (added == 1 ? "" : "s") << " in the schedule";
            if (dropped > 0)
                err << ", " << dropped << " unplayed game" << (dropped == 1 ? "" : "s")
                    << " of bots that play no more left out";
        }
        err << "\n";
        return lineup;
    }
    // The schedule as recorded: its segments must come out where they were.
    auto lineup = tournament::make_lineup(stored, config);
    auto check = stored;
    tournament::segment_extents(check, lineup.schedule);
    for (std::size_t k = 0; first_recorded && k < check.segments.size(); ++k) {
        if (check.segments[k].first_game != stored.segments[k].first_game ||
            check.segments[k].games != stored.segments[k].games) {
            err << "arena run: tournament '" << config.name << "' in " << config.database.string()
                << ": segment " << k << " of its schedule was recorded with games "
                << stored.segments[k].first_game << ".."
                << stored.segments[k].first_game + stored.segments[k].games
                << " (end excluded), but comes out with games " << check.segments[k].first_game
                << ".." << check.segments[k].first_game + check.segments[k].games
                << " here; it was made by another arena\n";
            return std::nullopt;
        }
    }
    return lineup;
}

// A shard's stored tournament must be the one the config makes, unchanged:
// shards of a tournament that grows would each grow on their own games and
// come apart (docs/cluster.md). The reason it is refused; empty when not.
std::string shard_change(store::ResultsStore& store, const store::TournamentRow& row,
                         const tournament::Config& config, const std::string& print) {
    if (auto diff = tournament::fingerprint_difference(row.spec.fingerprint, print))
        return "the config no longer matches it: " + *diff;
    if (store.segments(row.id).size() > 1) return "it has grown since it was created";
    const auto sha256 = program_sha256s(config);
    const auto stored = store.bots(row.id);
    for (std::size_t i = 0; i < config.bots.size() && i < stored.size(); ++i) {
        if (!stored[i].sha256.empty() && !sha256[i].empty() && stored[i].sha256 != sha256[i]) {
            return "the program of bot '" + config.bots[i].name + "' changed (sha256 " +
                   stored[i].sha256 + ", now " + sha256[i] +
                   "); every shard must play the same build";
        }
    }
    return {};
}

// A database locked by another program (a `sqlite3` shell in a transaction,
// a backup) is waited for as long as the lock is held, with a line every
// 10 s; a stop request (Ctrl-C) ends the wait.
store::LockWaiting wait_for_the_database(std::ostream& err, std::stop_token stop = {}) {
    store::LockWaiting waiting;
    waiting.limit = std::nullopt;
    waiting.stop = std::move(stop);
    waiting.report = [&err](const store::LockWait& wait) {
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(wait.waited).count();
        if (wait.over) {
            err << "arena run: " << wait.file.string() << " is free again after " << seconds
                << " s; going on\n";
        } else {
            err << "arena run: " << wait.file.string()
                << " is locked by another program; still waiting (" << seconds << " s)\n";
        }
    };
    return waiting;
}

// The standings table, with the course-style points of the stored config's
// `scoring:` when it has them.
void print_standings(store::ResultsStore& store, const store::TournamentRow& row,
                     const tournament::Config& config, std::ostream& out) {
    std::optional<report::ReportOptions::Points> points;
    if (const auto scoring = tournament::scoring_of_config_text(row.spec.config_text))
        points = report::ReportOptions::Points{scoring->win, scoring->draw, scoring->loss};
    report::report_standings(store, row, out, config.anchors, points);
}

// Each opponent's test of a gauntlet with `sprt`, after the standings.
void print_gauntlet_sprt(const tournament::Config& config, const tournament::Lineup& lineup,
                         const tournament::RunOutcome& outcome, std::ostream& out) {
    if (!config.sprt) return;
    for (const auto& t : outcome.sprt_tests) {
        const auto& challenger = lineup.names[static_cast<std::size_t>(t.challenger)];
        const auto& opponent = lineup.names[static_cast<std::size_t>(t.opponent)];
        report::print_sprt_block(out, challenger, opponent, *config.sprt, t.result, t.pairs,
                                 t.games);
        std::string undecided = "SPRT: no decision after " + std::to_string(t.counted_pairs) +
                                " of " + std::to_string(t.scheduled_pairs) + " pairs";
        if (!t.playable) {
            undecided +=
                " (" +
                (lineup.bot_of[static_cast<std::size_t>(t.opponent)] < 0 ? opponent : challenger) +
                " plays no more)";
        } else if (t.counted_pairs == t.scheduled_pairs) {
            undecided += " (the most games_per_pair allows)";
        }
        report::print_sprt_decision(out, t.result.decision, undecided);
        if (t.late_pairs > 0) {
            out << t.late_pairs << " more pair" << (t.late_pairs == 1 ? " was" : "s were")
                << " finished after the decision: stored, not counted in the test\n";
        }
    }
}

// `check: true` (docs/config.md): where the programs that passed are
// remembered, next to the database.
std::filesystem::path passed_checks_file(const tournament::Config& config) {
    return config.database.parent_path() / (config.name + ".checked");
}

// Where a failed check's log is kept.
std::filesystem::path check_log_file(const tournament::Config& config, const std::string& bot) {
    return config.database.parent_path() / (config.name + "." + bot + ".check.txt");
}

// What passed: a bot's program (bot_sha256) with its command line.
struct Passed {
    std::string sha256;
    std::string command;
    bool operator==(const Passed&) const = default;
};

// One line a bot: name, sha256 and command, separated by tabs.
std::map<std::string, Passed> read_passed_checks(const std::filesystem::path& file) {
    std::map<std::string, Passed> passed;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        const auto a = line.find('\t');
        const auto b = a == std::string::npos ? a : line.find('\t', a + 1);
        if (b == std::string::npos) continue;
        passed[line.substr(0, a)] = {line.substr(a + 1, b - a - 1), line.substr(b + 1)};
    }
    return passed;
}

void write_passed_checks(const std::filesystem::path& file,
                         const std::map<std::string, Passed>& passed) {
    const auto temporary = std::filesystem::path(file.string() + ".tmp");
    {
        std::ofstream out(temporary, std::ios::trunc);
        for (const auto& [name, p] : passed)
            out << name << "\t" << p.sha256 << "\t" << p.command << "\n";
        if (!out) throw std::runtime_error("cannot write " + temporary.string());
    }
    std::filesystem::rename(temporary, file);
}

// "12 of 20 games stored in results/t.db; run the same command again to
// play the other 8", for a run that stops early.
std::string stopped_text(const tournament::RunOutcome& outcome, const tournament::Config& config) {
    const auto left = std::max<std::int64_t>(0, outcome.total - outcome.stored);
    return std::to_string(outcome.stored) + " of " + std::to_string(outcome.total) +
           " games stored in " + config.database.string() +
           "; run the same command again to play the other " + std::to_string(left) +
           " (it resumes where this run stopped)";
}

check::CheckOptions check_options(const tournament::Config& config,
                                  const tournament::BotConfig& bot) {
    check::CheckOptions options;
    options.game = config.game;
    options.bot = tournament::bot_spec(bot);
    options.session = tournament::session_options(config, bot);
    options.session.transcript = false;
    options.time = config.time;
    options.seed = config.seed;
    if (bot.protocol == tournament::kTsinghuaSo) {
        options.kind = check::BotKind::kTsinghuaSo;
    } else if (options.bot.protocol == session::BotProtocol::kGomocup) {
        options.kind = check::BotKind::kGomocup;
    } else if (options.bot.protocol == session::BotProtocol::kNboard) {
        options.kind = check::BotKind::kNboard;
    }
    return options;
}

// A submission that fails the checks, and where its check log is.
struct LeftOut {
    std::string bot;
    std::filesystem::path log;
};

// Under the standings: the submissions this run left out, with their logs.
void print_left_out(const std::vector<LeftOut>& left_out, std::ostream& out) {
    if (left_out.empty()) return;
    out << "\nleft out, failing the checks (fix them and run again):\n";
    for (const auto& l : left_out)
        out << "  " << record::escape_controls(l.bot) << "  (log: " << l.log.string() << ")\n";
}

// `check: true`: runs the arena check-bot checks on each bot of bots_dir
// whose program did not pass them before (a new name, or a changed
// bot_sha256). One that fails is reported in one line naming its log, which
// is kept in a file next to the database, is added to `left_out`, and is left
// out of `config` for this run: it enters as a late entrant once a later run
// finds it fixed. False after saying why the run cannot go on.
bool check_submissions(tournament::Config& config, std::vector<LeftOut>& left_out,
                       std::ostream& err, bool& interrupted) {
    if (!config.check) return true;
    // Ctrl-C during the checks stops them after the step in progress.
    StopOnSignal signals;
    const auto stop = signals.token();
    std::error_code ec;
    if (!config.database.parent_path().empty())
        std::filesystem::create_directories(config.database.parent_path(), ec);
    const auto table = passed_checks_file(config);
    auto passed = read_passed_checks(table);
    std::vector<std::string> failed;
    bool changed = false;
    for (const auto& bot : config.bots) {
        if (bot.manifest.empty()) continue;
        std::string command;
        for (const auto& word : bot.argv)
            command += (command.empty() ? "" : " ") + word;
        std::erase_if(command, [](char c) { return c == '\n' || c == '\t'; });
        const Passed now{tournament::bot_sha256(bot), command};
        if (const auto it = passed.find(bot.name);
            it != passed.end() && !now.sha256.empty() && it->second == now)
            continue;
        err << "arena run: checking bot '" << record::escape_controls(bot.name) << "' ("
            << bot.manifest.string() << ")...\n"
            << std::flush;
        std::vector<check::CheckResult> results;
        std::string problem;
        try {
            if (stop.stop_requested()) throw check::Stopped("before its checks");
            auto options = check_options(config, bot);
            options.stop = stop;
            results = check::check_bot(options);
        } catch (const check::Stopped&) {
            // What passed so far is remembered; this bot is checked afresh.
            if (changed) write_passed_checks(table, passed);
            err << "arena run: interrupted while checking bot '"
                << record::escape_controls(bot.name)
                << "': nothing was played; run the same command again to check the rest and "
                   "play\n";
            interrupted = true;
            return false;
        } catch (const std::exception& e) {
            problem = e.what();
        }
        const auto log_file = check_log_file(config, bot.name);
        if (problem.empty() && check::all_passed(results)) {
            err << "arena run: bot '" << record::escape_controls(bot.name)
                << "' passes the checks (" << check::summary_text(results) << ")\n";
            passed[bot.name] = now;
            changed = true;
            std::filesystem::remove(log_file, ec);
            continue;
        }
        std::string log = "arena check-bot of bot '" + bot.name + "' (" + bot.manifest.string() +
                          ", command: " + bot.command + ")\n";
        for (const auto& r : results)
            log += check::format_text(r);
        log += problem.empty() ? check::summary_text(results) + "\n"
                               : "the checks could not run: " + problem + "\n";
        {
            std::ofstream out(log_file, std::ios::trunc);
            out << log;
        }
        // One line: the log (a page or more for one debug print) is in its file.
        std::string why;
        if (problem.empty()) {
            // The first three failed checks by name: the log has them all.
            std::string names;
            int shown = 0, more = 0;
            for (const auto& r : results) {
                if (r.status != check::Status::kFail) continue;
                if (shown == 3) {
                    ++more;
                    continue;
                }
                names += (shown++ == 0 ? "" : ", ") + r.name;
            }
            if (more > 0) names += " and " + std::to_string(more) + " more";
            why = "failed: " + names + "; " + check::summary_text(results);
        } else {
            why = "the checks could not run: " + problem;
        }
        err << "arena run: bot '" << record::escape_controls(bot.name) << "' FAILS the checks ("
            << record::escape_controls(why)
            << ") and does not play in this run; fix it and run again (its check log: "
            << log_file.string() << ")\n";
        left_out.push_back({bot.name, log_file});
        if (passed.erase(bot.name) > 0) changed = true;
        failed.push_back(bot.name);
    }
    if (changed) write_passed_checks(table, passed);
    if (failed.empty()) return true;
    const auto is_failed = [&](const std::string& name) {
        return std::find(failed.begin(), failed.end(), name) != failed.end();
    };
    std::erase_if(config.bots, [&](const auto& bot) { return is_failed(bot.name); });
    std::erase_if(config.anchors, [&](const auto& a) { return is_failed(a.name); });
    if (config.schedule == tournament::ScheduleType::kGauntlet && is_failed(config.challenger)) {
        err << "arena run: the challenger '" << config.challenger
            << "' fails the checks, so there is nothing to play\n";
        return false;
    }
    if (config.bots.size() < 2) {
        err << "arena run: " << config.bots.size()
            << " bot(s) pass the checks; at least 2 are needed to play\n";
        return false;
    }
    return true;
}

}  // namespace

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string config_path, db_override;
    int concurrency = 0;
    bool stats = false;
    bool transcript = false;
    int serve_port = -1;  // --serve: off
    std::string shard_text;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("db", po::value<std::string>(&db_override), "results database (default: the config's)")
        ("concurrency,j", po::value<int>(&concurrency), "games at once (default: the config's, else the number of cores)")
        ("shard", po::value<std::string>(&shard_text), "play only shard K of N of the schedule (K/N, from 1/N to N/N), by default into results/<name>.shard-K-of-N.db; arena merge joins them (docs/cluster.md)")
        ("stats", po::bool_switch(&stats), "print the arena's own CPU time, memory and speed at the end")
        ("transcript", po::bool_switch(&transcript), "store every line between the arena and the bots, per game (as the config's transcript: true)")
        ("serve", po::value<int>(&serve_port), "while it runs, serve the tournament's pages with its games in progress on this port of 127.0.0.1 (0: any free port; docs/serve.md)");
    // clang-format on
    if (const auto done = parse_config_args(
            "run", kRunUsage, args, opts, config_path, out, err, [&](const po::variables_map& vm) {
                if (vm.count("concurrency") && concurrency < 1)
                    throw std::invalid_argument("--concurrency must be at least 1");
                if (vm.count("serve") && (serve_port < 0 || serve_port > 65535))
                    throw std::invalid_argument("--serve must be a port, 0..65535");
            }))
        return *done;
    std::optional<tournament::Shard> shard;
    if (!shard_text.empty()) {
        std::string problem;
        shard = tournament::parse_shard(shard_text, problem);
        if (!shard) {
            err << "arena run: " << problem << "\n(arena run --help for usage)\n";
            return kExitUsage;
        }
    }

    auto loaded = load_config_or_say_why(config_path, err);
    if (!loaded) return kExitUsage;
    tournament::Config config = std::move(*loaded);
    err << session::cgroup::describe_limits(
               std::any_of(config.bots.begin(), config.bots.end(),
                           [](const auto& bot) { return bot.isolation.cgroup; }))
        << "\n";
    for (const auto& warning : config.warnings)
        err << warning << "\n";
    if (shard) {
        if (const auto why = tournament::shard_refusal(config); !why.empty()) {
            err << "arena run: --shard: " << config.path.string() << ": " << why << "\n";
            return kExitUsage;
        }
        config.database = tournament::shard_database(config.database, *shard);
    }
    if (!db_override.empty()) config.database = db_override;
    if (transcript) config.transcript = true;
    if (concurrency == 0) concurrency = config.concurrency;
    if (concurrency == 0)
        concurrency = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<LeftOut> left_out;
    try {
        bool interrupted = false;
        if (!check_submissions(config, left_out, err, interrupted))
            return interrupted ? 130 : kExitFailure;
    } catch (const std::exception& e) {
        err << "arena run: " << e.what() << "\n";
        return kExitFailure;
    }

    try {
        store::ResultsStore store(config.database, wait_for_the_database(err));
        // Held until the run returns; the kernel drops it if the arena dies.
        std::optional<store::RunLock> lock;
        try {
            lock.emplace(config.database, config.name);
        } catch (const store::LockedError& e) {
            err << "arena run: " << e.what() << "\n";
            return kExitFailure;
        }
        const auto print = tournament::fingerprint(config);
        std::int64_t id = 0;
        tournament::Lineup lineup;
        if (auto existing = store.find_tournament(config.name)) {
            id = existing->id;
            if (shard) {
                if (const auto why = shard_change(store, *existing, config, print); !why.empty()) {
                    err << "arena run: --shard " << shard_text << ": tournament '" << config.name
                        << "' stored in " << config.database.string() << ": " << why
                        << "\n(a shard plays a tournament as it was created; start the shards "
                           "again under a new name, or in new databases)\n";
                    return kExitUsage;
                }
            }
            auto standing = standing_lineup(store, *existing, config, print, err);
            if (!standing) return kExitUsage;
            lineup = std::move(*standing);
        } else {
            lineup = tournament::base_lineup(config);
            const auto games = static_cast<std::int64_t>(lineup.schedule.size());
            store::TournamentSpec spec{config.name, config.game, config.text,
                                       print,       config.seed, games};
            // Segment 0: the schedule the tournament starts with.
            store::SegmentRow first;
            first.games_per_pair = config.games_per_pair;
            first.rounds = config.rounds;
            first.games = games;
            first.fingerprint = print;
            for (std::size_t i = 0; i < config.bots.size(); ++i)
                first.active.push_back(static_cast<int>(i));
            id = store.create_tournament(spec, bot_entries(config, program_sha256s(config)), first);
        }
        const auto scheduled_games = lineup.schedule.size();
        if (shard) {
            // The shard's pairs of the whole schedule, which the tournament
            // stored here keeps (its total is the whole tournament's).
            lineup.schedule = tournament::shard_games(lineup.schedule, *shard);
            err << "arena run: shard " << shard->index << " of " << shard->count << ": ";
            if (lineup.schedule.empty()) {
                err << "no games (the schedule has " << scheduled_games / 2 << " pairs)";
            } else {
                err << "games " << lineup.schedule.front().index + 1 << ".."
                    << lineup.schedule.back().index + 1 << " of " << scheduled_games;
            }
            err << ", stored in " << config.database.string() << "\n";
        }

        tournament::RunOutcome outcome;
        const auto started = std::chrono::steady_clock::now();
        bool signals_stopped = false;
        {
            StopOnSignal signals;
            // With --serve: the pages, and the games in progress move by move.
            serve::LiveGames live;
            serve::LiveTournament watch(live, config.name);
            std::optional<RunningServer> server;
            if (serve_port >= 0) {
                ServeSetup setup;
                setup.databases = {config.database};
                setup.play = false;
                setup.live = &live;
                setup.server.port = static_cast<unsigned short>(serve_port);
                server.emplace(setup, err);
                out << "arena run: " << server->describe() << std::endl;
            }
            store.set_lock_waiting(wait_for_the_database(err, signals.token()));
            store.set_status(id, "running");
            tournament::Runner runner(config, store, id, lineup);
            tournament::ProgressOptions shown;
            if (shard) shown.schedule_games = static_cast<std::int64_t>(scheduled_games);
            shown.messages = &err;
            shown.live = isatty(STDOUT_FILENO) != 0;
            if (winsize size{}; shown.live && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0)
                shown.width = size.ws_col;
            tournament::Progress progress(config, out, shown);
            tournament::RunOptions options;
            options.concurrency = concurrency;
            options.progress = &progress;
            options.messages = &err;
            if (server) {
                options.observers.push_back(&watch);
                // The server's connections, and the few it may hold past its limit.
                options.reserved_fds = serve::ServerOptions{}.max_connections * 5 / 4 + 16;
            }
            outcome = runner.run(options, signals.token());
            signals_stopped = signals.stopped();
        }
        if (stats) print_stats(outcome, std::chrono::steady_clock::now() - started, out);
        if (!outcome.interrupted) {
            store.set_status(id, "finished");
            print_standings(store, *store.find_tournament(config.name), config, out);
            print_gauntlet_sprt(config, lineup, outcome, out);
            print_left_out(left_out, out);
            if (outcome.stored > 0) warn_close_calls(store, id, config.time, err);
            return kExitOk;
        }
        if (!outcome.error.empty()) {
            // Storage may be what failed (a full disk): report the cause and
            // stop, touching the database no more than to note the stop.
            err << "arena run: " << record::escape_controls(outcome.error) << "\n";
            try {
                store.set_status(id, "interrupted");
            } catch (const std::exception&) {
                // The same failure again; the status is only informative.
            }
            err << "arena run: stopped with " << outcome.stored << " of " << outcome.total
                << " games stored; run the same command again to play the rest\n";
            return kExitFailure;
        }
        if (!outcome.given_up.empty() && !signals_stopped) {
            store.set_status(id, "interrupted");
            if (const auto row = store.find_tournament(config.name); row && outcome.stored > 0)
                print_standings(store, *row, config, out);
            print_left_out(left_out, out);
            for (const auto& g : outcome.given_up) {
                err << "arena run: " << record::escape_controls(g.bot.describe()) << ", so its "
                    << g.missing_games
                    << " remaining games were not played: fix it and run the same command again\n";
            }
            return kExitFailure;
        }
        store.set_status(id, "interrupted");
        err << "arena run: interrupted: " << stopped_text(outcome, config) << "\n";
        if (const auto row = store.find_tournament(config.name); row && outcome.stored > 0) {
            print_standings(store, *row, config, out);
            print_gauntlet_sprt(config, lineup, outcome, out);
        }
        print_left_out(left_out, out);
        return 130;
    } catch (const std::exception& e) {
        err << "arena run: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace arena::cli
