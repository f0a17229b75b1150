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
// After this long waiting for the same pair, the worker says so.
constexpr auto kWaitNotice = std::chrono::seconds(60);
// A worker waits this long for another to begin (its database to hold the
// tournament); after that, a gauntlet's laps pass over the pairs of workers
// that have not begun, so that workers which cannot all run at once (too
// few free cores for the whole array) still finish, at the cost of pairs
// played past a decision.
constexpr auto kStartGrace = std::chrono::seconds(120);

// What the worker has to wait for between its pairs.
enum class Kind {
    kLap,    // a gauntlet with sprt: at most a lap past the lowest pair not stored
    kRound,  // a ladder: a round's pairs all stored before the next round
    kFree,   // a fixed schedule: nothing
};

class WorkerSource : public PairingSource {
  public:
    WorkerSource(std::unique_ptr<PairingSource> whole, const Config& config, const Lineup& lineup,
                 Worker worker, PeerDatabases peers, const std::unordered_set<std::int64_t>& done)
        : whole_(std::move(whole)),
          lineup_(lineup),
          worker_(worker),
          peers_(std::move(peers)),
          kind_(config.sprt                                ? Kind::kLap
                : config.schedule == ScheduleType::kLadder ? Kind::kRound
                                                           : Kind::kFree),
          stored_(done.begin(), done.end()),
          own_stored_(static_cast<std::int64_t>(done.size())) {
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
            if (kind_ == Kind::kLap && p.game_in_pair == 0 && p.pair >= frontier() + lap()) {
                wait_on(frontier());
                return std::nullopt;
            }
            held_.reset();
            stop_waiting();
            return p;
        }
    }

    void on_result(const Pairing& p, const ScoredGame& game) override {
        if (!stored_.insert(p.index).second) return;
        ++own_stored_;
        whole_->on_result(p, game);
    }

    [[nodiscard]] milliseconds wait_for() const override { return wait_; }

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
                 std::to_string(waited_pair_ % worker_.count + 1) + ")";
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
            if (!stored_.contains(p.index) && whole_->needed(p)) {
                wait_on(p.pair);
                return std::nullopt;
            }
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

    // The lowest pair with a game that is neither stored nor no longer
    // needed, passing over the pairs of workers that have not begun after
    // kStartGrace. The cursor only moves up: games are only ever stored,
    // and a test once decided stays decided.
    int frontier() {
        const auto& scope = whole_->scope();
        const auto settled = [&](const Pairing& p) {
            return stored_.contains(p.index) || !whole_->needed(p);
        };
        while (frontier_ < scope.size() && settled(scope[frontier_]))
            ++frontier_;
        for (std::size_t i = frontier_; i < scope.size(); ++i)
            if (!settled(scope[i]) && !passed_over(scope[i].pair)) return scope[i].pair;
        return std::numeric_limits<int>::max();
    }
    // Whether the laps pass over the worker of `pair`: it has not begun, and
    // this one has waited kStartGrace for it (said once).
    bool passed_over(int pair) {
        const int k = pair % worker_.count + 1;
        if (k == worker_.index) return false;
        const auto peer = static_cast<std::size_t>(k < worker_.index ? k - 1 : k - 2);
        if (peers_.started(peer) || std::chrono::steady_clock::now() - begun_ < kStartGrace)
            return false;
        if (passed_.insert(k).second) {
            news_.push_back("worker " + std::to_string(worker_.index) + " of " +
                            std::to_string(worker_.count) + ": worker " + std::to_string(k) +
                            " has not begun after " + std::to_string(kStartGrace.count()) +
                            " s: playing on without waiting for its pairs (workers should all "
                            "run at once: docs/cluster.md)");
        }
        return true;
    }
    // How far past the frontier this worker may start a pair: a lap of N
    // pairs for each two games it plays at once.
    [[nodiscard]] int lap() const { return worker_.count * ((concurrency_ + 1) / 2); }

    // This worker's games not stored anywhere that are still wanted.
    [[nodiscard]] std::int64_t own_pending() const {
        std::int64_t n = 0;
        for (const auto& p : whole_->scope())
            if (worker_.plays(p) && !stored_.contains(p.index) && whole_->needed(p)) ++n;
        return n;
    }

    void wait_on(int pair) {
        const auto now = std::chrono::steady_clock::now();
        if (pair != waited_pair_) {
            waited_pair_ = pair;
            waiting_since_ = now;
            noticed_ = false;
            wait_ = kFirstWait;
        } else {
            wait_ = std::min(kLongestWait, std::max(kFirstWait, wait_ * 2));
        }
        if (!noticed_ && now - waiting_since_ >= kWaitNotice) {
            noticed_ = true;
            news_.push_back("worker " + std::to_string(worker_.index) + " of " +
                            std::to_string(worker_.count) + ": waiting since " +
                            std::to_string(kWaitNotice.count()) + " s for pair " +
                            std::to_string(pair + 1) + ", which worker " +
                            std::to_string(pair % worker_.count + 1) +
                            " plays: if it has stopped, run it again (docs/cluster.md)");
        }
    }
    void stop_waiting() {
        wait_ = milliseconds::zero();
        waited_pair_ = -1;
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
    std::size_t frontier_ = 0;                 // into scope()
    std::chrono::steady_clock::time_point begun_ = std::chrono::steady_clock::now();
    std::set<int> passed_;  // workers passed over, by index
    int concurrency_ = 1;
    milliseconds wait_{0};
    int waited_pair_ = -1;
    std::chrono::steady_clock::time_point waiting_since_;
    bool noticed_ = false;
    std::vector<std::string> news_;
};

}  // namespace

std::unique_ptr<PairingSource> make_worker_source(std::unique_ptr<PairingSource> whole,
                                                  const Config& config, const Lineup& lineup,
                                                  Worker worker, PeerDatabases peers,
                                                  const std::unordered_set<std::int64_t>& done) {
    return std::make_unique<WorkerSource>(std::move(whole), config, lineup, worker,
                                          std::move(peers), done);
}

}  // namespace arena::tournament
