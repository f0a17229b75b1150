#pragma once
// The server of `arena serve` and `arena run --serve` under the names the
// commands knew it by; it lives in arena/serve/running_server.hpp.

#include "arena/serve/running_server.hpp"

namespace arena::cli {

using serve::RunningServer;
using serve::ServeSetup;

}  // namespace arena::cli
