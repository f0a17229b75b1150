#pragma once
// Bots with `protocol: tsinghua-so`: Tsinghua course strategy libraries
// (protocol/TSINGHUA.md), played through the arena-so-host executable, which
// loads the library and speaks protocol v1. To the rest of the arena such a
// bot is an ordinary protocol v1 bot whose command is
//   <arena-so-host> <absolute path of the library>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/games/game.hpp"

namespace arena::tournament {

inline constexpr std::string_view kTsinghuaSo = "tsinghua-so";
inline constexpr std::string_view kSoHostName = "arena-so-host";

// arena-so-host next to the running executable (/proc/self/exe's directory;
// build/bin/ holds both), or in ../bin from it (a test in build/tests/), else
// the first one in PATH; nullopt when there is none. The path is absolute.
[[nodiscard]] std::optional<std::filesystem::path> find_so_host();

// Whether `argv` runs arena-so-host, i.e. plays a strategy library: such a
// bot plays each game in a fresh process unless told otherwise (restart).
[[nodiscard]] bool runs_so_host(const std::vector<std::string>& argv);

// What a tsinghua-so bot is started with: {host, absolute library path}.
[[nodiscard]] std::vector<std::string> so_host_argv(const std::filesystem::path& host,
                                                    const std::filesystem::path& library);

// The regular files named *.so directly in `dir`, sorted by file name (byte
// order), so that a directory of strategies always expands the same way.
[[nodiscard]] std::vector<std::filesystem::path> strategy_libraries(
    const std::filesystem::path& dir);

// Empty when a Tsinghua strategy can play `game` with `params` (a config's,
// which may describe the tsinghua family); else why not, for people. The
// interface knows Connect-4 with four in a row and at most one blocked cell.
[[nodiscard]] std::string tsinghua_game_problem(std::string_view game, const games::Params& params);

}  // namespace arena::tournament
