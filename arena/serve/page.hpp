#pragma once
// The shell every page of arena serve shares (its header, navigation, data
// for the script, stylesheet and scripts under one Content-Security-Policy),
// and the small answers its routes give: JSON, JSON errors, the Host check.
// Site (site.hpp) and the league's routes (arena/league/league_site.hpp)
// build their pages with it.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arena/serve/http_server.hpp"

namespace arena::serve {

// A link of the pages' navigation: its address and its text.
using NavLink = std::pair<std::string, std::string>;

[[nodiscard]] Response json_response(int status, const nlohmann::json& value);
// {"error": message}
[[nodiscard]] Response api_error(int status, const std::string& message);

// A page of kind `kind` (serve.js's dispatch): the header (markup), the main
// part (markup), the data for the script, and the navigation after the
// link to the tournaments.
[[nodiscard]] Response page(const std::string& kind, const std::string& title,
                            const std::string& header, const std::string& main,
                            const nlohmann::json& data, const std::vector<NavLink>& nav);

// The header's title (escaped) and its line below (markup).
[[nodiscard]] std::string header_title(const std::string& title, const std::string& sub);

// localhost, 127.x.x.x or [::1], with or without a port; also an empty Host.
[[nodiscard]] bool loopback_host(std::string_view host);

// ASCII lower case.
[[nodiscard]] std::string lower(std::string_view text);

// The media type of a Content-Type header, lower case, without parameters.
[[nodiscard]] std::string media_type(std::string_view content_type);

}  // namespace arena::serve
