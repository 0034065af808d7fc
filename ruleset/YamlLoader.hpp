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
#include <string>

namespace umpire::yaml {

// Parses `file` and pushes its value. `display` is the file name used in messages.
void push_file(lua_State* L, const std::filesystem::path& file, const std::string& display);
void push_string(lua_State* L, const std::string& text, const std::string& display);

// The YAML tree of `file` for C++ readers (the manifest, `check`, scenario drawings), under the
// same bounds as push_file: a file over 16 MiB or of more than 250 000 nodes is a ScriptError
// ("file:line:col: ...") before yaml-cpp builds its tree (~500 bytes of C++ heap per node).
// yaml-cpp's own errors are thrown as YAML::Exception.
YAML::Node read_tree(const std::filesystem::path& file, const std::string& display);

}  // namespace umpire::yaml
