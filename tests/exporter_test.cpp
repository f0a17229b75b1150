// `arena export` as a whole (export/exporter): which tournaments it writes
// and why none, every game formatted before anything is written, and the
// writing to one file or a directory of psq files.

#include "arena/export/exporter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"
#include "proc_util.hpp"
#include "stored_tournaments.hpp"
#include "temp_dir.hpp"

namespace arena::exporting {
namespace {

namespace fs = std::filesystem;

store::TournamentRow row(const std::string& name, const std::string& game) {
    store::TournamentRow t;
    t.spec.name = name;
    t.spec.game = game;
    return t;
}

TEST(ChooseTournaments, TheNamedOneOrEveryOne) {
    const std::vector<store::TournamentRow> all = {row("c4", "connect4"), row("go", "gomoku")};
    auto chosen = choose_tournaments(all, std::nullopt, ExportFormat::kCsv, "r.db");
    EXPECT_EQ(chosen.problem, "");
    EXPECT_EQ(chosen.tournaments.size(), 2u);
    chosen = choose_tournaments(all, std::string("go"), ExportFormat::kPsq, "r.db");
    EXPECT_EQ(chosen.problem, "");
    ASSERT_EQ(chosen.tournaments.size(), 1u);
    EXPECT_EQ(chosen.tournaments[0].spec.name, "go");
}

TEST(ChooseTournaments, WhyThereIsNoneToExport) {
    const std::vector<store::TournamentRow> all = {row("c4", "connect4"), row("go", "gomoku")};
    EXPECT_EQ(choose_tournaments(all, std::string("x"), ExportFormat::kPgn, "r.db").problem,
              "no tournament 'x' in r.db; it holds: c4, go");
    EXPECT_EQ(choose_tournaments({}, std::string("x"), ExportFormat::kPgn, "r.db").problem,
              "no tournament 'x' in r.db (it holds none)");
    EXPECT_EQ(choose_tournaments({}, std::nullopt, ExportFormat::kPgn, "r.db").problem,
              "no tournament in r.db");
    EXPECT_EQ(choose_tournaments(all, std::nullopt, ExportFormat::kPsq, "r.db").problem,
              "tournament 'c4' in r.db is connect4; --format psq holds only gomoku (choose a "
              "tournament with --tournament)");
    EXPECT_EQ(choose_tournaments(all, std::string("c4"), ExportFormat::kGgf, "r.db").problem,
              "tournament 'c4' in r.db is connect4; --format ggf holds only reversi");
}

TEST(ExportGames, EveryGameOnOneStreamOrAFileEach) {
    testing::TempDir dir("arena_exporter");
    store::ResultsStore store(dir.path() / "r.db");
    const auto id = store.create_tournament(testing::tournament_spec("g", "gomoku"),
                                            testing::bots_named({"a", "b"}));
    for (int i = 0; i < 2; ++i) {
        record::GameRecord g;
        g.game = "gomoku";
        g.params = {{"size", "15"}};
        g.players[0] = i == 0 ? "a" : "b";
        g.players[1] = i == 0 ? "b" : "a";
        for (const std::string m : {"h8", "h9", "i8"}) {
            record::MoveRecord move;
            move.move = m;
            move.player = g.moves.size() % 2 == 0 ? 1 : 2;
            g.moves.push_back(move);
        }
        g.outcome = games::Outcome::kDraw;
        store::GameSlot slot;
        slot.index = i;
        slot.game_in_pair = i;
        store.record_game(id, slot, g);
    }
    const auto tournaments = store.tournaments();
    const auto stream = export_games(store, tournaments, ExportFormat::kPsq, false);
    EXPECT_TRUE(stream.files.empty());
    const auto files = export_games(store, tournaments, ExportFormat::kPsq, true);
    ASSERT_EQ(files.files.size(), 2u);
    EXPECT_EQ(files.files[0].first, "g-1.psq");
    EXPECT_EQ(files.files[1].first, "g-2.psq");
    // On one stream, a blank line between records.
    EXPECT_EQ(stream.text, files.files[0].second + "\n" + files.files[1].second);
    const auto csv = export_games(store, tournaments, ExportFormat::kCsv, false);
    EXPECT_EQ(csv.text.rfind(format_header(ExportFormat::kCsv), 0), 0u);
    EXPECT_EQ(std::count(csv.text.begin(), csv.text.end(), '\n'), 3);

    EXPECT_EQ(write_export(files, dir.path() / "psq"), "");
    EXPECT_EQ(testing::slurp(dir.path() / "psq" / "g-2.psq"), files.files[1].second);
    EXPECT_EQ(write_export(csv, dir.path() / "g.csv"), "");
    EXPECT_EQ(testing::slurp(dir.path() / "g.csv"), csv.text);
    EXPECT_EQ(
        write_export(csv, dir.path() / "none" / "g.csv"),
        (dir.path() / "none" / "g.csv").string() + ": cannot write: No such file or directory");
    EXPECT_EQ(write_export(files, dir.path() / "g.csv"),
              (dir.path() / "g.csv").string() + ": cannot create the directory: Not a directory");
}

}  // namespace
}  // namespace arena::exporting
