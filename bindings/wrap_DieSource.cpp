// Where umpire.dice gets its dice: umpire.dice.fix/unfix (fixed dice for spec tests, through
// core/dice/FixedSource semantics) and the LuaJIT FFI fast paths.
//
// Why an FFI path: a lua_CFunction call ends a compiled LuaJIT trace, so a rule loop that rolls
// dice through the classic API runs interpreted. The extern "C" functions below are called
// through the FFI instead (bindings/lua/fast_dice.lua), which the JIT compiles inline. They take
// the game as an opaque pointer, never throw (an error is returned as 0 and its message kept for
// the Lua side to raise), and touch only plain data.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bindings/FfiCall.hpp"
#include "bindings/GameLog.hpp"
#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/embedded_lua.hpp"
#include "bindings/wrap_dice.hpp"
#include "core/dice/AslDr.hpp"
#include "core/dice/FixedSource.hpp"

namespace umpire::ffi {
std::string& last_error() {
    thread_local std::string message;
    return message;
}
}  // namespace umpire::ffi

namespace umpire::wrap {

// Every die a rule rolls is journaled here, whichever path (FFI or classic) rolled it.
std::uint32_t roll_die(Game& game, std::uint32_t sides) {
    const std::uint32_t face = game.die(sides);
    auto& log = game.extension<GameLog>();
    if (log.journaling)
        log.journal.roll("d" + std::to_string(sides), "d" + std::to_string(sides), {face}, face);
    return face;
}

dice::AslDr roll_dr(Game& game) {
    const dice::AslDr dr = dice::AslDr::roll(game.dice());
    auto& log = game.extension<GameLog>();
    if (log.journaling)
        log.journal.roll("Original DR", "colored + white", {dr.colored, dr.white}, dr.total(), "",
                         {{"colored", dr.colored}, {"white", dr.white}, {"doubles", dr.doubles()}});
    return dr;
}

std::uint32_t roll_count(Game& game, std::uint32_t n, std::uint32_t sides, std::int64_t lo,
                         std::int64_t hi) {
    const std::uint32_t hits = game.dice().count(n, sides, lo, hi);
    auto& log = game.extension<GameLog>();
    if (log.journaling) {
        // "10d6, 5-6 succeeds" (or "at least 5"/"at most 2" when the range is open-ended).
        const std::string range = hi >= static_cast<std::int64_t>(sides) ? "at least " + std::to_string(lo)
                                  : lo <= 1 ? "at most " + std::to_string(hi)
                                            : std::to_string(lo) + "-" + std::to_string(hi);
        const std::string what = std::to_string(n) + "d" + std::to_string(sides) + ", each " + range;
        log.journal.roll(what, std::to_string(n) + "d" + std::to_string(sides), {}, hits, "",
                         {{"count", true}, {"lo", lo}, {"hi", hi}});
    }
    return hits;
}

}  // namespace umpire::wrap

// One die of `sides` faces from the game's source; 0 on error (see umpire_ffi_error).
UMPIRE_FFI std::uint32_t umpire_ffi_die(void* game, std::uint32_t sides) noexcept {
    return umpire::ffi::guard([&] { return umpire::wrap::roll_die(*static_cast<umpire::Game*>(game), sides); });
}

// An ASL DR into out[0] (coloured) and out[1] (white); 0 on error, 1 on success.
UMPIRE_FFI std::uint32_t umpire_ffi_dr(void* game, std::uint32_t* out) noexcept {
    return umpire::ffi::guard([&] {
        const auto dr = umpire::wrap::roll_dr(*static_cast<umpire::Game*>(game));
        out[0] = dr.colored;
        out[1] = dr.white;
        return 1u;
    });
}

// How many of n dice show lo..hi; returns count+1 so that 0 can mean an error.
UMPIRE_FFI std::uint32_t umpire_ffi_count(void* game, std::uint32_t n, std::uint32_t sides,
                                          std::int32_t lo, std::int32_t hi) noexcept {
    return umpire::ffi::guard([&] {
        return umpire::wrap::roll_count(*static_cast<umpire::Game*>(game), n, sides, lo, hi) + 1;
    });
}

// The message of the last failed fast-path call on this thread.
UMPIRE_FFI const char* umpire_ffi_error() noexcept { return umpire::ffi::last_error().c_str(); }

namespace umpire::wrap {
namespace {

// Fixed dice whose queue counts against the game's memory cap (Game::charge_memory) for as long as
// the game keeps them: `fix` of 5 million faces kept 20 MB on the C++ heap that the cap did not
// see, and a script can fix again and again, each queue outliving the Lua table it came from.
class ChargedFixedSource final : public dice::DieSource {
public:
    ChargedFixedSource(Game& game, std::vector<std::uint32_t> faces, std::size_t charged)
        : game_(game), fixed_(std::move(faces)), charged_(charged) {}
    ~ChargedFixedSource() override { game_.release_memory(charged_); }
    ChargedFixedSource(const ChargedFixedSource&) = delete;
    ChargedFixedSource& operator=(const ChargedFixedSource&) = delete;
    // FixedSource overrides die() only: pools, counts and folded rolls come through it either way.
    std::uint32_t die(std::uint32_t sides) override { return fixed_.die(sides); }

private:
    Game& game_;
    dice::FixedSource fixed_;
    std::size_t charged_;
};

}  // namespace

/// @lua umpire.dice.fix(faces)
/// ---Spec tests: the next dice rolled show these faces, in order, whatever is rolled (an ASL DR
/// ---takes the coloured die first; a D3 or D2 is read off a d6, so queue the d6 face). Rolling
/// ---more dice than queued, or a face larger than the die, is an error.
/// ---@param faces integer[]
int source_fix(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        luaL_checktype(L, 1, LUA_TTABLE);
        std::vector<std::uint32_t> faces;
        const int n = static_cast<int>(lua_objlen(L, 1));
        // Charged before the queue is made; the old queue's charge goes with it when this one is set.
        Game& game = Game::of(L);
        const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(std::uint32_t);
        if (!game.charge_memory(bytes))
            throw Error("memory limit: umpire.dice.fix: a queue of " + std::to_string(n) + " faces (~" +
                        std::to_string(bytes >> 20) + " MiB) would pass the Lua memory cap (fixed dice count against it)");
        struct Uncharge {  // until the source owns the charge
            Game* game; std::size_t bytes;
            ~Uncharge() { if (game) game->release_memory(bytes); }
        } pending{&game, bytes};
        faces.reserve(static_cast<std::size_t>(n));
        for (int i = 1; i <= n; ++i) {
            lua_rawgeti(L, 1, i);
            const lua_Number face = lua_tonumber(L, -1);
            lua_pop(L, 1);
            // (face > 2^32 - 1 first: casting a larger number, or NaN, is undefined behaviour)
            if (!(face >= 1 && face <= 4294967295.0) || face != static_cast<std::uint32_t>(face))
                throw Error("umpire.dice.fix: face #" + std::to_string(i) +
                            " must be a whole number >= 1");
            faces.push_back(static_cast<std::uint32_t>(face));
        }
        auto source = std::make_shared<ChargedFixedSource>(game, std::move(faces), bytes);
        pending.game = nullptr;
        game.set_die_source(std::move(source));
        return 0;
    });
}

/// @lua umpire.dice.unfix()
/// ---Spec tests: back to the game's generator after umpire.dice.fix.
int source_unfix(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        Game::of(L).set_die_source(nullptr);
        return 0;
    });
}

// Runs bindings/lua/fast_dice.lua with the full library (it needs ffi) and hands it the dice
// table and the game pointer; it replaces d/d2/d3/d6/d100/count/dr with FFI versions.
void open_fast_dice(lua_State* L, int dice_table) {
    lua::StackCheck check(L, 0);
    push_embedded_chunk(L, "fast_dice.lua");
    lua_pushvalue(L, dice_table);
    lua_pushlightuserdata(L, &Game::of(L));
    if (lua_pcall(L, 2, 0, 0) != 0) {
        std::string message = lua_tostring(L, -1);
        lua_pop(L, 1);
        throw Error("fast_dice.lua: " + message);
    }
}

}  // namespace umpire::wrap
