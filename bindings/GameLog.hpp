// The record of a game: its journal (core/bus/Journal) and its event bus
// (core/bus/EventBus), one per game (Game::extension<GameLog>()).
//
// Bus subscriptions belong to the load generation that made them (Registry.hpp): a reload that
// succeeds drops the older generations' handlers, a reload that fails drops its own, so a
// reloaded module's handlers are replaced, never doubled.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "core/bus/EventBus.hpp"
#include "core/bus/Journal.hpp"

namespace umpire {

class GameLog final : public Registry::Listener {
public:
    explicit GameLog(Game& game) : game_(game) {
        game_.registry().add_listener(this);
        bus.attach_journal(&journal);
        game_.growing_bytes = journal.bytes_counter();  // the same member when the journal is replaced
    }
    ~GameLog() override {
        game_.growing_bytes = nullptr;
        game_.registry().remove_listener(this);
    }

    bus::Journal journal;
    bus::EventBus bus;
    // Off while the odds engine runs a script thousands of times: nothing is journaled.
    bool journaling = true;
    void set_journaling(bool on) {
        journaling = on;
        bus.attach_journal(on ? &journal : nullptr);
        lua_State* L = game_.state();
        if (L && flag_ref_ != LUA_NOREF) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, flag_ref_);
            lua_pushboolean(L, on);
            lua_rawseti(L, -2, 1);
            lua_pop(L, 1);
        }
    }
    // Pushes the Lua table {[1] = journaling} that mirrors the flag, made on first use, so that
    // Lua code (umpire.cite's Lua half, wrap_Journal.cpp) reads it without calling into C: a C
    // call per citation cost an ASL attack ~10% of its time with the journal off.
    void push_flag(lua_State* L) {
        if (flag_ref_ == LUA_NOREF) {
            lua_createtable(L, 1, 0);
            lua_pushboolean(L, journaling);
            lua_rawseti(L, -2, 1);
            flag_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
        }
        lua_rawgeti(L, LUA_REGISTRYINDEX, flag_ref_);
    }

    // The owner name of bus subscriptions made now (by the loading or the current generation).
    std::string owner() const {
        return "generation " + std::to_string(game_.registry().registration_generation());
    }

    // Drops the subscriptions of every generation older than `generation`. Those older than the
    // last committed one were dropped by that commit already, so only the generations from it on
    // are swept: one or two a reload. (Every generation since the host's first was swept before,
    // each a scan of the bus: a reload's commit grew with the number of reloads made, 0.6 M
    // instructions a reload after 10,000 of them.)
    void commit(std::uint64_t generation) override {
        for (std::uint64_t g = first_unswept_; g < generation; ++g) {
            bus.unsubscribe_owner("generation " + std::to_string(g));
            ++swept_generations;
        }
        first_unswept_ = std::max(first_unswept_, generation);
    }
    void rollback(std::uint64_t generation) override {
        bus.unsubscribe_owner("generation " + std::to_string(generation));
    }

    static GameLog& of(lua_State* L) { return Game::of(L).extension<GameLog>(); }

    // How many generations commits have swept, in all (for tests: it grows by about one a reload).
    std::uint64_t swept_generations = 0;

private:
    Game& game_;
    int flag_ref_ = LUA_NOREF;
    // Every generation older than this has no subscription left (a commit dropped them).
    std::uint64_t first_unswept_ = 0;
};

}  // namespace umpire
