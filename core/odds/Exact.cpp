#include "core/odds/Exact.hpp"

#include <map>

#include "core/odds/EnumeratingSource.hpp"
#include "core/odds/Fold.hpp"

namespace umpire::odds {

std::optional<Result> enumerate(const Script& script, std::uint64_t budget) {
    EnumeratingSource source;
    std::map<std::string, std::pair<Outcome, mpq_class>> sums;
    std::uint64_t paths = 0;
    mpq_class truncated = 0;
    do {
        if (paths == budget) return std::nullopt;
        source.begin_path();
        Outcome outcome;
        try {
            outcome = script(source);
        } catch (const FoldOverBudget&) {
            return std::nullopt;  // a chain inside the script is too large to fold exactly
        }
        const mpq_class p = source.finish_path();
        if (source.path_truncated()) truncated += p;
        ++paths;
        // The first path's branch product is the exact tree size when every path rolls the same
        // dice, and a fair estimate otherwise; far past the budget there is no point starting.
        if (paths == 1 && source.branch_product() > 1000.0 * static_cast<double>(budget))
            return std::nullopt;
        std::string key = outcome.key();
        auto it = sums.find(key);
        if (it == sums.end())
            sums.emplace(std::move(key), std::make_pair(std::move(outcome), p));
        else
            it->second.second += p;
    } while (source.advance());
    Result result = Result::from_exact(sums, paths);
    result.truncated = truncated;
    return result;
}

}  // namespace umpire::odds
