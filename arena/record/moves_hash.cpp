#include "arena/record/moves_hash.hpp"

#include "arena/record/params_text.hpp"

namespace arena::record {

std::int64_t moves_hash(const GameRecord& game) {
    MovesHash hash(params_text(game.params), game.opening_plies);
    for (const auto& m : game.moves)
        hash.add_move(m.move);
    return hash.finish(score_text(game.outcome), to_string(game.termination));
}

}  // namespace arena::record
