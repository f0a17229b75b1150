#include "arena/record/escape.hpp"

namespace arena::record {
namespace {

void append_hex(std::string& out, unsigned char byte) {
    constexpr std::string_view kDigits = "0123456789abcdef";
    out += "\\x";
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0xf];
}

}  // namespace

std::string escape_controls(std::string_view text, bool keep_layout) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (keep_layout && (byte == '\n' || byte == '\t')) {
            out += text[i];
        } else if (byte < 0x20 || byte == 0x7f) {
            append_hex(out, byte);
        } else if (byte == 0xc2 && i + 1 < text.size() &&
                   static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
            append_hex(out, byte);
            append_hex(out, static_cast<unsigned char>(text[++i]));
        } else {
            out += text[i];
        }
    }
    return out;
}

}  // namespace arena::record
