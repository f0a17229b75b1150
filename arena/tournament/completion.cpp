#include "arena/tournament/completion.hpp"

#include <unordered_set>

#include "arena/tournament/pairing_source.hpp"

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

}  // namespace arena::tournament
