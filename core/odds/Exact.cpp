#include "core/odds/Exact.hpp"

#include <cstdio>
#include <map>
#include <unordered_map>

#include "core/odds/EnumeratingSource.hpp"
#include "core/odds/Fold.hpp"

namespace umpire::odds {

void RunBounds::check(const std::string& done) const {
    if (std::chrono::steady_clock::now() <= deadline) return;
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", seconds);
    throw RuleError("odds stopped at the time limit (--timeout " + std::string(limit) + "s) after " + done +
                    ": write repeating rules as umpire.odds.chain (or pools as umpire.dice.count/sum/keep) "
                    "so they fold, or allow more time");
}

namespace {

// The probability summed for one distinct outcome. The paths of a few dice have probabilities whose
// numerator and denominator fit in 64 bits, and the paths of one tree mostly share a denominator
// (36 for every path of a DR): their numerators are summed as integers while the denominator stays
// the same, and that pending sum goes into the exact fraction (GMP: a gcd per addition) only when a
// path with another denominator comes, or the sum would overflow, or at the end. Same sum, exactly.
struct Tally {
    Outcome outcome;
    mpq_class exact = 0;
    std::uint64_t pending_numerator = 0, pending_denominator = 0;  // denominator 0: nothing pending

    void add(std::uint64_t numerator, std::uint64_t denominator) {
        std::uint64_t sum = 0;
        if (denominator == pending_denominator && !__builtin_add_overflow(pending_numerator, numerator, &sum)) {
            pending_numerator = sum;
            return;
        }
        flush();
        pending_numerator = numerator;
        pending_denominator = denominator;
    }
    void add(const mpq_class& p) { exact += p; }
    void flush() {
        if (pending_denominator == 0) return;
        mpq_class p(pending_numerator, pending_denominator);
        p.canonicalize();
        exact += p;
        pending_denominator = 0;
    }
};

// Outcomes remembered by identity at most (as many as app/ScriptOutcome.hpp keeps).
constexpr std::size_t kMaxSeen = 4096;

}  // namespace

std::optional<Result> enumerate(const Script& script, std::uint64_t budget, const RunBounds& bounds) {
    EnumeratingSource source;
    // Every distinct outcome by key, and the outcomes seen so far by identity: a script's outcomes
    // are mostly copies of a few (app/ScriptOutcome.hpp keeps them), found here by address without
    // comparing keys. The identity map holds each outcome it names, so no address is reused.
    std::map<std::string, Tally> sums;
    std::unordered_map<const void*, std::pair<Outcome, Tally*>> seen;
    std::uint64_t paths = 0;
    std::size_t held = 0;  // the bytes of `sums`, told to script.on_memory as it grows
    mpq_class truncated = 0, visited = 0;
    const auto start = std::chrono::steady_clock::now();
    auto next_report = start + std::chrono::seconds(1);
    do {
        if (paths == budget) return std::nullopt;
        if ((paths & 63) == 0) {
            bounds.check(std::to_string(paths) + " paths of exact enumeration");
            if (bounds.progress && std::chrono::steady_clock::now() >= next_report) {
                bounds.progress("exact", visited.get_d());
                next_report = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
            }
        }
        source.begin_path();
        Outcome outcome;
        try {
            outcome = script(source);
        } catch (const FoldOverBudget&) {
            return std::nullopt;  // a chain inside the script is too large to fold exactly
        }
        std::uint64_t numerator = 0, denominator = 0;
        const bool small = source.finish_path_small(numerator, denominator);
        // The exact fraction (GMP), made only where one is needed: most paths are small.
        std::optional<mpq_class> p;
        if (!small) p = source.finish_path();
        const auto exact_p = [&]() -> const mpq_class& {
            if (!p) {
                p.emplace(numerator, denominator);
                p->canonicalize();
            }
            return *p;
        };
        if (source.path_truncated()) truncated += exact_p();
        if (bounds.progress) visited += exact_p();
        ++paths;
        // The first path's branch product is the exact tree size when every path rolls the same
        // dice, and a fair estimate otherwise; far past the budget there is no point starting.
        if (paths == 1 && source.branch_product() > 1000.0 * static_cast<double>(budget))
            return std::nullopt;
        Tally* tally;
        if (const auto it = seen.find(outcome.identity()); it != seen.end()) {
            tally = it->second.second;
        } else {
            auto at = sums.find(outcome.key());
            if (at == sums.end()) {
                if (script.on_memory) script.on_memory(held += tally_entry_bytes(outcome.key(), outcome));
                at = sums.emplace(outcome.key(), Tally{outcome}).first;
            }
            tally = &at->second;
            // Bounded: a script whose outcomes never repeat (a continuous number) makes a new one
            // on every path, and those are found by key.
            if (seen.size() < kMaxSeen) seen.emplace(outcome.identity(), std::make_pair(outcome, tally));
        }
        if (small) tally->add(numerator, denominator);
        else tally->add(*p);
    } while (source.advance());
    if (bounds.progress && std::chrono::steady_clock::now() >= start + std::chrono::seconds(1))
        bounds.progress("exact", 1.0);
    // The sums as from_exact takes them, and the Result: two copies of every distinct outcome's key
    // beside the tally (charged to the script's host), charged against the run's memory cap while
    // they are built (the caller that keeps the Result charges it again, app/OddsRunner.cpp).
    MemoryHold hold(bounds.memory);
    std::size_t copies = 0;
    if (bounds.memory)
        for (const auto& entry : sums)
            copies += 32 + sizeof(entry) + entry.first.capacity() + 1 + result_entry_bytes(entry.first);
    hold.grow(copies, [&] { return "the exact result of " + std::to_string(sums.size()) + " distinct outcomes"; },
              kOutcomesNeverRepeat);
    std::map<std::string, std::pair<Outcome, mpq_class>> exact;
    for (auto& [key, tally] : sums) {
        tally.flush();
        exact.emplace(key, std::make_pair(std::move(tally.outcome), std::move(tally.exact)));
    }
    Result result = Result::from_exact(exact, paths);
    result.truncated = truncated;
    return result;
}

}  // namespace umpire::odds
