#pragma once
// Openings files: one opening per line, its moves in protocol notation,
// separated by spaces; '#' starts a comment; blank lines are skipped
// (docs/openings.md). And the suites shipped in configs/openings, which a
// match uses by default.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/games/game.hpp"

namespace arena::tournament {

struct OpeningsFile {
    std::vector<std::vector<std::string>> lines;  // the moves of each opening
    std::vector<int> line_numbers;                // 1-based, per entry of `lines`
};

// Reads the file. Throws std::runtime_error naming it when it does not
// exist, cannot be read, or holds no opening.
[[nodiscard]] OpeningsFile read_openings_file(const std::filesystem::path& path);

// Plays every opening on `game`, rewriting each move in its one spelling.
// Returns "" when all are legal and leave the game going, else the first
// problem: "line 7: move 'h1' is not legal in connect4".
[[nodiscard]] std::string check_openings(const games::Game& game, const std::string& game_name,
                                         OpeningsFile& file);

// The file name of the shipped suite for a board ("connect4-7x6-balanced.txt"),
// or "" when none is shipped for it (other sizes, blocked cells, families).
[[nodiscard]] std::string default_suite_name(const std::string& game, const games::Params& params);

// Where the shipped suites are: $ARENA_OPENINGS_DIR when set, else the
// checkout's configs/openings that the arena was built from.
[[nodiscard]] std::filesystem::path suites_dir();

// The shipped suite for a board, when there is one and it can be found.
[[nodiscard]] std::optional<std::filesystem::path> default_suite(const std::string& game,
                                                                 const games::Params& params);

}  // namespace arena::tournament
