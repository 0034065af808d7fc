// YAML files -> Lua tables, remembering where every value came from.
//
// Maps become tables, sequences arrays, scalars follow the YAML 1.2 core schema: plain
// true/false (any case variant YAML 1.2 allows) are booleans, plain integers (also 0x.., 0o..)
// and floats (also .inf, .nan) are numbers, null/~/empty is nil (the key is absent; an empty
// sequence item is an error), everything else -- including quoted scalars, "yes", "½", "1/2",
// "3+" -- is a string. Map keys follow the same rules, so `12: ...` gives the key 12.
//
// Every error is "file:line:col: message" (syntax errors, duplicate keys, null list items).
// Marks: each loaded table remembers "file:line:col" for each of its keys (and for itself), so a
// validation message can point into the YAML later (bindings/DataMarks.hpp: marks::push_where).
#pragma once
#include <yaml-cpp/yaml.h>
#include <lua.hpp>

#include <filesystem>
#include <memory>
#include <string>

namespace umpire::yaml {

// Parses `file` and pushes its value. `display` is the file name used in messages.
void push_file(lua_State* L, const std::filesystem::path& file, const std::string& display);
void push_string(lua_State* L, const std::string& text, const std::string& display);

// The two halves of push_string, for a loader that keeps what it parsed (ruleset/LoadCache.hpp):
// parse() does every check above (size, UTF-8, syntax, duplicate keys, limits) and keeps the
// values, keys and marks in C++; push() turns them into fresh Lua tables, the same tables
// push_string makes, as many times as asked, without parsing again. parse() reads the text with
// libyaml's event parser (ruleset/YamlTree.hpp), in yaml-cpp's node model and marks.
struct Document;
// With `charge_to`, the parse tree's C++ memory is charged against that Lua state's memory cap
// while it exists (docs/sandbox.md, "Memory"); a cached parse (no state) has only the node cap.
std::shared_ptr<const Document> parse(const std::string& text, const std::string& display,
                                      lua_State* charge_to = nullptr);
void push(lua_State* L, const Document& document);

// The file size bounds what a parser builds on the C++ heap, outside the Lua memory cap (the
// other limits are in YamlConvert.hpp): a larger data file is refused.
inline constexpr std::size_t kMaxFileBytes = std::size_t{16} << 20;

// The bytes of a data file, refused before they are read when the file is over the size limit.
std::string read_data_file(const std::filesystem::path& file, const std::string& display);

// The YAML tree of text for C++ readers (the manifest, `check`, scenario drawings), under the
// same bounds as parse(): over 16 MiB, or more than 250 000 nodes (counted from the parser's
// events, before yaml-cpp builds its tree of ~500 bytes of C++ heap per node), is a ScriptError
// ("file:line:col: ..."). yaml-cpp's own errors are thrown as YAML::Exception.
YAML::Node parse_tree(const std::string& text, const std::string& display);
// A key given twice in one map of tree, at any depth, as a ScriptError at its place ("file:line:col:
// duplicate key 'name' (first defined at line 1)"), as the data loader refuses it: yaml-cpp keeps
// both, and `root["name"]` finds the first. For the readers that do not convert the tree through
// YamlConvert.hpp (the manifest).
void refuse_repeated_keys(const YAML::Node& tree, const std::string& display);
// parse_tree of a file, refused before it is read when it is over the size limit.
YAML::Node read_tree(const std::filesystem::path& file, const std::string& display);

// Does a plain scalar read as a number in base 10, i.e. match
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? (YAML 1.2 core schema, integers included)?
// Hex is 0x[0-9a-fA-F]+, octal 0o[0-7]+. Exposed for a test against std::regex.
bool is_decimal(const std::string& text);
bool is_hex(const std::string& text);
bool is_octal(const std::string& text);

}  // namespace umpire::yaml
