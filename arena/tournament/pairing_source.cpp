#include "arena/tournament/pairing_source.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>
#include <utility>

#include "arena/record/escape.hpp"
#include "arena/tournament/fingerprint.hpp"
#include "arena/tournament/ladder.hpp"
#include "arena/tournament/play_order.hpp"
#include "arena/tournament/run_summary.hpp"
#include "arena/tournament/tune_source.hpp"

namespace arena::tournament {
namespace {

// The entrant's name as stored, escaped for a terminal.
std::string shown(const Lineup& lineup, int entrant) {
    return record::escape_controls(lineup.names[static_cast<std::size_t>(entrant)]);
}

// The meetings of a fixed schedule that can repeat themselves to a stop:
// those of more than kRepeatsInARowToStop pairs (none in most round-robins),
// each counted as a test without a decision (gauntlet_sprt.hpp) so that one
// whose last kRepeatsInARowToStop pairs all repeated earlier ones stops. Its
// state is a function of the stored results in schedule order, so a resumed
// run stops the same meetings at the same pair.
std::optional<GauntletSprt> repeat_watch(const Config& config, const Lineup& lineup) {
    if (config.count_repeats) return std::nullopt;
    std::map<std::pair<int, int>, std::int64_t> pairs;  // meeting -> its pairs
    for (const auto& p : lineup.schedule)
        if (p.game_in_pair == 0) ++pairs[std::minmax(p.first, p.second)];
    std::vector<Pairing> long_meetings;
    for (const auto& p : lineup.schedule)
        if (pairs[std::minmax(p.first, p.second)] > kRepeatsInARowToStop)
            long_meetings.push_back(p);
    if (long_meetings.empty()) return std::nullopt;
    std::vector<int> everyone(lineup.names.size());
    std::vector<bool> playable;
    for (std::size_t e = 0; e < everyone.size(); ++e) {
        everyone[e] = static_cast<int>(e);
        playable.push_back(lineup.bot_of[e] >= 0);
    }
    return GauntletSprt(std::nullopt, long_meetings, everyone, playable, false);
}

// A round-robin or gauntlet: the schedule's games not stored yet, in one
// phase. The games of retired bots and earlier versions that are not stored
// are neither played nor needed, and neither are those of a meeting stopped
// for its repeats (repeat_watch).
class FixedSource : public PairingSource {
  public:
    FixedSource(const Config& config, const Lineup& lineup, store::ResultsStore& store,
                std::int64_t tournament_id, const std::unordered_set<std::int64_t>& done)
        : lineup_(lineup), watch_(repeat_watch(config, lineup)) {
        const auto& schedule = lineup.schedule;
        if (watch_ && !done.empty()) {
            for (const auto& g : store.games(tournament_id))
                if (g.slot.index >= 0 && g.slot.index < static_cast<std::int64_t>(schedule.size()))
                    watch_->add(schedule[static_cast<std::size_t>(g.slot.index)], scored_game(g));
        }
        for (const auto& p : schedule) {
            if (done.contains(p.index)) {
                ++total_;
            } else if (needed(p)) {
                ++total_;
                pending_.push_back(p);
            }
        }
    }

    bool begin_phase() override { return !begun_ && (begun_ = true); }
    std::optional<Pairing> next() override {
        while (next_ < pending_.size()) {
            const Pairing& p = pending_[next_++];
            if (!stopped(p)) return p;
        }
        return std::nullopt;
    }
    void on_result(const Pairing& p, const ScoredGame& game) override {
        if (!watch_ || stopped(p)) return;
        watch_->add(p, game);
        if (!stopped(p)) return;
        // Its games not handed out yet are no longer wanted.
        for (std::size_t i = next_; i < pending_.size(); ++i)
            total_ -= std::minmax(pending_[i].first, pending_[i].second) ==
                      std::minmax(p.first, p.second);
        for (const auto& t : watch_->tests()) {
            if (std::minmax(t.challenger, t.opponent) == std::minmax(p.first, p.second)) {
                news_.push_back("repeats: " + shown(lineup_, t.challenger) + " vs " +
                                shown(lineup_, t.opponent) + ": " + repeats_stop_text(t));
            }
        }
    }
    [[nodiscard]] std::int64_t total() const override { return total_; }
    [[nodiscard]] bool needed(const Pairing& p) const override {
        return lineup_.playable(p) && !stopped(p);
    }
    [[nodiscard]] const std::vector<Pairing>& scope() const override { return lineup_.schedule; }
    [[nodiscard]] std::vector<std::string> take_news() override { return std::exchange(news_, {}); }
    void plan_for_capacity(std::size_t capacity, int concurrency) override {
        order_for_capacity(pending_, capacity, concurrency);
    }

  private:
    [[nodiscard]] bool stopped(const Pairing& p) const { return watch_ && watch_->finished(p); }

    const Lineup& lineup_;
    std::optional<GauntletSprt> watch_;
    std::vector<Pairing> pending_;
    std::size_t next_ = 0;
    std::int64_t total_ = 0;
    std::vector<std::string> news_;
    bool begun_ = false;
};

// A gauntlet with `sprt`: its tests continue from the stored games, and
// decided opponents play no more.
class SprtSource : public PairingSource {
  public:
    SprtSource(const Config& config, const Lineup& lineup, store::ResultsStore& store,
               std::int64_t tournament_id, const std::unordered_set<std::int64_t>& done)
        : lineup_(lineup), sprt_(make_sprt(config, lineup)) {
        const auto& schedule = lineup.schedule;
        for (const auto& g : store.games(tournament_id)) {
            if (g.slot.index >= 0 && g.slot.index < static_cast<std::int64_t>(schedule.size()))
                sprt_.add(schedule[static_cast<std::size_t>(g.slot.index)], scored_game(g));
        }
        for (const auto& p : schedule)
            if (!done.contains(p.index) && lineup.playable(p) && !sprt_.finished(p))
                pending_.push_back(p);
    }

    bool begin_phase() override { return !begun_ && (begun_ = true); }
    // A game is handed out only while its opponent is undecided.
    std::optional<Pairing> next() override {
        while (next_ < pending_.size()) {
            const Pairing& p = pending_[next_++];
            if (!sprt_.finished(p)) return p;
        }
        return std::nullopt;
    }
    void on_result(const Pairing& p, const ScoredGame& game) override {
        const bool before = sprt_.finished(p);
        sprt_.add(p, game);
        if (before || !sprt_.finished(p)) return;
        for (const auto& t : sprt_.tests()) {
            const bool ours = (t.opponent == p.first && t.challenger == p.second) ||
                              (t.opponent == p.second && t.challenger == p.first);
            if (ours) news_.push_back(decision_line(t));
        }
    }
    [[nodiscard]] std::int64_t total() const override { return sprt_.needed_games(); }
    [[nodiscard]] bool needed(const Pairing& p) const override {
        return lineup_.playable(p) && !sprt_.finished(p);
    }
    [[nodiscard]] const std::vector<Pairing>& scope() const override { return lineup_.schedule; }

    // "LLR a 1.23, b H1, c -0.40": the tests that can still play.
    [[nodiscard]] std::string summary() const override {
        std::ostringstream s;
        s << "LLR";
        const char* sep = " ";
        for (const auto& t : sprt_.tests()) {
            if (!t.playable) continue;
            s << sep << shown(lineup_, t.opponent) << " ";
            if (t.stopped_repeating) {
                s << "stopped";
            } else if (t.decided()) {
                s << rating::decision_name(t.result.decision);
            } else {
                s << std::fixed << std::setprecision(2) << t.result.llr;
            }
            sep = ", ";
        }
        return s.str();
    }
    [[nodiscard]] std::vector<std::string> take_news() override { return std::exchange(news_, {}); }
    [[nodiscard]] std::vector<OpponentTest> sprt_tests() const override { return sprt_.tests(); }

  private:
    static GauntletSprt make_sprt(const Config& config, const Lineup& lineup) {
        std::vector<int> challengers;
        std::vector<bool> playable;
        for (std::size_t e = 0; e < lineup.names.size(); ++e) {
            if (base_name(lineup.names[e]) == config.challenger)
                challengers.push_back(static_cast<int>(e));
            playable.push_back(lineup.bot_of[e] >= 0);
        }
        return GauntletSprt(*config.sprt, lineup.schedule, challengers, playable,
                            config.count_repeats);
    }

    // "sprt: X vs Y: H1 accepted after 37 pairs (LLR 2.96, bounds -2.94 2.94)",
    // then ", 3 repeated pairs set aside"; or the line of a test stopped
    // for its repeats (repeats_stop_text).
    [[nodiscard]] std::string decision_line(const OpponentTest& t) const {
        std::ostringstream s;
        s << "sprt: " << shown(lineup_, t.challenger) << " vs " << shown(lineup_, t.opponent)
          << ": ";
        if (t.stopped_repeating) {
            s << repeats_stop_text(t);
            return s.str();
        }
        s << rating::decision_name(t.result.decision) << " accepted after " << t.counted_pairs
          << " pair" << (t.counted_pairs == 1 ? "" : "s") << " (LLR " << std::fixed
          << std::setprecision(2) << t.result.llr << ", bounds " << t.result.lower << " "
          << t.result.upper << ")" << repeated_pairs_text(t);
        return s.str();
    }

    const Lineup& lineup_;
    GauntletSprt sprt_;
    std::vector<Pairing> pending_;
    std::size_t next_ = 0;
    std::vector<std::string> news_;
    bool begun_ = false;
};

// A ladder: a round at a time, each chosen from the stored results
// (ladder.hpp). The walk starts over from them on every run. Its games are
// not known in advance: the tournament's total is the games stored and
// those of the round under way, kept up to date in the store for the
// standings and reports.
class LadderSource : public PairingSource {
  public:
    LadderSource(const Config& config, const Lineup& lineup, store::ResultsStore& store,
                 std::int64_t tournament_id)
        : config_(config),
          lineup_(lineup),
          store_(store),
          tournament_id_(tournament_id),
          ladder_(ladder_options(config), playable(lineup)) {
        std::map<std::string, int> entrant_of;
        for (std::size_t e = 0; e < lineup.names.size(); ++e)
            entrant_of.emplace(lineup.names[e], static_cast<int>(e));
        for (const auto& g : store.games(tournament_id)) {
            const auto a = entrant_of.find(g.first), b = entrant_of.find(g.second);
            if (a == entrant_of.end() || b == entrant_of.end()) continue;
            results_[g.slot.index] = {a->second, b->second,
                                      store::first_mover_score(g.result).value_or(0.5)};
        }
        next_round();
        placements_shown_ = ladder_.placements().size();  // placed by earlier runs
        record_total();
    }

    // The first phase is the round found at start; each later one follows a
    // complete round, and announces the entrants placed by it.
    bool begin_phase() override {
        if (!begun_) return begun_ = true;
        const int number = round_ ? round_->number : -1;
        next_round();
        const auto& placed = ladder_.placements();
        for (; placements_shown_ < placed.size(); ++placements_shown_)
            if (placed[placements_shown_].games > 0)
                news_.push_back(placement_line(placed[placements_shown_]));
        record_total();
        // Every entrant placed, or the round could not be completed (a bot
        // was given up): the next run goes on from here.
        return round_ && round_->number != number;
    }
    std::optional<Pairing> next() override {
        if (next_ >= pending_.size()) return std::nullopt;
        return pending_[next_++];
    }
    void on_result(const Pairing& p, const ScoredGame& game) override {
        results_[p.index] = {p.first, p.second, game.first_score};
    }
    [[nodiscard]] std::int64_t total() const override { return total_; }
    // The games stored and those of the round that is not complete.
    [[nodiscard]] std::int64_t final_total(
        const std::unordered_set<std::int64_t>& stored) const override {
        auto total = static_cast<std::int64_t>(stored.size());
        if (round_)
            for (const auto& p : round_->games)
                if (!stored.contains(p.index)) ++total;
        return total;
    }
    [[nodiscard]] bool needed(const Pairing& p) const override { return lineup_.playable(p); }
    // A bot given up misses the games of the round it stopped in.
    [[nodiscard]] const std::vector<Pairing>& scope() const override {
        return round_ ? round_->games : lineup_.schedule;
    }
    // "ladder: placing e, round 3"
    [[nodiscard]] std::string summary() const override {
        if (!round_) return "ladder: every entrant placed";
        return "ladder: placing " + shown(lineup_, round_->entrant) + ", round " +
               std::to_string(round_->number + 1);
    }
    [[nodiscard]] std::vector<std::string> take_news() override { return std::exchange(news_, {}); }

  private:
    static std::vector<bool> playable(const Lineup& lineup) {
        std::vector<bool> p;
        for (const int bot : lineup.bot_of)
            p.push_back(bot >= 0);
        return p;
    }

    // The next round: its games not stored yet are the pending ones.
    void next_round() {
        round_ = ladder_.next_round(results_);
        pending_.clear();
        next_ = 0;
        if (round_) {
            for (const auto& p : round_->games)
                if (!results_.contains(p.index)) pending_.push_back(p);
        }
        total_ = static_cast<std::int64_t>(results_.size() + pending_.size());
    }

    // The total in the store (with the config and fingerprint as stored).
    void record_total() {
        store::TournamentChange change;
        change.config_text = config_.text;
        change.fingerprint = fingerprint(config_);
        change.total_games = total_;
        store_.change_tournament(tournament_id_, change);
    }

    // "ladder: e placed after 12 games (3 rounds): 153 ± 71 Elo"
    [[nodiscard]] std::string placement_line(const Placement& p) const {
        std::ostringstream s;
        s << "ladder: " << shown(lineup_, p.entrant) << " placed after " << p.games << " game"
          << (p.games == 1 ? "" : "s") << " (" << p.rounds << " round" << (p.rounds == 1 ? "" : "s")
          << "): " << std::fixed << std::setprecision(0) << p.rating << " \u00b1 " << p.error
          << " Elo"
          << (p.reached_target ? ""
              : p.met_everyone ? " (every opponent met)"
                               : " (at games_per_entrant)");
        return s.str();
    }

    const Config& config_;
    const Lineup& lineup_;
    store::ResultsStore& store_;
    std::int64_t tournament_id_;
    Ladder ladder_;
    LadderResults results_;
    std::optional<LadderRound> round_;
    std::vector<Pairing> pending_;
    std::size_t next_ = 0;
    std::int64_t total_ = 0;
    std::size_t placements_shown_ = 0;
    std::vector<std::string> news_;
    bool begun_ = false;
};

}  // namespace

std::unique_ptr<PairingSource> make_pairing_source(const Config& config, const Lineup& lineup,
                                                   store::ResultsStore& store,
                                                   std::int64_t tournament_id,
                                                   const std::unordered_set<std::int64_t>& done) {
    if (config.tune) return std::make_unique<TuneSource>(config, lineup, store, tournament_id);
    if (config.sprt)
        return std::make_unique<SprtSource>(config, lineup, store, tournament_id, done);
    if (config.schedule == ScheduleType::kLadder)
        return std::make_unique<LadderSource>(config, lineup, store, tournament_id);
    return std::make_unique<FixedSource>(config, lineup, store, tournament_id, done);
}

}  // namespace arena::tournament
