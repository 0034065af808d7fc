#include "host/DataGuard.hpp"
#include "host/ModuleGuard.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <new>
#include <utility>
#include <vector>

#include "bindings/DataCaches.hpp"
#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/LuaTables.hpp"
#include "bindings/ReadOnlyData.hpp"
#include "host/LuaHost.hpp"
#include "host/Sandbox.hpp"

namespace umpire {

namespace {

// One key or value of the copy. `slot` is a table's index for LUA_TTABLE, the anchor slot for a
// function, userdata or thread (compared by identity).
struct Value {
    int type = LUA_TNIL;
    bool boolean = false;
    std::uint64_t number_bits = 0;
    std::string string;
    int slot = 0;
};

struct Entry {
    Value key;
    Value value;
};

int absolute(lua_State* L, int index) {
    return index > 0 || index <= LUA_REGISTRYINDEX ? index : lua_gettop(L) + index + 1;
}

// Booleans, numbers and strings are kept by value; anything else by identity.
bool by_value(int type) {
    return type == LUA_TBOOLEAN || type == LUA_TNUMBER || type == LUA_TSTRING;
}

std::uint64_t bits_of(double d) {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

double double_of(std::uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

// pairs() order: booleans (false, true), numbers ascending, strings in byte order, then the rest
// by anchor slot (their order of discovery).
int rank(int type) {
    switch (type) {
        case LUA_TBOOLEAN: return 0;
        case LUA_TNUMBER: return 1;
        case LUA_TSTRING: return 2;
        default: return 3;
    }
}

bool key_less(const Value& a, const Value& b) {
    if (rank(a.type) != rank(b.type)) return rank(a.type) < rank(b.type);
    switch (a.type) {
        case LUA_TBOOLEAN: return a.boolean < b.boolean;
        case LUA_TNUMBER: return double_of(a.number_bits) < double_of(b.number_bits);
        case LUA_TSTRING: return a.string < b.string;
        default: return a.slot < b.slot;
    }
}

bool is_identifier(const std::string& s) {
    static const char* const kKeywords[] = {"and", "break", "do", "else", "elseif", "end", "false", "for",
                                            "function", "if", "in", "local", "nil", "not", "or", "repeat",
                                            "return", "then", "true", "until", "while"};
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return std::none_of(std::begin(kKeywords), std::end(kKeywords), [&](const char* k) { return s == k; });
}

// ".name", "[3]", "[\"two words\"]", "[true]", "[?]" for a key of another type.
std::string key_suffix(const Value& key) {
    switch (key.type) {
        case LUA_TBOOLEAN: return key.boolean ? "[true]" : "[false]";
        case LUA_TNUMBER: {
            const double d = double_of(key.number_bits);
            char text[40];
            if (d == std::floor(d) && std::fabs(d) < 1e15) std::snprintf(text, sizeof text, "[%.0f]", d);
            else std::snprintf(text, sizeof text, "[%.17g]", d);
            return text;
        }
        case LUA_TSTRING: {
            if (is_identifier(key.string)) return "." + key.string;
            std::string quoted = "[\"";
            for (char c : key.string) {
                if (c == '"' || c == '\\') quoted += '\\';
                quoted += c;
            }
            return quoted + "\"]";
        }
        default: return "[?]";
    }
}

// __newindex of the read-only data metatable: a new key in a data table is refused at once, with
// the table's path when the guard knows it. (Writes to existing keys never reach __newindex in
// Lua 5.1; the check after the run finds those.)
int l_data_newindex(lua_State* L) {
    std::string path = DataGuard::path_of(L, 1);
    if (path.empty()) path = "umpire.data";
    lua_pushvalue(L, 2);
    const char* key = lua_type(L, 2) == LUA_TSTRING || lua_type(L, 2) == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, 2);
    return luaL_error(L, "cannot add the key '%s' to %s: umpire.data is read-only (copy it first, and change the copy)",
                      key, path.c_str());
}

// Pushes the read-only data metatable, made once per state.
void push_trap(lua_State* L) {
    if (luaL_newmetatable(L, read_only_data::kMetatable)) {
        lua_pushcfunction(L, l_data_newindex);
        lua_setfield(L, -2, "__newindex");
        lua_pushboolean(L, 0);  // getmetatable() answers false; setmetatable() is refused
        lua_setfield(L, -2, "__metatable");
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, read_only_data::kMarker);
    }
}

// Table pointer -> index, for a seal's walk: open addressing in one vector (linear probing, at
// most half full). The std::unordered_maps it replaces allocated and freed a node for each of the
// few hundred tables of every seal.
class PointerIndex {
public:
    explicit PointerIndex(std::size_t expected = 0) { rehash(expected * 2 + 16); }
    // Keeps `index` for p unless p has one; returns the index kept and whether it was added.
    std::pair<std::size_t, bool> emplace(const void* p, std::size_t index) {
        if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
        Slot& slot = slots_[probe(p)];
        if (slot.key == p) return {slot.index, false};
        slot = {p, index};
        ++size_;
        return {index, true};
    }
    static constexpr std::size_t npos = SIZE_MAX;
    // The index kept for p, or npos.
    std::size_t find(const void* p) const {
        const Slot& slot = slots_[probe(p)];
        return slot.key == p ? slot.index : npos;
    }

private:
    struct Slot {
        const void* key = nullptr;
        std::size_t index = 0;
    };
    // The slot holding p, or the empty slot where it would go (tables are never null).
    std::size_t probe(const void* p) const {
        const std::size_t mask = slots_.size() - 1;
        std::size_t at = (static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) >> 3) * 0x9E3779B97F4A7C15ull) >> 20 & mask;
        while (slots_[at].key != nullptr && slots_[at].key != p) at = (at + 1) & mask;
        return at;
    }
    void rehash(std::size_t at_least) {
        std::size_t capacity = 16;
        while (capacity < at_least) capacity *= 2;
        std::vector<Slot> old(capacity);
        old.swap(slots_);
        for (const Slot& slot : old)
            if (slot.key) slots_[probe(slot.key)] = slot;
    }
    std::vector<Slot> slots_;
    std::size_t size_ = 0;
};

}  // namespace

struct DataGuard::Snapshot {
    struct Table {
        const void* pointer = nullptr;
        // Where it was found: the table holding it and the entry of its key there (the root,
        // umpire.data, has no parent). Its path is spelled from these only when a message needs
        // it: building every table's path at the seal was a tenth of a reload's seal.
        static constexpr std::size_t kNoParent = SIZE_MAX;
        std::size_t parent = kNoParent;
        std::size_t key_entry = 0;
        std::size_t first = 0;  // its entries: entries[first, first + count)
        std::size_t count = 0;
        int metatable_slot = 0;  // anchor slot of its metatable at the seal; 0: none
    };
    lua_State* L = nullptr;
    int anchor = LUA_NOREF;  // registry: [i] = table i (1-based), then the other values
    int anchor_size = 0;
    std::vector<Table> tables;  // tables[0] is umpire.data itself
    std::vector<Entry> entries;
    // For each table, its keys in the order next() gave them at the seal: next_order[first + j] is
    // the position (0..count-1) among its entries of the j-th key next() gave (verify's fast walk).
    std::vector<std::uint32_t> next_order;
    std::size_t charged = 0;

    // "umpire.data.ift.columns[3]": the path of table i.
    std::string path(std::size_t i) const {
        const Table& t = tables[i];
        if (t.parent == Table::kNoParent) return "umpire.data";
        return path(t.parent) + key_suffix(entries[t.key_entry].key);
    }

    // Appends the value at `index` to the anchor; returns its slot.
    int anchor_value(int index) {
        index = absolute(L, index);
        lua_rawgeti(L, LUA_REGISTRYINDEX, anchor);
        lua_pushvalue(L, index);
        lua_rawseti(L, -2, ++anchor_size);
        lua_pop(L, 1);
        return anchor_size;
    }

    void push_value(const Value& v) {
        switch (v.type) {
            case LUA_TBOOLEAN: lua_pushboolean(L, v.boolean); break;
            case LUA_TNUMBER: lua_pushnumber(L, double_of(v.number_bits)); break;
            case LUA_TSTRING: lua_pushlstring(L, v.string.data(), v.string.size()); break;
            case LUA_TNIL: lua_pushnil(L); break;
            case LUA_TTABLE: lua_rawgeti(L, LUA_REGISTRYINDEX, anchor); lua_rawgeti(L, -1, v.slot + 1); lua_remove(L, -2); break;
            default: lua_rawgeti(L, LUA_REGISTRYINDEX, anchor); lua_rawgeti(L, -1, v.slot); lua_remove(L, -2); break;
        }
    }

    // Does the table at `table` (table i of this copy: t) hold exactly its records, met in the
    // order next() gave its keys at the seal? false also when it does but in another order.
    bool same_in_next_order(int table, const Table& t) {
        std::size_t j = 0;
        lua_pushnil(L);
        while (lua_next(L, table) != 0) {
            if (j == t.count) {
                lua_pop(L, 2);
                return false;
            }
            const Entry& e = entries[t.first + next_order[t.first + j]];
            if (!equals(-2, e.key) || !equals(-1, e.value)) {
                lua_pop(L, 2);
                return false;
            }
            lua_pop(L, 1);
            ++j;
        }
        return j == t.count;
    }

    // Has the table at `table` (t) the metatable it had at the seal? (`anchor_at`: the stack
    // index of this copy's anchor table)
    bool same_metatable(int table, const Table& t, int anchor_at) {
        const bool has = lua_getmetatable(L, table) != 0;
        bool same = !has && t.metatable_slot == 0;
        if (has && t.metatable_slot != 0) {
            lua_rawgeti(L, anchor_at, t.metatable_slot);
            same = lua_rawequal(L, -1, -2) != 0;
            lua_pop(L, 1);
        }
        if (has) lua_pop(L, 1);
        return same;
    }

    // Does the value at `index` equal v (tables by identity)?
    bool equals(int index, const Value& v) {
        if (lua_type(L, index) != v.type) return false;
        switch (v.type) {
            case LUA_TBOOLEAN: return (lua_toboolean(L, index) != 0) == v.boolean;
            case LUA_TNUMBER: return bits_of(lua_tonumber(L, index)) == v.number_bits;
            case LUA_TSTRING: {
                std::size_t n = 0;
                const char* s = lua_tolstring(L, index, &n);
                return n == v.string.size() && std::memcmp(s, v.string.data(), n) == 0;
            }
            case LUA_TTABLE: return lua_topointer(L, index) == tables[static_cast<std::size_t>(v.slot)].pointer;
            default: {
                index = absolute(L, index);
                push_value(v);
                const bool same = lua_rawequal(L, index, -1) != 0;
                lua_pop(L, 1);
                return same;
            }
        }
    }
};

namespace {
void push_data(LuaHost& host);
}  // namespace

DataGuard::DataGuard(Game& game) : game_(game) {}

DataGuard::~DataGuard() {
    for (auto& s : snapshots_) {
        luaL_unref(s->L, LUA_REGISTRYINDEX, s->anchor);
        game_.release_memory(s->charged);
    }
}

DataGuard::Snapshot* DataGuard::find(lua_State* L, int index) {
    if (!lua_istable(L, index)) return nullptr;
    const void* root = lua_topointer(L, index);
    for (auto& s : snapshots_)
        if (s->tables.front().pointer == root) return s.get();
    return nullptr;
}

void DataGuard::seal(lua_State* L, int index, int reuse) {
    index = absolute(L, index);
    if (reuse) reuse = absolute(L, reuse);
    // Sealed again (a second load into the same generation): the new copy replaces the old one.
    for (auto it = snapshots_.begin(); it != snapshots_.end(); ++it)
        if ((*it)->tables.front().pointer == lua_topointer(L, index)) {
            luaL_unref(L, LUA_REGISTRYINDEX, (*it)->anchor);
            game_.release_memory((*it)->charged);
            snapshots_.erase(it);
            break;
        }
    // The copy whose records may be taken for the tables it holds (never the root being sealed:
    // its old copy was just dropped).
    const Snapshot* from = reuse ? find(L, reuse) : nullptr;
    PointerIndex known(from ? from->tables.size() : 0);  // pointer -> index in from->tables
    if (from)
        for (std::size_t j = 0; j < from->tables.size(); ++j) known.emplace(from->tables[j].pointer, j);
    auto snapshot = std::make_unique<Snapshot>();
    Snapshot& s = *snapshot;
    s.L = L;
    lua_newtable(L);
    s.anchor = luaL_ref(L, LUA_REGISTRYINDEX);
    PointerIndex table_of(from ? from->tables.size() : 0);  // pointer -> index in s.tables
    if (from) {
        // A reseal after an edit keeps most of `from`: sized for it at once, so that its records
        // are not moved again at each growth of the vectors (each Entry holds two strings).
        s.tables.reserve(from->tables.size());
        s.entries.reserve(from->entries.size());
        s.next_order.reserve(from->next_order.size());
    }
    auto add_table = [&](int at, std::size_t parent, std::size_t key_entry) {
        const void* p = lua_topointer(L, at);
        const auto [index, fresh] = table_of.emplace(p, s.tables.size());
        if (fresh) {
            Snapshot::Table t;
            t.pointer = p;
            t.parent = parent;
            t.key_entry = key_entry;
            s.tables.push_back(std::move(t));
            lua_rawgeti(L, LUA_REGISTRYINDEX, s.anchor);
            lua_pushvalue(L, at);
            lua_rawseti(L, -2, static_cast<int>(s.tables.size()));
            lua_pop(L, 1);
        }
        return static_cast<int>(index);
    };
    add_table(index, Snapshot::Table::kNoParent, 0);
    // Tables occupy anchor slots 1..T as they are found; other values are appended after all of
    // them, so they go to a side list first and are anchored at the end.
    std::vector<std::pair<std::size_t, bool>> others;  // (entry, is key) to anchor afterwards
    lua_newtable(L);  // scratch: other keys and values, by scratch slot
    const int scratch = lua_gettop(L);
    int scratch_size = 0;
    auto read = [&](int at, Value& v) {
        v.type = lua_type(L, at);
        switch (v.type) {
            case LUA_TBOOLEAN: v.boolean = lua_toboolean(L, at) != 0; break;
            case LUA_TNUMBER: v.number_bits = bits_of(lua_tonumber(L, at)); break;
            case LUA_TSTRING: {
                std::size_t n = 0;
                const char* text = lua_tolstring(L, at, &n);
                v.string.assign(text, n);
                break;
            }
            case LUA_TTABLE: break;  // by the caller, in sorted order
            default:
                lua_pushvalue(L, at);
                lua_rawseti(L, scratch, ++scratch_size);
                v.slot = scratch_size;
        }
    };
    // The anchor and the trap stay on the stack for the walk: a registry look-up for each of a
    // few hundred tables was a tenth of a reload's seal.
    lua_rawgeti(L, LUA_REGISTRYINDEX, s.anchor);
    const int anchor = lua_gettop(L);
    push_trap(L);
    const int trap = lua_gettop(L);
    if (from) lua_rawgeti(L, LUA_REGISTRYINDEX, from->anchor);
    else lua_pushnil(L);
    const int from_anchor = lua_gettop(L);
    // A value `from` keeps by identity at its anchor slot, moved to this seal's scratch.
    auto rescratch = [&](int from_slot) {
        lua_rawgeti(L, from_anchor, from_slot);
        lua_rawseti(L, scratch, ++scratch_size);
        return scratch_size;
    };
    std::vector<Entry> entries;  // one table's, reused from table to table
    std::vector<std::uint32_t> order;  // its entries' positions in pairs() order
    for (std::size_t i = 0; i < s.tables.size(); ++i) {
        lua_rawgeti(L, anchor, static_cast<int>(i + 1));
        const int table = lua_gettop(L);
        if (const std::size_t hit = from ? known.find(s.tables[i].pointer) : PointerIndex::npos; hit != PointerIndex::npos) {
            // A table of `from`: its records as they were sealed there, sorted already; a child
            // table is found in the same order as the walk below would find it.
            const Snapshot::Table& old = from->tables[hit];
            s.tables[i].first = s.entries.size();
            s.tables[i].count = old.count;
            s.tables[i].metatable_slot = old.metatable_slot ? -rescratch(old.metatable_slot) : 0;
            s.next_order.insert(s.next_order.end(), from->next_order.begin() + static_cast<std::ptrdiff_t>(old.first),
                                from->next_order.begin() + static_cast<std::ptrdiff_t>(old.first + old.count));
            for (std::size_t k = old.first; k < old.first + old.count; ++k) {
                // Copied in place (a copy then a move was twice the string work).
                const std::size_t at = s.entries.size();
                Entry& e = s.entries.emplace_back(from->entries[k]);
                if (!by_value(e.key.type)) e.key.slot = rescratch(e.key.slot);
                if (e.value.type == LUA_TTABLE) {
                    lua_rawgeti(L, from_anchor, e.value.slot + 1);
                    e.value.slot = add_table(lua_gettop(L), i, at);
                    lua_pop(L, 1);
                } else if (!by_value(e.value.type)) {
                    e.value.slot = rescratch(e.value.slot);
                }
            }
            lua_pop(L, 1);
            continue;
        }
        entries.clear();
        lua_pushnil(L);
        while (lua_next(L, table) != 0) {
            Entry e;
            read(-2, e.key);
            if (e.key.type == LUA_TTABLE) {
                // A table as a key (not in YAML data): kept by identity like a function, not
                // walked; "light userdata" here only means "push it from the anchor".
                lua_pushvalue(L, -2);
                lua_rawseti(L, scratch, ++scratch_size);
                e.key.type = LUA_TLIGHTUSERDATA;
                e.key.slot = scratch_size;
            }
            read(-1, e.value);
            if (e.value.type == LUA_TTABLE) {
                lua_pushvalue(L, -1);
                lua_rawseti(L, scratch, ++scratch_size);
                e.value.slot = -scratch_size;  // resolved below, after sorting
            }
            entries.push_back(std::move(e));
            lua_pop(L, 1);
        }
        // Sorted by position, not moved about: an Entry holds two strings, and swapping them in
        // the sort cost more than the comparisons.
        order.resize(entries.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<std::uint32_t>(k);
        std::sort(order.begin(), order.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return key_less(entries[a].key, entries[b].key); });
        Snapshot::Table& t = s.tables[i];
        t.first = s.entries.size();
        t.count = entries.size();
        // A table without a metatable gets the trap (new keys refused at once); one that has its
        // own keeps it, and is checked after the run like the others.
        if (!lua_getmetatable(L, table)) {
            lua_pushvalue(L, trap);
            lua_pushvalue(L, -1);
            lua_setmetatable(L, table);
        }
        lua_rawseti(L, scratch, ++scratch_size);
        t.metatable_slot = -scratch_size;
        s.next_order.resize(t.first + t.count);
        for (std::size_t r = 0; r < order.size(); ++r) s.next_order[t.first + order[r]] = static_cast<std::uint32_t>(r);
        for (const std::uint32_t k : order) {
            Entry& e = entries[k];
            if (e.value.type == LUA_TTABLE) {
                lua_rawgeti(L, scratch, -e.value.slot);
                e.value.slot = add_table(lua_gettop(L), i, s.entries.size());
                lua_pop(L, 1);
            }
            s.entries.push_back(std::move(e));
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 3);  // the anchor, the trap and from's anchor
    // Now that every table has its slot, anchor the other values after them.
    s.anchor_size = static_cast<int>(s.tables.size());
    auto anchor_scratch = [&](int& slot) {
        lua_rawgeti(L, scratch, slot);
        slot = s.anchor_value(-1);
        lua_pop(L, 1);
    };
    for (auto& e : s.entries) {
        if (!by_value(e.key.type)) anchor_scratch(e.key.slot);
        if (!by_value(e.value.type) && e.value.type != LUA_TTABLE) anchor_scratch(e.value.slot);
    }
    for (auto& t : s.tables)
        if (t.metatable_slot < 0) {
            int slot = -t.metatable_slot;
            anchor_scratch(slot);
            t.metatable_slot = slot;
        }
    lua_pop(L, 1);  // scratch
    std::size_t bytes = sizeof(Snapshot) + s.tables.size() * sizeof(Snapshot::Table) + s.entries.size() * sizeof(Entry) +
                        s.next_order.size() * sizeof(std::uint32_t);
    for (const auto& e : s.entries) bytes += e.key.string.capacity() + e.value.string.capacity();
    if (!game_.charge_memory(bytes)) {
        luaL_unref(L, LUA_REGISTRYINDEX, s.anchor);
        throw ScriptError("memory limit: the read-only copy of umpire.data (~" + std::to_string(bytes >> 20) +
                          " MiB) would pass the Lua memory cap");
    }
    s.charged = bytes;
    if (snapshots_.size() >= 2) {
        // The oldest seal goes, unless it is the committed generation's: after failed loads in a
        // row (each sealed its own tables) that one must stay, or its data is guarded no more.
        push_data(LuaHost::from(L));
        const void* committed = lua_istable(L, -1) ? lua_topointer(L, -1) : nullptr;
        lua_pop(L, 1);
        auto victim = snapshots_.begin();
        if ((*victim)->tables.front().pointer == committed) ++victim;
        luaL_unref((*victim)->L, LUA_REGISTRYINDEX, (*victim)->anchor);
        game_.release_memory((*victim)->charged);
        snapshots_.erase(victim);
    }
    snapshots_.push_back(std::move(snapshot));
}

std::string DataGuard::verify(lua_State* L, int index) {
    Snapshot* s = find(L, index);
    if (!s) return "";
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->anchor);
    const int anchor = lua_gettop(L);
    std::string changed;
    for (std::size_t i = 0; i < s->tables.size() && changed.empty(); ++i) {
        const Snapshot::Table& t = s->tables[i];
        lua_rawgeti(L, anchor, static_cast<int>(i + 1));
        const int table = lua_gettop(L);
        // The fast walk: a table nothing wrote to gives its keys in the order next() gave them at
        // the seal, so one next() walk compares every pair with its record, with no look-up. Any
        // difference (a write, or only keys in another order) leaves it to the full check below,
        // which finds the same first change as ever; so what verify answers never depends on it.
        if (s->same_in_next_order(table, t)) {
            if (!s->same_metatable(table, t, anchor)) changed = s->path(i) + " (its metatable)";
            lua_pop(L, 1);
            continue;
        }
        for (std::size_t k = t.first; k < t.first + t.count; ++k) {
            const Entry& e = s->entries[k];
            s->push_value(e.key);
            lua_rawget(L, table);
            const bool same = s->equals(-1, e.value);
            lua_pop(L, 1);
            if (!same) {
                changed = s->path(i) + key_suffix(e.key);
                break;
            }
        }
        if (changed.empty()) {
            // Every recorded key holds its value; one key more means one was added. Find the
            // first added key in pairs() order, so the message does not depend on next().
            std::size_t live = 0;
            lua_pushnil(L);
            while (lua_next(L, table) != 0) {
                ++live;
                lua_pop(L, 1);
            }
            if (live != t.count) {
                std::vector<Value> added;
                lua_pushnil(L);
                while (lua_next(L, table) != 0) {
                    Value key;
                    key.type = lua_type(L, -2);
                    if (key.type == LUA_TBOOLEAN) key.boolean = lua_toboolean(L, -2) != 0;
                    else if (key.type == LUA_TNUMBER) key.number_bits = bits_of(lua_tonumber(L, -2));
                    else if (key.type == LUA_TSTRING) {
                        std::size_t n = 0;
                        const char* text = lua_tolstring(L, -2, &n);
                        key.string.assign(text, n);
                    }
                    const bool known = std::any_of(
                        s->entries.begin() + static_cast<std::ptrdiff_t>(t.first),
                        s->entries.begin() + static_cast<std::ptrdiff_t>(t.first + t.count), [&](const Entry& e) {
                            if (!by_value(e.key.type)) {
                                lua_rawgeti(L, anchor, e.key.slot);
                                const bool same = lua_rawequal(L, -1, -3) != 0;
                                lua_pop(L, 1);
                                return same;
                            }
                            return e.key.type == key.type && e.key.boolean == key.boolean &&
                                   e.key.number_bits == key.number_bits && e.key.string == key.string;
                        });
                    if (!known) added.push_back(std::move(key));
                    lua_pop(L, 1);
                }
                std::sort(added.begin(), added.end(), key_less);
                changed = s->path(i) + (added.empty() ? "" : key_suffix(added.front()));
            }
        }
        if (changed.empty() && !s->same_metatable(table, t, anchor)) changed = s->path(i) + " (its metatable)";
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return changed;
}

void DataGuard::restore(lua_State* L, int index) {
    Snapshot* s = find(L, index);
    if (!s) return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->anchor);
    const int anchor = lua_gettop(L);
    for (std::size_t i = 0; i < s->tables.size(); ++i) {
        const Snapshot::Table& t = s->tables[i];
        lua_rawgeti(L, anchor, static_cast<int>(i + 1));
        const int table = lua_gettop(L);
        lua::clear_table(L, table);
        for (std::size_t k = t.first; k < t.first + t.count; ++k) {
            const Entry& e = s->entries[k];
            s->push_value(e.key);
            s->push_value(e.value);
            lua_rawset(L, table);
        }
        if (t.metatable_slot != 0) lua_rawgeti(L, anchor, t.metatable_slot);
        else lua_pushnil(L);
        lua_setmetatable(L, table);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

bool DataGuard::sealed(lua_State* L, int index) { return find(L, index) != nullptr; }

bool DataGuard::replace_value(lua_State* L, int index, const char* key, int value) {
    index = absolute(L, index);
    value = absolute(L, value);
    const auto by_identity = [](int type) { return !by_value(type) && type != LUA_TTABLE && type != LUA_TNIL; };
    Snapshot* s = find(L, index);
    if (!s || !by_identity(lua_type(L, value))) return false;
    const Snapshot::Table& root = s->tables.front();
    for (std::size_t k = root.first; k < root.first + root.count; ++k) {
        Entry& e = s->entries[k];
        if (e.key.type != LUA_TSTRING || e.key.string != key) continue;
        if (!by_identity(e.value.type)) return false;
        lua_pushstring(L, key);
        lua_pushvalue(L, value);
        lua_rawset(L, index);  // an existing key: its slot is reused
        lua_rawgeti(L, LUA_REGISTRYINDEX, s->anchor);
        lua_pushvalue(L, value);
        lua_rawseti(L, -2, e.value.slot);  // the slot of the value it replaces
        lua_pop(L, 1);
        e.value.type = lua_type(L, value);
        return true;
    }
    return false;
}

namespace {

// Pushes the committed generation's umpire.data (nil if there is none).
void push_data(LuaHost& host) {
    lua_State* L = host.state();
    host.push_env();
    lua_getfield(L, -1, "umpire");
    lua_remove(L, -2);
    if (lua_istable(L, -1)) lua_getfield(L, -1, "data");
    else lua_pushnil(L);
    lua_remove(L, -2);
}

}  // namespace

// Verifies the committed generation's umpire.data and puts it back if it changed; returns the
// first changed path ("" if none). Putting a table back can allocate (a key's slot in a table a
// write made rehash smaller, a string the collector freed), and after a memory stop the heap may
// still be full: a run that filled umpire.state keeps it full, since the state outlives the run.
// Before, that restore failed inside its protected call and the failure was dropped, leaving the
// data half put back for every later run. So a restore that fails is tried again with the cap
// raised by the size of the read-only copy (the data's own Lua memory is of that order), and if it
// fails even so, the host is made unusable: every later call refuses, naming why, instead of
// running rule code against data it cannot vouch for.
std::string DataGuard::put_back(LuaHost& host) {
    auto& guard = host.extension<DataGuard>();
    std::string changed;
    const auto attempt = [&] {
        host.protect([&] {
            lua_State* L = host.state();
            push_data(host);
            const std::string found = guard.verify(L, -1);
            if (changed.empty()) changed = found;  // a retry after a partial restore keeps the first path
            if (!found.empty()) guard.restore(L, -1);
            // ... and the module tables of umpire.rules (host/ModuleGuard.hpp), the same way.
            host.push_env();
            lua_getfield(L, -1, "umpire");
            lua_getfield(L, -1, "rules");
            if (lua_istable(L, -1)) {
                const std::string module = module_guard::check(L, -1);
                if (changed.empty()) changed = module;
            }
            lua_pop(L, 3);
            // ... and the read-only views of the libraries and umpire, which must stay empty
            // (host/Sandbox.hpp, clear_views).
            const std::string view = sandbox::clear_views(L);
            if (changed.empty()) changed = view;
            // After every run, changed or not: a run that changed the data and put it back itself
            // leaves nothing to find, yet what it worked out in between may be kept. (Emptying
            // costs a walk of the caches; `umpire test`, a run per spec, took no longer.)
            data_caches::empty_all(L);
            lua_pop(L, 1);
        });
    };
    try {
        attempt();
        return changed;
    } catch (const std::exception&) {
        // below, with room
    }
    std::size_t room = std::size_t{1} << 20;
    for (const auto& s : guard.snapshots_) room += s->charged;
    try {
        host.with_raised_cap(room, attempt);
        host.collect_garbage();
        return changed;
    } catch (const std::exception& e) {
        // Unusable first: the message below needs memory, and a std::bad_alloc while making it
        // (the process itself out of memory) goes on to the caller as it is.
        host.make_unusable("umpire.data could not be put back after a run, so this host refuses to run anything more");
        const std::string why = "umpire.data could not be put back after a run changed " +
                                (changed.empty() ? std::string("it") : changed) + " (" + e.what() +
                                "), so this host refuses to run anything more: start a new one";
        host.make_unusable(why.c_str());
        throw ScriptError(why);
    }
}

void DataGuard::check(LuaHost& host, const std::string& who) {
    const std::string changed = put_back(host);
    if (changed.rfind("umpire.rules", 0) == 0)
        throw ScriptError(who + " changed " + changed + " (" + module_guard::kWhy + ")");
    if (changed.rfind("umpire.data", 0) == 0)
        throw ScriptError(who + " changed " + changed + " (umpire.data is read-only: copy it first, and change the copy)");
    if (!changed.empty()) throw ScriptError(who + " changed " + changed + " (" + sandbox::kViewsWhy + ")");
}

std::string DataGuard::path_of(lua_State* L, int index) {
    const void* table = lua_topointer(L, index);
    auto& guard = LuaHost::from(L).extension<DataGuard>();
    for (auto it = guard.snapshots_.rbegin(); it != guard.snapshots_.rend(); ++it)
        for (std::size_t i = 0; i < (*it)->tables.size(); ++i)
            if ((*it)->tables[i].pointer == table) return (*it)->path(i);
    return "";
}

void DataGuard::restore_quietly(LuaHost& host) {
    // Called while the run's error is being handled (the caller rethrows it afterwards).
    const std::exception_ptr run_error = std::current_exception();
    try {
        put_back(host);
    } catch (const std::bad_alloc&) {
        // The process is out of memory (an isolated worker at its address-space limit): the run's
        // error stands, and says so; put_back made the host unusable.
        return;
    } catch (const std::exception& failed) {
        // A run that itself ran the process out of memory keeps its error (the command reports
        // the address-space limit from it); the host is unusable all the same.
        try {
            if (run_error) std::rethrow_exception(run_error);
        } catch (const std::bad_alloc&) {
            return;
        } catch (...) {
        }
        // The data could not be put back and the host is now unusable (put_back): the run's own
        // error is said first, then that, so neither is lost.
        std::string message, file;
        int line = 0;
        try {
            if (run_error) std::rethrow_exception(run_error);
        } catch (const ScriptError& e) {
            message = e.what();
            file = e.file;
            line = e.line;
        } catch (const std::exception& e) {
            message = e.what();
        } catch (...) {
        }
        throw ScriptError(message.empty() ? failed.what() : message + "; then " + failed.what(), file, line);
    }
}

}  // namespace umpire
