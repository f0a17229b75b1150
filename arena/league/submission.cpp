#include "arena/league/submission.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>

#include "arena/league/accounts.hpp"
#include "arena/record/escape.hpp"

namespace arena::league {
namespace {

namespace fs = std::filesystem;

Installed refused(std::string message) {
    Installed r;
    r.status = upload::UploadStatus::refused;
    r.message = std::move(message);
    return r;
}

Installed failed(std::string message) {
    Installed r;
    r.status = upload::UploadStatus::failed;
    r.message = std::move(message);
    return r;
}

// A hidden folder beside the participant's, for the upload on its way in
// (bots_dir skips names that start with '.'); empty on failure.
fs::path staging_folder(const fs::path& bots_dir, const std::string& participant) {
    std::string pattern = (bots_dir / (".install-" + participant + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) return {};
    return pattern;
}

// The `name` an archive's bot.yaml gives, or "" when it gives none (or the
// file does not read: the run reports a bad manifest with its line).
std::string manifest_name(const fs::path& manifest) {
    try {
        const YAML::Node root = YAML::LoadFile(manifest.string());
        if (root.IsMap() && root["name"] && root["name"].IsScalar()) return root["name"].Scalar();
    } catch (const YAML::Exception&) {
    }
    return {};
}

bool starts_with_shebang(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    char head[2] = {};
    return in.read(head, 2) && head[0] == '#' && head[1] == '!';
}

}  // namespace

std::string manifest_for(upload::UploadKind kind, const std::string& name, bool has_shebang) {
    using upload::UploadKind;
    if (kind == UploadKind::library) return "protocol: tsinghua-so\nlibrary: " + name + "\n";
    if (kind == UploadKind::binary || has_shebang) return "command: ./" + name + "\n";
    const auto ext = fs::path(name).extension().string();
    const std::string interpreter = ext == ".py"                    ? "python3"
                                    : ext == ".js" || ext == ".mjs" ? "node"
                                    : ext == ".rb"                  ? "ruby"
                                    : ext == ".pl"                  ? "perl"
                                    : ext == ".lua"                 ? "lua"
                                                                    : "sh";
    return "command: " + interpreter + " " + name + "\n";
}

Staged stage_upload(const fs::path& bots_dir, const std::string& participant,
                    std::string_view file_name, std::string_view bytes,
                    const upload::UploadLimits& limits) {
    Staged staged;
    staged.participant = participant;
    const auto fail = [&](Installed r) {
        staged.discard();
        staged.result = std::move(r);
        return std::move(staged);
    };
    if (const auto problem = user_name_problem(participant); !problem.empty())
        return fail(
            refused("participant " + record::escape_controls(participant) + ": " + problem));
    std::error_code ec;
    if (!fs::is_directory(bots_dir, ec))
        return fail(failed("the league's bots_dir " + bots_dir.string() + " is not a folder"));
    staged.staging = staging_folder(bots_dir, participant);
    if (staged.staging.empty())
        return fail(
            failed("cannot make a folder in " + bots_dir.string() + ": " + std::strerror(errno)));
    staged.folder = staged.staging / "bot";
    staged.target = bots_dir / participant;
    const auto unpacked = upload::unpack_upload(file_name, bytes, staged.folder, limits);
    if (!unpacked.ok()) {
        Installed r;
        r.status = unpacked.status;
        r.message = unpacked.message;
        return fail(r);
    }
    if (unpacked.kind == upload::UploadKind::archive) {
        const auto named = manifest_name(staged.folder / "bot.yaml");
        if (!named.empty() && named != participant) {
            return fail(refused("upload: its bot.yaml names the bot '" +
                                record::escape_controls(named) +
                                "': a participant's bot is named after them ('" + participant +
                                "'); remove the name"));
        }
    } else {
        std::ofstream(staged.folder / "bot.yaml") << manifest_for(
            unpacked.kind, unpacked.name, starts_with_shebang(staged.folder / unpacked.name));
    }
    staged.result.status = upload::UploadStatus::ok;
    staged.result.kind = unpacked.kind;
    return staged;
}

void Staged::discard() {
    std::error_code ec;
    if (!staging.empty()) fs::remove_all(staging, ec);
    staging.clear();
}

Staged::~Staged() {
    discard();
}

Installed Staged::install() {
    if (!result.ok() || staging.empty()) return result;
    // In one step: the new version where the old one was (or was not).
    std::error_code ec;
    const bool replaced = fs::exists(fs::symlink_status(target, ec));
    Installed r = result;
    if (::renameat2(AT_FDCWD, folder.c_str(), AT_FDCWD, target.c_str(),
                    replaced ? RENAME_EXCHANGE : RENAME_NOREPLACE) != 0) {
        r = failed("cannot put the upload in place of " + target.string() + ": " +
                   std::strerror(errno));
    } else {
        r.folder = target;
        r.replaced = replaced;
    }
    discard();  // the previous version, now in staging, goes with it
    return r;
}

Installed install_upload(const fs::path& bots_dir, const std::string& participant,
                         std::string_view file_name, std::string_view bytes,
                         const upload::UploadLimits& limits) {
    auto staged = stage_upload(bots_dir, participant, file_name, bytes, limits);
    return staged.install();
}

}  // namespace arena::league
