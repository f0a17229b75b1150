#include "arena/tune/tune_text.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace arena::tune {
namespace {

// A value to 4 significant digits, or the integer the bot receives.
std::string number(const SpsaParam& p, double value) {
    std::ostringstream s;
    if (p.integer) {
        s << std::fixed << std::setprecision(0) << delivered(p, value);
    } else {
        s << std::setprecision(4) << value;
    }
    auto text = s.str();
    return text == "-0" ? "0" : text;
}

std::string percent(double points, std::int64_t games) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1)
      << (games > 0 ? 100.0 * points / static_cast<double>(games) : 0.0) << " %";
    return s.str();
}

}  // namespace

std::string values_text(const std::vector<SpsaParam>& params, const std::vector<double>& theta) {
    std::string text;
    for (std::size_t i = 0; i < params.size(); ++i)
        text += (i == 0 ? "" : ", ") + params[i].name + " " + number(params[i], theta[i]);
    return text;
}

std::vector<std::string> table_lines(const std::vector<SpsaParam>& params,
                                     const std::vector<double>& theta, std::int64_t applied,
                                     std::int64_t iterations, const WindowScore& window,
                                     const std::string& opponent) {
    std::vector<std::string> lines;
    lines.push_back("tune: iteration " + std::to_string(applied) + " of " +
                    std::to_string(iterations));
    std::size_t width = 5;  // "param"
    for (const auto& p : params)
        width = std::max(width, p.name.size());
    const auto row = [&](const std::string& name, const std::string& start,
                         const std::string& value, const std::string& range) {
        std::ostringstream s;
        s << "  " << std::left << std::setw(static_cast<int>(width)) << name << "  " << std::right
          << std::setw(10) << start << "  " << std::setw(10) << value << "  " << range;
        return s.str();
    };
    lines.push_back(row("param", "start", "value", "range"));
    for (std::size_t i = 0; i < params.size(); ++i) {
        const auto& p = params[i];
        lines.push_back(row(p.name, number(p, p.start), number(p, theta[i]),
                            "[" + number(p, p.min) + ", " + number(p, p.max) + "]"));
    }
    if (window.iterations > 0) {
        const std::string last = "  last " + std::to_string(window.iterations) + " iteration" +
                                 (window.iterations == 1 ? "" : "s") + ": ";
        const auto games = std::to_string(window.games_each) + " games each";
        if (opponent.empty()) {
            lines.push_back(last + "theta+ scored " +
                            percent(window.plus_points, window.games_each) + " against theta- (" +
                            games + ")");
        } else {
            lines.push_back(last + "against " + opponent + ", theta+ scored " +
                            percent(window.plus_points, window.games_each) + " and theta- " +
                            percent(window.minus_points, window.games_each) + " (" + games + ")");
        }
    }
    return lines;
}

std::string result_json(const std::vector<SpsaParam>& params, const std::vector<double>& theta,
                        std::int64_t iterations, std::int64_t games) {
    nlohmann::ordered_json values = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < params.size(); ++i)
        values[params[i].name] = theta[i];
    nlohmann::ordered_json j;
    j["params"] = values;
    j["iterations"] = iterations;
    j["games"] = games;
    return j.dump();
}

}  // namespace arena::tune
