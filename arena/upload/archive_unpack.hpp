#pragma once
// An uploaded archive written out (internal to arena_upload), with
// libarchive reading it and this code writing every file itself: no
// archive_write_disk, no link, device or special file, nothing outside the
// folder, and the caps counted on the bytes as they are unpacked, never
// taken from what the archive's headers claim.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "arena/upload/upload.hpp"

namespace arena::upload::detail {

enum class ArchiveFormat {
    tar_gz,  // a tar inside gzip (one or more gzip members)
    zip,
};

struct Unpacked {
    // The folder, relative to the one unpacked into, that holds bot.yaml:
    // empty (the top) or the archive's one top-level folder.
    std::string bot_folder;
    std::uint64_t files = 0;        // regular files in bot_folder
    std::uint64_t directories = 0;  // folders in bot_folder, not counting it
    std::uint64_t bytes = 0;        // bytes written
};

// Unpacks `bytes` into the open, empty folder `root`. Throws Refusal (the
// message after "upload 'NAME': ") or Failure; `written` says how many bytes
// were written when it does.
[[nodiscard]] Unpacked unpack_archive(std::span<const std::byte> bytes, ArchiveFormat format,
                                      int root, const UploadLimits& limits, std::uint64_t& written);

}  // namespace arena::upload::detail
