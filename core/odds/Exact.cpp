#include "core/odds/Exact.hpp"

#include <cstdio>
#include <map>

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

std::optional<Result> enumerate(const Script& script, std::uint64_t budget, const RunBounds& bounds) {
    EnumeratingSource source;
    std::map<std::string, std::pair<Outcome, mpq_class>> sums;
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
        const mpq_class p = source.finish_path();
        if (source.path_truncated()) truncated += p;
        if (bounds.progress) visited += p;
        ++paths;
        // The first path's branch product is the exact tree size when every path rolls the same
        // dice, and a fair estimate otherwise; far past the budget there is no point starting.
        if (paths == 1 && source.branch_product() > 1000.0 * static_cast<double>(budget))
            return std::nullopt;
        auto it = sums.find(outcome.key());
        if (it == sums.end()) {
            if (script.on_memory) script.on_memory(held += tally_entry_bytes(outcome.key(), outcome));
            sums.emplace(outcome.key(), std::make_pair(outcome, p));
        } else
            it->second.second += p;
    } while (source.advance());
    if (bounds.progress && std::chrono::steady_clock::now() >= start + std::chrono::seconds(1))
        bounds.progress("exact", 1.0);
    Result result = Result::from_exact(sums, paths);
    result.truncated = truncated;
    return result;
}

}  // namespace umpire::odds
