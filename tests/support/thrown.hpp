#pragma once
// The message of what a call throws, for the tests of error messages.

#include <string>

namespace arena::testing {

// The what() of the `E` that `f()` throws; "" when it throws none (another
// exception goes on to the test).
template <typename E, typename F>
[[nodiscard]] std::string message_of(F f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

}  // namespace arena::testing
