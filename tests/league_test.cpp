// A league's accounts (docs/league.md): tokens are random, shown once and
// stored only as Argon2id hashes; a token signs in its user and no other,
// stops working when reset or when its user is disabled; names follow the
// rules of bot names and are unique in a league. Then `arena league user`
// through the built executable: each subcommand, its messages and exit
// statuses, and its help.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "arena/league/accounts.hpp"
#include "arena/league/tokens.hpp"
#include "arena/store/results_store.hpp"
#include "arena_process.hpp"
#include "db_query.hpp"
#include "temp_dir.hpp"

namespace arena::league {
namespace {

namespace fs = std::filesystem;
using Kind = AccountError::Kind;
using testing::query;
using testing::query_one;

std::string file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// The secret of a token: what follows "<id>.".
std::string secret_of(const std::string& token) {
    return token.substr(token.find('.') + 1);
}

// `token` with its last character changed to another of the alphabet.
std::string altered(std::string token) {
    token.back() = token.back() == 'A' ? 'B' : 'A';
    return token;
}

// The kind of AccountError that `f` throws; fails the test when none.
template <class F>
Kind error_kind(F&& f, std::string* message = nullptr) {
    try {
        f();
    } catch (const AccountError& e) {
        if (message) *message = e.what();
        return e.kind();
    }
    ADD_FAILURE() << "no AccountError";
    return Kind::kBadName;
}

// ---- tokens ---------------------------------------------------------------

TEST(LeagueTokens, ASecretIsRandomAndItsHashIsArgon2idAtTheInteractiveLimits) {
    const NewSecret a = new_secret();
    const NewSecret b = new_secret();
    EXPECT_EQ(a.text.size(), 43u);  // 32 bytes, base64url without padding
    EXPECT_EQ(a.text.find_first_not_of(
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
              std::string::npos)
        << a.text;
    EXPECT_NE(a.text, b.text);
    EXPECT_EQ(a.hash.rfind("$argon2id$v=19$m=65536,t=2,p=1$", 0), 0u) << a.hash;
    EXPECT_NE(a.hash, b.hash);  // salted
    EXPECT_EQ(a.hash.find(a.text), std::string::npos);
    EXPECT_TRUE(secret_matches(a.text, a.hash));
    EXPECT_FALSE(secret_matches(b.text, a.hash));
    EXPECT_FALSE(secret_matches(altered(a.text), a.hash));
    EXPECT_FALSE(secret_matches(a.text.substr(1), a.hash));
    EXPECT_FALSE(secret_matches(a.text + "A", a.hash));
    EXPECT_FALSE(secret_matches("", a.hash));
    EXPECT_FALSE(secret_matches(a.text, "not a hash"));
}

TEST(LeagueTokens, ATokenIsTheUsersIdThenTheSecret) {
    EXPECT_EQ(token_text(12, "abc"), "12.abc");
    const auto parts = split_token("12.abc.d");
    ASSERT_TRUE(parts);
    EXPECT_EQ(parts->user_id, 12);
    EXPECT_EQ(parts->secret, "abc.d");
    for (const char* bad : {"", ".", "abc", ".abc", "0.abc", "012.abc", "-1.abc", "+1.abc",
                            "1a.abc", " 1.abc", "99999999999999999999.abc"}) {
        EXPECT_FALSE(split_token(bad)) << bad;
    }
}

// ---- accounts -------------------------------------------------------------

class LeagueAccounts : public ::testing::Test {
  protected:
    [[nodiscard]] fs::path db() const { return dir_.path() / "results" / "spring.db"; }
    testing::TempDir dir_{"league_test"};
};

TEST_F(LeagueAccounts, ATokenSignsInItsUserAndNoOther) {
    Accounts accounts(db(), "spring");
    const std::string ann = accounts.add_user("ann", false);
    const std::string org = accounts.add_user("org.1", true);
    const auto signed_in = accounts.authenticate(ann);
    ASSERT_TRUE(signed_in);
    EXPECT_EQ(signed_in->name, "ann");
    EXPECT_FALSE(signed_in->organiser);
    EXPECT_FALSE(signed_in->disabled());
    const auto organiser = accounts.authenticate(org);
    ASSERT_TRUE(organiser);
    EXPECT_EQ(organiser->name, "org.1");
    EXPECT_TRUE(organiser->organiser);

    // Wrong tokens: a changed secret, one user's secret under the other's
    // id, an id nobody has, and what is not a token at all.
    const auto ann_id = std::to_string(signed_in->id);
    const auto org_id = std::to_string(organiser->id);
    for (const std::string& wrong :
         {altered(ann), org_id + "." + secret_of(ann), ann_id + "." + secret_of(org),
          "999." + secret_of(ann), secret_of(ann), ann_id + ".", ann + " ", std::string(),
          std::string("not a token")}) {
        EXPECT_FALSE(accounts.authenticate(wrong)) << wrong;
    }
}

TEST_F(LeagueAccounts, TheTokenIsNeverStored) {
    std::vector<std::string> tokens;
    {
        Accounts accounts(db(), "spring");
        tokens.push_back(accounts.add_user("ann", false));
        tokens.push_back(accounts.add_user("bob", true));
        tokens.push_back(accounts.reset_token("ann"));
    }
    // The table holds hashes, and no column holds a token or a secret.
    const auto rows = query(db(), "SELECT * FROM league_users");
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& row : rows) {
        for (const auto& value : row) {
            for (const auto& token : tokens) {
                EXPECT_EQ(value.find(secret_of(token)), std::string::npos) << value;
            }
        }
    }
    EXPECT_EQ(query(db(), "SELECT substr(token_hash, 1, 10) FROM league_users ORDER BY id"),
              (testing::Rows{{"$argon2id$"}, {"$argon2id$"}}));
    // Nor does any byte of the file (the store is closed: the WAL was
    // checkpointed into it), nor a WAL left beside it.
    std::string bytes = file_bytes(db());
    if (fs::exists(fs::path(db().string() + "-wal")))
        bytes += file_bytes(fs::path(db().string() + "-wal"));
    ASSERT_GT(bytes.size(), 0u);
    for (const auto& token : tokens) {
        EXPECT_EQ(bytes.find(secret_of(token)), std::string::npos);
        EXPECT_EQ(bytes.find(token), std::string::npos);
    }
}

TEST_F(LeagueAccounts, ResetMakesANewTokenAndTheOldOneFails) {
    Accounts accounts(db(), "spring");
    const std::string first = accounts.add_user("ann", false);
    const std::string second = accounts.reset_token("ann");
    EXPECT_NE(first, second);
    EXPECT_FALSE(accounts.authenticate(first));
    const auto user = accounts.authenticate(second);
    ASSERT_TRUE(user);
    EXPECT_EQ(user->name, "ann");
    // The same user: the id in the token stays.
    EXPECT_EQ(first.substr(0, first.find('.')), second.substr(0, second.find('.')));
}

TEST_F(LeagueAccounts, ADisabledUserCannotSignInNorGetANewToken) {
    Accounts accounts(db(), "spring");
    const std::string ann = accounts.add_user("ann", false);
    const std::string bob = accounts.add_user("bob", false);
    EXPECT_TRUE(accounts.disable_user("ann"));
    EXPECT_FALSE(accounts.authenticate(ann));
    EXPECT_TRUE(accounts.authenticate(bob));     // the others go on
    EXPECT_FALSE(accounts.disable_user("ann"));  // already: nothing changes
    std::string message;
    EXPECT_EQ(error_kind([&] { (void)accounts.reset_token("ann"); }, &message), Kind::kDisabled);
    EXPECT_NE(message.find("user 'ann' of league 'spring' is disabled (since 20"),
              std::string::npos)
        << message;
    const auto users = accounts.list_users();
    ASSERT_EQ(users.size(), 2u);
    EXPECT_TRUE(users[0].disabled());
    EXPECT_FALSE(users[1].disabled());
}

TEST_F(LeagueAccounts, TwoUsersOfOneNameAreRefused) {
    Accounts accounts(db(), "spring");
    const std::string ann = accounts.add_user("ann", false);
    std::string message;
    EXPECT_EQ(error_kind([&] { (void)accounts.add_user("ann", true); }, &message),
              Kind::kNameTaken);
    EXPECT_EQ(message, "league 'spring' already has a user 'ann' (" + db().string() + ")");
    accounts.disable_user("ann");
    EXPECT_EQ(error_kind([&] { (void)accounts.add_user("ann", false); }), Kind::kNameTaken);
    EXPECT_EQ(accounts.list_users().size(), 1u);
    // Another league in the same file has its own names, and its own tokens.
    Accounts other(db(), "autumn");
    const std::string other_ann = other.add_user("ann", false);
    EXPECT_FALSE(other.authenticate(ann));
    EXPECT_FALSE(accounts.authenticate(other_ann));
    EXPECT_TRUE(other.authenticate(other_ann));
    EXPECT_EQ(accounts.list_users().size(), 1u);
}

TEST_F(LeagueAccounts, NamesFollowTheRulesOfBotNames) {
    Accounts accounts(db(), "spring");
    for (const std::string& good : {std::string("a"), std::string("Ann_B.2+x-y"),
                                    std::string(100, 'n'), std::string("a..b")}) {
        EXPECT_EQ(user_name_problem(good), "") << good;
        EXPECT_NO_THROW((void)accounts.add_user(good, false)) << good;
    }
    for (const std::string& bad :
         {std::string(), std::string("a b"), std::string("../x"), std::string("a/b"),
          std::string("."), std::string(".."), std::string(".hidden"), std::string(101, 'n'),
          std::string("ann\n"), std::string("é")}) {
        EXPECT_NE(user_name_problem(bad), "") << bad;
        EXPECT_EQ(error_kind([&] { (void)accounts.add_user(bad, false); }), Kind::kBadName) << bad;
    }
    EXPECT_EQ(user_name_problem("a b"),
              "user name 'a b' is not valid (use only letters, digits and _ . + -: it names the "
              "user's folder in bots_dir)");
    EXPECT_EQ(user_name_problem(".x"),
              "user name '.x' begins with '.': its folder in bots_dir would be hidden, and "
              "skipped");
    EXPECT_EQ(user_name_problem("a\x1b[2J"),
              "user name 'a\\x1b[2J' is not valid (use only letters, digits and _ . + -: it names "
              "the user's folder in bots_dir)");
    EXPECT_EQ(accounts.list_users().size(), 4u);
}

TEST_F(LeagueAccounts, AnUnknownUserIsNamedWithTheClosestOne) {
    Accounts accounts(db(), "spring");
    (void)accounts.add_user("annabel", false);
    std::string message;
    EXPECT_EQ(error_kind([&] { accounts.disable_user("anabel"); }, &message), Kind::kUnknownUser);
    EXPECT_EQ(message, "league 'spring' has no user 'anabel' (did you mean 'annabel'?) (" +
                           db().string() + ")");
    EXPECT_EQ(error_kind([&] { (void)accounts.reset_token("zed"); }), Kind::kUnknownUser);
}

TEST_F(LeagueAccounts, ListedInTheOrderAddedAndReadOnlyWhereOnlyRead) {
    {
        Accounts accounts(db(), "spring");
        (void)accounts.add_user("zoe", true);
        (void)accounts.add_user("ann", false);
    }
    const std::string before = file_bytes(db());
    Accounts reader(db(), "spring", store::Access::kReadOnly);
    const auto users = reader.list_users();
    ASSERT_EQ(users.size(), 2u);
    EXPECT_EQ(users[0].name, "zoe");
    EXPECT_TRUE(users[0].organiser);
    EXPECT_EQ(users[1].name, "ann");
    EXPECT_FALSE(users[1].organiser);
    EXPECT_LT(users[0].id, users[1].id);
    EXPECT_EQ(users[0].created_at.size(), 24u) << users[0].created_at;  // 2024-05-01T12:34:56.789Z
    EXPECT_THROW((void)reader.add_user("max", false), store::StoreError);
    EXPECT_EQ(file_bytes(db()), before);
}

// A results database of schema 9 (before league users), with a game in it,
// takes users: the file is upgraded and the game stays.
TEST_F(LeagueAccounts, ASchemaNineFileIsUpgradedAndKeepsItsGames) {
    {
        store::ResultsStore store(db());
        const auto t =
            store.create_tournament({"spring", "connect4", "name: spring\n", "fp", 1, 2},
                                    {{"a", "x", "arena1", ""}, {"b", "y", "arena1", ""}});
        record::GameRecord game;
        game.game = "connect4";
        game.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
        game.players[0] = "a";
        game.players[1] = "b";
        game.outcome = games::Outcome::kWin1;
        (void)store.record_game(t, store::GameSlot{}, game);
    }
    {
        sqlite3* handle = nullptr;
        ASSERT_EQ(sqlite3_open(db().c_str(), &handle), SQLITE_OK);
        EXPECT_EQ(
            sqlite3_exec(
                handle,
                "DROP TABLE league_versions; DROP TABLE league_users; PRAGMA user_version = 9",
                nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(handle);
    }
    EXPECT_EQ(store::stored_schema_version(db()), 9);
    Accounts accounts(db(), "spring");
    const std::string token = accounts.add_user("ann", false);
    EXPECT_TRUE(accounts.authenticate(token));
    EXPECT_EQ(store::stored_schema_version(db()), store::kSchemaVersion);
    EXPECT_EQ(query_one(db(), "SELECT count(*) FROM games"), "1");
    EXPECT_EQ(query_one(db(), "SELECT result FROM games"), "1-0");
}

// ---- arena league user, through the executable ---------------------------

class LeagueCli : public ::testing::Test {
  protected:
    void SetUp() override {
        fs::create_directories(dir_.path() / "bots");
        config_ = dir_.write("league.yaml", config_text(true));
    }

    [[nodiscard]] fs::path db() const { return dir_.path() / "results" / "spring.db"; }

    [[nodiscard]] std::string config_text(bool bots_dir) const {
        return "name: spring\ngame: { name: connect4 }\ndatabase: " + db().string() + "\n" +
               (bots_dir ? "bots_dir: " + (dir_.path() / "bots").string() + "\n" : "") +
               "bots:\n  - { name: ref1, command: " + testing::bin("bots/random") +
               " }\n  - { name: ref2, command: " + testing::bin("bots/random") + " }\n";
    }

    testing::ArenaResult arena(std::vector<std::string> args) const {
        args.insert(args.begin(), "league");
        return testing::run_arena(dir_.path(), args);
    }

    // The lines of `text`.
    static std::vector<std::string> lines(const std::string& text) {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            out.push_back(line);
        return out;
    }

    // The token that `add` or `reset` printed, checked for its form.
    static std::string token_in(const testing::ArenaResult& r) {
        const auto all = lines(r.out);
        EXPECT_EQ(all.size(), 4u) << r.out;
        if (all.size() != 4 || all[1].rfind("token: ", 0) != 0) return "";
        const std::string token = all[1].substr(7);
        EXPECT_TRUE(split_token(token)) << token;
        EXPECT_EQ(secret_of(token).size(), 43u) << token;
        return token;
    }

    [[nodiscard]] bool signs_in(const std::string& token) const {
        Accounts accounts(db(), "spring", store::Access::kReadOnly);
        return accounts.authenticate(token).has_value();
    }

    testing::TempDir dir_{"league_cli_test"};
    std::string config_;
};

TEST_F(LeagueCli, AddListResetAndDisable) {
    // Listing a league without users makes no database.
    auto r = arena({"user", "list", config_});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "league 'spring' (" + db().string() +
                         "): no users yet (arena league user add " + config_ + " NAME adds one)\n");
    EXPECT_FALSE(fs::exists(db()));

    r = arena({"user", "add", config_, "alice"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::string alice = token_in(r);
    EXPECT_EQ(lines(r.out),
              (std::vector<std::string>{
                  "added participant 'alice' to league 'spring' (" + db().string() + ")",
                  "token: " + alice,
                  "The token is shown only this once and cannot be shown again: only its hash "
                  "is stored.",
                  "Give it to alice; if it is lost, arena league user reset " + config_ +
                      " alice makes a new one."}));
    r = arena({"user", "add", config_, "bob", "--organiser"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(lines(r.out).at(0),
              "added organiser 'bob' to league 'spring' (" + db().string() + ")");
    const std::string bob = token_in(r);
    EXPECT_TRUE(signs_in(alice));
    EXPECT_TRUE(signs_in(bob));
    EXPECT_EQ(file_bytes(db()).find(secret_of(alice)), std::string::npos);

    r = arena({"user", "list", config_});
    EXPECT_EQ(r.status, 0) << r.err;
    auto table = lines(r.out);
    ASSERT_EQ(table.size(), 4u) << r.out;
    EXPECT_EQ(table[0], "league 'spring' (" + db().string() + "): 2 users");
    EXPECT_EQ(table[1], "name   role         added                     disabled");
    EXPECT_EQ(table[2].substr(0, 20), "alice  participant  ");
    EXPECT_EQ(table[2].substr(table[2].size() - 3), "  -") << table[2];
    EXPECT_EQ(table[3].substr(0, 20), "bob    organiser    ");
    EXPECT_EQ(r.out.find(secret_of(alice)), std::string::npos);

    r = arena({"user", "reset", config_, "alice"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(lines(r.out).at(0), "new token for user 'alice' of league 'spring' (" +
                                      db().string() + "); the old one no longer signs them in");
    const std::string new_alice = token_in(r);
    EXPECT_NE(new_alice, alice);
    EXPECT_FALSE(signs_in(alice));
    EXPECT_TRUE(signs_in(new_alice));

    r = arena({"user", "disable", config_, "alice"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "disabled user 'alice' of league 'spring' (" + db().string() +
                         "): their token no longer signs them in\n");
    EXPECT_FALSE(signs_in(new_alice));
    EXPECT_TRUE(signs_in(bob));
    r = arena({"user", "disable", config_, "alice"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("user 'alice' of league 'spring' (" + db().string() +
                         ") was disabled already (since 20"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("): nothing changed"), std::string::npos) << r.out;

    r = arena({"user", "list", config_});
    table = lines(r.out);
    ASSERT_EQ(table.size(), 4u) << r.out;
    EXPECT_EQ(table[2].substr(table[2].size() - 1), "Z") << table[2];  // when it was disabled
    EXPECT_EQ(table[3].substr(table[3].size() - 3), "  -") << table[3];
}

TEST_F(LeagueCli, EachProblemIsOneLineAndItsExitStatus) {
    ASSERT_EQ(arena({"user", "add", config_, "alice"}).status, 0);
    struct Case {
        std::vector<std::string> args;
        int status;
        std::string err;
    };
    const std::string league_db = " (" + db().string() + ")";
    const std::string no_bots_dir = dir_.write("plain.yaml", config_text(false));
    const std::vector<Case> cases{
        {{"user", "add", config_, "alice"},
         1,
         "arena league user add: " + config_ + ": league 'spring' already has a user 'alice'" +
             league_db + "\n"},
        {{"user", "add", config_, "a b"},
         2,
         "arena league user add: " + config_ +
             ": user name 'a b' is not valid (use only letters, digits and _ . + -: it names "
             "the user's folder in bots_dir)\n"},
        {{"user", "add", config_, ".alice"},
         2,
         "arena league user add: " + config_ +
             ": user name '.alice' begins with '.': its folder in bots_dir would be hidden, "
             "and skipped\n"},
        {{"user", "disable", config_, "alicia"},
         2,
         "arena league user disable: " + config_ +
             ": league 'spring' has no user 'alicia' (did you mean 'alice'?)" + league_db + "\n"},
        {{"user", "reset", config_, "zed"},
         2,
         "arena league user reset: " + config_ + ": league 'spring' has no user 'zed'" + league_db +
             "\n"},
        {{"user", "list", no_bots_dir},
         2,
         "arena league user list: " + no_bots_dir +
             " has no bots_dir: a league keeps each participant's bots in their folder of "
             "bots_dir (docs/league.md)\n"},
        {{"user", "add", config_},
         2,
         "arena league user add: missing NAME\n(arena league user add --help for usage)\n"},
        {{"user", "list"},
         2,
         "arena league user list: missing CONFIG\n(arena league user list --help for usage)\n"},
        {{"user", "list", config_, "--organiser"},
         2,
         "arena league user list: unknown option '--organiser'\n"
         "(arena league user list --help for usage)\n"},
        {{"user", "resett", config_, "alice"},
         2,
         "arena league user: unknown command 'resett' (did you mean 'reset'?)\n"
         "(arena league --help for usage)\n"},
        {{"users", "list", config_},
         2,
         "arena league: unknown command 'users' (did you mean 'user'?)\n"
         "(arena league --help for usage)\n"},
    };
    for (const auto& c : cases) {
        const auto r = arena(c.args);
        EXPECT_EQ(r.status, c.status) << c.args.at(1) << ": " << r.err;
        EXPECT_EQ(r.err, c.err);
        EXPECT_EQ(r.out, "");
    }
    // A disabled user gets no new token.
    ASSERT_EQ(arena({"user", "disable", config_, "alice"}).status, 0);
    const auto r = arena({"user", "reset", config_, "alice"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("arena league user reset: " + config_ +
                         ": user 'alice' of league 'spring' is disabled (since 20"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("): a new token would not sign them in\n"), std::string::npos) << r.err;
    // A config that cannot be read says so, as arena run does.
    const auto missing = arena({"user", "list", (dir_.path() / "none.yaml").string()});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("none.yaml"), std::string::npos) << missing.err;
}

TEST_F(LeagueCli, HelpOfEachCommand) {
    for (const auto& args : std::vector<std::vector<std::string>>{{"--help"}, {"user", "--help"}}) {
        const auto r = arena(args);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.out.rfind("usage: arena league user add CONFIG NAME [--organiser]\n", 0), 0u)
            << r.out;
        for (const char* word : {"user list", "user disable", "user reset", "docs/league.md"})
            EXPECT_NE(r.out.find(word), std::string::npos) << word;
    }
    for (const auto& args : std::vector<std::vector<std::string>>{{}, {"user"}}) {
        const auto r = arena(args);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err.rfind("usage: arena league user add", 0), 0u) << r.err;
    }
    for (const std::string command : {"add", "list", "disable", "reset"}) {
        const auto r = arena({"user", command, "--help"});
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.out.rfind("usage: arena league user " + command + " CONFIG", 0), 0u) << r.out;
        EXPECT_NE(r.out.find("--help"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("--organiser") != std::string::npos, command == "add") << r.out;
    }
    const auto help = testing::run_arena(dir_.path(), {"help"});
    EXPECT_NE(help.out.find("\n  league     the users of a league"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace arena::league
