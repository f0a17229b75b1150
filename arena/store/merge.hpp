#pragma once
// Merging results databases (`arena merge OUT.db IN.db...`): the shards of
// a tournament played apart (`arena run CONFIG --shard K/N`, docs/cluster.md),
// or any databases that hold games of the same tournaments, into one.
//
// Each tournament of an input is matched with the output's tournament of
// the same name, or copied into the output when it has none: its row, its
// bots in the order they entered, its schedule's segments. Then its games
// that the output does not hold yet (by schedule index) are copied with
// every row that hangs off a game (moves, bots' stderr, transcripts, and any
// table whose foreign key names the games table). The ratings are not
// copied: they are computed again from the merged games.
//
// What is refused, naming the file and the difference, before anything is
// written: an input that is not an arena results database of this schema
// version, and a tournament whose fingerprint, bots (names, order, versions
// and SHA-256 of their programs) or schedule segments differ from those of
// the same tournament in the output or in an earlier input. A game index
// stored in two places with different results (result, ending or players)
// is an error that names both files; nothing of that input is merged, and
// the inputs merged before it stay merged.
//
// The inputs are merged in write transactions of up to ten (as many as
// SQLite attaches at once), each input read within it: an input still being
// written (a shard that is running; with the rollback journal, its commits
// wait for the transaction to end) gives the games it had
// finished when the transaction began, never a game in progress, and
// merging again later adds the rest. When an input is refused, its batch is
// rolled back and merged again one input at a time, so that the inputs
// before it stay merged. A game the output holds already with the same
// result is left as it is, so merging an input twice adds nothing.
//
// An OUT.db that does not exist yet is written as OUT.db.merging, with its
// rollback journal in memory and no fsync, then fsynced and given its name
// once whole (also when an input is refused: with the inputs before it). A
// merge killed or a machine that loses power midway leaves no OUT.db, never
// a part of one; the next merge starts the `.merging` file afresh.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"

namespace arena::store {

// Why a merge was refused or stopped; the message names the files.
class MergeError : public StoreError {
  public:
    using StoreError::StoreError;
};

// What one input added.
struct MergedInput {
    std::filesystem::path file;
    std::int64_t added = 0;                    // games new to the output, copied
    std::int64_t present = 0;                  // games the output held already with the same result
    std::vector<std::string> new_tournaments;  // copied into the output, not there before
};

// A tournament of the output that an input holds, after the merge.
struct MergedTournament {
    std::string name;
    std::int64_t games = 0;  // stored in the output
    std::int64_t total = 0;  // of its schedule
};

struct MergeOptions {
    // How long a write waits for another connection's lock on the output
    // (another merge, a `sqlite3` shell in a transaction) before it fails.
    std::chrono::milliseconds lock_timeout = std::chrono::seconds(10);
    // Told of each input once it is merged (committed).
    std::function<void(const MergedInput&)> merged;
};

struct MergeSummary {
    std::vector<MergedInput> inputs;
    std::vector<MergedTournament> tournaments;  // in name order
};

// Merges `inputs`, in order, into `out` (created when missing). Throws
// MergeError (or StoreError for a database that cannot be read or written)
// naming the files.
MergeSummary merge_databases(const std::filesystem::path& out,
                             const std::vector<std::filesystem::path>& inputs,
                             const MergeOptions& options = {});

// How tournament `name` as `there` holds it differs from the same
// tournament in `here` (its fingerprint, its bots and their programs' SHA-256,
// its schedule's segments), as the merge would say it; nullopt when they are
// the same tournament, or when either does not hold it. Both are read
// read-only. Throws MergeError naming a file that is not an arena results
// database of this schema.
[[nodiscard]] std::optional<std::string> tournament_difference(const std::filesystem::path& here,
                                                               const std::filesystem::path& there,
                                                               const std::string& name);

// What `arena merge` says of an input once it is merged into `out`: "IN.db:
// 3 games added, 2 already in OUT.db (tournament 't' is new)\n".
[[nodiscard]] std::string merged_text(const MergedInput& input, const std::filesystem::path& out);

// And of each tournament of `out` after the merge: "OUT.db: tournament 't':
// 5 of 6 games\n", ", complete" after "games" when none is missing.
[[nodiscard]] std::string merged_text(const MergedTournament& tournament,
                                      const std::filesystem::path& out);

}  // namespace arena::store
