#include "arena/tournament/completion.hpp"

#include <unordered_set>

#include "arena/tournament/pairing_source.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::tournament {

Completion completion(store::ResultsStore& store, std::int64_t tournament_id,
                      const Config& config) {
    Completion c;
    c.lineup = base_lineup(config);
    const auto recorded = store.recorded_indices(tournament_id);
    const std::unordered_set<std::int64_t> done(recorded.begin(), recorded.end());
    const auto source = make_pairing_source(config, c.lineup, store, tournament_id, done);
    c.stored = static_cast<std::int64_t>(done.size());
    c.total = source->final_total(done);
    c.sprt_tests = source->sprt_tests();
    return c;
}

std::optional<StoredCompletion> stored_completion(store::ResultsStore& store,
                                                  const store::TournamentRow& row,
                                                  const std::string& where, std::string& problem) {
    const auto settings = stored_settings(row.spec.config_text);
    if (!settings.gauntlet_test && !settings.ladder) return std::nullopt;
    std::optional<Config> config;
    try {
        config = parse_config(row.spec.config_text, where);
    } catch (const std::exception& e) {
        problem = where +
                  ": whether its tests are decided (or its entrants placed) is not known here: "
                  "its stored config does not load: " +
                  e.what();
        return std::nullopt;
    }
    StoredCompletion done{completion(store, row.id, *config), config->sprt};
    store.set_status(row.id, done.completion.complete() ? "finished" : "interrupted");
    return done;
}

}  // namespace arena::tournament
