#include "arena/tournament/tune_source.hpp"

#include <algorithm>
#include <utility>

#include "arena/record/escape.hpp"
#include "arena/tournament/config_tune.hpp"
#include "arena/tournament/repeats.hpp"

namespace arena::tournament {

TuneSource::TuneSource(const Config& config, const Lineup& lineup, store::ResultsStore& store,
                       std::int64_t tournament_id)
    : config_(config),
      tune_(*config.tune),
      lineup_(lineup),
      store_(store),
      tournament_id_(tournament_id),
      games_per_iteration_(config.tune->self ? 2 : 4) {}

// The tune from its stored games: the batch they were played in, and every
// iteration whose games are all stored, applied in order.
void TuneSource::replay() {
    const auto rows = store_.game_params(tournament_id_);
    auto options = tune_.spsa;
    options.batch =
        !rows.empty() ? rows.front().param.batch : tune_.batch.value_or(std::max(1, concurrency_));
    spsa_.emplace(tune_.params, options);
    for (const auto& g : store_.games(tournament_id_))
        first_scores_[g.slot.index] = scored_game(g).first_score;
    while (!spsa_->finished()) {
        const auto from = spsa_->applied();
        const auto end = std::min(from + options.batch, options.iterations);
        bool whole = true;
        for (auto k = from; k < end; ++k)
            whole = apply(k) && whole;
        if (!whole) break;
    }
}

bool TuneSource::begin_phase() {
    if (!spsa_) {
        replay();
        if (tune_.stop_after > 0) stop_at_ = spsa_->applied() + tune_.stop_after;
    } else if (spsa_->applied() < phase_end_) {
        return false;  // the batch was not stored whole (a bot given up, a stop)
    }
    if (spsa_->finished() || (stop_at_ && spsa_->applied() >= *stop_at_)) return false;
    const auto from = spsa_->applied();
    phase_end_ = std::min(from + spsa_->options().batch, spsa_->options().iterations);
    points_.clear();
    pending_.clear();
    next_ = 0;
    for (auto k = from; k < phase_end_; ++k) {
        Point p{spsa_->point(k), nullptr, nullptr};
        p.plus = bot_at(p.point.plus, 0);
        p.minus = bot_at(p.point.minus, 1);
        points_.emplace(k, std::move(p));
        for (auto g = k * games_per_iteration_; g < (k + 1) * games_per_iteration_; ++g)
            if (!first_scores_.contains(g))
                pending_.push_back(lineup_.schedule[static_cast<std::size_t>(g)]);
    }
    return true;
}

std::optional<Pairing> TuneSource::next() {
    if (next_ >= pending_.size()) return std::nullopt;
    return pending_[next_++];
}

void TuneSource::on_result(const Pairing& pairing, const ScoredGame& game) {
    first_scores_[pairing.index] = game.first_score;
    record(iteration_of(pairing.index));
}

std::int64_t TuneSource::total() const {
    return static_cast<std::int64_t>(lineup_.schedule.size());
}

int TuneSource::tuned(int entrant) const {
    const int bot = lineup_.bot_of[static_cast<std::size_t>(entrant)];
    return bot == 0 ? 1 : bot == 1 ? -1 : 0;
}

std::optional<std::pair<double, double>> TuneSource::points_of(std::int64_t k) const {
    double plus = 0.0, minus = 0.0;
    for (auto g = k * games_per_iteration_; g < (k + 1) * games_per_iteration_; ++g) {
        const auto it = first_scores_.find(g);
        if (it == first_scores_.end()) return std::nullopt;
        const auto& p = lineup_.schedule[static_cast<std::size_t>(g)];
        for (const auto& [entrant, points] :
             {std::pair(p.first, it->second), std::pair(p.second, 1.0 - it->second)}) {
            const int side = tuned(entrant);
            if (side > 0) plus += points;
            if (side < 0) minus += points;
        }
    }
    return std::pair(plus, minus);
}

// Iteration k's result to SPSA and its points kept for the table, once its
// games are all in; false while they are not.
bool TuneSource::apply(std::int64_t k) {
    const auto points = points_of(k);
    if (!points) return false;
    spsa_->record(k, points->first - points->second);
    const auto i = static_cast<std::size_t>(k);
    if (iteration_points_.size() <= i) iteration_points_.resize(i + 1);
    iteration_points_[i] = *points;
    return true;
}

// A game of iteration k was stored: apply it once whole, and the table every
// kTableEvery iterations (the last is the command's, with the values reached).
void TuneSource::record(std::int64_t k) {
    const auto before = spsa_->applied();
    if (!apply(k)) return;
    const auto after = spsa_->applied();
    const bool last = spsa_->finished() || (stop_at_ && after >= *stop_at_);
    if (after / tune::kTableEvery > before / tune::kTableEvery && !last) {
        for (auto& line : table())
            news_.push_back(std::move(line));
    }
}

// The table as of now, over the last kTableEvery iterations applied.
std::vector<std::string> TuneSource::table() const {
    tune::WindowScore window;
    const auto applied = spsa_->applied();
    for (auto k = std::max<std::int64_t>(0, applied - tune::kTableEvery); k < applied; ++k) {
        const auto& [plus, minus] = iteration_points_[static_cast<std::size_t>(k)];
        window.plus_points += plus;
        window.minus_points += minus;
        window.games_each += 2;  // a pair each
        ++window.iterations;
    }
    const auto opponent =
        tune_.self ? std::string() : record::escape_controls(config_.bots[2].name);
    return tune::table_lines(tune_.params, spsa_->theta(), applied, spsa_->options().iterations,
                             window, opponent);
}

std::string TuneSource::summary() const {
    if (!spsa_) return {};
    return "iteration " + std::to_string(spsa_->applied()) + "/" +
           std::to_string(spsa_->options().iterations) + ": " +
           tune::values_text(tune_.params, spsa_->theta());
}

std::vector<std::string> TuneSource::take_news() {
    return std::exchange(news_, {});
}

std::shared_ptr<const BotConfig> TuneSource::bot_at(const std::vector<double>& values,
                                                    int config_bot) const {
    auto bot = std::make_shared<BotConfig>(config_.bots[static_cast<std::size_t>(config_bot)]);
    bot->argv = tune_argv(tune_, values);
    return bot;
}

std::shared_ptr<const BotConfig> TuneSource::variant(const Pairing& pairing, int side) const {
    const int t = tuned(side == 0 ? pairing.first : pairing.second);
    const auto it = points_.find(iteration_of(pairing.index));
    if (t == 0 || it == points_.end()) return nullptr;
    return t > 0 ? it->second.plus : it->second.minus;
}

std::vector<store::GameParam> TuneSource::game_params(const Pairing& pairing) const {
    const auto k = iteration_of(pairing.index);
    const auto it = points_.find(k);
    if (it == points_.end()) return {};
    const auto& point = it->second.point;
    const auto value = [&](int entrant, std::size_t i) -> std::optional<double> {
        const int t = tuned(entrant);
        if (t == 0) return std::nullopt;
        return t > 0 ? point.plus[i] : point.minus[i];
    };
    std::vector<store::GameParam> params;
    for (std::size_t i = 0; i < tune_.params.size(); ++i) {
        params.push_back({tune_.params[i].name, k, spsa_->options().batch, spsa_->theta()[i],
                          value(pairing.first, i), value(pairing.second, i)});
    }
    return params;
}

StoredTune stored_tune(const Config& config, const Lineup& lineup, store::ResultsStore& store,
                       std::int64_t id) {
    TuneSource source(config, lineup, store, id);
    source.replay();
    return {source.spsa(), source.table(), source.stored_games()};
}

void print_tune_end(store::ResultsStore& store, const Config& config, const Lineup& lineup,
                    std::int64_t id, std::ostream& table, std::ostream* json) {
    const auto tuned = stored_tune(config, lineup, store, id);
    for (const auto& line : tuned.table)
        table << line << "\n";
    if (json == nullptr) return;
    *json << tune::result_json(config.tune->params, tuned.spsa.theta(), tuned.spsa.applied(),
                               tuned.games)
          << "\n";
}

}  // namespace arena::tournament
