#include "arena/tournament/config_league.hpp"

#include <cctype>
#include <cstdint>
#include <initializer_list>

namespace arena::tournament {
namespace {

const std::initializer_list<std::string_view> kLeagueKeys = {"closes", "uploads_per_hour",
                                                             "max_upload_mb", "checks_at_once"};
constexpr std::int64_t kMaxUploadsPerHour = 10'000;
constexpr std::int64_t kMaxUploadMb = 1024;
constexpr std::int64_t kMaxChecksAtOnce = 64;
constexpr int kFirstYear = 1900;
constexpr int kLastYear = 2200;
constexpr std::string_view kTimeForm =
    "an ISO 8601 time with its zone, such as 2026-12-20T23:59:00Z or 2026-12-20T23:59:00+01:00";

// Reads `text` from its front, one piece at a time.
class Reader {
  public:
    explicit Reader(std::string_view text) : text_(text) {}

    // Exactly `digits` decimal digits, as a number.
    std::optional<int> number(int digits) {
        if (text_.size() < static_cast<std::size_t>(digits)) return std::nullopt;
        int value = 0;
        for (int i = 0; i < digits; ++i) {
            const char c = text_[static_cast<std::size_t>(i)];
            if (std::isdigit(static_cast<unsigned char>(c)) == 0) return std::nullopt;
            value = value * 10 + (c - '0');
        }
        text_.remove_prefix(static_cast<std::size_t>(digits));
        return value;
    }
    // The next character, when it is one of `chars`.
    std::optional<char> one_of(std::string_view chars) {
        if (text_.empty() || chars.find(text_.front()) == std::string_view::npos)
            return std::nullopt;
        const char c = text_.front();
        text_.remove_prefix(1);
        return c;
    }
    // The digits of a fraction of a second (after its '.'), as nanoseconds:
    // at most 9 of them, at least 1.
    std::optional<std::chrono::nanoseconds> fraction() {
        std::int64_t ns = 0;
        int digits = 0;
        while (!text_.empty() && std::isdigit(static_cast<unsigned char>(text_.front())) != 0) {
            if (++digits > 9) return std::nullopt;
            ns = ns * 10 + (text_.front() - '0');
            text_.remove_prefix(1);
        }
        if (digits == 0) return std::nullopt;
        for (int i = digits; i < 9; ++i)
            ns *= 10;
        return std::chrono::nanoseconds{ns};
    }
    [[nodiscard]] bool done() const { return text_.empty(); }

  private:
    std::string_view text_;
};

// The zone after the time: Z, or +hh:mm, +hhmm, +hh (or -), as the offset
// from UTC.
std::optional<std::chrono::minutes> zone(Reader& in) {
    const auto sign = in.one_of("Zz+-");
    if (!sign) return std::nullopt;
    if (*sign == 'Z' || *sign == 'z') return std::chrono::minutes{0};
    const auto hours = in.number(2);
    if (!hours || *hours > 23) return std::nullopt;
    int minutes = 0;
    if (!in.done()) {
        in.one_of(":");
        const auto m = in.number(2);
        if (!m || *m > 59) return std::nullopt;
        minutes = *m;
    }
    const std::chrono::minutes offset{*hours * 60 + minutes};
    return *sign == '-' ? -offset : offset;
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> parse_zoned_time(std::string_view text) {
    namespace chrono = std::chrono;
    Reader in(text);
    const auto year = in.number(4);
    if (!year || !in.one_of("-")) return std::nullopt;
    const auto month = in.number(2);
    if (!month || !in.one_of("-")) return std::nullopt;
    const auto day = in.number(2);
    if (!day || !in.one_of("Tt")) return std::nullopt;
    const auto hour = in.number(2);
    if (!hour || !in.one_of(":")) return std::nullopt;
    const auto minute = in.number(2);
    if (!minute || !in.one_of(":")) return std::nullopt;
    const auto second = in.number(2);
    if (!second) return std::nullopt;
    chrono::nanoseconds fraction{0};
    if (in.one_of(".,")) {
        const auto f = in.fraction();
        if (!f) return std::nullopt;
        fraction = *f;
    }
    const auto offset = zone(in);
    if (!offset || !in.done()) return std::nullopt;
    const chrono::year_month_day date{chrono::year{*year},
                                      chrono::month{static_cast<unsigned>(*month)},
                                      chrono::day{static_cast<unsigned>(*day)}};
    if (!date.ok() || *hour > 23 || *minute > 59 || *second > 59) return std::nullopt;
    // What the clock holds (nanoseconds in 64 bits: 1678 to 2262), and more
    // than a league needs.
    if (*year < kFirstYear || *year > kLastYear) return std::nullopt;
    const auto since_midnight =
        chrono::hours{*hour} + chrono::minutes{*minute} + chrono::seconds{*second} + fraction;
    return chrono::time_point_cast<chrono::system_clock::duration>(chrono::sys_days{date} +
                                                                   since_midnight - *offset);
}

LeagueSettings LeagueParser::parse(const Field& f) const {
    LeagueSettings league;
    // `league:` alone, or `league: {}`: every default.
    if (f.value.IsNull()) return league;
    require_map(f);
    for (const Field& l : fields_of(f.value, kLeagueKeys, "'league'")) {
        if (l.key == "closes") {
            const std::string text = string_value(l);
            league.closes = parse_zoned_time(text);
            if (!league.closes && parse_zoned_time(text + "Z")) {
                fail(l.value.Mark(), "closes " + in_quotes(text) +
                                         " has no zone, so its instant would depend on where "
                                         "it is read: write it in UTC (" +
                                         text + "Z) or with its offset (" + text + "+01:00)");
            }
            if (!league.closes) {
                fail(l.value.Mark(),
                     "closes " + in_quotes(text) + " is not " + std::string(kTimeForm));
            }
        } else if (l.key == "uploads_per_hour") {
            league.uploads_per_hour = static_cast<int>(integer(l, 1, kMaxUploadsPerHour));
        } else if (l.key == "max_upload_mb") {
            league.max_upload_mb = static_cast<int>(integer(l, 1, kMaxUploadMb));
        } else if (l.key == "checks_at_once") {
            league.checks_at_once = static_cast<int>(integer(l, 1, kMaxChecksAtOnce));
        }
    }
    return league;
}

}  // namespace arena::tournament
