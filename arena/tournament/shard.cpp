#include "arena/tournament/shard.hpp"

#include <charconv>
#include <cstddef>
#include <cstdint>

namespace arena::tournament {
namespace {

// A whole decimal number, digits only.
std::optional<int> whole_number(std::string_view text) {
    if (text.empty() || text.size() > 9) return std::nullopt;
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.front() == '-' ||
        text.front() == '+')
        return std::nullopt;
    return value;
}

}  // namespace

std::optional<std::pair<int, int>> parse_k_of_n(std::string_view text, std::string_view option,
                                                std::string_view things, std::string& problem) {
    const auto slash = text.find('/');
    const std::string got = ", got '" + std::string(text) + "'";
    const auto k =
        slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(0, slash));
    const auto n =
        slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
    if (!k || !n) {
        problem = std::string(option) + " must be K/N, K of N with 1 <= K <= N (e.g. 2/4)" + got;
        return std::nullopt;
    }
    const int index = k.value_or(0), count = n.value_or(0);
    if (count < 1) {
        problem = std::string(option) + " K/N: N must be at least 1" + got;
        return std::nullopt;
    }
    if (index < 1 || index > count) {
        problem = std::string(option) + " K/N: K must be 1.." + std::to_string(count) + " (" +
                  std::string(things) + " are numbered from 1)" + got;
        return std::nullopt;
    }
    return std::pair{index, count};
}

std::optional<Shard> parse_shard(std::string_view text, std::string& problem) {
    const auto k_n = parse_k_of_n(text, "--shard", "shards", problem);
    if (!k_n) return std::nullopt;
    return Shard{k_n->first, k_n->second};
}

std::string shard_refusal(const Config& config) {
    if (config.tune) {
        return "a tune (tune:) cannot be played in shards yet: each batch of iterations starts "
               "from the values the batches before it reached (docs/tuning.md)";
    }
    if (config.schedule == ScheduleType::kLadder) {
        return "a ladder schedule (schedule: { type: ladder }) cannot be played in shards: each "
               "round is chosen from the results of every game before it";
    }
    if (config.schedule == ScheduleType::kGauntlet && config.sprt) {
        return "a gauntlet with sprt (schedule: { type: gauntlet, sprt: ... }) cannot be played in "
               "shards: each opponent's test stops on the results of all its games";
    }
    return {};
}

std::vector<Pairing> shard_games(const std::vector<Pairing>& schedule, Shard shard) {
    // Where each pair starts in the schedule.
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < schedule.size(); ++i)
        if (i == 0 || schedule[i].pair != schedule[i - 1].pair) starts.push_back(i);
    const auto pairs = static_cast<std::int64_t>(starts.size());
    const auto begin_pair = pairs * (shard.index - 1) / shard.count;
    const auto end_pair = pairs * shard.index / shard.count;
    const auto at = [&](std::int64_t pair) {
        return pair < pairs ? starts[static_cast<std::size_t>(pair)] : schedule.size();
    };
    return {schedule.begin() + static_cast<std::ptrdiff_t>(at(begin_pair)),
            schedule.begin() + static_cast<std::ptrdiff_t>(at(end_pair))};
}

std::filesystem::path shard_database(const std::filesystem::path& database, Shard shard) {
    auto name = database.stem().string() + ".shard-" + std::to_string(shard.index) + "-of-" +
                std::to_string(shard.count) + database.extension().string();
    return database.parent_path() / name;
}

}  // namespace arena::tournament
