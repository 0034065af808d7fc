// Registrations made by rules (event handlers, and whatever the bus binding adds) belong to the
// load generation that made them, so a reload replaces them instead of doubling them.
//
// How a load goes: the host calls begin() (a new generation number G becomes loading_generation()),
// runs every data file and module of the rulesets, then either commit() or rollback().
//  - A binding that keeps registrations (umpire.hooks here, umpire.bus later) tags each with
//    registration_generation() and implements Listener.
//  - commit(G): G becomes current; listeners drop everything tagged with an older generation.
//  - rollback(G): listeners drop everything tagged G; the previous generation stays in force.
// Registrations made outside a load (by a running script) get the current generation and are
// replaced at the next successful reload like the rules that were current when they were made.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace umpire {

class Registry {
public:
    struct Listener {
        virtual ~Listener() = default;
        virtual void commit(std::uint64_t generation) = 0;    // drop all older than generation
        virtual void rollback(std::uint64_t generation) = 0;  // drop all of generation
    };

    void add_listener(Listener* listener) { listeners_.push_back(listener); }
    void remove_listener(Listener* listener) {
        listeners_.erase(std::remove(listeners_.begin(), listeners_.end(), listener),
                         listeners_.end());
    }

    std::uint64_t current_generation() const { return current_; }
    std::uint64_t loading_generation() const { return loading_; }  // 0 when no load is running
    // The generation a registration made right now belongs to.
    std::uint64_t registration_generation() const { return loading_ ? loading_ : current_; }

    std::uint64_t begin() { return loading_ = ++last_; }
    void commit() {
        current_ = loading_;
        loading_ = 0;
        for (auto* l : listeners_) l->commit(current_);
    }
    void rollback() {
        const auto failed = loading_;
        loading_ = 0;
        for (auto* l : listeners_) l->rollback(failed);
    }

private:
    std::vector<Listener*> listeners_;
    std::uint64_t last_ = 0, current_ = 0, loading_ = 0;
};

}  // namespace umpire
