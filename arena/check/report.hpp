#pragma once
// How `arena check-bot` prints its checks: one line per check, with what
// was sent, received and expected under a failure; or all of them as JSON.

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "arena/check/check.hpp"

namespace arena::check {

// "ok   start-up: ready after 3.2 ms (limit 10000 ms)\n"; a failure is
// "FAIL <name>: <detail>" followed by indented sent/received/stderr/expected
// lines (those it has).
[[nodiscard]] std::string format_text(const CheckResult& result);

// "14 ok, 1 warning, 2 skipped, 1 failed".
[[nodiscard]] std::string summary_text(const std::vector<CheckResult>& results);

// One object per check: name, status ("ok", "fail", "warn", "skip"),
// detail, sent, received, stderr, expected.
[[nodiscard]] nlohmann::json to_json(const std::vector<CheckResult>& results);

// The line before the checks: "checking build/bots/random (arena1, connect4,
// 1000 ms a move)\n", the bot's `command` as typed (control characters
// escaped).
[[nodiscard]] std::string heading_text(std::string_view command, const CheckOptions& options);

// The lines after the checks: a blank line, then the summary and whether the
// bot passes: "\n14 ok, 0 warnings, 1 skipped, 0 failed: the bot passes\n".
[[nodiscard]] std::string verdict_text(const std::vector<CheckResult>& results);

// to_json on one line; text that is not UTF-8 is replaced, not refused.
[[nodiscard]] std::string json_text(const std::vector<CheckResult>& results);

// Runs the checks (check_bot) and prints them on `out` as `arena check-bot`
// does: heading_text, each check as soon as it is decided (format_text) and
// verdict_text; with `json`, only json_text once all are decided. Returns
// the checks; throws what check_bot throws, after the heading.
std::vector<CheckResult> print_checks(session::BotHost& host, CheckOptions options,
                                      std::string_view command, bool json, std::ostream& out);

}  // namespace arena::check
