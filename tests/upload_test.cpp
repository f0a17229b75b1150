// League uploads (issue 45): arena::upload::unpack_upload on good uploads
// (Upload.*: a script, a binary, a .so, a bot's folder as .tar.gz and .zip)
// and on hostile ones (UploadHostile.*: paths out of the folder, links,
// devices, bombs, too many files, duplicates, bad names, a 1 GiB upload).
// Every archive is made here with libarchive's writer. After every
// refusal, the folder asked for is not there and nothing is left beside it.

#include "arena/upload/upload.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "archives.hpp"
#include "temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using testing::append;
using testing::Entry;
using testing::Format;
using testing::gzip;
using testing::make_archive;
using testing::ustar_header;
using upload::UploadKind;
using upload::UploadLimits;
using upload::UploadResult;
using upload::UploadStatus;

constexpr std::uint64_t kMiB = 1 << 20;

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

unsigned mode_of(const fs::path& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return 0;
    return st.st_mode & 07777;
}

// A Python bot's folder, as `tar czf mybot.tar.gz mybot` holds it.
std::vector<Entry> python_bot() {
    return {
        {"mybot/", "", AE_IFDIR, 0755},
        {"mybot/bot.yaml", "command: python3 bot.py\nauthor: Alice\n"},
        {"mybot/bot.py", "#!/usr/bin/env python3\nprint('hello')\n", AE_IFREG, 0755},
        {"mybot/lib/util.py", "X = 1\n"},
    };
}

class Upload : public ::testing::Test {
  protected:
    [[nodiscard]] fs::path dest() const { return parent_.path() / "bot"; }

    UploadResult unpack(std::string_view name, std::string_view bytes,
                        const UploadLimits& limits = {}) {
        return upload::unpack_upload(name, bytes, dest(), limits);
    }

    // The upload was refused with a message holding every one of `parts`,
    // and nothing was left: no dest, no temporary folder beside it.
    void expect_refused(const UploadResult& result, const std::vector<std::string>& parts) {
        EXPECT_EQ(result.status, UploadStatus::refused) << result.message;
        for (const std::string& part : parts) {
            EXPECT_NE(result.message.find(part), std::string::npos)
                << "'" << part << "' not in: " << result.message;
        }
        EXPECT_EQ(result.message.find('\x1b'), std::string::npos) << "a raw escape in the message";
        expect_nothing_left();
    }

    void expect_nothing_left() {
        EXPECT_FALSE(fs::exists(fs::symlink_status(dest())));
        for (const auto& entry : fs::directory_iterator(parent_.path())) {
            ADD_FAILURE() << "left behind: " << entry.path();
        }
    }

    arena::testing::TempDir parent_{"upload_test"};
};

class UploadHostile : public Upload {};

TEST_F(Upload, ScriptIsKeptUnderItsNameAndMadeExecutable) {
    const std::string script = "#!/usr/bin/env python3\nprint('move 1')\n";
    const UploadResult result = unpack("mybot.py", script);
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.kind, UploadKind::script);
    EXPECT_EQ(result.name, "mybot.py");
    EXPECT_EQ(result.files, 1u);
    EXPECT_EQ(result.bytes, script.size());
    EXPECT_EQ(slurp(dest() / "mybot.py"), script);
    EXPECT_EQ(mode_of(dest() / "mybot.py"), 0755u);
    EXPECT_EQ(mode_of(dest()), 0755u);
    // Only dest in the parent: the temporary folder became it.
    EXPECT_EQ(std::distance(fs::directory_iterator(parent_.path()), fs::directory_iterator()), 1);
}

TEST_F(Upload, ScriptIsToldByItsNameWithoutAShebang) {
    const UploadResult result = unpack("bot.js", "console.log('hi');\n");
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.kind, UploadKind::script);
    EXPECT_EQ(mode_of(dest() / "bot.js"), 0755u);
}

TEST_F(Upload, ElfExecutableIsABinary) {
    const std::string elf = slurp("/bin/true");
    ASSERT_GT(elf.size(), 64u);
    const UploadResult result = unpack("mybot", elf);
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.kind, UploadKind::binary);
    EXPECT_EQ(slurp(dest() / "mybot"), elf);
    EXPECT_EQ(mode_of(dest() / "mybot"), 0755u);
    EXPECT_EQ(std::system((dest() / "mybot").c_str()), 0);
}

TEST_F(Upload, ElfSharedLibraryNamedSoIsALibrary) {
    std::string so(64, '\0');
    std::memcpy(so.data(),
                "\x7f"
                "ELF\x02\x01\x01",
                7);
    so[16] = 3;  // ET_DYN, little-endian
    so[18] = 62;
    const UploadResult result = unpack("strategy.so", so);
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.kind, UploadKind::library);
    EXPECT_EQ(mode_of(dest() / "strategy.so"), 0644u);
}

TEST_F(Upload, BotFolderInATarGzIsFlattened) {
    const UploadResult result = unpack("mybot.tar.gz", make_archive(python_bot(), Format::tar_gz));
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.kind, UploadKind::archive);
    EXPECT_EQ(result.name, "mybot");
    EXPECT_EQ(result.files, 3u);
    EXPECT_EQ(result.directories, 1u);
    EXPECT_EQ(slurp(dest() / "bot.yaml"), python_bot()[1].data);
    EXPECT_EQ(slurp(dest() / "lib" / "util.py"), "X = 1\n");
    EXPECT_EQ(mode_of(dest() / "bot.py"), 0755u);
    EXPECT_EQ(mode_of(dest() / "bot.yaml"), 0644u);
    EXPECT_EQ(mode_of(dest() / "lib"), 0755u);
    EXPECT_EQ(mode_of(dest()), 0755u);
    EXPECT_FALSE(fs::exists(dest() / "mybot"));
    EXPECT_EQ(std::distance(fs::directory_iterator(parent_.path()), fs::directory_iterator()), 1);
}

TEST_F(Upload, BotFolderInAZipIsFlattened) {
    const UploadResult result = unpack("mybot.zip", make_archive(python_bot(), Format::zip));
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.name, "mybot");
    EXPECT_EQ(result.files, 3u);
    EXPECT_EQ(slurp(dest() / "bot.py"), python_bot()[2].data);
    EXPECT_EQ(mode_of(dest() / "bot.py"), 0755u);
    EXPECT_EQ(mode_of(dest() / "lib" / "util.py"), 0644u);
}

TEST_F(Upload, BotYamlAtTheTopIsKeptWhereItIs) {
    // As `tar czf bot.tgz -C mybot .` makes it.
    const std::vector<Entry> entries = {{"./", "", AE_IFDIR, 0755},
                                        {"./bot.yaml", "command: ./bot\n"},
                                        {"./bot", "#!/bin/sh\n", AE_IFREG, 0755},
                                        {"./data/", "", AE_IFDIR, 0755}};
    const UploadResult result = unpack("bot.tgz", make_archive(entries, Format::tar_gz));
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.name, "");
    EXPECT_EQ(result.files, 2u);
    EXPECT_EQ(result.directories, 1u);
    EXPECT_TRUE(fs::is_regular_file(dest() / "bot.yaml"));
    EXPECT_TRUE(fs::is_directory(dest() / "data"));
}

TEST_F(Upload, ArchiveIsToldByItsBytesNotItsName) {
    const UploadResult result = unpack("bot.py", make_archive(python_bot(), Format::zip));
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.kind, UploadKind::archive);
    EXPECT_TRUE(fs::exists(dest() / "bot.yaml"));
}

TEST_F(Upload, MacMetadataOfAZipIsLeftOut) {
    std::vector<Entry> entries = python_bot();
    entries.push_back({"__MACOSX/mybot/._bot.py", "resource fork"});
    const UploadResult result = unpack("mybot.zip", make_archive(entries, Format::zip));
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(result.name, "mybot");
    EXPECT_FALSE(fs::exists(dest() / "__MACOSX"));
}

TEST_F(Upload, SetuidSetgidAndStickyBitsAreDropped) {
    const std::vector<Entry> entries = {{"bot.yaml", "command: ./bot\n", AE_IFREG, 06644},
                                        {"bot", "#!/bin/sh\n", AE_IFREG, 06755},
                                        {"shared/", "", AE_IFDIR, 03777}};
    const UploadResult result = unpack("bot.tar.gz", make_archive(entries, Format::tar_gz));
    ASSERT_TRUE(result.ok()) << result.message;
    EXPECT_EQ(mode_of(dest() / "bot"), 0755u);
    EXPECT_EQ(mode_of(dest() / "bot.yaml"), 0644u);
    EXPECT_EQ(mode_of(dest() / "shared"), 0755u);
}

TEST_F(Upload, ExistingDestIsAFailureAndIsLeftAlone) {
    fs::create_directory(dest());
    std::ofstream(dest() / "keep") << "mine";
    const UploadResult result = unpack("bot.py", "#!/bin/sh\n");
    EXPECT_EQ(result.status, UploadStatus::failed);
    EXPECT_NE(result.message.find("exists already"), std::string::npos) << result.message;
    EXPECT_EQ(slurp(dest() / "keep"), "mine");
    EXPECT_EQ(std::distance(fs::directory_iterator(parent_.path()), fs::directory_iterator()), 1);
}

TEST_F(Upload, MissingParentIsAFailure) {
    const UploadResult result =
        upload::unpack_upload("bot.py", "#!/bin/sh\n", parent_.path() / "no" / "bot");
    EXPECT_EQ(result.status, UploadStatus::failed);
    EXPECT_NE(result.message.find("does not exist"), std::string::npos) << result.message;
    EXPECT_FALSE(fs::exists(parent_.path() / "no"));
}

TEST_F(UploadHostile, PathsOutOfTheFolderAreRefused) {
    for (const Format format : {Format::tar_gz, Format::zip}) {
        for (const std::string path :
             {"../x", "mybot/../../x", "a/../../x", "/etc/x", "mybot/.."}) {
            SCOPED_TRACE(path);
            std::vector<Entry> entries = python_bot();
            entries.push_back({path, "owned\n"});
            const UploadResult result = unpack("bot.tar.gz", make_archive(entries, format));
            expect_refused(result, {"upload 'bot.tar.gz': entry '" + path + "': ",
                                    path[0] == '/' ? "absolute path" : "'..'"});
            EXPECT_FALSE(fs::exists(parent_.path().parent_path() / "x"));
        }
    }
    EXPECT_FALSE(fs::exists("/etc/x"));
}

TEST_F(UploadHostile, SymbolicLinksAreRefused) {
    for (const Format format : {Format::tar_gz, Format::zip}) {
        std::vector<Entry> entries = python_bot();
        entries.push_back({"mybot/passwd", "", AE_IFLNK, 0777, "/etc/passwd"});
        expect_refused(unpack("bot.zip", make_archive(entries, format)),
                       {"entry 'mybot/passwd': a symbolic link to '/etc/passwd'", "no links"});
    }
}

TEST_F(UploadHostile, FileThroughASymbolicLinkIsRefusedAtTheLink) {
    std::vector<Entry> entries = python_bot();
    entries.push_back({"mybot/etc", "", AE_IFLNK, 0777, "/etc"});
    entries.push_back({"mybot/etc/x", "owned\n"});
    expect_refused(unpack("bot.tar.gz", make_archive(entries, Format::tar_gz)),
                   {"entry 'mybot/etc': a symbolic link to '/etc'"});
    EXPECT_FALSE(fs::exists("/etc/x"));
}

TEST_F(UploadHostile, HardLinksAreRefused) {
    for (const std::string target : {"mybot/bot.py", "/etc/passwd"}) {
        std::vector<Entry> entries = python_bot();
        entries.push_back({"mybot/copy", "", AE_IFREG, 0644, "", target});
        expect_refused(unpack("bot.tar.gz", make_archive(entries, Format::tar_gz)),
                       {"entry 'mybot/copy': a hard link to '" + target + "'", "no links"});
    }
}

TEST_F(UploadHostile, DevicesAndFifosAreRefused) {
    const std::vector<std::pair<unsigned, std::string>> kinds = {
        {AE_IFCHR, "a character device"}, {AE_IFBLK, "a block device"}, {AE_IFIFO, "a FIFO"}};
    for (const auto& [type, what] : kinds) {
        std::vector<Entry> entries = python_bot();
        entries.push_back({"mybot/dev", "", type, 0666});
        expect_refused(unpack("bot.tar.gz", make_archive(entries, Format::tar_gz)),
                       {"entry 'mybot/dev': " + what, "only files and folders"});
    }
}

TEST_F(UploadHostile, DuplicateAndClashingEntriesAreRefused) {
    const std::vector<std::pair<Entry, std::string>> extras = {
        {{"mybot/bot.yaml", "command: ./evil\n"}, "listed twice"},
        {{"./mybot/bot.py", "again"}, "listed twice"},
        {{"mybot/bot.py/x", "under a file"}, "its folder 'mybot/bot.py' is a file"},
        {{"mybot/lib", "a file for a folder"}, "a file where earlier entries have a folder"},
    };
    for (const Format format : {Format::tar_gz, Format::zip}) {
        for (const auto& [extra, why] : extras) {
            SCOPED_TRACE(extra.path);
            std::vector<Entry> entries = python_bot();
            entries.push_back(extra);
            expect_refused(unpack("bot.tar.gz", make_archive(entries, format)), {why});
        }
    }
}

TEST_F(UploadHostile, GzipBombOfOneGigabyteStopsAtTheCap) {
    // A tar entry that claims 1 GiB, and 1024 gzip members of 1 MiB of
    // zeros each: about 1 MiB sent, 1 GiB if it were all unpacked.
    std::string bomb = gzip(ustar_header("mybot/zeros", 1024 * kMiB));
    const std::string member = gzip(std::string(kMiB, '\0'));
    for (int i = 0; i < 1024; ++i)
        bomb += member;
    ASSERT_LT(bomb.size(), 2 * kMiB);
    const auto start = std::chrono::steady_clock::now();
    const UploadResult result = unpack("bomb.tar.gz", bomb);
    const auto took = std::chrono::steady_clock::now() - start;
    expect_refused(result, {"entry 'mybot/zeros': the archive unpacks to more than 64 MiB"});
    EXPECT_LE(result.bytes, UploadLimits{}.max_unpacked);
    EXPECT_LT(took, std::chrono::seconds(30));
}

TEST_F(UploadHostile, ZipBombIsRefusedByTheRatio) {
    std::vector<Entry> entries = python_bot();
    entries.push_back({"mybot/weights.bin", std::string(8 * kMiB, '\0')});
    const std::string zip = make_archive(entries, Format::zip);
    ASSERT_LT(zip.size(), 64 * 1024u);
    const UploadResult result = unpack("bomb.zip", zip);
    expect_refused(result, {"entry 'mybot/weights.bin'", "more than 100 times its own size",
                            "compression bomb"});
    EXPECT_LE(result.bytes, 100 * zip.size());
}

TEST_F(UploadHostile, UnpackedSizeIsCappedWithoutTheRatio) {
    UploadLimits limits;
    limits.max_ratio = 0;
    limits.max_unpacked = kMiB;
    std::vector<Entry> entries = python_bot();
    entries.push_back({"mybot/big", std::string(2 * kMiB, 'x')});
    const UploadResult result = unpack("big.zip", make_archive(entries, Format::zip), limits);
    expect_refused(result, {"entry 'mybot/big': the archive unpacks to more than 1 MiB"});
    EXPECT_LE(result.bytes, kMiB);
}

TEST_F(UploadHostile, TooManyFilesAreRefused) {
    std::vector<Entry> entries = python_bot();
    for (int i = 0; entries.size() <= 2000; ++i) {
        entries.push_back({"mybot/f" + std::to_string(i), "x"});
    }
    expect_refused(unpack("many.tar.gz", make_archive(entries, Format::tar_gz)),
                   {"more than 2000 entries"});
    entries.erase(entries.begin() + 2000, entries.end());
    EXPECT_TRUE(unpack("many.tar.gz", make_archive(entries, Format::tar_gz)).ok());
}

TEST_F(UploadHostile, OneGigabyteUploadIsRefusedBeforeAByteIsRead) {
    // Memory that may not be read at all: reading it would crash the test.
    const std::size_t size = 1024 * kMiB + 1;
    void* memory =
        ::mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ASSERT_NE(memory, MAP_FAILED);
    const std::span<const std::byte> bytes(static_cast<const std::byte*>(memory), size);
    const UploadResult result = upload::unpack_upload("huge.tar.gz", bytes, dest());
    ::munmap(memory, size);
    expect_refused(result, {"upload 'huge.tar.gz': 1073741825 bytes, more than the 16 MiB"});
}

TEST_F(UploadHostile, UploadSizeCapIsExact) {
    UploadLimits limits;
    limits.max_upload = 100;
    const std::string script = "#!/bin/sh\n" + std::string(90, '#');
    EXPECT_TRUE(unpack("bot.sh", script, limits).ok());
    fs::remove_all(dest());
    expect_refused(unpack("bot.sh", script + "#", limits),
                   {"101 bytes, more than the 100 bytes an upload may have"});
}

TEST_F(UploadHostile, EmptyAndUnknownUploadsAreRefused) {
    std::mt19937 random(7);
    std::string garbage(4096, '\0');
    for (char& c : garbage)
        c = static_cast<char>(random());
    garbage[0] = 'x';
    std::string rel(64, '\0');  // an ELF object file (ET_REL)
    std::memcpy(rel.data(),
                "\x7f"
                "ELF\x02\x01\x01",
                7);
    rel[16] = 1;
    const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
        {"bot.py", "", "the upload is empty"},
        {"bot", garbage, "not a kind of upload the league takes"},
        {"notes.txt", "just text\n", "not a kind of upload the league takes"},
        {"bot.py", "print(1)\n" + std::string(1, '\0'), "holds a NUL byte"},
        {"strategy.so", "#!/bin/sh\n", "named .so, but not an ELF shared library"},
        {"bot", rel, "neither an executable nor a shared library"},
        {"bot",
         "\x7f"
         "ELF",
         "a truncated ELF file"},
        {"strategy.so", slurp("/bin/true").substr(0, 16), "a truncated ELF file"},
    };
    for (const auto& [name, bytes, why] : cases) {
        SCOPED_TRACE(why);
        expect_refused(unpack(name, bytes), {"upload '" + name + "': ", why});
    }
}

TEST_F(UploadHostile, BadUploadNamesAreRefusedAndShownEscaped) {
    const std::string script = "#!/bin/sh\n";
    expect_refused(unpack("bot\x1b[31m.py", script),
                   {"upload 'bot\\x1b[31m.py': its name holds a control character"});
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "the upload has no file name"},
        {"..", "not a file name"},
        {"../bot.py", "its name is a path"},
        {"a/bot.py", "its name is a path"},
        {"a\\bot.py", "its name is a path"},
        {"-rf.py", "may not start with '.' or '-'"},
        {".bashrc.sh", "may not start with '.' or '-'"},
        {"my bot.py", "only letters, digits and _ . + -"},
        {std::string(300, 'a') + ".py", "longer than 255 bytes"},
    };
    for (const auto& [name, why] : cases) {
        SCOPED_TRACE(name);
        expect_refused(unpack(name, script), {why});
    }
    // The message is cut: a long name is not repeated whole.
    EXPECT_LT(unpack(std::string(300, 'a') + ".py", script).message.size(), 300u);
}

TEST_F(UploadHostile, BadEntryNamesAreRefusedAndShownEscaped) {
    UploadLimits limits;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"mybot/\x1b]0;pwned\x07", "entry 'mybot/\\x1b]0;pwned\\x07': a control character"},
        {"mybot\\bot.yaml", "a backslash"},
        {"mybot/" + std::string(256, 'n'), "a name longer than 255 bytes"},
    };
    for (const auto& [path, why] : cases) {
        SCOPED_TRACE(why);
        std::vector<Entry> entries = python_bot();
        entries.push_back({path, "x"});
        expect_refused(unpack("bot.tar.gz", make_archive(entries, Format::tar_gz)), {why});
    }
    std::string deep = "mybot";
    for (int i = 0; i < 16; ++i)
        deep += "/d";
    std::vector<Entry> entries = python_bot();
    entries.push_back({deep, "x"});
    expect_refused(unpack("bot.tar.gz", make_archive(entries, Format::tar_gz)),
                   {"a path deeper than 16 levels"});
    std::string longer = "mybot";
    while (longer.size() <= 1024)
        longer += "/" + std::string(100, 'p');
    entries.back() = {longer, "x"};
    limits.max_depth = 100;
    expect_refused(unpack("bot.tar.gz", make_archive(entries, Format::tar_gz), limits),
                   {"a path longer than 1024 bytes"});
}

TEST_F(UploadHostile, ArchivesWithoutOneBotAreRefused) {
    const std::vector<std::pair<std::vector<Entry>, std::string>> cases = {
        {{}, "this one holds no files"},
        {{{"mybot/bot.py", "x"}}, "this one holds only 'mybot'"},
        {{{"a/bot.yaml", "x"}, {"b/bot.yaml", "x"}}, "holds 2 entries at its top: 'a', 'b'"},
        {{{"bot.yaml/", "", AE_IFDIR, 0755}}, "'bot.yaml' is a folder, not a file"},
        {{{"x/y/bot.yaml", "x"}}, "this one holds only 'x'"},
    };
    for (const auto& [entries, why] : cases) {
        SCOPED_TRACE(why);
        expect_refused(unpack("bot.zip", make_archive(entries, Format::zip)), {why});
        expect_refused(unpack("bot.tgz", make_archive(entries, Format::tar_gz)), {why});
    }
}

TEST_F(UploadHostile, BrokenAndOtherArchivesAreRefused) {
    const std::string tar_gz = make_archive(python_bot(), Format::tar_gz);
    const std::string zip = make_archive(python_bot(), Format::zip);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {make_archive(python_bot(), Format::tar), "a tar archive without gzip"},
        {gzip("#!/bin/sh\necho hi\n"), "a gzip file, but not of a tar archive"},
        {tar_gz.substr(0, tar_gz.size() / 2), "not a valid"},
        {zip.substr(0, zip.size() / 2), "not a valid"},
        {"\x1f\x8b" + std::string(100, 'x'), "not a valid gzip file"},
        {"PK\x03\x04" + std::string(100, 'x'), "not a valid zip"},
    };
    for (const auto& [bytes, why] : cases) {
        SCOPED_TRACE(why);
        expect_refused(unpack("bot.tar.gz", bytes), {why});
    }
}

TEST_F(UploadHostile, EncryptedZipIsRefused) {
    archive* a = archive_write_new();
    std::string out;
    archive_write_set_format_zip(a);
    if (archive_write_set_options(a, "zip:encryption=zipcrypt") != ARCHIVE_OK ||
        archive_write_set_passphrase(a, "secret") != ARCHIVE_OK) {
        archive_write_free(a);
        GTEST_SKIP() << "this libarchive writes no encrypted zip";
    }
    archive_write_open(a, &out, nullptr, append, nullptr);
    for (const Entry& e : {Entry{"bot.yaml", "command: ./bot\n"}}) {
        archive_entry* entry = archive_entry_new();
        archive_entry_set_pathname(entry, e.path.c_str());
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_perm(entry, 0644);
        archive_entry_set_size(entry, static_cast<la_int64_t>(e.data.size()));
        archive_write_header(a, entry);
        archive_write_data(a, e.data.data(), e.data.size());
        archive_entry_free(entry);
    }
    archive_write_close(a);
    archive_write_free(a);
    expect_refused(unpack("bot.zip", out), {"entry 'bot.yaml': encrypted"});
}

}  // namespace
}  // namespace arena
