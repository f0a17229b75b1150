#pragma once
// Test helper: time limits that hold on a slow or loaded machine.
//
// A test that times something keeps the ratio it checks (a bot that sleeps
// 60 % of its limit is in time, one that sleeps 150 % is late) and scales
// both sides together by time_scale(): a sanitizer build runs every program,
// the bots included, several times slower, and a loaded machine delays every
// wake-up. Limits that a well-behaved bot only has to beat, and that the test
// never waits out, are simply generous. Measuring speed is scripts/bench's
// job, not a test's.

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>

namespace arena::testing {

// How many times longer than in a release build on an idle machine anything
// timed may take here: 4 in a sanitizer build (ARENA_SANITIZE), else 1.
// ARENA_TEST_TIME_SCALE=N overrides it, e.g. for a very slow machine.
inline int time_scale() {
    static const int scale = [] {
        if (const char* text = std::getenv("ARENA_TEST_TIME_SCALE")) {
            const int n = std::atoi(text);
            if (n >= 1) return n;
        }
#ifdef ARENA_SANITIZE
        return 4;
#else
        return 1;
#endif
    }();
    return scale;
}

inline std::chrono::milliseconds scaled(std::chrono::milliseconds d) {
    return d * time_scale();
}

// Milliseconds scaled, as the text of a command-line argument or config value.
inline std::string scaled_ms(int ms) {
    return std::to_string(ms * time_scale());
}

// Space-separated command-line words with the milliseconds after each
// --move-ms, --startup-ms and --sleep-ms scaled: "--move-ms 200" becomes
// "--move-ms 800" when time_scale() is 4.
inline std::string scaled_flags(const std::string& words) {
    std::istringstream in(words);
    std::string out, word;
    bool scale_next = false;
    while (in >> word) {
        if (!out.empty()) out += ' ';
        out += scale_next ? scaled_ms(std::stoi(word)) : word;
        scale_next = word == "--move-ms" || word == "--startup-ms" || word == "--sleep-ms";
    }
    return out;
}

}  // namespace arena::testing
