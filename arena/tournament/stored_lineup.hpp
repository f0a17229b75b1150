#pragma once
// A tournament as the results database holds it, against the config of a
// new run: whether the config may continue it, how it grows (late entrants,
// new versions, retired bots: growth.hpp), and the lineup the run plays; or
// a new tournament created from the config. Used by `arena run`.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/growth.hpp"

namespace arena::tournament {

// Each config bot's bot_sha256, in config order.
[[nodiscard]] std::vector<std::string> program_sha256s(const Config& config);

// The lineup a run of `config` plays in the tournament `row` stored in
// `store`, after recording what the config changes in it (said on `err`);
// nullopt after saying on `err` why the config is refused. `print` is the
// config's fingerprint.
[[nodiscard]] std::optional<Lineup> standing_lineup(store::ResultsStore& store,
                                                    const store::TournamentRow& row,
                                                    const Config& config, const std::string& print,
                                                    std::ostream& err);

// A shard's stored tournament must be the one the config makes, unchanged:
// shards of a tournament that grows would each grow on their own games and
// come apart (docs/cluster.md). The reason it is refused; empty when not.
[[nodiscard]] std::string shard_change(store::ResultsStore& store, const store::TournamentRow& row,
                                       const Config& config, const std::string& print);

// A new tournament as the config makes it (`lineup`: base_lineup(config)),
// with its first segment; returns its id.
[[nodiscard]] std::int64_t create_tournament(store::ResultsStore& store, const Config& config,
                                             const Lineup& lineup, const std::string& print);

}  // namespace arena::tournament
