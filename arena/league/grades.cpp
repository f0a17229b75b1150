#include "arena/league/grades.hpp"

#include <cstdio>
#include <sstream>

#include "arena/grade/grade.hpp"
#include "arena/store/results_store.hpp"

namespace arena::league {

std::string grades_csv(const tournament::Config& config, serve::ServedDatabase& database) {
    if (grade::grading_problem(config).empty()) {
        store::ResultsStore store(config.database, store::Access::kReadOnly);
        return grade::format_csv(grade::make_table(config, store));
    }
    std::ostringstream out;
    out << "rank,name,elo,error,games,wins,draws,losses,score,faults\r\n";
    const auto overview = database.overview();
    for (const auto& t : overview["tournaments"]) {
        if (t["name"] != config.name) continue;
        const auto standings = database.tournament(t["id"].get<std::int64_t>(), 0, 0);
        if (!standings) break;
        for (const auto& s : (*standings)["standings"]) {
            // Integers as they are, ratings and scores to a tenth, text as a cell.
            const auto number = [&](const char* key) -> std::string {
                if (!s.contains(key) || s[key].is_null()) return "";
                const auto& v = s[key];
                if (v.is_string()) return grade::csv_cell(v.get<std::string>());
                if (v.is_number_integer()) return v.dump();
                char text[32];
                std::snprintf(text, sizeof text, "%.1f", v.get<double>());
                return text;
            };
            out << number("rank") << "," << grade::csv_cell(s["name"].get<std::string>()) << ","
                << number("elo") << "," << number("error") << "," << number("games") << ","
                << number("wins") << "," << number("draws") << "," << number("losses") << ","
                << number("score") << "," << number("faults") << "\r\n";
        }
    }
    return out.str();
}

}  // namespace arena::league
