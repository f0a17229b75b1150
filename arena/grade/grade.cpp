#include "arena/grade/grade.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "arena/record/escape.hpp"
#include "arena/tournament/check_files.hpp"

namespace arena::grade {
namespace {

namespace fs = std::filesystem;

// A check log's note: its first failed check, else why the checks could not
// run, cut to a line a table can show.
std::string check_note(const fs::path& log) {
    std::ifstream in(log);
    std::string line, could_not;
    bool in_failure = false;
    while (std::getline(in, line)) {
        if (!in_failure && line.starts_with("FAIL ")) {
            could_not = line.substr(5);
            in_failure = true;
        } else if (in_failure && line.starts_with("     ")) {
            // The failed check's details: the first line the bot wrote on
            // stderr says most (a library that does not load says why).
            const std::string_view detail = std::string_view(line).substr(5);
            if (detail.starts_with("stderr:") && line.find("(nothing)") == std::string::npos) {
                const auto text = detail.find_first_not_of(' ', 7);
                if (text != std::string_view::npos)
                    could_not += "; stderr: " + std::string(detail.substr(text));
            }
        } else if (in_failure) {
            break;
        } else if (line.starts_with("the checks could not run: ")) {
            could_not = line;
        }
    }
    constexpr std::size_t kMaxNote = 240;
    if (could_not.size() > kMaxNote) could_not = could_not.substr(0, kMaxNote - 3) + "...";
    // Bot output: shown as text, never obeyed by a terminal.
    return "check failed: " + (could_not.empty() ? std::string("see ") + log.string()
                                                 : record::escape_controls(could_not));
}

// The names of the programs that passed their check (the first field of
// each line of the table arena run keeps).
std::vector<std::string> passed_checks(const fs::path& file) {
    std::vector<std::string> names;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        const auto tab = line.find('\t');
        if (tab != std::string::npos) names.push_back(line.substr(0, tab));
    }
    return names;
}

int fault_index(const std::string& termination) {
    for (std::size_t k = 0; k < kFaultKinds.size(); ++k)
        if (termination == kFaultKinds[k]) return static_cast<int>(k);
    return -1;
}

std::string faults_text(const Row& row) {
    const int n = row.fault_count();
    if (n == 0) return "0";
    std::string text = std::to_string(n) + " (";
    const char* sep = "";
    for (std::size_t k = 0; k < kFaultKinds.size(); ++k) {
        if (row.faults[k] == 0) continue;
        text += sep + std::string(kFaultKinds[k]) + " " + std::to_string(row.faults[k]);
        sep = ", ";
    }
    return text + ")";
}

}  // namespace

std::string csv_cell(std::string_view text) {
    std::string cell = record::escape_controls(text, true);
    if (!cell.empty() && std::string_view("=+-@\t\r").find(cell.front()) != std::string_view::npos)
        cell.insert(0, "'");
    if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
    std::string quoted = "\"";
    for (const char c : cell) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

int Row::fault_count() const {
    int n = 0;
    for (const int f : faults)
        n += f;
    return n;
}

std::string grading_problem(const tournament::Config& config) {
    if (config.schedule != tournament::ScheduleType::kGauntlet) {
        return config.path.string() +
               ": not a gauntlet; arena grade grades submissions against references "
               "(schedule: { type: gauntlet, challengers: bots_dir } for a folder of "
               "submissions, or challenger: NAME for one)";
    }
    return {};
}

std::map<std::string, std::string> given_up_bots(const std::string& run_stderr) {
    // "arena run: bot 'x' failed to start 3 times in a row (...), so its 4
    // remaining games were not played: ..."
    constexpr std::string_view kStart = "arena run: bot '";
    constexpr std::string_view kEnd = ", so its ";
    std::map<std::string, std::string> found;
    std::istringstream in(run_stderr);
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with(kStart)) continue;
        const auto name_end = line.find("' ", kStart.size());
        const auto why_end = line.rfind(kEnd);
        if (name_end == std::string::npos || why_end == std::string::npos || why_end < name_end)
            continue;
        found[line.substr(kStart.size(), name_end - kStart.size())] =
            line.substr(name_end + 2, why_end - name_end - 2);
    }
    return found;
}

Table make_table(const tournament::Config& config, store::ResultsStore& store,
                 const std::map<std::string, std::string>& given_up) {
    Table table;
    table.tournament = config.name;
    table.games_per_reference = config.games_per_pair * config.rounds;
    table.scoring = config.scoring.value_or(tournament::Scoring{});
    const auto is_submission = [&](const tournament::BotConfig& bot) {
        return config.challengers_from_bots_dir ? !bot.manifest.empty()
                                                : bot.name == config.challenger;
    };
    std::vector<const tournament::BotConfig*> submissions;
    for (const auto& bot : config.bots) {
        if (is_submission(bot)) {
            submissions.push_back(&bot);
        } else {
            table.references.push_back(bot.name);
        }
    }
    std::sort(submissions.begin(), submissions.end(),
              [](const auto* a, const auto* b) { return a->name < b->name; });
    const auto n_refs = table.references.size();
    std::map<std::string, std::size_t> row_of, reference_of;
    for (std::size_t r = 0; r < n_refs; ++r)
        reference_of[table.references[r]] = r;
    const auto passed = config.check ? passed_checks(tournament::passed_checks_file(config))
                                     : std::vector<std::string>{};
    for (const auto* bot : submissions) {
        Row row;
        row.name = bot->name;
        row.author = bot->author;
        row.points.assign(n_refs, 0);
        row.games.assign(n_refs, 0);
        row.max = table.scoring.win * table.games_per_reference * static_cast<int>(n_refs);
        if (!config.check) {
            row.check = "-";
        } else if (std::error_code ec;
                   fs::exists(tournament::check_log_file(config, bot->name), ec)) {
            row.check = "FAIL";
            row.note = check_note(tournament::check_log_file(config, bot->name));
        } else if (std::find(passed.begin(), passed.end(), bot->name) != passed.end()) {
            row.check = "ok";
        } else {
            row.check = "not yet";
        }
        row_of[row.name] = table.rows.size();
        table.rows.push_back(std::move(row));
    }

    if (const auto t = store.find_tournament(config.name)) {
        table.stored = true;
        for (const auto& g : store.games(t->id)) {
            const auto first_row = row_of.find(g.first), second_row = row_of.find(g.second);
            const bool first_is_submission = first_row != row_of.end();
            const auto row_it = first_is_submission ? first_row : second_row;
            if (row_it == row_of.end()) continue;
            const auto ref = reference_of.find(first_is_submission ? g.second : g.first);
            if (ref == reference_of.end()) continue;
            const auto score = store::first_mover_score(g.result);
            if (!score) continue;
            Row& row = table.rows[row_it->second];
            const double own = first_is_submission ? *score : 1.0 - *score;
            const int points = own == 1.0   ? table.scoring.win
                               : own == 0.0 ? table.scoring.loss
                                            : table.scoring.draw;
            row.points[ref->second] += points;
            row.games[ref->second] += 1;
            row.total += points;
            if (own == 0.0) {
                if (const int k = fault_index(g.termination); k >= 0) ++row.faults[k];
            }
        }
    }
    for (Row& row : table.rows) {
        for (const int played : row.games)
            row.missing += std::max(0, table.games_per_reference - played);
        if (row.missing == 0 || row.check == "FAIL") continue;
        std::string note =
            std::to_string(row.missing) + " game" + (row.missing == 1 ? "" : "s") + " not played";
        if (const auto why = given_up.find(row.name); why != given_up.end()) {
            std::string text = why->second;
            constexpr std::size_t kMaxNote = 240;
            if (text.size() > kMaxNote) text = text.substr(0, kMaxNote - 3) + "...";
            note += ": " + record::escape_controls(text);
        }
        row.note = note;
    }
    return table;
}

std::string format_text(const Table& table) {
    std::ostringstream out;
    out << record::escape_controls(table.tournament) << ": " << table.rows.size() << " submission"
        << (table.rows.size() == 1 ? "" : "s") << " against " << table.references.size()
        << " reference" << (table.references.size() == 1 ? "" : "s") << ", "
        << table.games_per_reference
        << " games each (each colour in turn); points: " << table.scoring.win << " a win, "
        << table.scoring.draw << " a draw, " << table.scoring.loss
        << " a loss, and any fault (crash, timeout, illegal move, "
        << "protocol error, failed start-up) is a loss\n";
    if (!table.stored) out << "(no game stored yet: every game counts as not played)\n";
    // Cells, then columns padded to their widest cell.
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> header{"submission", "author"};
    for (const auto& r : table.references)
        header.push_back(record::escape_controls(r));
    for (const char* h : {"total", "max", "faults", "check", "note"})
        header.emplace_back(h);
    cells.push_back(header);
    for (const Row& row : table.rows) {
        std::vector<std::string> line{
            record::escape_controls(row.name),
            row.author.empty() ? "-" : record::escape_controls(row.author)};
        for (const int p : row.points)
            line.push_back(std::to_string(p));
        line.push_back(std::to_string(row.total));
        line.push_back(std::to_string(row.max));
        line.push_back(faults_text(row));
        line.push_back(row.check);
        line.push_back(record::escape_controls(row.note));
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> width(header.size(), 0);
    for (const auto& line : cells)
        for (std::size_t c = 0; c < line.size(); ++c)
            width[c] = std::max(width[c], line[c].size());
    const std::size_t numbers_from = 2, numbers_to = 2 + table.references.size() + 2;
    for (const auto& line : cells) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            const bool last = c + 1 == line.size();
            const bool right = c >= numbers_from && c < numbers_to;
            std::string cell = line[c];
            const std::string pad(width[c] - cell.size(), ' ');
            cell = right ? pad + cell : (last ? cell : cell + pad);
            text += (c == 0 ? "" : "  ") + cell;
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out << text << "\n";
    }
    if (table.rows.empty()) out << "(no submissions)\n";
    return out.str();
}

std::string format_csv(const Table& table) {
    std::ostringstream out;
    out << "submission,author";
    for (const auto& r : table.references)
        out << "," << csv_cell(r);
    out << ",total,max,games,missing";
    for (const char* kind : kFaultKinds)
        out << "," << kind;
    out << ",check,note\n";
    for (const Row& row : table.rows) {
        out << csv_cell(row.name) << "," << csv_cell(row.author);
        int games = 0;
        for (std::size_t r = 0; r < row.points.size(); ++r) {
            out << "," << row.points[r];
            games += row.games[r];
        }
        out << "," << row.total << "," << row.max << "," << games << "," << row.missing;
        for (const int f : row.faults)
            out << "," << f;
        out << "," << row.check << "," << csv_cell(row.note) << "\n";
    }
    return out.str();
}

std::string format_json(const Table& table) {
    nlohmann::ordered_json j;
    j["tournament"] = table.tournament;
    j["scoring"] = {
        {"win", table.scoring.win}, {"draw", table.scoring.draw}, {"loss", table.scoring.loss}};
    j["references"] = table.references;
    j["games_per_reference"] = table.games_per_reference;
    j["stored"] = table.stored;
    j["submissions"] = nlohmann::ordered_json::array();
    for (const Row& row : table.rows) {
        nlohmann::ordered_json r;
        r["name"] = row.name;
        r["author"] = row.author;
        nlohmann::ordered_json points = nlohmann::ordered_json::object();
        int games = 0;
        for (std::size_t k = 0; k < row.points.size(); ++k) {
            points[table.references[k]] = row.points[k];
            games += row.games[k];
        }
        r["points"] = points;
        r["total"] = row.total;
        r["max"] = row.max;
        r["games"] = games;
        r["missing"] = row.missing;
        nlohmann::ordered_json faults = nlohmann::ordered_json::object();
        for (std::size_t k = 0; k < kFaultKinds.size(); ++k)
            faults[kFaultKinds[k]] = row.faults[k];
        r["faults"] = faults;
        r["check"] = row.check;
        r["note"] = row.note;
        j["submissions"].push_back(std::move(r));
    }
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace arena::grade
