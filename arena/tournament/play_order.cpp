#include "arena/tournament/play_order.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace arena::tournament {

void order_for_capacity(std::vector<Pairing>& games, std::size_t capacity, int concurrency) {
    if (capacity == 0 || games.empty()) return;
    std::set<int> involved;
    for (const auto& g : games) {
        involved.insert(g.first);
        involved.insert(g.second);
    }
    if (involved.size() <= capacity) return;
    const auto in_games = 2 * static_cast<std::size_t>(std::max(concurrency, 1));
    const std::size_t block =
        std::max<std::size_t>(1, capacity > in_games ? (capacity - in_games) / 2 : std::size_t{1});
    const auto block_of = [&](int bot) { return static_cast<std::size_t>(bot) / block; };
    std::stable_sort(games.begin(), games.end(), [&](const Pairing& a, const Pairing& b) {
        const auto key = [&](const Pairing& p) {
            const auto x = block_of(p.first), y = block_of(p.second);
            return std::pair(std::min(x, y), std::max(x, y));
        };
        return key(a) < key(b);
    });
}

}  // namespace arena::tournament
