#include "arena/tournament/worker_source.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "arena/tournament/repeats.hpp"

namespace arena::tournament {
namespace {

using std::chrono::milliseconds;

// How long a worker waits before it looks at the others' databases again:
// from kFirstWait, twice as long each time up to kLongestWait, so that a
// short wait (a lap's last pair finishing) costs little and a long one
// (a worker that stopped) reads little.
constexpr milliseconds kFirstWait{10};
constexpr milliseconds kLongestWait{100};
// A worker's patience is at least this many times the longest game it
// played itself, so that slow games do not run out the patience.
constexpr int kGamesOfPatience = 8;

// frontier() when every pair is settled.
constexpr int kNoPair = std::numeric_limits<int>::max();

// What the worker has to wait for between its pairs.
enum class Kind {
    kLap,    // a gauntlet with sprt: at most a lap past the lowest pair not stored
    kRound,  // a ladder: a round's pairs all stored before the next round
    kFree,   // a fixed schedule: nothing
};

class WorkerSource : public PairingSource {
  public:
    WorkerSource(std::unique_ptr<PairingSource> whole, const Config& config, const Lineup& lineup,
                 Worker worker, PeerDatabases peers, const std::unordered_set<std::int64_t>& done,
                 std::chrono::seconds patience)
        : whole_(std::move(whole)),
          lineup_(lineup),
          worker_(worker),
          peers_(std::move(peers)),
          kind_(config.sprt                                ? Kind::kLap
                : config.schedule == ScheduleType::kLadder ? Kind::kRound
                                                           : Kind::kFree),
          stored_(done.begin(), done.end()),
          own_stored_(static_cast<std::int64_t>(done.size())),
          patience_(patience) {
        for (std::size_t e = 0; e < lineup.names.size(); ++e)
            entrant_of_.emplace(lineup.names[e], static_cast<int>(e));
    }

    // Each phase begins from what every worker has stored.
    bool begin_phase() override {
        poll();
        return whole_->begin_phase();
    }

    std::optional<Pairing> next() override {
        poll();
        for (;;) {
            if (!held_) held_ = next_own();
            if (!held_) return phase_end();
            const Pairing p = *held_;
            if (stored_.contains(p.index) || !whole_->needed(p)) {
                held_.reset();  // stored by an earlier run, or its test was decided
                continue;
            }
            if (kind_ == Kind::kLap && p.game_in_pair == 0) {
                const int lowest = frontier();
                if (lowest != kNoPair && p.pair >= lowest + lap()) {
                    if (!out_of_patience(lowest)) return std::nullopt;
                    stall(lowest);
                    continue;
                }
            }
            held_.reset();
            handed_.emplace(p.index, std::chrono::steady_clock::now());
            stop_waiting();
            return p;
        }
    }

    void on_result(const Pairing& p, const ScoredGame& game) override {
        if (!stored_.insert(p.index).second) return;
        ++own_stored_;
        if (const auto at = handed_.find(p.index); at != handed_.end())
            longest_game_ = std::max(longest_game_, std::chrono::steady_clock::now() - at->second);
        whole_->on_result(p, game);
    }

    [[nodiscard]] milliseconds wait_for() const override { return wait_; }

    // A bot this worker could not start is taken to fail on every worker:
    // its games no longer hold back a lap or a round (as one run's source
    // plays on without them, and a ladder's round ends incomplete).
    void given_up(int entrant) override { given_up_.insert(entrant); }

    // This worker's games: those it stored, and those it still has to play.
    [[nodiscard]] std::int64_t total() const override { return own_stored_ + own_pending(); }
    [[nodiscard]] std::int64_t final_total(
        const std::unordered_set<std::int64_t>& stored) const override {
        return static_cast<std::int64_t>(stored.size()) + own_pending();
    }
    [[nodiscard]] bool needed(const Pairing& p) const override {
        return worker_.plays(p) && whole_->needed(p);
    }
    [[nodiscard]] const std::vector<Pairing>& scope() const override { return whole_->scope(); }

    // The whole source's, then what this worker waits for.
    [[nodiscard]] std::string summary() const override {
        auto s = whole_->summary();
        if (wait_ > milliseconds::zero() && waited_pair_ >= 0) {
            s += (s.empty() ? "" : "; ") + std::string("waiting for pair ") +
                 std::to_string(waited_pair_ + 1) + " (worker " +
                 std::to_string(worker_of(waited_pair_)) + ")";
        }
        return s;
    }
    [[nodiscard]] std::vector<std::string> take_news() override {
        auto news = whole_->take_news();
        for (auto& line : news_)
            news.push_back(std::move(line));
        news_.clear();
        return news;
    }
    [[nodiscard]] std::vector<OpponentTest> sprt_tests() const override {
        return whole_->sprt_tests();
    }
    [[nodiscard]] std::shared_ptr<const BotConfig> variant(const Pairing& p,
                                                           int side) const override {
        return whole_->variant(p, side);
    }
    [[nodiscard]] std::vector<store::GameParam> game_params(const Pairing& p) const override {
        return whole_->game_params(p);
    }
    // The schedule is played in its order, which the laps follow, and not
    // reordered for fewer restarts; the concurrency sets the lap.
    void plan_for_capacity(std::size_t /*capacity*/, int concurrency) override {
        concurrency_ = std::max(1, concurrency);
    }

  private:
    // The next game of the whole source's that this worker plays.
    std::optional<Pairing> next_own() {
        while (auto p = whole_->next())
            if (worker_.plays(*p)) return p;
        return std::nullopt;
    }

    // The phase's games of this worker are handed out. A ladder's round is
    // over once every worker's games of it are stored; the others' phases
    // end here.
    std::optional<Pairing> phase_end() {
        if (kind_ != Kind::kRound) {
            stop_waiting();
            return std::nullopt;
        }
        for (const auto& p : whole_->scope()) {
            if (stored_.contains(p.index) || !whole_->needed(p) || without_given_up(p)) continue;
            if (!out_of_patience(p.pair)) return std::nullopt;
            // The round cannot be completed now: this run ends, as one
            // machine's ends on a round a bot given up leaves incomplete.
            news_.push_back(worker_name() + ": pair " + std::to_string(p.pair + 1) +
                            " of this round, which worker " + std::to_string(worker_of(p.pair)) +
                            " plays, is not stored after " + seconds_text(patience()) +
                            ": stopping here; run the workers that stopped again, then this one");
            break;
        }
        stop_waiting();
        return std::nullopt;
    }

    // The games the peers stored since the last look, told to the whole source.
    void poll() {
        for (const auto& g : peers_.poll()) {
            if (stored_.contains(g.slot.index)) continue;
            const auto p = pairing_of(g);
            if (!p) continue;  // not a game of this lineup's: no source counts it
            stored_.insert(g.slot.index);
            // A stalled worker has caught up once the pair it stalled on is stored.
            const auto stalled = stalled_.find(worker_of(g.slot.pair));
            if (stalled != stalled_.end() && stalled->second == g.slot.pair) {
                news_.push_back(worker_name() + ": worker " + std::to_string(stalled->first) +
                                " stored pair " + std::to_string(g.slot.pair + 1) +
                                ": its pairs are waited for again");
                stalled_.erase(stalled);
            }
            whole_->on_result(*p, scored_game(g));
        }
    }

    // A peer's stored game as the whole source knows it: the schedule's
    // pairing at its index, or, for a ladder (whose games are chosen as it
    // goes), one made of its slot and its entrants' names.
    [[nodiscard]] std::optional<Pairing> pairing_of(const store::GameSummary& g) const {
        const auto& schedule = lineup_.schedule;
        if (kind_ != Kind::kRound) {
            if (g.slot.index < 0 || g.slot.index >= static_cast<std::int64_t>(schedule.size()))
                return std::nullopt;
            return schedule[static_cast<std::size_t>(g.slot.index)];
        }
        const auto a = entrant_of_.find(g.first), b = entrant_of_.find(g.second);
        if (a == entrant_of_.end() || b == entrant_of_.end()) return std::nullopt;
        Pairing p;
        p.index = g.slot.index;
        p.round = g.slot.round;
        p.pair = g.slot.pair;
        p.game_in_pair = g.slot.game_in_pair;
        p.first = a->second;
        p.second = b->second;
        return p;
    }

    // The lowest pair with a game that is neither stored, nor no longer
    // needed, nor handed out by this worker already (playing, or a start-up
    // loss the runner holds back), passing over the pairs of stalled
    // workers. The cursor only moves up: games are only ever stored or
    // handed out, and a test once decided stays decided; a worker may stall
    // and go on again.
    int frontier() {
        const auto& scope = whole_->scope();
        const auto settled = [&](const Pairing& p) {
            return stored_.contains(p.index) || handed_.contains(p.index) || !whole_->needed(p) ||
                   without_given_up(p);
        };
        while (frontier_ < scope.size() && settled(scope[frontier_]))
            ++frontier_;
        for (std::size_t i = frontier_; i < scope.size(); ++i)
            if (!settled(scope[i]) && !stalled_.contains(worker_of(scope[i].pair)))
                return scope[i].pair;
        return kNoPair;
    }
    // The worker of `pair` has let this one wait past its patience (stopped,
    // not begun, or its bot failing to start): the laps pass over its pairs
    // until it stores that pair (said each time).
    void stall(int pair) {
        const int k = worker_of(pair);
        stalled_[k] = pair;
        stop_waiting();
        news_.push_back(worker_name() + ": worker " + std::to_string(k) + " has not stored pair " +
                        std::to_string(pair + 1) + " in " + seconds_text(patience()) +
                        ": playing on without waiting for its pairs (more pairs may be played "
                        "past a decision); if it has stopped, run it again");
    }
    // Whether a side of `p` is a bot this worker gave up.
    [[nodiscard]] bool without_given_up(const Pairing& p) const {
        return given_up_.contains(p.first) || given_up_.contains(p.second);
    }
    // How far past the frontier this worker may start a pair: a lap of N
    // pairs for each two games it plays at once.
    [[nodiscard]] int lap() const { return worker_.count * ((concurrency_ + 1) / 2); }

    // The games still wanted that no worker has stored: this worker's, and
    // for a ladder every worker's of the round (the next round, its own
    // games among them, waits for them).
    [[nodiscard]] std::int64_t own_pending() const {
        std::int64_t n = 0;
        for (const auto& p : whole_->scope())
            if ((worker_.plays(p) || kind_ == Kind::kRound) && !stored_.contains(p.index) &&
                whole_->needed(p))
                ++n;
        return n;
    }

    // Waits for `pair`: true once it has waited longer than its patience.
    bool out_of_patience(int pair) {
        const auto now = std::chrono::steady_clock::now();
        if (pair != waited_pair_) {
            waited_pair_ = pair;
            waiting_since_ = now;
            wait_ = kFirstWait;
        } else {
            wait_ = std::min(kLongestWait, std::max(kFirstWait, wait_ * 2));
        }
        return now - waiting_since_ >= patience();
    }
    void stop_waiting() {
        wait_ = milliseconds::zero();
        waited_pair_ = -1;
    }
    // How long it waits for another worker's pair: the given patience, or
    // kGamesOfPatience of its own longest game if that is longer.
    [[nodiscard]] std::chrono::nanoseconds patience() const {
        return std::max<std::chrono::nanoseconds>(patience_, kGamesOfPatience * longest_game_);
    }
    [[nodiscard]] int worker_of(int pair) const { return pair % worker_.count + 1; }
    [[nodiscard]] std::string worker_name() const {
        return "worker " + std::to_string(worker_.index) + " of " + std::to_string(worker_.count);
    }
    static std::string seconds_text(std::chrono::nanoseconds t) {
        return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(t).count()) + " s";
    }

    std::unique_ptr<PairingSource> whole_;
    const Lineup& lineup_;
    Worker worker_;
    PeerDatabases peers_;
    Kind kind_;
    std::map<std::string, int> entrant_of_;
    std::unordered_set<std::int64_t> stored_;  // by any worker, by index
    std::int64_t own_stored_ = 0;              // by this one
    std::optional<Pairing> held_;              // handed out by the whole source, not yet played
    // Handed out to the runner, by index, with when.
    std::map<std::int64_t, std::chrono::steady_clock::time_point> handed_;
    std::size_t frontier_ = 0;    // into scope()
    std::map<int, int> stalled_;  // workers the laps pass over -> the pair they owe
    std::set<int> given_up_;      // entrants whose bots this worker gave up
    int concurrency_ = 1;
    std::chrono::seconds patience_;
    std::chrono::nanoseconds longest_game_{};  // of this worker's own, handed out to stored
    milliseconds wait_{0};
    int waited_pair_ = -1;
    std::chrono::steady_clock::time_point waiting_since_;
    std::vector<std::string> news_;
};

}  // namespace

std::unique_ptr<PairingSource> make_worker_source(std::unique_ptr<PairingSource> whole,
                                                  const Config& config, const Lineup& lineup,
                                                  Worker worker, PeerDatabases peers,
                                                  const std::unordered_set<std::int64_t>& done,
                                                  std::chrono::seconds patience) {
    return std::make_unique<WorkerSource>(std::move(whole), config, lineup, worker,
                                          std::move(peers), done, patience);
}

}  // namespace arena::tournament
