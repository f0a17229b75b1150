#include "arena/serve/page.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "arena/report/html.hpp"
#include "arena/report/html_report.hpp"
#include "arena/serve/site.hpp"

namespace arena::serve {

using nlohmann::json;
using report::html_escape;

Response json_response(int status, const json& value) {
    Response r;
    r.status = status;
    r.content_type = "application/json; charset=utf-8";
    r.body = report::script_json(value);
    return r;
}

Response api_error(int status, const std::string& message) {
    return json_response(status, {{"error", message}});
}

namespace {

// The Content-Security-Policy of every page: only the page's own inline
// scripts (by hash), requests to this server only, no forms, no frames.
std::string page_policy() {
    static const std::string policy =
        report::content_security_policy({report::replay_js(), serve_js()}) +
        "; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
    return policy;
}

}  // namespace

Response page(const std::string& kind, const std::string& title, const std::string& header,
              const std::string& main, const json& data, const std::vector<NavLink>& nav) {
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        << "<link rel=\"icon\" href=\"data:,\">\n"
        << "<title>" << html_escape(title) << "</title>\n"
        << "<style>" << report::report_css() << "\n"
        << serve_css() << "</style>\n</head>\n"
        << "<body data-page=\"" << html_escape(kind) << "\">\n"
        << "<header class=\"top\">" << header << "<nav><a href=\"/\">Tournaments</a>";
    for (const auto& [href, text] : nav)
        out << " <a href=\"" << html_escape(href) << "\">" << html_escape(text) << "</a>";
    out << "</nav>"
        << "</header>\n<main>\n"
        << main << "\n</main>\n"
        << "<script type=\"application/json\" id=\"serve-data\">" << report::script_json(data)
        << "</script>\n<script>" << report::replay_js() << "</script>\n<script>" << serve_js()
        << "</script>\n</body>\n</html>\n";
    Response r;
    r.body = out.str();
    r.headers.emplace_back("Content-Security-Policy", page_policy());
    return r;
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

namespace {

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool loopback_host(std::string_view host) {
    if (host.empty()) return true;  // no Host header: not a browser
    std::string_view name = host;
    std::string_view port;
    if (name.front() == '[') {
        const auto close = name.find(']');
        if (close == std::string_view::npos) return false;
        port = name.substr(close + 1);
        name = name.substr(0, close + 1);
        if (!port.empty()) {
            if (port.front() != ':') return false;
            port.remove_prefix(1);
        }
    } else if (const auto colon = name.rfind(':'); colon != std::string_view::npos) {
        port = name.substr(colon + 1);
        name = name.substr(0, colon);
        if (port.empty()) return false;
    }
    if (!port.empty() && !all_digits(port)) return false;
    const std::string n = lower(name);
    if (n == "localhost" || n == "[::1]") return true;
    if (!n.starts_with("127.")) return false;
    int parts = 0;
    std::size_t from = 0;
    while (from <= n.size()) {
        const auto dot = std::min(n.find('.', from), n.size());
        const auto part = std::string_view(n).substr(from, dot - from);
        if (!all_digits(part) || part.size() > 3 || std::stoi(std::string(part)) > 255)
            return false;
        ++parts;
        from = dot + 1;
    }
    return parts == 4;
}

std::string header_title(const std::string& title, const std::string& sub) {
    return "<h1>" + html_escape(title) + "</h1><p class=\"sub\">" + sub + "</p>";
}

std::string media_type(std::string_view content_type) {
    auto type = lower(content_type.substr(0, content_type.find(';')));
    while (!type.empty() && (type.back() == ' ' || type.back() == '\t'))
        type.pop_back();
    return type;
}

}  // namespace arena::serve
