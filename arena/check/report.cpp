#include "arena/check/report.hpp"

#include "arena/check/bot_kind.hpp"
#include "arena/record/escape.hpp"

namespace arena::check {
namespace {

constexpr std::string_view kIndent = "     ";

std::string label(Status status) {
    switch (status) {
        case Status::kOk:
            return "ok  ";
        case Status::kFail:
            return "FAIL";
        case Status::kWarn:
            return "warn";
        case Status::kSkip:
            return "skip";
    }
    return "?   ";
}

// "     sent:     a\n               b\n" (nothing when `lines` is empty and
// `when_empty` is too).
void block(std::string& out, std::string_view key, const std::vector<std::string>& lines,
           std::string_view when_empty) {
    if (lines.empty() && when_empty.empty()) return;
    std::string head = std::string(kIndent) + std::string(key) + ":";
    head.resize(kIndent.size() + 10, ' ');
    if (lines.empty()) {
        out += head + std::string(when_empty) + "\n";
        return;
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += i == 0 ? head : std::string(head.size(), ' ');
        out += lines[i] + "\n";
    }
}

}  // namespace

std::string format_text(const CheckResult& r) {
    std::string out = label(r.status) + " " + r.name;
    if (!r.detail.empty()) out += ": " + r.detail;
    out += "\n";
    if (r.status != Status::kFail) return out;
    const bool io = !r.sent.empty() || !r.received.empty();
    block(out, "sent", r.sent, io ? "(nothing)" : "");
    block(out, "received", r.received, io ? "(nothing)" : "");
    if (io || !r.stderr_tail.empty())
        block(out, "stderr",
              r.stderr_tail.empty() ? std::vector<std::string>{} : std::vector{r.stderr_tail},
              "(nothing)");
    if (!r.expected.empty()) block(out, "expected", {r.expected}, "");
    return out;
}

std::string summary_text(const std::vector<CheckResult>& results) {
    int counts[4] = {0, 0, 0, 0};
    for (const auto& r : results)
        ++counts[static_cast<int>(r.status)];
    const auto count = [](int n, std::string_view one, std::string_view many) {
        return std::to_string(n) + " " + std::string(n == 1 ? one : many);
    };
    return count(counts[static_cast<int>(Status::kOk)], "ok", "ok") + ", " +
           count(counts[static_cast<int>(Status::kWarn)], "warning", "warnings") + ", " +
           count(counts[static_cast<int>(Status::kSkip)], "skipped", "skipped") + ", " +
           count(counts[static_cast<int>(Status::kFail)], "failed", "failed");
}

nlohmann::json to_json(const std::vector<CheckResult>& results) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : results) {
        out.push_back({{"name", r.name},
                       {"status", std::string(to_string(r.status))},
                       {"detail", r.detail},
                       {"sent", r.sent},
                       {"received", r.received},
                       {"stderr", r.stderr_tail},
                       {"expected", r.expected}});
    }
    return out;
}

std::string heading_text(std::string_view command, const CheckOptions& options) {
    return "checking " + record::escape_controls(command) + " (" +
           std::string(kind_name(options.kind)) + ", " + options.game + ", " +
           std::to_string(options.time.move.count()) + " ms a move)\n";
}

std::string verdict_text(const std::vector<CheckResult>& results) {
    return "\n" + summary_text(results) + ": " +
           (all_passed(results) ? "the bot passes" : "the bot FAILS the checks marked FAIL") + "\n";
}

std::string json_text(const std::vector<CheckResult>& results) {
    return to_json(results).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<CheckResult> print_checks(session::BotHost& host, CheckOptions options,
                                      std::string_view command, bool json, std::ostream& out) {
    if (!json) {
        out << heading_text(command, options) << std::flush;
        options.on_result = [&out](const CheckResult& r) { out << format_text(r) << std::flush; };
    }
    auto results = check_bot(host, options);
    if (json) {
        out << json_text(results) << std::endl;
    } else {
        out << verdict_text(results) << std::flush;
    }
    return results;
}

}  // namespace arena::check
