#pragma once
// The hash that tells a game repeating another move for move: stored as
// games.moves_hash (see docs/database.md), computed when a game is stored and
// by the upgrade to schema 4 for the games stored before; and the key by
// which a run sets aside a colour-swapped pair that repeats an earlier one
// (docs/ratings.md).

#include <cstdint>
#include <string>
#include <string_view>

#include "arena/record/game_record.hpp"

namespace arena::record {

// games.moves_hash: 64-bit FNV-1a over the game's parameters, the number of
// opening plies, every move in order, the result and the ending, each
// followed by a NUL byte (no field contains one). Two games with the same
// hash and bots went the same way move for move on the same board from the
// same opening; among a million different games, a false match has a
// chance of about 3e-8. Stored in files: the definition never changes.
class MovesHash {
  public:
    MovesHash(std::string_view params, std::int64_t opening_plies) {
        add(params);
        add(std::to_string(opening_plies));
    }
    void add_move(std::string_view move) { add(move); }
    // The hash as SQLite stores it: a signed integer with the same 64 bits.
    [[nodiscard]] std::int64_t finish(std::string_view result, std::string_view termination) {
        add(result);
        add(termination);
        return static_cast<std::int64_t>(hash_);
    }

  private:
    void add(std::string_view field) {
        for (const char c : field) {
            hash_ ^= static_cast<unsigned char>(c);
            hash_ *= 0x100000001b3ULL;
        }
        hash_ *= 0x100000001b3ULL;  // the NUL byte after the field (x ^ 0 == x)
    }

    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// The hash of a finished game, as the store computes it.
[[nodiscard]] std::int64_t moves_hash(const GameRecord& game);

}  // namespace arena::record
