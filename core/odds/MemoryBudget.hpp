// The memory cap of an odds run for the C++ memory it holds outside any Lua host.
//
// Each host of a run charges what rule code grows (the Lua heap, distributions, the engine's tally
// of its outcomes...) against its own cap (host/LuaHost.hpp). Some copies have no host to charge:
// the Monte Carlo workers' counts merged into one sorted total (core/odds/MonteCarlo.cpp), the
// Result built from a tally, and the report built from the Results after the run's hosts have
// ended (core/odds/Report.hpp). A run's MemoryBudget, made by the command with the same size as a
// host's cap (the cap that follows --memory), outlives the hosts, and those copies are charged
// against it before they are built, so a script whose outcomes never repeat ends in an error
// naming the limit instead of in the worker's address-space limit or in swap
// (docs/sandbox.md, "Memory"). Core code, so no Lua; charges may come from several threads.
#pragma once
#include <atomic>
#include <cstddef>
#include <string>

#include "core/Error.hpp"

namespace umpire::odds {

// The budget refused a charge. A RuleError (exit 1), so the command reports it as the rules' fault;
// the caller that knows the script prefixes its file (app/OddsRunner.cpp).
struct MemoryLimitError : RuleError {
    using RuleError::RuleError;
};

// The hint of a refusal of copies made per distinct outcome.
inline constexpr const char* kOutcomesNeverRepeat =
    "an outcome that never repeats, such as a counter or a growing string?";

class MemoryBudget {
public:
    explicit MemoryBudget(std::size_t limit) : limit_(limit) {}
    MemoryBudget(const MemoryBudget&) = delete;
    MemoryBudget& operator=(const MemoryBudget&) = delete;

    std::size_t limit() const { return limit_; }
    std::size_t used() const { return used_.load(std::memory_order_relaxed); }

    // Charges `bytes` if they fit under the limit with what is charged already; false (nothing
    // charged) if not.
    bool try_charge(std::size_t bytes) {
        std::size_t now = used_.load(std::memory_order_relaxed);
        do {
            if (bytes > limit_ || now > limit_ - bytes) return false;
        } while (!used_.compare_exchange_weak(now, now + bytes, std::memory_order_relaxed));
        return true;
    }
    void release(std::size_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

    // "memory limit: <what> would take ~N MiB of C++ memory, which would pass the memory cap of
    // M MiB (<hint>)": the error of a refused charge of `bytes`.
    MemoryLimitError refusal(const std::string& what, std::size_t bytes, const char* hint) const {
        return MemoryLimitError("memory limit: " + what + " would take ~" + std::to_string((bytes >> 20) + 1) +
                                " MiB of C++ memory, which would pass the memory cap of " +
                                std::to_string(limit_ >> 20) + " MiB" + (*hint ? " (" + std::string(hint) + ")" : ""));
    }

private:
    const std::size_t limit_;
    std::atomic<std::size_t> used_{0};
};

// Bytes charged to a budget for as long as this lives (none when the budget is null: a run with
// no cap, as in the engine's own tests and benchmarks). grow() adds to the charge.
class MemoryHold {
public:
    explicit MemoryHold(MemoryBudget* budget) : budget_(budget) {}
    ~MemoryHold() {
        if (budget_) budget_->release(held_);
    }
    MemoryHold(const MemoryHold&) = delete;
    MemoryHold& operator=(const MemoryHold&) = delete;

    // Charges `bytes` more, or throws the budget's refusal (of the bytes held with these) naming
    // what(), called only then, so the common path builds no text.
    template <class What>
    void grow(std::size_t bytes, What&& what, const char* hint) {
        if (!budget_) return;
        if (!budget_->try_charge(bytes)) throw budget_->refusal(what(), held_ + bytes, hint);
        held_ += bytes;
    }
    std::size_t held() const { return held_; }

private:
    MemoryBudget* budget_;
    std::size_t held_ = 0;
};

}  // namespace umpire::odds
