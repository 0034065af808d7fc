// What an odds script returned (the top of the Lua stack) as an odds::Outcome: nil, a boolean, a
// number, a string, or a table of named scalar fields (a joint outcome).
//
// An odds worker reads one result per path or sample, and a script gives few distinct ones, so
// OutcomeReader keeps each outcome it has made under its key: a result whose key it has seen is
// the outcome made the first time (copies of an Outcome share it), found by writing the key text
// straight from the Lua values into a reused buffer. Only an unseen key builds the Outcome, which
// makes the same key (Outcome.hpp's append_* functions write both). Anything that is not a plain
// result (a non-string field name, a field that is a table) goes the slow way, which raises the
// usual error.
//
// Before any text is written, a result is looked up by its print: the sequence of its Lua values
// as lua_next gives them (a field name or a string by the address of its interned string, a number
// by its bits, a boolean by its value), which needs no string read, sort or key text. Equal prints
// are equal results (an interned string's address is its content while it lives, and the reader
// keeps every string it has a print of alive in a registry table), so a print seen before gives the
// outcome its key gave then. Two equal tables built in another order have two prints of one
// outcome. A print lookup is ~1,270 machine instructions a path of bench/fold_bench AslMgFireGroup
// where writing and finding the key was ~1,940. The prints hold addresses, so a reader reads the
// results of one lua_State for its life (an odds worker's); given another state it forgets them.
#pragma once
#include <lua.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/odds/Outcome.hpp"

namespace umpire::odds_runner {

// The outcome of the value at `index`, built afresh. Error if it is not an outcome.
odds::Outcome to_outcome(lua_State* L, int index);

// The line of the Lua function at `index` (a script's chunk) that returns its result, when all its
// return statements are on one line; 0 otherwise. For the refusal of a result (NaN, a function,
// ...), which is read after the chunk has returned: its frame and line are gone, and the chunk's
// bytecode is what is left. Reads the bytecode with the real jit.util (the state's globals, which
// rule code never sees); on the error path only. Raises nothing.
int returning_line(lua_State* L, int index);

class OutcomeReader {
public:
    // The same outcome as to_outcome(L, index), and the same error for a value that is not one.
    odds::Outcome read(lua_State* L, int index);

    // Past this many distinct keys (a script returning a continuous number), new outcomes are
    // built each time instead of kept.
    static constexpr std::size_t kMaxKept = 4096;

private:
    // Writes the print of the value at `index` into print_; false if it is not a plain result.
    bool write_print(lua_State* L, int index);
    // Keeps the strings of the result at `index` alive for as long as the reader lives.
    void anchor_strings(lua_State* L, int index);

    // One Lua value of a print: its type and its bits.
    struct Atom {
        int type;
        std::uint64_t bits;
        bool operator==(const Atom&) const = default;
    };
    struct PrintHash {
        std::size_t operator()(const std::vector<Atom>& print) const;
    };

    // Writes the key of the value at `index` into key_; false if it is not a plain result.
    bool write_key(lua_State* L, int index);

    // One field of a result table as lua_next gave it; its strings stay valid while the table is
    // on the stack.
    struct Field {
        std::string_view name;
        int type;
        double number;  // a number, or a boolean as 0/1
        std::string_view text;
    };

    std::vector<Field> fields_;
    std::string key_;
    std::unordered_map<std::string, odds::Outcome> kept_;
    std::vector<Atom> print_;
    std::unordered_map<std::vector<Atom>, odds::Outcome, PrintHash> by_print_;
    lua_State* anchored_in_ = nullptr;  // the state whose registry holds anchor_
    int anchor_ = LUA_NOREF;            // {string = true} of every string a kept print names
};

}  // namespace umpire::odds_runner
