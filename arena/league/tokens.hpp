#pragma once
// The sign-in tokens of league accounts (docs/league.md), with libsodium.
//
// A token is "<id>.<secret>": the user's id (league_users.id), so that a
// token is checked against one stored hash, not against every user's, and a
// secret of 32 random bytes (randombytes_buf) written as base64url without
// padding (43 characters). Only the secret's hash is stored:
// crypto_pwhash_str, Argon2id at libsodium's interactive limits, whose text
// carries its own salt and parameters. The token is shown once, when it is
// made; nothing can show it again.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace arena::league {

// libsodium made ready for use: sodium_init() runs once per process, on the
// first call, through a function-local static (thread-safe, and no mutable
// global). Every function here calls it first; throws std::runtime_error
// when libsodium cannot start (no source of randomness).
void require_sodium();

// A new secret: the text given to the user, and the hash that is stored.
struct NewSecret {
    std::string text;  // base64url, 43 characters
    std::string hash;  // crypto_pwhash_str's text ("$argon2id$v=19$m=65536,t=2,p=1$...")
};
[[nodiscard]] NewSecret new_secret();

// Whether `secret` is the text of the secret that `hash` was made from.
// A text that is not 32 bytes of base64url is refused without hashing; the
// comparison is crypto_pwhash_str_verify's, in constant time.
[[nodiscard]] bool secret_matches(std::string_view secret, const std::string& hash);

// "<id>.<secret>".
[[nodiscard]] std::string token_text(std::int64_t user_id, std::string_view secret);

struct TokenParts {
    std::int64_t user_id = 0;
    std::string_view secret;  // a view into the token
};
// The parts of "<id>.<secret>"; nullopt when the token is not of that form
// (the id a positive decimal number, without sign or leading zero).
[[nodiscard]] std::optional<TokenParts> split_token(std::string_view token);

}  // namespace arena::league
