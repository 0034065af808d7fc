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
#pragma once
#include <lua.hpp>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/odds/Outcome.hpp"

namespace umpire::odds_runner {

// The outcome of the value at `index`, built afresh. Error if it is not an outcome.
odds::Outcome to_outcome(lua_State* L, int index);

class OutcomeReader {
public:
    // The same outcome as to_outcome(L, index), and the same error for a value that is not one.
    odds::Outcome read(lua_State* L, int index);

    // Past this many distinct keys (a script returning a continuous number), new outcomes are
    // built each time instead of kept.
    static constexpr std::size_t kMaxKept = 4096;

private:
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
};

}  // namespace umpire::odds_runner
