#pragma once
// The `league:` section of a config (docs/config.md, "league"): when uploads
// close, how many a participant may send an hour, how large one may be, and
// how many are checked at once. Read into Config::league; part of
// load_config (config.cpp), which also applies what a league changes: it
// needs bots_dir, may have fewer than two bots, and runs the bots of
// bots_dir sandboxed (config_bots.cpp).

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "arena/tournament/config.hpp"
#include "arena/tournament/config_fields.hpp"

namespace arena::tournament {

class LeagueParser : FieldReader {
  public:
    explicit LeagueParser(std::string file) : FieldReader(std::move(file)) {}

    // `league:`, a map of the keys above (each may be left out).
    [[nodiscard]] LeagueSettings parse(const Field& f) const;
};

// An ISO 8601 time with its zone, to the second or beyond:
// "2026-12-20T23:59:00Z", "2026-12-20T23:59:00+01:00" (or +0100, +01),
// "2026-12-20T23:59:00.250Z", in the years 1900 to 2200. Nullopt for
// anything else, a time without a zone included (whose instant depends on
// where it is read).
[[nodiscard]] std::optional<std::chrono::system_clock::time_point> parse_zoned_time(
    std::string_view text);

}  // namespace arena::tournament
