// libFuzzer target: the tournament config loader (parse_config).
//
// Property: on any text, parse_config either returns a config or throws
// ConfigError. Any other exception, a crash, a sanitizer report or a hang is
// a bug. Bot commands are resolved against PATH and an openings file may be
// named, so the fuzzer runs with stdin from /dev/null (scripts/test).

#include <cstddef>
#include <cstdint>
#include <string>

#include "arena/tournament/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)arena::tournament::parse_config(text, "fuzz.yaml");
    } catch (const arena::tournament::ConfigError&) {
        // The one documented failure.
    }
    return 0;
}
