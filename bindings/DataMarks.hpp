// Where a value of umpire.data came from: each table loaded from a data file remembers
// "file:line:col" for each of its keys (and for itself) in weak side tables of the registry, so a
// validation message can point into the file later (umpire.where). The ruleset loader
// (ruleset/YamlLoader.hpp) records the marks as it converts YAML; the Lua face reads them.
//
// Sequences are remembered too: a deep merge replaces a sequence whole but merges maps key by key.
#pragma once
#include <lua.hpp>

#include <string>

namespace umpire::marks {

// Records marks for the many tables of one data file: pushes the three side tables once (they
// stay on the stack, above what was there; the caller pops them), so each mark costs a raw set
// or two instead of registry look-ups.
class Writer {
public:
    explicit Writer(lua_State* L);
    // Records `where` for the table itself, and whether it was written as a sequence.
    void set_table(int table, const std::string& where, bool sequence);
    // Records `where` for table[key] (the table at `table`, the key at `key`; absolute indices).
    void set_key(int table, int key, const std::string& where);

private:
    lua_State* L_;
    int key_marks_, self_marks_, sequences_;
};

// Pushes "file:line:col" of table[key] (the key at key_index; nil key: the table itself), or nil.
void push_where(lua_State* L, int table_index, int key_index);

// True if the table was written as a sequence (decides "replace" in a deep merge).
bool is_sequence(lua_State* L, int table_index);

// Deep merge of the table at src into the table at dst: maps merge key by key, sequences and
// scalars from src replace. Marks of replaced keys follow the new values.
void deep_merge(lua_State* L, int dst, int src);

}  // namespace umpire::marks
