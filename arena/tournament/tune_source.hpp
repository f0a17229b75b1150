#pragma once
// The games of a tune (arena tune, docs/tuning.md): SPSA (tune/spsa.hpp)
// played as a pairing source. Iteration k is pair k of theta+ against
// theta- (games 2k and 2k + 1), or, against a fixed opponent, its pairs with
// theta+ and with theta- (games 4k to 4k + 3). A phase is one batch of
// iterations, all played from the theta the batch began at; theta moves
// once the batch is stored whole.
//
// theta+ and theta- are the config's bots 0 and 1 with their command at the
// iteration's point (variant()); each game is stored with the values its
// sides played with and theta (game_params()). A resumed tune replays the
// stored results in iteration order, so it continues from the same theta as
// a run that was never stopped; the batch is the one stored with the games.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "arena/tournament/pairing_source.hpp"
#include "arena/tune/spsa.hpp"
#include "arena/tune/tune_text.hpp"

namespace arena::tournament {

class TuneSource : public PairingSource {
  public:
    TuneSource(const Config& config, const Lineup& lineup, store::ResultsStore& store,
               std::int64_t tournament_id);

    bool begin_phase() override;
    std::optional<Pairing> next() override;
    void on_result(const Pairing& pairing, const ScoredGame& game) override;
    [[nodiscard]] std::int64_t total() const override;
    [[nodiscard]] bool needed(const Pairing& pairing) const override {
        return lineup_.playable(pairing);
    }
    [[nodiscard]] const std::vector<Pairing>& scope() const override { return lineup_.schedule; }
    [[nodiscard]] std::string summary() const override;
    [[nodiscard]] std::vector<std::string> take_news() override;
    [[nodiscard]] std::shared_ptr<const BotConfig> variant(const Pairing& pairing,
                                                           int side) const override;
    [[nodiscard]] std::vector<store::GameParam> game_params(const Pairing& pairing) const override;
    void plan_for_capacity(std::size_t /*capacity*/, int concurrency) override {
        concurrency_ = concurrency;
    }

    // Reads the stored games and applies every iteration stored whole, in
    // order (the first begin_phase does it first).
    void replay();
    // The tune as it stands: theta and the iterations applied (after replay).
    [[nodiscard]] const tune::Spsa& spsa() const { return *spsa_; }
    // Its table now, over the last kTableEvery iterations applied.
    [[nodiscard]] std::vector<std::string> table() const;
    // Games stored (and played by this run) so far.
    [[nodiscard]] std::int64_t stored_games() const {
        return static_cast<std::int64_t>(first_scores_.size());
    }

  private:
    // The iteration's points, and its bots at them.
    struct Point {
        tune::SpsaPoint point;
        std::shared_ptr<const BotConfig> plus, minus;
    };

    [[nodiscard]] std::int64_t iteration_of(std::int64_t index) const {
        return index / games_per_iteration_;
    }
    // theta+'s points and theta-'s over the iteration (against each other,
    // or each against the opponent), once all its games are in.
    [[nodiscard]] std::optional<std::pair<double, double>> points_of(std::int64_t k) const;
    // Whether the entrant is theta+ (1), theta- (-1) or the opponent (0).
    [[nodiscard]] int tuned(int entrant) const;
    [[nodiscard]] bool apply(std::int64_t k);
    void record(std::int64_t k);
    [[nodiscard]] std::shared_ptr<const BotConfig> bot_at(const std::vector<double>& values,
                                                          int config_bot) const;

    const Config& config_;
    const TuneConfig& tune_;
    const Lineup& lineup_;
    store::ResultsStore& store_;
    std::int64_t tournament_id_;
    std::int64_t games_per_iteration_;
    int concurrency_ = 1;
    std::optional<tune::Spsa> spsa_;
    std::unordered_map<std::int64_t, double> first_scores_;  // by game index
    std::map<std::int64_t, Point> points_;                   // of the batch under way
    std::vector<Pairing> pending_;
    std::size_t next_ = 0;
    std::int64_t phase_end_ = 0;           // the iteration after the batch under way
    std::optional<std::int64_t> stop_at_;  // --stop-after: no batch begins from here
    // Per iteration recorded: theta+'s points and theta-'s (points_of).
    std::vector<std::pair<double, double>> iteration_points_;
    std::vector<std::string> news_;
};

// The tune stored in tournament `id` (a finished one, or as far as it got):
// SPSA replayed from its games, and the table it ends with.
struct StoredTune {
    tune::Spsa spsa;
    std::vector<std::string> table;  // over the last 100 iterations applied
    std::int64_t games = 0;          // stored
};
[[nodiscard]] StoredTune stored_tune(const Config& config, const Lineup& lineup,
                                     store::ResultsStore& store, std::int64_t id);

// What `arena tune` ends with: the stored tune's table on `table`, then, when
// `json` is given, the values reached as JSON on it (tune::result_json).
void print_tune_end(store::ResultsStore& store, const Config& config, const Lineup& lineup,
                    std::int64_t id, std::ostream& table, std::ostream* json);

}  // namespace arena::tournament
