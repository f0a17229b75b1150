// libFuzzer target: a league upload made into a folder (unpack_upload,
// arena/upload/): the kind told from the bytes, gzip and tar or zip read by
// libarchive, every entry's checks, and the files written.
//
// The first byte chooses the name the upload is sent under (it matters for
// a script or a .so; an archive is told by its bytes); the rest is the
// upload. The caps are small, so that each input is quick.
//
// Property: whatever the bytes, unpack_upload returns (it never throws);
// it never fails (a failure is the server's side, here a bug); when it
// refuses, nothing is left in the folder it was to make its folder in; when
// it accepts, that folder is there and holds nothing else. Anything else,
// a crash, a sanitizer report or a hang is a bug.

#include <stdlib.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "arena/upload/upload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    constexpr std::array<std::string_view, 4> kNames = {"bot.tar.gz", "bot.py", "strategy.so",
                                                        "bot"};
    const std::string_view name = kNames[data[0] % kNames.size()];
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data + 1), size - 1);

    namespace fs = std::filesystem;
    std::string pattern = (fs::temp_directory_path() / "fuzz_upload_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) __builtin_trap();
    const fs::path parent = pattern;
    const fs::path dest = parent / "bot";

    arena::upload::UploadLimits limits;
    limits.max_upload = 1 << 20;
    limits.max_unpacked = 1 << 20;
    limits.max_files = 64;
    const auto result = arena::upload::unpack_upload(name, bytes, dest, limits);

    std::size_t left = 0;
    for (const auto& entry : fs::directory_iterator(parent)) {
        (void)entry;
        ++left;
    }
    switch (result.status) {
        case arena::upload::UploadStatus::ok:
            if (!fs::is_directory(fs::symlink_status(dest)) || left != 1) __builtin_trap();
            break;
        case arena::upload::UploadStatus::refused:
            if (left != 0 || result.message.empty()) __builtin_trap();
            break;
        case arena::upload::UploadStatus::failed:
            __builtin_trap();
    }
    fs::remove_all(parent);
    return 0;
}
