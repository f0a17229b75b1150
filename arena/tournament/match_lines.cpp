#include "arena/tournament/match_lines.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string_view>
#include <utility>

#include "arena/games/game.hpp"
#include "arena/rating/head_to_head.hpp"
#include "arena/record/escape.hpp"
#include "arena/tournament/run_summary.hpp"

namespace arena::tournament {
namespace {

using record::Termination;

std::string seconds(std::chrono::microseconds us) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << static_cast<double>(us.count()) / 1e6 << " s";
    return s.str();
}

}  // namespace

void print_game(std::ostream& out, int index, int total, std::int64_t stored_id,
                const record::GameRecord& g, const std::string& suffix) {
    // A stored game is numbered by its id (what `arena games` lists and
    // `show` and `log` take), the count after it being progress; an unstored
    // one by its place in the match.
    if (stored_id > 0) {
        out << "game #" << stored_id << " (" << index << "/" << total << " stored)";
    } else {
        out << "game " << index << "/" << total;
    }
    out << ": " << record::escape_controls(g.players[0]) << " vs "
        << record::escape_controls(g.players[1]) << "  " << record::score_text(g.outcome) << "  "
        << record::to_string(g.termination) << "  " << g.moves.size() << " plies  "
        << seconds(g.duration);
    if (!g.detail.empty()) {
        // The detail and stderr tails quote what the bot sent.
        out << "  (" << record::escape_controls(g.detail);
        if (g.fault_after.count() > 0)
            out << "; verdict " << std::fixed << std::setprecision(1)
                << static_cast<double>(g.fault_after.count()) / 1000.0 << " ms after go";
        const std::string fault = record::fault_description(g);
        if (fault.size() > g.detail.size())
            out << record::escape_controls(std::string_view(fault).substr(g.detail.size()));
        out << ")";
    }
    out << suffix << std::endl;
}

MatchLines::MatchLines(const Config& config, const std::vector<Pairing>& schedule, int games,
                       bool numbered, SprtText sprt_text, std::ostream& out)
    : game_(config.game),
      schedule_(schedule),
      games_(games),
      numbered_(numbered),
      sprt_text_(std::move(sprt_text)),
      out_(out),
      tally_({config.bots[0].name, config.bots[1].name}),
      close_calls_(config.time),
      pairs_(config, schedule),
      has_sprt_(config.sprt.has_value()) {
    for (const auto& bot : config.bots)
        if (bot.time) close_calls_.set_time(bot.name, *bot.time);
}

void MatchLines::game_stored(std::int64_t index, std::int64_t game_id,
                             const record::GameRecord& record) {
    tally_.add(record);
    close_calls_.add(record);
    std::string suffix;
    bool pair_done = false;
    const auto before = test().counted_pairs;
    pairs_.add(schedule_[static_cast<std::size_t>(index)], scored_game(record));
    if (has_sprt_) {
        pair_done = test().counted_pairs > before;
        suffix = sprt_text_.llr(test().result);
    }
    // A game kept in memory only (no --db) has no number to show.
    print_game(out_, static_cast<int>(index) + 1, games_, numbered_ ? game_id : 0, record, suffix);
    if (pair_done && !test().decided() && test().counted_pairs % kSprtReportPairs == 0) {
        print_block(out_);
        out_ << std::flush;
    }
}

std::string MatchLines::undecided(bool stopped_early) const {
    std::string line = "SPRT: no decision after " + std::to_string(tally_.games()) + " games";
    if (test().stopped_repeating) return line + ": " + repeats_stop_text(test());
    if (!stopped_early && tally_.games() >= games_) line += " (the most --games allows)";
    return line;
}

void MatchLines::print_warnings(std::ostream& out) const {
    for (const auto& [bot, count] : close_calls_.warnings())
        out << match::close_call_warning(bot, count, "let it stop earlier, or raise --tolerance-ms")
            << "\n";
}

void MatchLines::print_end(std::ostream& out, bool json, bool stopped_early) const {
    if (json) {
        auto j = summary_json(game_, tally_);
        j["head_to_head"] = head_to_head_json(test());
        if (has_sprt()) {
            j["sprt"] = sprt_text_.json(test());
            j["max_games"] = games_;
        }
        out << j.dump() << std::endl;
        return;
    }
    print_summary(out, tally_);
    // The verdict: the head-to-head block, and with an SPRT its decision.
    if (sprt_text_.block) {
        out << "\n";
        print_block(out);
    }
    if (has_sprt()) {
        sprt_text_.decision(out, test().result.decision, undecided(stopped_early));
    } else if (test().stopped_repeating) {
        out << "Match " << repeats_stop_text(test()) << " (" << tally_.games() << " of " << games_
            << " games played)\n";
    }
    out << std::flush;
}

nlohmann::json head_to_head_json(const OpponentTest& test) {
    // Before the first counted pair there are no figures.
    const bool any = test.pairs.pairs() > 0;
    const rating::HeadToHead h = any ? rating::head_to_head(test.pairs) : rating::HeadToHead{};
    // JSON has no infinity: a score of 100 % or 0 % gives null.
    const auto number = [any, &h](double rating::HeadToHead::*field) {
        return any && std::isfinite(h.*field) ? nlohmann::json(h.*field) : nullptr;
    };
    return {{"elo", number(&rating::HeadToHead::elo)},
            {"elo_error", number(&rating::HeadToHead::elo_error)},
            {"nelo", number(&rating::HeadToHead::nelo)},
            {"nelo_error", number(&rating::HeadToHead::nelo_error)},
            {"los", number(&rating::HeadToHead::los)},
            {"pentanomial", test.pairs.bins},
            {"pairs_counted", test.counted_pairs},
            {"repeated_pairs", test.repeated_pairs},
            {"stopped_repeating", test.stopped_repeating}};
}

void print_summary(std::ostream& out, const match::Tally& tally) {
    std::size_t width = 4;
    for (const auto& b : tally.bots())
        width = std::max(width, record::escape_controls(b.name).size());
    out << "\n"
        << std::left << std::setw(static_cast<int>(width)) << "bot" << std::right
        << "  games   wins  draws losses   score";
    for (auto t : record::kAllTerminations)
        if (t != Termination::kNormal) out << std::setw(9) << record::to_string(t);
    out << "\n";
    for (const auto& b : tally.bots()) {
        out << std::left << std::setw(static_cast<int>(width)) << record::escape_controls(b.name)
            << std::right << std::setw(7) << b.games() << std::setw(7) << b.wins << std::setw(7)
            << b.draws << std::setw(7) << b.losses << std::setw(7) << std::fixed
            << std::setprecision(1) << 100.0 * b.score() << "%";
        for (auto t : record::kAllTerminations)
            if (t != Termination::kNormal) out << std::setw(9) << b.lost(t);
        out << "\n";
    }
}

nlohmann::json summary_json(const std::string& game, const match::Tally& tally) {
    nlohmann::json bots = nlohmann::json::array();
    for (const auto& b : tally.bots()) {
        nlohmann::json j{{"name", b.name},   {"games", b.games()}, {"wins", b.wins},
                         {"draws", b.draws}, {"losses", b.losses}, {"score", b.score()}};
        for (auto t : record::kAllTerminations)
            if (t != Termination::kNormal) j[std::string(record::to_string(t))] = b.lost(t);
        bots.push_back(std::move(j));
    }
    return {{"game", game}, {"games", tally.games()}, {"bots", std::move(bots)}};
}

}  // namespace arena::tournament
