// libFuzzer target: the HTTP request reader of arena serve (RequestReader,
// the code every connection's bytes go through), with chunked bodies,
// trailers, chunk extensions and pipelined requests.
//
// The first byte chooses the limits (bit 0: small ones, so that every bound
// is reached; else the server's defaults) and how the rest is cut into reads
// (its upper bits: pieces of 1 to 32 bytes, or as large as the reader takes).
// The rest is what a client sends, then the end of its input.
//
// Property: whatever the bytes, the reader never throws and never asks for
// an empty read while it wants more; each request it completes has a body
// within the limit; each failure is a 400, 413, 414 or 431; and it always
// ends (closed or failed) once the input is used up. Anything else, a crash,
// a sanitizer report or a hang is a bug.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "arena/serve/http_server.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t mode = data[0];
    ++data;
    --size;
    arena::serve::ServerOptions options;
    if ((mode & 1) != 0) {
        options.request_line_limit = 64;
        options.header_limit = 256;
        options.body_limit = 512;
    }
    const std::size_t piece = (mode >> 1) == 0 ? SIZE_MAX : (mode >> 3) + 1;

    using State = arena::serve::RequestReader::State;
    arena::serve::RequestReader reader(options);
    std::size_t at = 0;
    for (std::size_t steps = 0;; ++steps) {
        if (steps > 4 * size + 100) __builtin_trap();  // it must end
        switch (reader.state()) {
            case State::reading: {
                if (at == size) {
                    reader.end_of_input();
                    if (reader.state() == State::reading) __builtin_trap();
                    break;
                }
                const auto space = reader.space();
                if (space.empty()) __builtin_trap();
                const std::size_t n = std::min({space.size(), piece, size - at});
                std::memcpy(space.data(), data + at, n);
                at += n;
                reader.received(n);
                break;
            }
            case State::done: {
                const auto request = reader.request();
                if (request.body.size() > options.body_limit) __builtin_trap();
                (void)reader.keep_alive();
                (void)reader.head();
                reader.next();
                break;
            }
            case State::failed: {
                const int s = reader.status();
                if (s != 400 && s != 413 && s != 414 && s != 431) __builtin_trap();
                if (reader.problem().empty()) __builtin_trap();
                return 0;
            }
            case State::closed:
                return 0;
        }
    }
}
