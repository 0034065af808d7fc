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
// or two instead of registry look-ups. A table's key marks go into one table made at its final
// size when the table begins, so a key's mark is one raw set: no look-up of the table's mark
// table and no rehash as it grows (a reload of asl records about a thousand of them).
class Writer {
public:
    explicit Writer(lua_State* L);
    // Records `where` for the table itself (the table at `table`, an absolute index), and whether
    // it was written as a sequence. When `keys` > 0, pushes the table's key-mark table, made for
    // that many keys, and returns its absolute index for set_key; the caller pops it once the
    // table's keys are recorded. Returns 0 and pushes nothing when `keys` is 0.
    int begin_table(int table, const std::string& where, bool sequence, int keys);
    // Records `where` for the key at `key` (an absolute index) in the key-mark table at `marks`.
    void set_key(int marks, int key, const std::string& where);

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
