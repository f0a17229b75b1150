#include "arena/submissions/submissions.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

#include "arena/check/check.hpp"
#include "arena/check/report.hpp"
#include "arena/record/escape.hpp"
#include "arena/tournament/check_files.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::submissions {
namespace {

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

}  // namespace

CheckOutcome check_submission(session::BotHost& host, const tournament::Config& config,
                              const tournament::BotConfig& bot, std::stop_token stop) {
    std::vector<check::CheckResult> results;
    std::string problem;
    try {
        if (stop.stop_requested()) throw check::Stopped("before its checks");
        auto options = check_options(config, bot);
        options.stop = stop;
        results = check::check_bot(host, options);
    } catch (const check::Stopped&) {
        throw;
    } catch (const std::exception& e) {
        problem = e.what();
    }
    CheckOutcome outcome;
    outcome.passed = problem.empty() && check::all_passed(results);
    outcome.summary =
        problem.empty() ? check::summary_text(results) : "the checks could not run: " + problem;
    outcome.log = "arena check-bot of bot '" + bot.name + "' (" + bot.manifest.string() +
                  ", command: " + bot.command + ")\n";
    for (const auto& r : results)
        outcome.log += check::format_text(r);
    outcome.log += outcome.summary + "\n";
    if (outcome.passed) return outcome;
    if (!problem.empty()) {
        outcome.why = outcome.summary;
        return outcome;
    }
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
    outcome.why = "failed: " + names + "; " + outcome.summary;
    return outcome;
}

void print_left_out(const std::vector<LeftOut>& left_out, std::ostream& out) {
    if (left_out.empty()) return;
    out << "\nleft out, failing the checks (fix them and run again):\n";
    for (const auto& l : left_out)
        out << "  " << record::escape_controls(l.bot) << "  (log: " << l.log.string() << ")\n";
}

bool check_submissions(session::BotHost& host, tournament::Config& config,
                       std::vector<LeftOut>& left_out, std::ostream& err, bool& interrupted,
                       std::stop_token stop) {
    if (!config.check) return true;
    std::error_code ec;
    if (!config.database.parent_path().empty())
        std::filesystem::create_directories(config.database.parent_path(), ec);
    const auto table = tournament::passed_checks_file(config);
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
        CheckOutcome outcome;
        try {
            outcome = check_submission(host, config, bot, stop);
        } catch (const check::Stopped&) {
            // What passed so far is remembered; this bot is checked afresh.
            if (changed) write_passed_checks(table, passed);
            err << "arena run: interrupted while checking bot '"
                << record::escape_controls(bot.name)
                << "': nothing was played; run the same command again to check the rest and "
                   "play\n";
            interrupted = true;
            return false;
        }
        const auto log_file = tournament::check_log_file(config, bot.name);
        if (outcome.passed) {
            err << "arena run: bot '" << record::escape_controls(bot.name)
                << "' passes the checks (" << outcome.summary << ")\n";
            passed[bot.name] = now;
            changed = true;
            std::filesystem::remove(log_file, ec);
            continue;
        }
        {
            std::ofstream out(log_file, std::ios::trunc);
            out << outcome.log;
        }
        err << "arena run: bot '" << record::escape_controls(bot.name) << "' FAILS the checks ("
            << record::escape_controls(outcome.why)
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

}  // namespace arena::submissions
