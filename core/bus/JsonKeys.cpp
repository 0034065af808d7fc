#include "core/bus/JsonKeys.hpp"

#include <set>
#include <utility>
#include <vector>

namespace umpire::bus {
namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 0;
}

unsigned code_unit(std::string_view text, std::size_t at) {
    unsigned u = 0;
    for (std::size_t k = 0; k < 4 && at + k < text.size(); ++k) u = u * 16 + static_cast<unsigned>(hex_digit(text[at + k]));
    return u;
}

void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// The string whose opening quote is at text[i], decoded as the JSON library decodes it; i is left
// on its closing quote.
std::string read_string(std::string_view text, std::size_t& i) {
    std::string out;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] != '\\') {
            out += text[i];
            continue;
        }
        if (++i >= text.size()) break;
        switch (text[i]) {
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                unsigned cp = code_unit(text, i + 1);
                i += 4;
                // A high surrogate followed by "\uDC00".."\uDFFF" is one code point.
                if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < text.size() && text[i + 1] == '\\' && text[i + 2] == 'u') {
                    const unsigned low = code_unit(text, i + 3);
                    if (low >= 0xDC00 && low < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        i += 6;
                    }
                }
                append_utf8(out, cp);
                break;
            }
            default: out += text[i]; break;  // '"', '\\', '/'
        }
    }
    return out;
}

}  // namespace

std::optional<DuplicateKey> duplicate_key_at(std::string_view text) {
    // One frame per open object or list: an object's keys so far, and whether its next string is
    // a key (after '{' or ','; a value after ':').
    struct Frame {
        bool object = false;
        bool key_next = false;
        std::set<std::string> keys;
    };
    std::vector<Frame> open;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '{' || c == '[') {
            open.push_back(Frame{c == '{', c == '{', {}});
        } else if (c == '}' || c == ']') {
            if (!open.empty()) open.pop_back();
        } else if (c == ',') {
            if (!open.empty() && open.back().object) open.back().key_next = true;
        } else if (c == '"') {
            const std::size_t at = i;
            std::string s = read_string(text, i);
            if (!open.empty() && open.back().key_next) {
                Frame& frame = open.back();
                frame.key_next = false;
                if (!frame.keys.insert(std::move(s)).second) {
                    std::size_t j = at;
                    return DuplicateKey{at, read_string(text, j)};
                }
            }
        }
    }
    return std::nullopt;
}

std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t at) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

}  // namespace umpire::bus
