#pragma once
// Test helper: HTTP over a raw TCP socket to a server on this machine, so
// that tests can send well-formed requests and malformed ones alike, and see
// exactly what comes back.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <string>

namespace arena::testing {

// A connected socket to 127.0.0.1:port; -1 on failure.
inline int connect_local(unsigned short port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Reads until the peer closes the connection, an error, or `timeout`.
inline std::string read_until_closed(int fd, std::chrono::milliseconds timeout,
                                     bool* closed = nullptr) {
    std::string out;
    const auto until = std::chrono::steady_clock::now() + timeout;
    if (closed != nullptr) *closed = false;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now());
        if (left.count() <= 0) return out;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        char buf[8192];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n > 0) {
            out.append(buf, static_cast<std::size_t>(n));
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            if (closed != nullptr) *closed = true;
            return out;
        }
    }
}

// Sends `bytes` as they are on a new connection and returns everything the
// server answered until it closed the connection (or `timeout` passed).
inline std::string http_exchange(unsigned short port, const std::string& bytes,
                                 std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    const int fd = connect_local(port);
    if (fd < 0) return "connect failed";
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;  // the server may refuse before reading it all
        sent += static_cast<std::size_t>(n);
    }
    std::string out = read_until_closed(fd, timeout);
    ::close(fd);
    return out;
}

// A well-formed request that asks the server to close the connection after
// answering.
inline std::string request(const std::string& method, const std::string& target,
                           const std::string& body = "",
                           const std::string& content_type = "application/json",
                           const std::string& extra_headers = "") {
    std::string r = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (!body.empty() || method == "POST") {
        r += "Content-Type: " + content_type +
             "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    }
    return r + extra_headers + "\r\n" + body;
}

// The status code of a response ("HTTP/1.1 404 Not Found" -> 404); 0 when
// there is none.
inline int status_of(const std::string& response) {
    if (response.rfind("HTTP/1.", 0) != 0 || response.size() < 12) return 0;
    return std::atoi(response.c_str() + 9);
}

inline std::string body_of(const std::string& response) {
    const auto end = response.find("\r\n\r\n");
    return end == std::string::npos ? "" : response.substr(end + 4);
}

// A header's value (case-insensitive name), "" when absent.
inline std::string header_of(const std::string& response, const std::string& name) {
    const auto end = response.find("\r\n\r\n");
    std::size_t from = response.find("\r\n");
    while (from != std::string::npos && from < end) {
        const auto next = response.find("\r\n", from + 2);
        const std::string line = response.substr(from + 2, next - from - 2);
        const auto colon = line.find(':');
        if (colon != std::string::npos && colon == name.size()) {
            bool same = true;
            for (std::size_t i = 0; i < colon; ++i)
                same = same && std::tolower(static_cast<unsigned char>(line[i])) ==
                                   std::tolower(static_cast<unsigned char>(name[i]));
            if (same) return line.substr(line.find_first_not_of(' ', colon + 1));
        }
        from = next;
    }
    return "";
}

}  // namespace arena::testing
