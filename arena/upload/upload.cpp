#include "arena/upload/upload.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <new>
#include <optional>

#include "arena/upload/archive_unpack.hpp"
#include "arena/upload/upload_files.hpp"
#include "arena/upload/upload_names.hpp"

namespace arena::upload {
namespace {

using detail::Failure;
using detail::Refusal;

constexpr std::array<std::string_view, 7> kScriptExtensions = {".py", ".js", ".mjs", ".sh",
                                                               ".rb", ".pl", ".lua"};
constexpr std::size_t kElfTypeEnd = 18;   // e_type is bytes 16 and 17 of an ELF header
constexpr unsigned kElfExecutable = 2;    // ET_EXEC
constexpr unsigned kElfShared = 3;        // ET_DYN: a shared library, or a PIE executable
constexpr std::size_t kTarMagicAt = 257;  // "ustar" in a POSIX tar's first header

struct Kind {
    UploadKind kind = UploadKind::script;
    detail::ArchiveFormat format = detail::ArchiveFormat::tar_gz;  // for an archive
};

bool starts_with(std::span<const std::byte> bytes, std::string_view prefix) {
    return bytes.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), bytes.begin(),
                      [](char c, std::byte b) { return static_cast<std::byte>(c) == b; });
}

bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// An ELF file's e_type, in the byte order its header gives.
unsigned elf_type(std::span<const std::byte> bytes) {
    if (bytes.size() < kElfTypeEnd) throw Refusal("a truncated ELF file");
    const auto low = std::to_integer<unsigned>(bytes[16]);
    const auto high = std::to_integer<unsigned>(bytes[17]);
    const bool big_endian = std::to_integer<unsigned>(bytes[5]) == 2;  // EI_DATA: ELFDATA2MSB
    return big_endian ? (low << 8) | high : (high << 8) | low;
}

Kind elf_kind(std::string_view name, std::span<const std::byte> bytes) {
    const unsigned type = elf_type(bytes);
    if (ends_with(name, ".so")) {
        if (type != kElfShared) throw Refusal("named .so, but not an ELF shared library");
        return {UploadKind::library};
    }
    if (type != kElfExecutable && type != kElfShared) {
        throw Refusal("an ELF file that is neither an executable nor a shared library");
    }
    return {UploadKind::binary};
}

// What the upload is, from its first bytes (and, for a script without
// "#!" or a library, its name).
Kind kind_of(std::string_view name, std::span<const std::byte> bytes) {
    if (starts_with(bytes, "\x1f\x8b")) return {UploadKind::archive, detail::ArchiveFormat::tar_gz};
    if (starts_with(bytes, "PK\x03\x04") || starts_with(bytes, "PK\x05\x06")) {
        return {UploadKind::archive, detail::ArchiveFormat::zip};
    }
    if (starts_with(bytes,
                    "\x7f"
                    "ELF"))
        return elf_kind(name, bytes);
    if (ends_with(name, ".so")) throw Refusal("named .so, but not an ELF shared library");
    const bool shebang = starts_with(bytes, "#!");
    const bool script_name =
        std::any_of(kScriptExtensions.begin(), kScriptExtensions.end(),
                    [&](std::string_view extension) { return ends_with(name, extension); });
    if (shebang || script_name) {
        if (std::find(bytes.begin(), bytes.end(), std::byte{0}) != bytes.end()) {
            throw Refusal(std::string(shebang ? "starts with #!" : "named as a script") +
                          ", but holds a NUL byte (a script is text)");
        }
        return {UploadKind::script};
    }
    if (bytes.size() > kTarMagicAt && starts_with(bytes.subspan(kTarMagicAt), "ustar")) {
        throw Refusal("a tar archive without gzip: send it as a .tar.gz (tar czf) or a .zip");
    }
    throw Refusal(
        "not a kind of upload the league takes: an ELF executable, an ELF shared library named "
        ".so, a script (starting with #!, or named .py, .js, .mjs, .sh, .rb, .pl or .lua), or a "
        ".tar.gz or .zip of the bot's folder with its bot.yaml");
}

// Throws Failure unless `dest` is new and its folder exists.
void check_dest(const std::filesystem::path& dest) {
    if (!dest.has_filename())
        throw Failure("the folder to make, " + detail::shown(dest.string()) + ", has no name");
    struct stat st {};
    if (::lstat(dest.c_str(), &st) == 0) {
        throw Failure(detail::shown(dest.string()) + " exists already");
    }
    if (errno != ENOENT)
        throw Failure(
            detail::system_problem("cannot look at " + detail::shown(dest.string()), errno));
    const std::filesystem::path parent =
        dest.has_parent_path() ? dest.parent_path() : std::filesystem::path(".");
    if (::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        throw Failure("the folder " + detail::shown(parent.string()) + " does not exist");
    }
}

detail::Fd open_root(const std::filesystem::path& folder) {
    detail::Fd fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (fd.get() < 0)
        throw Failure(detail::system_problem("cannot open the temporary folder", errno));
    return fd;
}

void write_single(int root, const std::string& name, std::span<const std::byte> bytes,
                  UploadKind kind) {
    const detail::Fd file = detail::create_file(root, name, name);
    detail::write_all(file.get(), bytes);
    detail::finish_file(file.get(), kind != UploadKind::library);
}

// The work of unpack_upload once the upload's size and name are known to
// be within the rules. Throws Refusal or Failure.
void unpack_checked(std::string_view file_name, std::span<const std::byte> bytes,
                    const std::filesystem::path& dest, const UploadLimits& limits,
                    UploadResult& result) {
    if (bytes.empty()) throw Refusal("the upload is empty");
    const Kind kind = kind_of(file_name, bytes);
    result.kind = kind.kind;
    if (kind.kind != UploadKind::archive) {
        if (const std::string problem = detail::file_name_problem(file_name, limits);
            !problem.empty()) {
            throw Refusal(problem);
        }
    }
    check_dest(dest);
    detail::TempFolder temp(dest);
    const detail::Fd root = open_root(temp.path());
    std::filesystem::path made = temp.path();
    if (kind.kind == UploadKind::archive) {
        const detail::Unpacked unpacked =
            detail::unpack_archive(bytes, kind.format, root.get(), limits, result.bytes);
        result.name = unpacked.bot_folder;
        result.files = unpacked.files;
        result.directories = unpacked.directories;
        if (!unpacked.bot_folder.empty()) made /= unpacked.bot_folder;
    } else {
        result.name = std::string(file_name);
        write_single(root.get(), result.name, bytes, kind.kind);
        result.files = 1;
        result.bytes = bytes.size();
    }
    if (::chmod(made.c_str(), 0755) != 0) {
        throw Failure(detail::system_problem("cannot set the mode of the new folder", errno));
    }
    detail::rename_new(made, dest);
    // The temporary folder itself went to dest, or is left empty (but for
    // skipped entries) and goes with `temp`.
    if (made == temp.path()) temp.keep();
}

}  // namespace

std::string_view kind_name(UploadKind kind) {
    switch (kind) {
        case UploadKind::script:
            return "script";
        case UploadKind::binary:
            return "binary";
        case UploadKind::library:
            return "library";
        case UploadKind::archive:
            return "archive";
    }
    return "unknown";
}

UploadResult unpack_upload(std::string_view file_name, std::span<const std::byte> bytes,
                           const std::filesystem::path& dest, const UploadLimits& limits) {
    UploadResult result;
    const std::string upload = "upload " + detail::shown(file_name) + ": ";
    try {
        // First, before a byte of it is read.
        if (bytes.size() > limits.max_upload) {
            throw Refusal(detail::size_text(bytes.size()) + ", more than the " +
                          detail::size_text(limits.max_upload) + " an upload may have");
        }
        if (const std::string problem = detail::upload_name_problem(file_name, limits);
            !problem.empty()) {
            throw Refusal(problem);
        }
        unpack_checked(file_name, bytes, dest, limits, result);
        result.status = UploadStatus::ok;
        result.message.clear();
    } catch (const Refusal& e) {
        result.status = UploadStatus::refused;
        result.message = upload + e.what();
    } catch (const Failure& e) {
        result.status = UploadStatus::failed;
        result.message = upload + e.what();
    } catch (const std::bad_alloc&) {
        result.status = UploadStatus::failed;
        result.message = upload + "out of memory";
    } catch (const std::exception& e) {
        result.status = UploadStatus::failed;
        result.message = upload + e.what();
    }
    return result;
}

UploadResult unpack_upload(std::string_view file_name, std::string_view bytes,
                           const std::filesystem::path& dest, const UploadLimits& limits) {
    return unpack_upload(file_name, std::as_bytes(std::span(bytes.data(), bytes.size())), dest,
                         limits);
}

}  // namespace arena::upload
