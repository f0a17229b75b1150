#pragma once
// Test helper: archives made with libarchive's writer, entry by entry, for
// the upload tests: good bot folders and hostile ones (paths out of the
// folder, links, devices, bombs).

#include <archive.h>
#include <archive_entry.h>
#include <sys/sysmacros.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace arena::testing {

// One entry of an archive made by make_archive.
struct Entry {
    Entry(std::string path_, std::string data_ = "", unsigned type_ = AE_IFREG,
          unsigned perm_ = 0644, std::string symlink_ = "", std::string hardlink_ = "")
        : path(std::move(path_)),
          data(std::move(data_)),
          type(type_),
          perm(perm_),
          symlink(std::move(symlink_)),
          hardlink(std::move(hardlink_)) {}

    std::string path;
    std::string data;
    unsigned type;  // AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR, AE_IFBLK, AE_IFIFO
    unsigned perm;
    std::string symlink;   // with AE_IFLNK
    std::string hardlink;  // a hard link to this earlier entry
};

enum class Format { tar_gz, zip, tar };

inline la_ssize_t append(archive*, void* client, const void* buffer, std::size_t size) {
    static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), size);
    return static_cast<la_ssize_t>(size);
}

inline void check(archive* a, int r, const char* what) {
    if (r != ARCHIVE_OK) {
        throw std::runtime_error(std::string(what) + ": " +
                                 (archive_error_string(a) ? archive_error_string(a) : "?"));
    }
}

inline std::string make_archive(const std::vector<Entry>& entries, Format format) {
    archive* a = archive_write_new();
    std::string out;
    if (format == Format::tar_gz) check(a, archive_write_add_filter_gzip(a), "gzip");
    if (format == Format::zip) {
        check(a, archive_write_set_format_zip(a), "zip");
    } else {
        check(a, archive_write_set_format_pax_restricted(a), "pax");
    }
    // No padding of the output to whole blocks: a cut archive is cut.
    check(a, archive_write_set_bytes_in_last_block(a, 1), "block");
    check(a, archive_write_open(a, &out, nullptr, append, nullptr), "open");
    for (const Entry& e : entries) {
        archive_entry* entry = archive_entry_new();
        archive_entry_set_pathname(entry, e.path.c_str());
        archive_entry_set_filetype(entry, e.type);
        archive_entry_set_perm(entry, e.perm);
        archive_entry_set_size(entry, static_cast<la_int64_t>(e.data.size()));
        if (!e.symlink.empty()) archive_entry_set_symlink(entry, e.symlink.c_str());
        if (!e.hardlink.empty()) {
            archive_entry_set_hardlink(entry, e.hardlink.c_str());
            archive_entry_set_size(entry, 0);
        }
        if (e.type == AE_IFCHR || e.type == AE_IFBLK) archive_entry_set_rdev(entry, makedev(1, 3));
        check(a, archive_write_header(a, entry), "header");
        if (!e.data.empty()) {
            const la_ssize_t n = archive_write_data(a, e.data.data(), e.data.size());
            if (n != static_cast<la_ssize_t>(e.data.size())) check(a, ARCHIVE_FATAL, "data");
        }
        archive_entry_free(entry);
    }
    check(a, archive_write_close(a), "close");
    archive_write_free(a);
    return out;
}

// `data` as one gzip member.
inline std::string gzip(std::string_view data) {
    archive* a = archive_write_new();
    std::string out;
    check(a, archive_write_add_filter_gzip(a), "gzip");
    check(a, archive_write_set_format_raw(a), "raw");
    // No padding of the output to whole blocks: a cut archive is cut.
    check(a, archive_write_set_bytes_in_last_block(a, 1), "block");
    check(a, archive_write_open(a, &out, nullptr, append, nullptr), "open");
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, "data");
    archive_entry_set_filetype(entry, AE_IFREG);
    archive_entry_set_size(entry, static_cast<la_int64_t>(data.size()));
    check(a, archive_write_header(a, entry), "header");
    archive_write_data(a, data.data(), data.size());
    archive_entry_free(entry);
    check(a, archive_write_close(a), "close");
    archive_write_free(a);
    return out;
}

// A POSIX tar header of a regular file `name` that claims `size` bytes.
inline std::string ustar_header(const std::string& name, std::uint64_t size) {
    std::string h(512, '\0');
    const auto put = [&](std::size_t at, const std::string& text) {
        std::memcpy(h.data() + at, text.data(), text.size());
    };
    const auto octal = [](std::uint64_t value, int width) {
        std::string text(static_cast<std::size_t>(width), '0');
        for (int i = width - 1; i >= 0 && value != 0; --i, value >>= 3) {
            text[static_cast<std::size_t>(i)] = static_cast<char>('0' + (value & 7));
        }
        return text;
    };
    put(0, name);
    put(100, octal(0644, 7));
    put(108, octal(0, 7));
    put(116, octal(0, 7));
    put(124, octal(size, 11));
    put(136, octal(0, 11));
    put(148, "        ");
    h[156] = '0';
    put(257, std::string("ustar\0"
                         "00",
                         8));
    unsigned sum = 0;
    for (const char c : h)
        sum += static_cast<unsigned char>(c);
    put(148, octal(sum, 6) + std::string("\0 ", 2));
    return h;
}

}  // namespace arena::testing
