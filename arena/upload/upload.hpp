#pragma once
// A league upload (issue 45) turned into a new folder on disk: one file a
// participant sent, hostile until it has passed every rule here. It is a
// script, an executable, a Tsinghua strategy library (.so), or a .tar.gz or
// .zip that holds a bot folder with its bot.yaml. The rules, the caps and
// why are in docs/league.md, "What an upload may be".
//
// Pure file work: the bytes were received elsewhere (the HTTP layer); what
// is made here is checked and run elsewhere (bots_dir, arena check-bot).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace arena::upload {

// What an upload may be and unpack to. A cap of 0 is no cap for max_ratio
// only; every other cap must be positive.
struct UploadLimits {
    std::uint64_t max_upload = 16 << 20;    // bytes of the upload as sent
    std::uint64_t max_unpacked = 64 << 20;  // bytes of an archive's files, counted as unpacked
    std::uint64_t max_files = 2000;         // an archive's entries (files and folders)
    double max_ratio = 100;                 // unpacked bytes per upload byte; 0: no cap
    std::size_t max_depth = 16;             // folders and file in an entry's path
    std::size_t max_name = 255;             // bytes of one name (the upload's, a path's part)
    std::size_t max_path = 1024;            // bytes of an entry's whole path
};

enum class UploadKind {
    script,   // text that starts with "#!", or named .py, .js, .mjs, .sh, .rb, .pl, .lua
    binary,   // an ELF executable
    library,  // an ELF shared library named .so (a Tsinghua strategy)
    archive,  // a .tar.gz or .zip (told by its first bytes) holding a bot.yaml
};

// "script", "binary", "library", "archive".
[[nodiscard]] std::string_view kind_name(UploadKind kind);

enum class UploadStatus {
    ok,       // dest was made
    refused,  // the upload broke a rule: the participant's to fix (HTTP 4xx)
    failed,   // the server's side: dest exists, its folder is missing, a disk error (HTTP 5xx)
};

struct UploadResult {
    UploadStatus status = UploadStatus::failed;
    // One line, for the participant: "upload 'bot.zip': entry 'a/../x': ...".
    // Every name in it came through escape_controls, quoted. Empty when ok.
    std::string message;
    UploadKind kind = UploadKind::archive;  // what it was taken for (once that was told)
    // A single file: its name in dest. An archive whose files were in one
    // top-level folder: that folder's name (its contents are dest's). Else empty.
    std::string name;
    std::uint64_t files = 0;        // regular files in dest
    std::uint64_t directories = 0;  // folders in dest, not counting dest
    std::uint64_t bytes = 0;        // bytes written (on a refusal: before it, then removed)

    [[nodiscard]] bool ok() const { return status == UploadStatus::ok; }
};

// Makes the folder `dest` from the upload `bytes`, sent under `file_name`.
// `dest` must not exist and its parent folder must; it appears whole or not
// at all: everything is written into a temporary folder beside it (named
// ".upload-...", which bots_dir ignores), renamed to `dest` on success, and
// removed on any refusal or failure. The size cap is checked before
// anything else; nothing is read from `bytes` past it. Never throws.
[[nodiscard]] UploadResult unpack_upload(std::string_view file_name,
                                         std::span<const std::byte> bytes,
                                         const std::filesystem::path& dest,
                                         const UploadLimits& limits = {});

// The same, for bytes held as text (an HTTP body).
[[nodiscard]] UploadResult unpack_upload(std::string_view file_name, std::string_view bytes,
                                         const std::filesystem::path& dest,
                                         const UploadLimits& limits = {});

}  // namespace arena::upload
