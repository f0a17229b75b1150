#include "arena/cli/sprt_tests.hpp"

#include "arena/report/sprt_text.hpp"
#include "arena/tournament/run_summary.hpp"

namespace arena::cli {

void print_sprt_tests(std::ostream& out, const std::vector<tournament::OpponentTest>& tests,
                      const rating::SprtOptions& options, const tournament::Lineup& lineup) {
    for (const auto& t : tests) {
        const auto& names = lineup.names;
        report::print_sprt_block(out, names[static_cast<std::size_t>(t.challenger)],
                                 names[static_cast<std::size_t>(t.opponent)], options, t.result,
                                 t.pairs, t.games, t.repeated_pairs);
        report::print_sprt_decision(out, t.result.decision, tournament::undecided_text(t, lineup));
        out << tournament::uncounted_pairs_text(t);
    }
}

}  // namespace arena::cli
