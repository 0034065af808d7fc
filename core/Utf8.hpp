// Well-formed UTF-8, as JSON (the journal, the game state) and the YAML readers require it.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace umpire {

// The offset of the first byte of text that is not well-formed UTF-8 (overlong forms, surrogates
// and code points past U+10FFFF included), or npos.
inline std::size_t first_bad_utf8(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned c = p[i];
        if (c < 0x80) { ++i; continue; }
        std::size_t len;
        unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
        else return i;
        if (i + len > n || p[i + 1] < lo || p[i + 1] > hi) return i;
        for (std::size_t k = 2; k < len; ++k)
            if (p[i + k] < 0x80 || p[i + k] > 0xBF) return i;
        i += len;
    }
    return std::string::npos;
}

// A byte as "0xFF": how the errors about text that is not UTF-8 name the byte first_bad_utf8 found.
inline std::string hex_byte(char byte) {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    const auto b = static_cast<unsigned char>(byte);
    return {'0', 'x', kDigits[b >> 4], kDigits[b & 15]};
}

}  // namespace umpire
