// umpire.bus.modifiers: a named pipeline of modifiers with sources and citations
// (core/bus/ModifierPipeline), as a Lua userdata. The first m:total() after a change journals the
// pipeline, so --explain shows "+2 DRM (-1 [FFNAM] +3 [TEM])" with every step's citation.
#include <new>
#include <string>

#include "bindings/GameLog.hpp"
#include "bindings/LuaLibrary.hpp"
#include "core/bus/ModifierPipeline.hpp"

namespace umpire {
namespace {

constexpr const char* kMeta = "umpire.ModifierPipeline";

struct LuaPipeline {
    bus::ModifierPipeline pipeline;
    bool journaled = false;
};

LuaPipeline& check_pipeline(lua_State* L) {
    return *static_cast<LuaPipeline*>(luaL_checkudata(L, 1, kMeta));
}

// The common tail of every step method: (self, amount, source, rule, note) -> self.
template <class Step>
int step(lua_State* L, Step&& apply) {
    return lua::lua_guard(L, [&] {
        auto& p = check_pipeline(L);
        const std::string source = luaL_optstring(L, 3, "");
        const std::string rule = luaL_optstring(L, 4, "");
        const std::string note = luaL_optstring(L, 5, "");
        apply(p.pipeline, source, rule, note);
        p.journaled = false;
        lua_settop(L, 1);
        return 1;
    });
}

/// @lua ModifierPipeline:add(value, source, rule, note)
/// ---Adds a modifier: m:add(-1, "FFNAM", "A4.6"). Returns m, so calls chain.
/// ---@param value integer
/// ---@param source string the label the rulebook prints in brackets
/// ---@param rule? string the citation
/// ---@param note? string
/// ---@return ModifierPipeline
int l_add(lua_State* L) {
    return step(L, [&](auto& p, auto& s, auto& r, auto& n) { p.add(luaL_checkinteger(L, 2), s, r, n); });
}
/// @lua ModifierPipeline:start(base, source, rule, note)
/// ---Starts from a base value instead of 0 ("8 FP [4-6-7 + MMG]"); only as the first step.
int l_start(lua_State* L) {
    return step(L, [&](auto& p, auto& s, auto& r, auto& n) { p.start_from(luaL_checkinteger(L, 2), s, r, n); });
}
/// @lua ModifierPipeline:set(value, source, rule, note)
/// ---Replaces the running total (e.g. an X# that takes precedence).
int l_set(lua_State* L) {
    return step(L, [&](auto& p, auto& s, auto& r, auto& n) { p.set_to(luaL_checkinteger(L, 2), s, r, n); });
}
/// @lua ModifierPipeline:at_most(limit, source, rule, note)
/// ---Caps the running total from above.
int l_at_most(lua_State* L) {
    return step(L, [&](auto& p, auto& s, auto& r, auto& n) { p.at_most(luaL_checkinteger(L, 2), s, r, n); });
}
/// @lua ModifierPipeline:at_least(limit, source, rule, note)
/// ---Caps the running total from below.
int l_at_least(lua_State* L) {
    return step(L, [&](auto& p, auto& s, auto& r, auto& n) { p.at_least(luaL_checkinteger(L, 2), s, r, n); });
}
/// @lua ModifierPipeline:halve(rounding, source, rule, note)
/// ---Halves the running total, rounding "down" or "up" (the rule must say which).
int l_halve(lua_State* L) {
    return step(L, [&](auto& p, auto& s, auto& r, auto& n) {
        const std::string rounding = luaL_checkstring(L, 2);
        if (rounding != "down" && rounding != "up")
            throw Error("halve: rounding must be \"down\" or \"up\", got \"" + rounding + "\"");
        p.halve(rounding == "down" ? bus::ModifierPipeline::Rounding::down
                                   : bus::ModifierPipeline::Rounding::up, s, r, n);
    });
}
/// @lua ModifierPipeline:multiply(factor, source, rule, note)
/// ---Multiplies the running total (PBF x2, TPBF x3).
int l_multiply(lua_State* L) {
    return step(L, [&](auto& p, auto& s, auto& r, auto& n) { p.multiply(luaL_checkinteger(L, 2), s, r, n); });
}

/// @lua ModifierPipeline:total()
/// ---The running total. The first call after a change journals the pipeline with its steps.
/// ---@return integer
int l_total(lua_State* L) {
    return lua::lua_guard(L, [&] {
        auto& p = check_pipeline(L);
        auto& log = GameLog::of(L);
        if (!p.journaled && log.journaling) log.journal.modifiers(p.pipeline);
        p.journaled = true;
        lua_pushinteger(L, static_cast<lua_Integer>(p.pipeline.total()));
        return 1;
    });
}

/// @lua ModifierPipeline:steps()
/// ---The steps so far: {value=, source=, rule=, before=, after=} in order.
/// ---@return table[]
int l_steps(lua_State* L) {
    return lua::lua_guard(L, [&] {
        const auto& steps = check_pipeline(L).pipeline.steps();
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

int l_tostring(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua_pushstring(L, check_pipeline(L).pipeline.render().c_str());
        return 1;
    });
}

int l_gc(lua_State* L) {
    check_pipeline(L).~LuaPipeline();
    return 0;
}

const luaL_Reg kMethods[] = {
    {"add", l_add},         {"start", l_start},       {"set", l_set},
    {"at_most", l_at_most}, {"at_least", l_at_least}, {"halve", l_halve},
    {"multiply", l_multiply}, {"total", l_total},     {"steps", l_steps},
    {nullptr, nullptr},
};

/// @lua umpire.bus.modifiers(name, kind)
/// ---A new modifier pipeline: umpire.bus.modifiers("IFT DRM", "DRM"). `kind` is the unit printed
/// ---after the total ("DRM", "FP", "to hit"); tostring(m) reads like the rulebook:
/// ---"+2 DRM (-1 [FFNAM] +3 [TEM])".
/// ---@param name string
/// ---@param kind? string
/// ---@return ModifierPipeline
int l_modifiers(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const std::string name = luaL_checkstring(L, 1);
        const std::string kind = luaL_optstring(L, 2, "DRM");
        void* memory = lua_newuserdata(L, sizeof(LuaPipeline));
        new (memory) LuaPipeline{bus::ModifierPipeline(name, kind)};
        static const luaL_Reg metamethods[] = {
            {"__tostring", l_tostring},
            {"__gc", l_gc},
            {nullptr, nullptr},
        };
        lua::set_metatable(L, kMeta, kMethods, metamethods);
        return 1;
    });
}

}  // namespace

void open_modifiers(lua_State* L, int bus_table) {
    lua_pushcfunction(L, l_modifiers);
    lua_setfield(L, bus_table, "modifiers");
}

}  // namespace umpire
