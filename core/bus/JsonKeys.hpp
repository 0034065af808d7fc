#pragma once
// A key given twice in one JSON object, found in text from a stranger (a journal, the starting
// state it records). The JSON library keeps the last of them without a word, so a journal whose
// entry says "seq" twice, or a state with two values for one field, was read as one of its
// readings, chosen by the library; RFC 8259 §4 leaves the meaning of such text open.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace umpire::bus {

struct DuplicateKey {
    std::size_t at = 0;  // byte offset of the second key's opening quote
    std::string key;     // decoded (escapes resolved: "\u0061" and "a" are one key)
};

// The first key (in text order) that its object holds already, or nothing. One pass that tracks
// the keys of each open object; `text` must be valid JSON (parse it first: this reads its
// structure, it does not check it).
std::optional<DuplicateKey> duplicate_key_at(std::string_view text);

// 1-based line and column (in bytes) of byte `at` of text.
std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t at);

}  // namespace umpire::bus
