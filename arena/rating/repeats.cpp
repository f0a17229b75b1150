#include "arena/rating/repeats.hpp"

namespace arena::rating {

bool RepeatFilter::counts(std::optional<std::int64_t> first_moved_first,
                          std::optional<std::int64_t> other_moved_first) {
    const bool comparable = !count_repeats_ && first_moved_first && other_moved_first;
    if (!comparable || seen_.emplace(*first_moved_first, *other_moved_first).second) {
        in_a_row_ = 0;
        return true;
    }
    ++repeated_;
    ++in_a_row_;
    return false;
}

}  // namespace arena::rating
