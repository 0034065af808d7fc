// C++ memory a binding keeps for rule code beyond the run that made it, with no userdata to hang a
// charge on: the bus's subscriptions (wrap_EventBus.cpp) and umpire.hooks' handlers
// (api_hooks.cpp). What they hold counts against the Lua memory cap (docs/sandbox.md, "Memory"):
// after each change the binding calls follow() with its byte count, which charges or gives back
// the difference since the last call. Such memory outlives the run (the collector cannot free
// it), so a refusal leaves kHeadroom of the cap free: enough for the error, the next run, and the
// call that gives the memory back.
#pragma once
#include <cstddef>

#include "bindings/Game.hpp"

namespace umpire {

class HeldBytes {
public:
    static constexpr std::size_t kHeadroom = std::size_t{1} << 20;

    // Charges or gives back the change to `now`; false (and nothing charged) when the growth would
    // pass the cap. Giving back never fails.
    bool follow(Game& game, std::size_t now) {
        if (now <= charged_) {
            game.release_memory(charged_ - now);
        } else if (!game.charge_memory(now - charged_ + kHeadroom)) {
            return false;
        } else {
            game.release_memory(kHeadroom);
        }
        charged_ = now;
        return true;
    }

private:
    std::size_t charged_ = 0;
};

}  // namespace umpire
