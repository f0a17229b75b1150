#include "arena/league/tokens.hpp"

#include <sodium.h>

#include <array>
#include <charconv>
#include <stdexcept>
#include <system_error>

namespace arena::league {
namespace {

constexpr std::size_t kSecretBytes = 32;
constexpr int kBase64 = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
// The length of a secret's text, without the terminating NUL that
// sodium_base64_ENCODED_LEN counts.
constexpr std::size_t kSecretChars = sodium_base64_ENCODED_LEN(kSecretBytes, kBase64) - 1;

// Secret bytes that are wiped when they go out of scope.
struct SecretBytes {
    std::array<unsigned char, kSecretBytes> bytes{};
    SecretBytes() = default;
    SecretBytes(const SecretBytes&) = delete;
    SecretBytes& operator=(const SecretBytes&) = delete;
    ~SecretBytes() { sodium_memzero(bytes.data(), bytes.size()); }
};

std::string hash_of(const SecretBytes& secret) {
    std::array<char, crypto_pwhash_STRBYTES> hash{};
    // Argon2id, named rather than left to crypto_pwhash_str's default.
    if (crypto_pwhash_str_alg(hash.data(), reinterpret_cast<const char*>(secret.bytes.data()),
                              secret.bytes.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE,
                              crypto_pwhash_ALG_ARGON2ID13) != 0) {
        throw std::runtime_error("cannot hash a token: out of memory (Argon2id needs " +
                                 std::to_string(crypto_pwhash_MEMLIMIT_INTERACTIVE >> 20) +
                                 " MiB)");
    }
    return hash.data();
}

}  // namespace

void require_sodium() {
    // A function-local static: sodium_init() runs once, on the first call,
    // and C++ makes concurrent first calls wait for it. It is the only state
    // kept, and never changes afterwards.
    static const bool ready = sodium_init() >= 0;
    if (!ready) throw std::runtime_error("libsodium cannot be initialised (no random source?)");
}

NewSecret new_secret() {
    require_sodium();
    SecretBytes secret;
    randombytes_buf(secret.bytes.data(), secret.bytes.size());
    std::array<char, kSecretChars + 1> text{};
    sodium_bin2base64(text.data(), text.size(), secret.bytes.data(), secret.bytes.size(), kBase64);
    NewSecret made{std::string(text.data(), kSecretChars), hash_of(secret)};
    sodium_memzero(text.data(), text.size());
    return made;
}

bool secret_matches(std::string_view secret, const std::string& hash) {
    require_sodium();
    if (secret.size() != kSecretChars) return false;
    SecretBytes bytes;
    std::size_t decoded = 0;
    // Refuses anything but canonical base64url of exactly 32 bytes.
    if (sodium_base642bin(bytes.bytes.data(), bytes.bytes.size(), secret.data(), secret.size(),
                          nullptr, &decoded, nullptr, kBase64) != 0 ||
        decoded != kSecretBytes) {
        return false;
    }
    return crypto_pwhash_str_verify(hash.c_str(), reinterpret_cast<const char*>(bytes.bytes.data()),
                                    bytes.bytes.size()) == 0;
}

std::string token_text(std::int64_t user_id, std::string_view secret) {
    std::string text = std::to_string(user_id);
    text += '.';
    text += secret;
    return text;
}

std::optional<TokenParts> split_token(std::string_view token) {
    const auto dot = token.find('.');
    if (dot == std::string_view::npos || dot == 0 || token[0] == '0') return std::nullopt;
    std::int64_t id = 0;
    const auto* first = token.data();
    const auto [end, ec] = std::from_chars(first, first + dot, id);
    if (ec != std::errc() || end != first + dot || id <= 0) return std::nullopt;
    return TokenParts{id, token.substr(dot + 1)};
}

}  // namespace arena::league
