// umpire.bus.modifiers: a named pipeline of modifiers with sources and citations
// (core/bus/ModifierPipeline).
//
// Modifier sums sit in the hottest rule loops (every IFT attack, every to-hit roll), so the
// pipeline object is a plain Lua table built by bindings/lua/fast_modifiers.lua. A pipeline that
// only adds whole numbers keeps its total in Lua as it is built (exact below 2^52); any other
// pipeline's total is computed by the FFI fast path below, which replays the steps' ops and
// operands through core's ModifierPipeline; the classic functions (tostring, steps, journaling;
// not hot) rebuild it with the labels too. The first m:total() after a change journals the pipeline, so --explain shows
// "+2 DRM (-1 [FFNAM] +3 [TEM])" with every step's citation.
#include <string>

#include "bindings/FfiCall.hpp"
#include "bindings/GameLog.hpp"
#include "bindings/LuaLibrary.hpp"
#include "bindings/WholeNumber.hpp"
#include "bindings/embedded_lua.hpp"
#include "core/bus/ModifierPipeline.hpp"

namespace umpire {
namespace {

using Pipeline = bus::ModifierPipeline;

// The op codes fast_modifiers.lua stores (keep in step with its OP table).
enum Op : std::int32_t { op_start, op_add, op_set, op_at_most, op_at_least, op_halve_down,
                         op_halve_up, op_multiply };

void apply(Pipeline& p, std::int32_t op, std::int64_t operand, std::string source = {},
           std::string rule = {}, std::string note = {}) {
    switch (op) {
        case op_start: p.start_from(operand, source, rule, note); break;
        case op_add: p.add(operand, source, rule, note); break;
        case op_set: p.set_to(operand, source, rule, note); break;
        case op_at_most: p.at_most(operand, source, rule, note); break;
        case op_at_least: p.at_least(operand, source, rule, note); break;
        case op_halve_down: p.halve(Pipeline::Rounding::down, source, rule, note); break;
        case op_halve_up: p.halve(Pipeline::Rounding::up, source, rule, note); break;
        case op_multiply: p.multiply(operand, source, rule, note); break;
        default: throw Error("modifier pipeline: unknown step op " + std::to_string(op));
    }
}

std::string string_field(lua_State* L, int table, int i) {
    lua_rawgeti(L, table, i);
    std::size_t length = 0;
    const char* text = lua_isstring(L, -1) ? lua_tolstring(L, -1, &length) : "";
    std::string s(text, length);
    lua_pop(L, 1);
    return s;
}

// The core pipeline of a Lua pipeline table {name, kind, ops, values, sources, rules, notes}.
Pipeline materialize(lua_State* L, int index) {
    luaL_checktype(L, index, LUA_TTABLE);
    lua_getfield(L, index, "name");
    lua_getfield(L, index, "kind");
    Pipeline p(lua::opt_text(L, -2, ""), lua::opt_text(L, -1, ""));
    lua_pop(L, 2);
    const char* fields[] = {"ops", "values", "sources", "rules", "notes"};
    for (const char* f : fields) lua_getfield(L, index, f);
    const int base = lua_gettop(L) - 4;  // ops, values, sources, rules, notes
    const int n = static_cast<int>(lua_objlen(L, base));
    for (int i = 1; i <= n; ++i) {
        lua_rawgeti(L, base, i);
        lua_rawgeti(L, base + 1, i);
        // The slots are a plain Lua table rule code can write into (m[2] = 1e300): read as whole
        // numbers in range, never cast blindly (a cast of 1e300 or NaN is undefined behaviour).
        const auto op = static_cast<std::int32_t>(lua::whole_number(L, -2, "a modifier pipeline's step", 0, 7));
        const std::int64_t operand = lua::exact_integer(L, -1, "a modifier pipeline's value");
        lua_pop(L, 2);
        apply(p, op, operand, string_field(L, base + 2, i), string_field(L, base + 3, i),
              string_field(L, base + 4, i));
    }
    lua_pop(L, 5);
    return p;
}

// tostring(m): the rulebook's form, "+2 DRM (-1 [FFNAM] +3 [TEM])".
int l_render(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushstring(L, materialize(L, 1).render().c_str());
        return 1;
    });
}

// Journals the pipeline with every step and citation (called by m:total() when journaling).
int l_journal(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        auto& log = GameLog::of(L);
        if (log.journaling) log.journal.modifiers(materialize(L, 1));
        return 0;
    });
}

/// @lua ModifierPipeline:steps()
/// ---The steps so far: {value=, source=, rule=, before=, after=} in order.
/// ---@return table[]
int l_steps(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto steps = materialize(L, 1).steps();
        lua_createtable(L, static_cast<int>(steps.size()), 0);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            lua_createtable(L, 0, 5);
            lua_pushinteger(L, static_cast<lua_Integer>(steps[i].operand));
            lua_setfield(L, -2, "value");
            lua_pushstring(L, steps[i].source.c_str());
            lua_setfield(L, -2, "source");
            lua_pushstring(L, steps[i].citation.c_str());
            lua_setfield(L, -2, "rule");
            lua_pushinteger(L, static_cast<lua_Integer>(steps[i].before));
            lua_setfield(L, -2, "before");
            lua_pushinteger(L, static_cast<lua_Integer>(steps[i].after));
            lua_setfield(L, -2, "after");
            lua_rawseti(L, -2, static_cast<int>(i + 1));
        }
        return 1;
    });
}

}  // namespace

// The pipeline methods implemented in bindings/lua/fast_modifiers.lua, documented here so the
// editor stubs (scripts/gen_stubs.lua) list them with the rest of the API.
//
/// @lua umpire.bus.modifiers(name, kind)
/// ---A new modifier pipeline: umpire.bus.modifiers("IFT DRM", "DRM"). `kind` is the unit printed
/// ---after the total ("DRM", "FP", "to hit"); tostring(m) reads like the rulebook:
/// ---"+2 DRM (-1 [FFNAM] +3 [TEM])".
/// ---@param name string
/// ---@param kind? string
/// ---@return ModifierPipeline
//
/// @lua umpire.bus.total_of(name, entries, kind)
/// ---The total of a list of added modifiers, each entry {value=, source=, rule=, note=}: what
/// ---`umpire.bus.modifiers(name, kind)`, then `m:add(e.value, e.source, e.rule, e.note)` for each
/// ---entry whose value is not 0, then `m:total()` give, with the same errors. With the journal on,
/// ---that pipeline is made, journaled and returned second; with it off (odds runs) no pipeline is
/// ---made for whole-number additions (the second result is then nil), the cheap form for hot rule code.
/// ---@param name string
/// ---@param entries table[] {value=, source=, rule=, note=}
/// ---@param kind? string
/// ---@return integer total
/// ---@return ModifierPipeline|nil pipeline
//
/// @lua ModifierPipeline:add(value, source, rule, note)
/// ---Adds a modifier: m:add(-1, "FFNAM", "A4.6"). Returns m, so calls chain.
/// ---@param value integer
/// ---@param source string the label the rulebook prints in brackets
/// ---@param rule? string the citation
/// ---@param note? string
/// ---@return ModifierPipeline
//
/// @lua ModifierPipeline:start(base, source, rule, note)
/// ---Starts from a base value instead of 0 ("8 FP [4-6-7 + MMG]"); only as the first step.
/// ---@return ModifierPipeline
//
/// @lua ModifierPipeline:set(value, source, rule, note)
/// ---Replaces the running total (e.g. an X# that takes precedence).
/// ---@return ModifierPipeline
//
/// @lua ModifierPipeline:at_most(limit, source, rule, note)
/// ---Caps the running total from above.
/// ---@return ModifierPipeline
//
/// @lua ModifierPipeline:at_least(limit, source, rule, note)
/// ---Caps the running total from below.
/// ---@return ModifierPipeline
//
/// @lua ModifierPipeline:halve(rounding, source, rule, note)
/// ---Halves the running total, rounding "down" or "up" (the rule must say which).
/// ---@return ModifierPipeline
//
/// @lua ModifierPipeline:multiply(factor, source, rule, note)
/// ---Multiplies the running total (PBF x2, TPBF x3).
/// ---@return ModifierPipeline
//
/// @lua ModifierPipeline:total()
/// ---The running total (through the FFI fast path). The first call after a change journals the
/// ---pipeline with its steps and citations.
/// ---@return integer

// Runs bindings/lua/fast_modifiers.lua with the full library (it needs ffi): it installs
// umpire.bus.modifiers and the pipeline methods, closing over the classic functions above.
void open_modifiers(lua_State* L, int bus_table) {
    lua::StackCheck check(L, 0);
    push_embedded_chunk(L, "fast_modifiers.lua");
    lua_pushvalue(L, bus_table);
    lua_pushlightuserdata(L, &Game::of(L));
    lua_pushcfunction(L, l_render);
    lua_pushcfunction(L, l_journal);
    lua_pushcfunction(L, l_steps);
    GameLog::of(L).push_flag(L);
    if (lua_pcall(L, 6, 0, 0) != 0) {
        std::string message = lua_tostring(L, -1);
        lua_pop(L, 1);
        throw Error("fast_modifiers.lua: " + message);
    }
}

}  // namespace umpire

// The total of a pipeline's steps (ops and operands as fast_modifiers.lua stores them) through
// core's ModifierPipeline; 0 on error (overflow, a start that is not first...), 1 on success.
UMPIRE_FFI std::uint32_t umpire_ffi_pipeline_total(const std::int32_t* ops,
                                                   const std::int64_t* operands, std::int32_t n,
                                                   std::int64_t* total) noexcept {
    return umpire::ffi::guard([&] {
        umpire::bus::ModifierPipeline p({}, {});
        for (std::int32_t i = 0; i < n; ++i) umpire::apply(p, ops[i], operands[i]);
        *total = p.total();
        return 1u;
    });
}
