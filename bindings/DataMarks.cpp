#include "bindings/DataMarks.hpp"

#include "bindings/LuaError.hpp"
#include "bindings/LuaTables.hpp"

#include <cstdint>
#include <cstring>

namespace umpire::marks {
namespace {

// weak: table -> its key marks, packed (KeyMarks), or {key -> mark} once a deep merge gave it a
// key from another file
constexpr const char* kKeyMarks = "umpire.yaml.key_marks";
constexpr const char* kSelfMarks = "umpire.yaml.self_marks";  // weak: table -> mark
constexpr const char* kSequences = "umpire.yaml.sequences";   // weak: table -> true


// The packed form (KeyMarks): a 32-bit length and the display name, then records of a type byte
// (kBoolean: one byte; kNumber: a double; kString: a 32-bit length and the bytes) and the line
// and column as 32-bit numbers. Native byte order: it never leaves the process.
enum RecordType : char { kBoolean = 1, kNumber = 2, kString = 3 };

void put_u32(std::string& out, std::uint32_t n) { out.append(reinterpret_cast<const char*>(&n), sizeof n); }

std::uint32_t get_u32(std::string_view& in) {
    std::uint32_t n = 0;
    std::memcpy(&n, in.data(), sizeof n);
    in.remove_prefix(sizeof n);
    return n;
}

struct Record {
    char type = 0;
    bool boolean = false;
    double number = 0;
    std::string_view text;
    std::uint32_t line = 0, column = 0;
};

// Reads the record at the front of `in` (the part after the display name) and moves past it.
Record next_record(std::string_view& in) {
    Record r;
    r.type = in.front();
    in.remove_prefix(1);
    if (r.type == kBoolean) {
        r.boolean = in.front() != 0;
        in.remove_prefix(1);
    } else if (r.type == kNumber) {
        std::memcpy(&r.number, in.data(), sizeof r.number);
        in.remove_prefix(sizeof r.number);
    } else {
        const std::uint32_t n = get_u32(in);
        r.text = in.substr(0, n);
        in.remove_prefix(n);
    }
    r.line = get_u32(in);
    r.column = get_u32(in);
    return r;
}

// Packed marks held by the Lua string at `index`, read record by record: the display name, then
// each key with its place. (The views are into the string, which stays on the stack meanwhile.)
class PackedMarks {
public:
    PackedMarks(lua_State* L, int index) {
        std::size_t n = 0;
        const char* packed = lua_tolstring(L, index, &n);
        rest_ = std::string_view(packed, n);
        const std::uint32_t display_size = get_u32(rest_);
        display_ = rest_.substr(0, display_size);
        rest_.remove_prefix(display_size);
    }
    std::string_view display() const { return display_; }
    // The next record into `r`; false once there is none.
    bool next(Record& r) {
        if (rest_.empty()) return false;
        r = next_record(rest_);
        return true;
    }

private:
    std::string_view display_, rest_;
};

void push_mark(lua_State* L, std::string_view display, const Record& r) {
    std::string mark;
    mark.reserve(display.size() + 24);
    mark.append(display).append(1, ':').append(std::to_string(r.line)).append(1, ':').append(std::to_string(r.column));
    lua_pushlstring(L, mark.data(), mark.size());
}

// Does the record's key equal the value at `key`?
bool same_key(lua_State* L, int key, const Record& r) {
    switch (lua_type(L, key)) {
        case LUA_TBOOLEAN: return r.type == kBoolean && r.boolean == (lua_toboolean(L, key) != 0);
        case LUA_TNUMBER: return r.type == kNumber && r.number == lua_tonumber(L, key);
        case LUA_TSTRING: {
            std::size_t n = 0;
            const char* s = lua_tolstring(L, key, &n);
            return r.type == kString && std::string_view(s, n) == r.text;
        }
        default: return false;
    }
}

void push_key(lua_State* L, const Record& r) {
    if (r.type == kBoolean) lua_pushboolean(L, r.boolean);
    else if (r.type == kNumber) lua_pushnumber(L, r.number);
    else lua_pushlstring(L, r.text.data(), r.text.size());
}

// Pushes the key-mark table of the table at `table` (absolute) for a deep merge to write to:
// packed marks are unpacked into a table {key -> mark} first; none gives a new, empty one.
void push_writable_key_marks(lua_State* L, int table) {
    lua::push_weak_keyed(L, kKeyMarks);
    lua_pushvalue(L, table);
    lua_rawget(L, -2);
    if (lua_istable(L, -1)) {
        lua_remove(L, -2);
        return;
    }
    lua_newtable(L);
    if (lua_type(L, -2) == LUA_TSTRING) {
        PackedMarks packed(L, -2);
        for (Record r; packed.next(r);) {
            push_key(L, r);
            push_mark(L, packed.display(), r);
            lua_rawset(L, -3);
        }
    }
    lua_remove(L, -2);  // the packed marks or nil
    lua_pushvalue(L, table);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
    lua_remove(L, -2);  // the side table
}

}  // namespace

void KeyMarks::begin(std::string_view display, std::size_t keys) {
    packed_.clear();
    packed_.reserve(sizeof(std::uint32_t) + display.size() + keys * 20);
    put_u32(packed_, static_cast<std::uint32_t>(display.size()));
    packed_.append(display);
}

void KeyMarks::place(int line, int column) {
    put_u32(packed_, static_cast<std::uint32_t>(line));
    put_u32(packed_, static_cast<std::uint32_t>(column));
}

void KeyMarks::add(std::string_view key, int line, int column) {
    packed_.push_back(kString);
    put_u32(packed_, static_cast<std::uint32_t>(key.size()));
    packed_.append(key);
    place(line, column);
}

void KeyMarks::add(double key, int line, int column) {
    packed_.push_back(kNumber);
    packed_.append(reinterpret_cast<const char*>(&key), sizeof key);
    place(line, column);
}

void KeyMarks::add(bool key, int line, int column) {
    packed_.push_back(kBoolean);
    packed_.push_back(key ? 1 : 0);
    place(line, column);
}

Writer::Writer(lua_State* L) : L_(L) {
    lua::push_weak_keyed(L, kKeyMarks);
    key_marks_ = lua_gettop(L);
    lua::push_weak_keyed(L, kSelfMarks);
    self_marks_ = lua_gettop(L);
    lua::push_weak_keyed(L, kSequences);
    sequences_ = lua_gettop(L);
}

void Writer::mark_table(int table, const std::string& where, bool sequence, const std::string& key_marks) {
    if (!where.empty()) {  // an empty file's table has no mark
        lua_pushvalue(L_, table);
        lua_pushlstring(L_, where.data(), where.size());
        lua_rawset(L_, self_marks_);
    }
    if (sequence) {
        lua_pushvalue(L_, table);
        lua_pushboolean(L_, 1);
        lua_rawset(L_, sequences_);
    }
    if (key_marks.empty()) return;
    lua_pushvalue(L_, table);
    lua_pushlstring(L_, key_marks.data(), key_marks.size());
    lua_rawset(L_, key_marks_);
}

void push_where(lua_State* L, int table_index, int key_index) {
    if (table_index < 0) table_index = lua_gettop(L) + table_index + 1;
    if (key_index < 0) key_index = lua_gettop(L) + key_index + 1;
    if (key_index == 0 || lua_isnil(L, key_index)) {
        lua::push_weak_keyed(L, kSelfMarks);
        lua_pushvalue(L, table_index);
        lua_rawget(L, -2);
        lua_remove(L, -2);
        return;
    }
    lua::push_weak_keyed(L, kKeyMarks);
    lua_pushvalue(L, table_index);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (lua_istable(L, -1)) {
        lua_pushvalue(L, key_index);
        lua_rawget(L, -2);
        lua_remove(L, -2);
        return;
    }
    if (lua_type(L, -1) != LUA_TSTRING) return;  // nil: no marks
    // Packed marks: looked for key by key (umpire.where answers messages; it is never hot).
    PackedMarks packed(L, -1);
    for (Record r; packed.next(r);) {
        if (same_key(L, key_index, r)) {
            push_mark(L, packed.display(), r);
            lua_remove(L, -2);
            return;
        }
    }
    lua_pop(L, 1);
    lua_pushnil(L);
}

bool is_sequence(lua_State* L, int table_index) {
    if (table_index < 0) table_index = lua_gettop(L) + table_index + 1;
    lua::push_weak_keyed(L, kSequences);
    lua_pushvalue(L, table_index);
    lua_rawget(L, -2);
    const bool result = lua_toboolean(L, -1);
    lua_pop(L, 2);
    return result;
}

void deep_merge(lua_State* L, int dst, int src) {
    if (dst < 0) dst = lua_gettop(L) + dst + 1;
    if (src < 0) src = lua_gettop(L) + src + 1;
    lua::StackCheck check(L, 0);
    lua_pushnil(L);
    while (lua_next(L, src) != 0) {
        const int key = lua_gettop(L) - 1, value = lua_gettop(L);
        lua_pushvalue(L, key);
        lua_rawget(L, dst);
        const bool both_maps = lua_istable(L, -1) && lua_istable(L, value) &&
                               !is_sequence(L, -1) && !is_sequence(L, value);
        if (both_maps) {
            deep_merge(L, lua_gettop(L), value);
            lua_pop(L, 1);
        } else {
            lua_pop(L, 1);
            lua_pushvalue(L, key);
            lua_pushvalue(L, value);
            lua_rawset(L, dst);
            // The key's mark now points into the file that provided the new value.
            push_where(L, src, key);
            if (!lua_isnil(L, -1)) {
                lua::push_weak_keyed(L, kKeyMarks);
                lua_pushvalue(L, dst);
                lua_rawget(L, -2);
                const bool marked = !lua_isnil(L, -1);
                lua_pop(L, 2);
                if (marked) {  // (a table that has no key marks gets none, as before)
                    push_writable_key_marks(L, dst);
                    lua_pushvalue(L, key);
                    lua_pushvalue(L, -3);
                    lua_rawset(L, -3);
                    lua_pop(L, 1);
                }
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);  // value
    }
}

}  // namespace umpire::marks
