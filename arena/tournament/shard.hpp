#pragma once
// Shards: a tournament's schedule cut into N contiguous ranges of
// colour-swapped pairs, each played by its own `arena run CONFIG --shard K/N`
// into its own database (docs/cluster.md). A shard plays exactly the games
// of the unsharded schedule that fall in its range, with the same indices,
// pair numbers, boards and openings, so the union of the N shards, merged
// with `arena merge`, is the whole tournament. Pure: no I/O.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/tournament/config.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

struct Shard {
    int index = 1;  // K, from 1
    int count = 1;  // N
};

// "K/N" with 1 <= K <= N; nullopt after setting `problem` to what is wrong.
[[nodiscard]] std::optional<Shard> parse_shard(std::string_view text, std::string& problem);

// The same for any option of that form (`option`: "--shard"; `things`:
// "shards", as the problem names them): {K, N}.
[[nodiscard]] std::optional<std::pair<int, int>> parse_k_of_n(std::string_view text,
                                                              std::string_view option,
                                                              std::string_view things,
                                                              std::string& problem);

// Why `config` cannot be played in shards, naming the schedule type; empty
// when it can. A schedule whose next games depend on the results of all the
// games before (a gauntlet with `sprt`, a ladder) cannot be cut into parts
// that run apart.
[[nodiscard]] std::string shard_refusal(const Config& config);

// The games of `schedule` that shard `shard` plays, in schedule order: of the
// P colour-swapped pairs (runs of equal Pairing::pair, in schedule order),
// pairs [P (K-1) / N, P K / N). A pair is never split, the shards' sizes
// differ by at most one pair, and every pair is in exactly one shard.
[[nodiscard]] std::vector<Pairing> shard_games(const std::vector<Pairing>& schedule, Shard shard);

// Where a shard is stored by default: next to `database`, with
// ".shard-K-of-N" before its extension (results/demo.db ->
// results/demo.shard-2-of-4.db).
[[nodiscard]] std::filesystem::path shard_database(const std::filesystem::path& database,
                                                   Shard shard);

}  // namespace arena::tournament
