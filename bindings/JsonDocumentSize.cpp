#include "bindings/JsonDocumentSize.hpp"

#include <algorithm>
#include <bit>
#include <vector>

namespace umpire::json_size {
namespace {

// What glibc's malloc takes for a request of n bytes: n plus its 8-byte header, in steps of 16,
// 32 at least; past the mmap threshold (128 KiB at first, it only grows) whole pages and a
// 16-byte header. Overstating a large chunk by a page costs nothing.
std::size_t chunk(std::size_t n) {
    if (n >= (std::size_t{128} << 10)) return (n + 16 + 4095) / 4096 * 4096;
    return std::max<std::size_t>(32, (n + 8 + 15) / 16 * 16);
}

// A std::string keeps up to 15 bytes in place; a longer one has a heap buffer for them and a 0.
std::size_t heap_text(std::size_t length) { return length > 15 ? chunk(length + 1) : 0; }

// sizeof of what nlohmann::json allocates per value (a json value itself is 16 bytes, kept in
// its array's buffer, its object member's node, or by the caller): a string value's
// std::string, an array's std::vector, an object's std::map, and an object member's map node
// (the tree node's 32 bytes, the key's std::string, the value).
constexpr std::size_t kString = 32, kVector = 24, kMap = 48, kMemberNode = 32 + 32 + 16, kValue = 16;

}  // namespace

// One pass over the text, as the parser will see it. A string is a key when an object expects
// one (after `{` or a `,` inside an object), else a value; its length in the text (escapes
// included) is at least its decoded length, so its buffer is not understated. An array's buffer
// holds its values at 16 bytes each, with a capacity that doubles as the parser appends (the
// next power of two of its length); while the largest one grows, its old buffer (half the
// size) lives beside the new one for a moment, so that is added once. Scalars (numbers, true,
// false, null) live inside their json value and cost only their slot. An element's slot in its
// array counts in the array's buffer; an object member's in its node.
std::size_t parsed_document_bytes(std::string_view text) {
    struct Open {
        bool object;
        std::size_t elements;  // of an array
    };
    std::vector<Open> open;
    std::size_t total = 0, growth = 0;
    bool key_next = false;
    const auto value = [&] {
        if (!open.empty() && !open.back().object) ++open.back().elements;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            std::size_t end = i + 1;
            while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
            const std::size_t length = std::min(end, text.size()) - i - 1;
            if (!open.empty() && open.back().object && key_next) {
                total += chunk(kMemberNode) + heap_text(length);
                key_next = false;
            } else {
                value();
                total += chunk(kString) + heap_text(length);
            }
            i = end;
        } else if (c == '{') {
            value();
            open.push_back({true, 0});
            key_next = true;
            total += chunk(kMap);
        } else if (c == '[') {
            value();
            open.push_back({false, 0});
            total += chunk(kVector);
        } else if (c == ']' || c == '}') {
            if (open.empty()) continue;
            const Open closed = open.back();
            open.pop_back();
            if (closed.object || closed.elements == 0) continue;
            const std::size_t capacity = std::bit_ceil(closed.elements);
            total += chunk(capacity * kValue);
            if (capacity > 1) growth = std::max(growth, chunk(capacity / 2 * kValue));
        } else if (c == ',') {
            if (!open.empty() && open.back().object) key_next = true;
        } else if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n') {
            value();
            while (i + 1 < text.size() && std::string_view(",]}: \t\r\n").find(text[i + 1]) == std::string_view::npos) ++i;
        }
    }
    return total + growth;
}

}  // namespace umpire::json_size
