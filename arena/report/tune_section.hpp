#pragma once
// The report's Tuning section, for a tune (arena tune): each parameter's
// value over the iterations, as the games store it (store::GameParam, the
// theta each iteration perturbed), against its range and start from the
// stored config (StoredSettings::tune). Everything from the database is
// escaped (html.hpp).

#include <optional>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"
#include "arena/tournament/stored_settings.hpp"

namespace arena::report {

// Of a long tune, each chart draws every n-th iteration: at most this many.
inline constexpr std::size_t kMaxTunePoints = 300;

// <section id="tuning">: a table (id "tune-table") of each parameter's
// start, final value (theta at the last iteration stored), min and max,
// then a chart per parameter (charts.hpp param_chart, class chart-tune) of
// theta by iteration, its y axis over the parameter's range (without one in
// the config, over the values seen). Empty when `rows` is: not a tune.
[[nodiscard]] std::string tune_section(const std::vector<store::StoredGameParam>& rows,
                                       const std::optional<tournament::StoredSettings::Tune>& tune);

}  // namespace arena::report
