// The C++ memory of the nlohmann document parsed from a JSON text, estimated from the text alone,
// before parsing it: `umpire.result` charges it against the Lua memory cap before the journal's
// copy of its data is parsed (bindings/wrap_Journal.cpp; docs/sandbox.md, "Memory").
#pragma once
#include <cstddef>
#include <string_view>

namespace umpire::json_size {

// An upper bound of the heap bytes of nlohmann::json::parse(text) (libstdc++, glibc malloc, 64-bit),
// including the largest array's old buffer while it grows during the parse, and never under the
// real size; measured against it in tests/bindings/test_json_document_size.cpp.
std::size_t parsed_document_bytes(std::string_view text);

}  // namespace umpire::json_size
