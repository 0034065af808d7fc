// Where a value of umpire.data came from: each table loaded from a data file remembers
// "file:line:col" for each of its keys (and for itself) in weak side tables of the registry, so a
// validation message can point into the file later (umpire.where). The ruleset loader
// (ruleset/YamlLoader.hpp) records the marks as it converts YAML; the Lua face reads them.
//
// Sequences are remembered too: a deep merge replaces a sequence whole but merges maps key by key.
#pragma once
#include <lua.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace umpire::marks {

// The key marks of one table, packed into one string: the file's display name once, then for
// each key its type and value and the 1-based line and column of its mark (push_where spells
// "file:line:col" when asked). One string a table instead of a table of mark strings, because a
// weak-keyed table holds its values strongly (LuaJIT has no ephemerons): the mark table of a data
// table that died stayed reachable from the registry's side table until a collection cleared the
// entry, so each cycle kept alive every mark table made since the one before, and the next
// cycle's pause grew with them. Reloads of asl after data edits: 0.64 MB alive, 1.3 MB left by
// one full collection, the heap peaking at 7.5-13.7 MB between cycles; now 0.59 MB, 0.60 MB and
// 5.1-5.3 MB. A string is interned: a file reloaded with the same keys on the same lines makes
// the very strings the last load made, and leaves nothing behind; an edit that moves lines makes
// one new string for each table it moved, which a cycle still carries, as it carries the tables'
// own marks (smaller than the mark tables were). Pushing is cheaper too: one string a table, where
// a mark table was one table and one string a key.
class KeyMarks {
public:
    // Starts a table's marks; `display` is the file's name in messages.
    void begin(std::string_view display, std::size_t keys);
    void add(std::string_view key, int line, int column);  // a string key
    void add(double key, int line, int column);            // a number key
    void add(bool key, int line, int column);              // a boolean key
    std::string take() { return std::move(packed_); }

private:
    void place(int line, int column);
    std::string packed_;
};

// Records marks for the many tables of one data file: pushes the three side tables once (they
// stay on the stack, above what was there; the caller pops them), so each mark costs a raw set
// or two instead of registry look-ups.
class Writer {
public:
    explicit Writer(lua_State* L);
    // Records `where` for the table itself (the table at `table`, an absolute index), whether it
    // was written as a sequence, and its keys' marks (KeyMarks::take; empty for none).
    void mark_table(int table, const std::string& where, bool sequence, const std::string& key_marks);

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
