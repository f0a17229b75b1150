#pragma once
// What a merge (merge.hpp) checks before it writes: that every copy of a
// tournament, in the output and in each input, is the same tournament (its
// fingerprint, its bots and their programs, its schedule's segments), and
// that each input is an arena results database of this schema. Internal to
// the store.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arena/store/sqlite.hpp"

namespace arena::store {

// One bot of a tournament as the comparison sees it.
struct HeaderBot {
    std::int64_t id = 0;
    std::string name, sha256;
    int version = 1;
};

// What must be equal in every copy of a tournament.
struct TournamentHeader {
    std::int64_t id = 0;
    std::string name, fingerprint;
    std::int64_t total = 0;
    std::vector<HeaderBot> bots;        // in the order they entered
    std::vector<std::string> segments;  // each segment as one line of text
};

// The tournaments of the database attached as `schema` ("main", "src0",
// ...), in the order they were stored, with their bots and segments.
std::vector<TournamentHeader> read_headers(Database& db, const std::string& schema);

// How `here` differs from `there`, the same tournament elsewhere; nullopt
// when they are the same tournament.
std::optional<std::string> difference(const TournamentHeader& here, const TournamentHeader& there);

// Opens an input by itself, read-only, and checks that it is an arena
// results database of this schema; throws MergeError naming the file.
std::vector<TournamentHeader> read_input_headers(const std::filesystem::path& file);

}  // namespace arena::store
