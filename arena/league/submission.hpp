#pragma once
// A participant's upload made into their bot (docs/league.md, "Uploads"):
// the folder `bots_dir/NAME`, where NAME is the participant. The upload is
// unpacked beside it (upload/upload.hpp), given a `bot.yaml` when it is one
// file, and put in the place of the previous version in one atomic rename
// (Linux's renameat2 with RENAME_EXCHANGE), so that a run reading bots_dir
// finds the old version or the new one, never a half. A refused upload
// changes nothing; no other participant's folder is ever touched.
//
// The check (arena check-bot in the sandbox) comes after, on the installed
// folder, when the league's config says `check: true`: a version that fails
// it is left out of play by the run (submissions/submissions.hpp).

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "arena/upload/upload.hpp"

namespace arena::league {

struct Installed {
    upload::UploadStatus status = upload::UploadStatus::failed;
    std::string message;           // one line when not ok; names come escaped
    std::filesystem::path folder;  // bots_dir/NAME when ok
    upload::UploadKind kind = upload::UploadKind::archive;
    bool replaced = false;  // a previous version was there
    [[nodiscard]] bool ok() const { return status == upload::UploadStatus::ok; }
};

// The bot.yaml of a one-file upload named `name` of `kind`: `command:
// ./name` for an executable or a script with its own "#!", the interpreter
// for a script without one (python3, node, sh, ruby, perl, lua), or
// `protocol: tsinghua-so` and `library: name` for a strategy library.
[[nodiscard]] std::string manifest_for(upload::UploadKind kind, const std::string& name,
                                       bool has_shebang);

// An upload unpacked into a hidden folder of bots_dir
// (`.install-NAME-XXXXXX/bot`), not yet in play: checked there, then
// installed, or discarded (the destructor discards what was not installed).
struct Staged {
    Installed result;               // ok, or why not (nothing is staged then)
    std::string participant;        //
    std::filesystem::path staging;  // the hidden folder; empty once installed or discarded
    std::filesystem::path folder;   // the bot's folder in it
    std::filesystem::path target;   // bots_dir/NAME

    Staged() = default;
    Staged(Staged&& other) noexcept
        : result(std::move(other.result)),
          participant(std::move(other.participant)),
          staging(std::exchange(other.staging, {})),
          folder(std::move(other.folder)),
          target(std::move(other.target)) {}
    Staged& operator=(Staged&&) = delete;
    Staged(const Staged&) = delete;
    ~Staged();

    // Puts the folder in the place of bots_dir/NAME in one rename (the
    // previous version is removed). Never throws.
    Installed install();
    void discard();
};

// Unpacks `participant`'s upload into a Staged folder, with its bot.yaml.
// Never throws.
[[nodiscard]] Staged stage_upload(const std::filesystem::path& bots_dir,
                                  const std::string& participant, std::string_view file_name,
                                  std::string_view bytes, const upload::UploadLimits& limits = {});

// stage_upload, then install: `participant`'s upload (`file_name`, `bytes`) as bots_dir/NAME.
// `participant` must be a name accounts accept (the caller signed them in);
// an archive's bot.yaml that gives another `name` is refused. Never throws.
[[nodiscard]] Installed install_upload(const std::filesystem::path& bots_dir,
                                       const std::string& participant, std::string_view file_name,
                                       std::string_view bytes,
                                       const upload::UploadLimits& limits = {});

}  // namespace arena::league
