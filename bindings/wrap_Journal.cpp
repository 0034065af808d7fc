// umpire.cite, umpire.note, umpire.result and umpire.journal: the rule log (core/bus/Journal).
#include <cstring>
#include <string>

#include "bindings/GameLog.hpp"
#include "bindings/LuaLibrary.hpp"
#include "bindings/GameState.hpp"
#include "bindings/JsonDocumentSize.hpp"
#include "bindings/api_modules.hpp"

namespace umpire {
namespace {

// After an entry: the journal's growth counts against the Lua memory cap (Game::charge_growth).
void charge_journal(lua_State* L, const GameLog& log) {
    if (!Game::of(L).charge_growth())
        throw Error("memory limit: the journal would hold ~" + std::to_string(log.journal.bytes() >> 20) +
                    " MiB of entries (umpire.cite, note, result), past the Lua memory cap (the journal counts against it)");
}

/// @lua umpire.cite(rule, text, ...)
/// ---Adds a citation line to the journal: the rule behind a modifier or a result, as
/// ---`--explain` prints it: "[A9.7] Original DR 11 ≥ B# 11: the MMG malfunctions".
/// ---With more arguments, `text` is a `string.format` pattern for them, formatted only when the
/// ---journal is on: `umpire.cite("A7.31", "%s FP uses the %d column", fp, col)` costs nothing in a
/// ---Monte Carlo run, where building the line would (a pipeline given to `%s` is rendered then too).
/// ---@param rule string the section, e.g. "A9.7"
/// ---@param text string what the rule did here (a format pattern when more arguments follow)
/// ---@param ... any the pattern's values
int l_cite(lua_State* L) {
    // Its errors name level 2: it is only called through its Lua front (kCiteFront), whose line
    // is not the rule code's (luaL_checkstring named "umpire.cite:6").
    for (int arg = 1; arg <= 2; ++arg)
        if (!lua_isstring(L, arg) && (arg == 1 || !lua_isnoneornil(L, arg))) {
            luaL_where(L, 2);
            lua_pushfstring(L, "bad argument #%d to 'cite' (string expected, got %s)", arg, luaL_typename(L, arg));
            lua_concat(L, 2);
            return lua_error(L);
        }
    GameLog* log = nullptr;
    lua::lua_guard(L, [&] {
        log = &GameLog::of(L);
        return 0;
    });
    if (!log->journaling) return 0;
    if (lua_gettop(L) > 2) {
        // The library's own string.format (the sandbox's wrapped one, which counts C-call depth).
        lua_getglobal(L, "string");
        lua_getfield(L, -1, "format");
        lua_replace(L, -2);
        lua_insert(L, 2);
        lua_call(L, lua_gettop(L) - 2, 1);
    }
    return lua::lua_guard(
        L,
        [&] {
            const std::string rule = lua::check_text(L, 1);
            const std::string text = lua::opt_text(L, 2, "");
            log->journal.cite(rule, text);
            charge_journal(L, *log);
            return 0;
        },
        2);
}

/// @lua umpire.note(text)
/// ---Adds a plain line to the journal (no rule behind it: narration, a choice the player made).
/// ---@param text string
int l_note(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        auto& log = GameLog::of(L);
        if (log.journaling) log.journal.note(lua::check_text(L, 1));
        charge_journal(L, log);
        return 0;
    });
}

/// @lua umpire.result(text, data, rule)
/// ---Records an outcome ("the squad breaks") with optional plain data and citation.
/// ---@param text string
/// ---@param data? table plain data (numbers, strings, booleans, tables of those)
/// ---@param rule? string
int l_result(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        const std::string text = lua::check_text(L, 1);
        auto& log = GameLog::of(L);
        std::string json = lua_istable(L, 2) ? game_state::to_canonical_json(L, 2, &Game::of(L), "the data of umpire.result")
                                             : std::string();
        const std::string rule = lua::opt_text(L, 3, "");
        // With the journal off (the odds engine) the data goes nowhere: it is written all the same,
        // so that data which is not plain is refused as with the journal on, but not parsed.
        if (!log.journaling) {
            charge_journal(L, log);
            return 0;
        }
        // The document parsed from the text lives beside the text until the journal takes it, and
        // only then does the journal's charge count it: until then it is charged here, so a text the
        // cap held cannot double itself uncharged (docs/sandbox.md, "Memory").
        game_state::MemoryCharge parsing{&Game::of(L), "the data of umpire.result"};
        if (json.size() > game_state::kUnchargedText) {
            const std::size_t bytes = json.size() + json_size::parsed_document_bytes(json);
            try {
                parsing.grow(bytes);
            } catch (const game_state::MemoryCharge::Refused&) {
                throw Error("memory limit: the data of umpire.result (~" + std::to_string(json.size() >> 20) +
                            " MiB as JSON) parsed for the journal would take ~" + std::to_string(bytes >> 20) +
                            " MiB of C++ memory with its text, which would pass the Lua memory cap");
            }
        }
        nlohmann::json data = json.empty() ? nlohmann::json::object() : nlohmann::json::parse(json);
        json = std::string();
        log.journal.result(text, std::move(data), rule);
        charge_journal(L, log);
        return 0;
    });
}

/// @lua umpire.journal.cited(rule)
/// ---True if the journal cites `rule` (exactly, e.g. "A9.7"), in a line of its own or in a step
/// ---of a modifier pipeline. Spec tests use it to check a rule said why it applied.
/// ---@param rule string
/// ---@return boolean
int l_cited(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const std::string rule = lua::check_text(L, 1);
        // A rule is cited by an entry of its own, or by a step of a journaled modifier pipeline.
        bool found = false;
        for (const auto& e : GameLog::of(L).journal.entries()) {
            if (e.citation == rule) found = true;
            else if (e.kind == bus::JournalEntry::Kind::modifier && e.data.contains("steps"))
                for (const auto& step : e.data["steps"])
                    if (step.value("citation", "") == rule) found = true;
            if (found) break;
        }
        lua_pushboolean(L, found);
        return 1;
    });
}

/// @lua umpire.journal.explain()
/// ---The journal as the rule log `--explain` prints.
/// ---@return string
int l_explain(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushstring(L, GameLog::of(L).journal.explain().c_str());
        return 1;
    });
}

/// @lua umpire.journal.size()
/// ---The number of journal entries so far.
/// ---@return integer
int l_size(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushinteger(L, static_cast<lua_Integer>(GameLog::of(L).journal.size()));
        return 1;
    });
}

/// @lua umpire.journal.lines(from)
/// ---The rule-log lines of the entries from index `from` (1-based, default 1) on, without
/// ---indentation: what a spec test compares with the rulebook's wording.
/// ---@param from? integer
/// ---@return string[]
int l_lines(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto& entries = GameLog::of(L).journal.entries();
        const auto from = static_cast<std::size_t>(std::max<lua_Integer>(1, luaL_optinteger(L, 1, 1)));
        lua_newtable(L);
        int n = 0;
        for (std::size_t i = from - 1; i < entries.size(); ++i) {
            lua_pushstring(L, bus::explain_line(entries[i]).c_str());
            lua_rawseti(L, -2, ++n);
        }
        return 1;
    });
}

// The names Lua sees.
const luaL_Reg kJournalFunctions[] = {
    {"cited", l_cited},
    {"explain", l_explain},
    {"size", l_size},
    {"lines", l_lines},
    {nullptr, nullptr},
};

}  // namespace

// umpire.cite's Lua half: with the journal off (every Monte Carlo sample and exact path) a
// citation returns at once, without a C call, after the same argument checks the C half makes (a
// bad argument still goes to it, which raises the usual "bad argument #1 to 'cite'"). The flag
// table mirrors GameLog::journaling (GameLog::push_flag). The checks themselves are table
// look-ups: a rule cites with constant strings (a rule number, a format), and a string that passed
// the check once is kept in `known`, so the next citation with it needs no call of `type`
// (bench/per_call.sh: a citation went from ~390 to ~250 machine instructions, an empty Lua call
// being ~100; two calls of `type` were ~200 of it). Only strings are kept, at most 512 of
// them (a text built anew for each citation, such as a concatenation, is checked each time).
constexpr const char* kCiteFront = R"lua(
local journaling, cite = ...
local type = type
local known, kept = {}, 0
return function(rule, text, ...)
  if journaling[1] then cite(rule, text, ...) return end
  if known[rule] and (text == nil or known[text]) then return end
  local t, u = type(rule), type(text)
  if (t ~= "string" and t ~= "number") or (text ~= nil and u ~= "string" and u ~= "number") then
    cite(rule, text, ...)
    return
  end
  if kept < 512 then
    if t == "string" and not known[rule] then known[rule] = true kept = kept + 1 end
    if u == "string" and not known[text] then known[text] = true kept = kept + 1 end
  end
end
)lua";

/// @lua umpire.journal.on()
/// ---True while the journal is on (spec tests, `umpire run`, `--explain`); false while the odds
/// ---engine runs a script, when nothing is journaled. Hot rule code may skip building what only
/// ---the journal reads (a citation's arguments, a pipeline), reading it once per call.
/// ---@return boolean
//
// Read from the Lua table that mirrors GameLog::journaling (GameLog::push_flag), without a C call.
constexpr const char* kJournalOn = R"lua(
local journaling = ...
return function() return journaling[1] end
)lua";

// Pushes the compiled chunk `code`, compiled once per state and kept in the registry under
// `key`: every load generation opens the journal again (a reload makes a new env), and compiling
// the two fronts was a twentieth of a reload. Each chunk is a factory: calling it again makes new
// closures with their own upvalues, as a fresh compile did.
namespace {
void push_front(lua_State* L, const char* key, const char* code, const char* chunkname) {
    lua_getfield(L, LUA_REGISTRYINDEX, key);
    if (lua_isfunction(L, -1)) return;
    lua_pop(L, 1);
    if (luaL_loadbuffer(L, code, std::strlen(code), chunkname) != 0) lua_error(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, key);
}
}  // namespace

void open_journal(lua_State* L) {
    lua::StackCheck check(L, 0);
    push_front(L, "umpire.journal.cite_front", kCiteFront, "=umpire.cite");
    GameLog::of(L).push_flag(L);
    lua_pushcfunction(L, l_cite);
    lua_call(L, 2, 1);
    lua_setfield(L, -2, "cite");
    lua_pushcfunction(L, l_note);
    lua_setfield(L, -2, "note");
    lua_pushcfunction(L, l_result);
    lua_setfield(L, -2, "result");
    lua::set_library(L, -1, "journal", kJournalFunctions);
    lua_getfield(L, -1, "journal");
    push_front(L, "umpire.journal.on_front", kJournalOn, "=umpire.journal.on");
    GameLog::of(L).push_flag(L);
    lua_call(L, 1, 1);
    lua_setfield(L, -2, "on");
    lua_pop(L, 1);
}

}  // namespace umpire
