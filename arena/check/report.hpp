#pragma once
// How `arena check-bot` prints its checks: one line per check, with what
// was sent, received and expected under a failure; or all of them as JSON.

#include <nlohmann/json.hpp>
#include <string>
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

}  // namespace arena::check
