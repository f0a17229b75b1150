#include "arena/upload/archive_unpack.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <sstream>
#include <string_view>
#include <vector>

#include "arena/record/escape.hpp"
#include "arena/upload/upload_files.hpp"
#include "arena/upload/upload_names.hpp"

namespace arena::upload::detail {
namespace {

constexpr std::string_view kManifest = "bot.yaml";
// macOS's Finder adds a top-level folder of resource forks to every zip it
// makes; its entries are checked and counted like any other, but not written.
constexpr std::string_view kMacMetadata = "__MACOSX";
// What a tar may hold besides its files' bytes: per entry a header, a pax
// header and padding (a few blocks of 512 bytes), and once the end blocks
// and the last record's padding.
constexpr std::uint64_t kTarBytesPerEntry = 4096;
constexpr std::uint64_t kTarBytesOnce = 64 * 1024;
constexpr std::size_t kShownTops = 3;  // top-level names a message lists

struct ReadFree {
    void operator()(archive* a) const { archive_read_free(a); }
};
using ReadArchive = std::unique_ptr<archive, ReadFree>;

ReadArchive new_reader() {
    archive* a = archive_read_new();
    if (a == nullptr) throw std::bad_alloc();
    return ReadArchive(a);
}

std::uint64_t saturated_add(std::uint64_t a, std::uint64_t b) {
    return b > std::numeric_limits<std::uint64_t>::max() - a
               ? std::numeric_limits<std::uint64_t>::max()
               : a + b;
}

std::uint64_t saturated_mul(std::uint64_t a, std::uint64_t b) {
    return a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a
               ? std::numeric_limits<std::uint64_t>::max()
               : a * b;
}

// libarchive's own words on what went wrong: they may quote the archive's
// names, so they are escaped and cut like any name.
std::string libarchive_error(archive* a) {
    const char* text = archive_error_string(a);
    const std::string_view what = text != nullptr ? text : "unknown error";
    return record::escape_controls(what.substr(0, 200));
}

// The bytes an archive may unpack to: max_unpacked, or max_ratio times the
// upload's size when that is less. Counted on the bytes as they come out
// of libarchive, files skipped or written alike.
class Budget {
  public:
    Budget(const UploadLimits& limits, std::uint64_t packed)
        : packed_(packed), ratio_(limits.max_ratio) {
        cap_ = limits.max_unpacked;
        if (limits.max_ratio > 0) {
            const double by_ratio = limits.max_ratio * static_cast<double>(packed);
            if (by_ratio < static_cast<double>(cap_)) {
                cap_ = static_cast<std::uint64_t>(by_ratio);
                by_ratio_ = true;
            }
        }
    }

    void take(std::uint64_t n, std::string_view entry) {
        if (n > cap_ - used_) throw Refusal(entry_text(entry) + ": " + over());
        used_ += n;
    }

    [[nodiscard]] std::uint64_t cap() const { return cap_; }

    // Why the archive is refused once it is past the cap.
    [[nodiscard]] std::string over() const {
        if (!by_ratio_) {
            return "the archive unpacks to more than " + size_text(cap_) +
                   ", the most an upload may unpack to";
        }
        std::ostringstream ratio;
        ratio << ratio_;
        return "the archive unpacks to more than " + ratio.str() + " times its own size (" +
               size_text(packed_) + " unpacking to more than " + size_text(cap_) +
               "): refused as a compression bomb";
    }

  private:
    std::uint64_t packed_;
    double ratio_;
    std::uint64_t cap_ = 0;
    std::uint64_t used_ = 0;
    bool by_ratio_ = false;
};

// The tar inside a .tar.gz, as it is unpacked: one reader (gzip filter, raw
// format) unpacks the gzip members, and read_tar hands their bytes to the
// tar reader, counting them. A tar longer than `cap` is refused there, so
// that what libarchive skips or reads by itself (a folder's declared size,
// the data of the entry it skips) is bounded too.
struct TarStream {
    archive* gzip = nullptr;
    std::uint64_t read = 0;
    std::uint64_t cap = 0;
    std::string refusal;  // why the stream was cut, if it was
};

la_ssize_t read_tar(archive* tar, void* client, const void** buffer) {
    auto& stream = *static_cast<TarStream*>(client);
    for (;;) {
        std::size_t size = 0;
        la_int64_t offset = 0;
        const int r = archive_read_data_block(stream.gzip, buffer, &size, &offset);
        if (r == ARCHIVE_EOF) return 0;
        if (r != ARCHIVE_OK) {
            stream.refusal = "not a valid gzip file (" + libarchive_error(stream.gzip) + ")";
        } else if (size > stream.cap - stream.read) {
            stream.refusal = "the archive's tar is longer than " + size_text(stream.cap) +
                             ", the most its files and their headers may take";
        } else if (size == 0) {
            continue;
        } else {
            stream.read += size;
            return static_cast<la_ssize_t>(size);
        }
        archive_set_error(tar, EINVAL, "%s", stream.refusal.c_str());
        return -1;
    }
}

// An opened archive: for a .tar.gz the gzip reader, the stream and the tar
// reader (freed in that order's reverse); for a .zip the zip reader alone.
struct OpenArchive {
    ReadArchive gzip;
    std::unique_ptr<TarStream> stream;
    ReadArchive reader;
};

OpenArchive open_tar_gz(std::span<const std::byte> bytes, std::uint64_t cap) {
    OpenArchive open;
    open.gzip = new_reader();
    archive* gzip = open.gzip.get();
    archive_read_support_filter_gzip(gzip);
    archive_read_support_format_raw(gzip);
    archive_entry* entry = nullptr;
    if (archive_read_open_memory(gzip, bytes.data(), bytes.size()) != ARCHIVE_OK ||
        archive_read_next_header(gzip, &entry) != ARCHIVE_OK) {
        throw Refusal("not a valid gzip file (" + libarchive_error(gzip) + ")");
    }
    // Else the raw reader would pass the bytes on as they are.
    if (archive_filter_code(gzip, 0) != ARCHIVE_FILTER_GZIP) {
        throw Refusal("not a valid gzip file (its header is not gzip's)");
    }
    open.stream = std::make_unique<TarStream>();
    open.stream->gzip = gzip;
    open.stream->cap = cap;
    open.reader = new_reader();
    archive_read_support_format_tar(open.reader.get());
    if (archive_read_open(open.reader.get(), open.stream.get(), nullptr, read_tar, nullptr) !=
        ARCHIVE_OK) {
        if (!open.stream->refusal.empty()) throw Refusal(open.stream->refusal);
        throw Refusal("a gzip file, but not of a tar archive (" +
                      libarchive_error(open.reader.get()) + "); an archive is a .tar.gz or a .zip");
    }
    return open;
}

OpenArchive open_zip(std::span<const std::byte> bytes) {
    OpenArchive open;
    open.reader = new_reader();
    archive_read_support_format_zip(open.reader.get());
    if (archive_read_open_memory(open.reader.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
        throw Refusal("not a valid zip file (" + libarchive_error(open.reader.get()) + ")");
    }
    return open;
}

// What the entries so far have made: each path, whether it is a folder, and
// whether an entry of its own listed it (a folder may also be made by the
// paths of the files in it).
struct Node {
    bool directory = false;
    bool listed = false;
};

class Unpacker {
  public:
    Unpacker(OpenArchive& open, int root, const UploadLimits& limits, Budget& budget,
             std::uint64_t& written)
        : reader_(open.reader.get()),
          stream_(open.stream.get()),
          root_(root),
          limits_(limits),
          budget_(budget),
          written_(written) {}

    Unpacked run();

  private:
    void entry(archive_entry* entry);
    [[noreturn]] void read_failed(std::string_view path) const;
    void record(const std::vector<std::string>& parts, bool directory, std::string_view path);
    void write_data(int fd, std::string_view path);
    [[nodiscard]] std::string bot_folder() const;
    [[nodiscard]] const Node* find(const std::string& path) const;

    archive* reader_;
    const TarStream* stream_;  // null for a zip
    int root_;
    const UploadLimits& limits_;
    Budget& budget_;
    std::uint64_t& written_;
    std::uint64_t entries_ = 0;
    std::map<std::string, Node> nodes_;
};

[[noreturn]] void Unpacker::read_failed(std::string_view path) const {
    if (stream_ != nullptr && !stream_->refusal.empty()) {
        throw Refusal((path.empty() ? "" : entry_text(path) + ": ") + stream_->refusal);
    }
    throw Refusal((path.empty() ? "" : entry_text(path) + ": ") + "not a valid " +
                  (stream_ != nullptr ? "tar.gz" : "zip") + " archive (" +
                  libarchive_error(reader_) + ")");
}

Unpacked Unpacker::run() {
    for (;;) {
        archive_entry* header = nullptr;
        const int r = archive_read_next_header(reader_, &header);
        if (r == ARCHIVE_EOF) break;
        // A warning (a name in another character set) leaves a usable entry.
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) read_failed("");
        if (++entries_ > limits_.max_files) {
            throw Refusal("more than " + std::to_string(limits_.max_files) +
                          " entries (files and folders) in the archive");
        }
        entry(header);
    }
    Unpacked unpacked;
    unpacked.bot_folder = bot_folder();
    const std::string inside = unpacked.bot_folder.empty() ? "" : unpacked.bot_folder + "/";
    for (const auto& [path, node] : nodes_) {
        if (path.compare(0, inside.size(), inside) != 0 || path.size() == inside.size()) continue;
        ++(node.directory ? unpacked.directories : unpacked.files);
    }
    unpacked.bytes = written_;
    return unpacked;
}

// Refuses what is not a plain file or folder; returns whether it is a folder.
bool check_type(archive_entry* entry, std::string_view path) {
    const auto refuse = [&](const std::string& why) {
        throw Refusal(entry_text(path) + ": " + why);
    };
    constexpr std::string_view kNoLinks = " (an upload may hold no links of any kind)";
    constexpr std::string_view kOnlyFiles = " (an upload holds only files and folders)";
    if (const char* target = archive_entry_hardlink(entry)) {
        refuse("a hard link to " + shown(target) + std::string(kNoLinks));
    }
    const auto type = archive_entry_filetype(entry);
    if (type == AE_IFLNK || archive_entry_symlink(entry) != nullptr) {
        const char* target = archive_entry_symlink(entry);
        refuse("a symbolic link to " + shown(target != nullptr ? target : "") +
               std::string(kNoLinks));
    }
    if (type == AE_IFCHR) refuse("a character device" + std::string(kOnlyFiles));
    if (type == AE_IFBLK) refuse("a block device" + std::string(kOnlyFiles));
    if (type == AE_IFIFO) refuse("a FIFO (a named pipe)" + std::string(kOnlyFiles));
    if (type == AE_IFSOCK) refuse("a socket" + std::string(kOnlyFiles));
    if (type != AE_IFREG && type != AE_IFDIR)
        refuse("of an unknown type" + std::string(kOnlyFiles));
    if (archive_entry_is_encrypted(entry) != 0)
        refuse("encrypted (encrypted archives are refused)");
    if (type == AE_IFREG && archive_entry_sparse_count(entry) > 0) {
        refuse("a sparse file (files with holes are refused)");
    }
    return type == AE_IFDIR;
}

void Unpacker::entry(archive_entry* header) {
    const char* name = archive_entry_pathname_utf8(header);
    if (name == nullptr) name = archive_entry_pathname(header);
    if (name == nullptr) {
        throw Refusal("entry " + std::to_string(entries_) + ": its name cannot be read");
    }
    const std::string_view path = name;
    const std::vector<std::string> parts = entry_parts(path, limits_);
    const bool directory = check_type(header, path);
    if (parts.empty()) {
        if (directory) return;  // "./": the folder itself
        throw Refusal(entry_text(path) + ": a file without a name");
    }
    if (parts.front() == kMacMetadata) {
        if (!directory) write_data(-1, path);
        return;
    }
    record(parts, directory, path);
    const std::span<const std::string> all(parts);
    if (directory) {
        (void)open_folder(root_, all, path);
        return;
    }
    const Fd folder = open_folder(root_, all.first(parts.size() - 1), path);
    const Fd file = create_file(folder.get(), parts.back(), path);
    write_data(file.get(), path);
    // Only whether it may be run is kept: no setuid, setgid or sticky bit,
    // owner, group or time.
    finish_file(file.get(), (archive_entry_perm(header) & 0111) != 0);
}

void Unpacker::record(const std::vector<std::string>& parts, bool directory,
                      std::string_view path) {
    const auto refuse = [&](const std::string& why) {
        throw Refusal(entry_text(path) + ": " + why);
    };
    std::string prefix;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        prefix += (i == 0 ? "" : "/") + parts[i];
        const auto it = nodes_.try_emplace(prefix, Node{true, false}).first;
        if (!it->second.directory) refuse("its folder " + shown(prefix) + " is a file");
    }
    const std::string whole = prefix.empty() ? parts.back() : prefix + "/" + parts.back();
    const auto [it, added] = nodes_.try_emplace(whole, Node{directory, true});
    if (added) return;
    if (it->second.listed) refuse("its path is listed twice (duplicate entries are refused)");
    if (!directory) refuse("a file where earlier entries have a folder");
    it->second.listed = true;
}

// Reads the entry's data, counting it against the budget, into `fd` (or
// nowhere, for -1).
void Unpacker::write_data(int fd, std::string_view path) {
    std::uint64_t at = 0;
    for (;;) {
        const void* block = nullptr;
        std::size_t size = 0;
        la_int64_t offset = 0;
        const int r = archive_read_data_block(reader_, &block, &size, &offset);
        if (r == ARCHIVE_EOF) return;
        if (r != ARCHIVE_OK) read_failed(path);
        if (offset < 0 || static_cast<std::uint64_t>(offset) != at) {
            throw Refusal(entry_text(path) + ": a sparse file (files with holes are refused)");
        }
        budget_.take(size, path);
        if (fd >= 0) {
            write_all(fd, std::span(static_cast<const std::byte*>(block), size));
            written_ += size;
        }
        at += size;
    }
}

const Node* Unpacker::find(const std::string& path) const {
    const auto it = nodes_.find(path);
    return it == nodes_.end() ? nullptr : &it->second;
}

// Where bot.yaml is: at the top (""), or in the one top-level folder.
std::string Unpacker::bot_folder() const {
    const std::string manifest(kManifest);
    if (const Node* top = find(manifest)) {
        if (top->directory) throw Refusal(shown(manifest) + " is a folder, not a file");
        return "";
    }
    std::vector<std::string> tops;
    for (const auto& [path, node] : nodes_) {
        if (path.find('/') == std::string::npos) tops.push_back(path);
    }
    if (tops.size() == 1 && find(tops.front())->directory) {
        const Node* inside = find(tops.front() + "/" + manifest);
        if (inside != nullptr && !inside->directory) return tops.front();
        if (inside != nullptr) {
            throw Refusal(shown(tops.front() + "/" + manifest) + " is a folder, not a file");
        }
    }
    std::string what =
        "no bot.yaml: an archive holds one bot, with its bot.yaml at the "
        "archive's top or inside its one top-level folder (";
    if (tops.empty()) {
        what += "this one holds no files)";
    } else if (tops.size() == 1) {
        what += "this one holds only " + shown(tops.front()) + ")";
    } else {
        what += "this one holds " + std::to_string(tops.size()) + " entries at its top: ";
        for (std::size_t i = 0; i < std::min(tops.size(), kShownTops); ++i) {
            what += (i == 0 ? "" : ", ") + shown(tops[i]);
        }
        what += tops.size() > kShownTops ? ", ...)" : ")";
    }
    throw Refusal(what);
}

}  // namespace

Unpacked unpack_archive(std::span<const std::byte> bytes, ArchiveFormat format, int root,
                        const UploadLimits& limits, std::uint64_t& written) {
    Budget budget(limits, bytes.size());
    OpenArchive open;
    if (format == ArchiveFormat::tar_gz) {
        const std::uint64_t overhead =
            saturated_add(saturated_mul(limits.max_files, kTarBytesPerEntry), kTarBytesOnce);
        open = open_tar_gz(bytes, saturated_add(budget.cap(), overhead));
    } else {
        open = open_zip(bytes);
    }
    return Unpacker(open, root, limits, budget, written).run();
}

}  // namespace arena::upload::detail
