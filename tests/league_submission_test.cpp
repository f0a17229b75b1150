// A participant's upload made into their bot folder (league/submission.hpp):
// one file gets its bot.yaml, a new version takes the old one's place in
// one step, a refused upload changes nothing, a bot.yaml cannot take
// another participant's name, and no other folder is touched.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "arena/league/submission.hpp"
#include "arena/tournament/config.hpp"
#include "temp_dir.hpp"

namespace arena::league {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

class Submission : public ::testing::Test {
  protected:
    fs::path bots() const { return dir_.path() / "subs"; }
    // What bots_dir holds, hidden folders included, sorted.
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(bots()))
            names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
    void SetUp() override { fs::create_directories(bots()); }

    testing::TempDir dir_{"league_submission_test"};
};

TEST_F(Submission, AScriptBecomesTheParticipantsBot) {
    const auto r = install_upload(bots(), "alice", "bot.py", "print('hi')\n");
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.folder, bots() / "alice");
    EXPECT_FALSE(r.replaced);
    EXPECT_EQ(slurp(bots() / "alice/bot.yaml"), "command: python3 bot.py\n");
    EXPECT_EQ(slurp(bots() / "alice/bot.py"), "print('hi')\n");
    ASSERT_TRUE(install_upload(bots(), "bob", "run.sh", "#!/bin/sh\necho\n").ok());
    EXPECT_EQ(slurp(bots() / "bob/bot.yaml"), "command: ./run.sh\n");
    EXPECT_EQ(entries(), (std::vector<std::string>{"alice", "bob"}));
    // The league's config reads them as its bots, named after their participants.
    const auto config = tournament::parse_config(
        "name: l\ngame: { name: connect4 }\nbots_dir: " + bots().string() + "\n", "l.yaml");
    ASSERT_EQ(config.bots.size(), 2u);
    EXPECT_EQ(config.bots[0].name, "alice");
    EXPECT_EQ(config.bots[0].argv.back(), "bot.py");
    EXPECT_EQ(config.bots[1].name, "bob");
}

TEST_F(Submission, ANewVersionTakesTheOldOnesPlace) {
    ASSERT_TRUE(install_upload(bots(), "alice", "old.py", "print(1)\n").ok());
    const auto r = install_upload(bots(), "alice", "new.sh", "#!/bin/sh\necho 2\n");
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_TRUE(r.replaced);
    EXPECT_FALSE(fs::exists(bots() / "alice/old.py"));
    EXPECT_EQ(slurp(bots() / "alice/new.sh"), "#!/bin/sh\necho 2\n");
    EXPECT_EQ(slurp(bots() / "alice/bot.yaml"), "command: ./new.sh\n");
    // No staging folder is left behind.
    EXPECT_EQ(entries(), (std::vector<std::string>{"alice"}));
}

TEST_F(Submission, ARefusedUploadLeavesThePreviousVersion) {
    ASSERT_TRUE(install_upload(bots(), "alice", "bot.py", "print(1)\n").ok());
    const auto r = install_upload(bots(), "alice", "junk.bin", std::string("\x01\x02\x03", 3));
    EXPECT_EQ(r.status, upload::UploadStatus::refused);
    EXPECT_FALSE(r.message.empty());
    EXPECT_EQ(slurp(bots() / "alice/bot.py"), "print(1)\n");
    EXPECT_EQ(entries(), (std::vector<std::string>{"alice"}));
}

TEST_F(Submission, ABadParticipantNameChangesNothing) {
    for (const char* name : {"../x", ".hidden", "", "a/b"}) {
        const auto r = install_upload(bots(), name, "bot.py", "print(1)\n");
        EXPECT_EQ(r.status, upload::UploadStatus::refused) << name;
        EXPECT_TRUE(entries().empty()) << name;
    }
    EXPECT_FALSE(fs::exists(dir_.path() / "x"));
}

// An archive's bot.yaml may not give another name: a participant's bot is
// theirs, under their name, and cannot stand in for someone else's.
TEST_F(Submission, AnArchiveThatNamesAnotherBotIsRefused) {
    const auto src = dir_.path() / "src" / "mybot";
    fs::create_directories(src);
    std::ofstream(src / "bot.yaml") << "command: ./bot.sh\nname: bob\n";
    std::ofstream(src / "bot.sh") << "#!/bin/sh\n";
    const auto archive = dir_.path() / "bot.tar.gz";
    const std::string tar =
        "tar czf '" + archive.string() + "' -C '" + (dir_.path() / "src").string() + "' mybot";
    ASSERT_EQ(std::system(tar.c_str()), 0);
    ASSERT_TRUE(install_upload(bots(), "bob", "b.py", "print(1)\n").ok());
    const auto r = install_upload(bots(), "alice", "bot.tar.gz", slurp(archive));
    EXPECT_EQ(r.status, upload::UploadStatus::refused);
    EXPECT_EQ(r.message,
              "upload: its bot.yaml names the bot 'bob': a participant's bot is named after them "
              "('alice'); remove the name");
    EXPECT_EQ(entries(), (std::vector<std::string>{"bob"}));
    EXPECT_EQ(slurp(bots() / "bob/b.py"), "print(1)\n");
    // Without the name it goes in, flattened.
    std::ofstream(src / "bot.yaml") << "command: ./bot.sh\n";
    ASSERT_EQ(std::system(tar.c_str()), 0);
    const auto ok = install_upload(bots(), "alice", "bot.tar.gz", slurp(archive));
    ASSERT_TRUE(ok.ok()) << ok.message;
    EXPECT_EQ(slurp(bots() / "alice/bot.yaml"), "command: ./bot.sh\n");
}

TEST(SubmissionManifest, EachKindOfOneFile) {
    using upload::UploadKind;
    EXPECT_EQ(manifest_for(UploadKind::library, "s.so", false),
              "protocol: tsinghua-so\nlibrary: s.so\n");
    EXPECT_EQ(manifest_for(UploadKind::binary, "bot", false), "command: ./bot\n");
    EXPECT_EQ(manifest_for(UploadKind::script, "b.js", false), "command: node b.js\n");
    EXPECT_EQ(manifest_for(UploadKind::script, "b.js", true), "command: ./b.js\n");
    EXPECT_EQ(manifest_for(UploadKind::script, "b.rb", false), "command: ruby b.rb\n");
    EXPECT_EQ(manifest_for(UploadKind::script, "b.sh", false), "command: sh b.sh\n");
}

}  // namespace
}  // namespace arena::league
