// The pure parts of check.hpp: the names of the statuses, and the verdicts
// of the time-use and memory checks from the figures the checker gathered.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "arena/check/check.hpp"
#include "arena/check/wording.hpp"

namespace arena::check {

std::string_view to_string(Status status) {
    switch (status) {
        case Status::kOk:
            return "ok";
        case Status::kFail:
            return "fail";
        case Status::kWarn:
            return "warn";
        case Status::kSkip:
            return "skip";
    }
    return "?";
}

bool all_passed(const std::vector<CheckResult>& results) {
    return std::none_of(results.begin(), results.end(),
                        [](const CheckResult& r) { return r.status == Status::kFail; });
}

CheckResult judge_time_use(std::vector<MoveTime> moves, int timeouts) {
    CheckResult r;
    r.name = "time use";
    if (moves.empty() && timeouts == 0) {
        r.status = Status::kSkip;
        r.detail = "no move was answered";
        return r;
    }
    std::string figures;
    std::string limits;
    double share = 0.0;  // the largest of took / limit
    if (!moves.empty()) {
        const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
        std::vector<double> took;
        auto [low, high] = std::minmax_element(
            moves.begin(), moves.end(),
            [](const MoveTime& a, const MoveTime& b) { return a.limit < b.limit; });
        limits = low->limit == high->limit
                     ? ms_text(ms(low->limit))
                     : ms_text(ms(low->limit)) + " to " + ms_text(ms(high->limit));
        for (const auto& m : moves) {
            took.push_back(ms(m.took));
            if (m.limit.count() > 0) share = std::max(share, ms(m.took) / ms(m.limit));
        }
        std::sort(took.begin(), took.end());
        const std::size_t n = took.size();
        const double median = n % 2 == 1 ? took[n / 2] : (took[n / 2 - 1] + took[n / 2]) / 2.0;
        figures = "median " + ms_text(median) + ", max " + ms_text(took.back()) + " over " +
                  std::to_string(n) + (n == 1 ? " move" : " moves") + " (limit " + limits + ")";
    }
    if (timeouts > 0) {
        r.status = Status::kFail;
        r.detail = std::to_string(timeouts) + (timeouts == 1 ? " move" : " moves") +
                   " ran out of time (the limit plus the tolerance)" +
                   (figures.empty() ? "" : "; answered moves: " + figures);
        r.expected = "every move well within its limit";
        return r;
    }
    r.detail = figures;
    if (share > kWarnShare) {
        r.status = Status::kWarn;
        r.detail += ": a move used " +
                    std::to_string(static_cast<int>(std::lround(100.0 * share))) +
                    " % of its limit; above 80 % a loaded machine can make it lose on time";
    }
    return r;
}

std::string memory_measured(bool in_cgroup, bool so_host) {
    std::string text = in_cgroup ? "the memory charged to the bot's cgroup, as the limit counts it "
                                   "(program and library pages already in memory are not charged)"
                                 : "the sum of the resident sets of the bot's processes";
    if (so_host) text += ", for arena-so-host with the strategy library loaded";
    return text;
}

CheckResult judge_memory(std::optional<std::uint64_t> peak_bytes, std::uint64_t limit_mb,
                         const std::string& limit_hit, const std::string& measured) {
    CheckResult r;
    r.name = "memory";
    const std::string limit = limit_mb > 0 ? std::to_string(limit_mb) + " MiB" : "none";
    if (!limit_hit.empty()) {
        r.status = Status::kFail;
        r.detail = "a process was ended by the memory limit (" + limit + "): " + limit_hit;
        r.expected = "resident memory of all its processes within " + limit;
        return r;
    }
    if (!peak_bytes) {
        r.status = Status::kSkip;
        r.detail = "the peak is not known here (limit " + limit + ")";
        return r;
    }
    r.detail = "peak " + mib_text(*peak_bytes) + " (limit " + limit + ")";
    if (limit_mb > 0 &&
        static_cast<double>(*peak_bytes) > kWarnShare * static_cast<double>(limit_mb << 20)) {
        r.status = Status::kWarn;
        r.detail += ": above 80 % of the limit";
    }
    if (!measured.empty()) r.detail += "; measured: " + measured;
    return r;
}

}  // namespace arena::check
