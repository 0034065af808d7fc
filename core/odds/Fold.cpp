#include "core/odds/Fold.hpp"

#include <map>

#include "core/odds/EnumeratingSource.hpp"

namespace umpire::odds {

namespace {

// Adds p to map[key].
void add(std::map<std::string, mpq_class>& map, const std::string& key, const mpq_class& p) {
    auto [it, inserted] = map.try_emplace(key, p);
    if (!inserted) it->second += p;
}

mpq_class total(const std::map<std::string, mpq_class>& map) {
    mpq_class sum = 0;
    for (const auto& [state, p] : map) sum += p;
    return sum;
}

}  // namespace

FoldResult fold(const std::string& initial, const FoldStep& step, const FoldStop& stop,
                const FoldOptions& options) {
    FoldResult result;
    std::map<std::string, mpq_class> live, done;
    if (stop(initial)) add(done, initial, 1);
    else live.emplace(initial, 1);

    while (!live.empty() && result.steps < options.max_steps &&
           !(options.epsilon > 0 && total(live) < options.epsilon)) {
        ++result.steps;
        std::map<std::string, mpq_class> next;
        for (const auto& [state, p] : live) {
            EnumeratingSource source;
            bool first = true;
            do {
                if (result.runs >= options.budget)
                    throw FoldOverBudget(options.name + ": more than " + std::to_string(options.budget) +
                                         " step runs to fold exactly");
                source.begin_path();
                std::string reached = step(state, source);
                if (first) {
                    // The first path again, from the same state: same dice, same next state.
                    source.finish_path();
                    source.begin_path();
                    const std::string again = step(state, source);
                    if (again != reached)
                        throw RuleError(options.name + " is not a function of its state and dice: from the "
                                        "same state and dice it reached " + again + " where it reached " +
                                        reached + " before (a step may read only its state, its dice "
                                        "and the rules' data)");
                    first = false;
                }
                const mpq_class q = source.finish_path();
                ++result.runs;
                add(next, reached, p * q);
            } while (source.advance());
        }
        live.clear();
        for (auto& [state, p] : next) {
            if (stop(state)) add(done, state, p);
            else live.emplace(state, std::move(p));
        }
        result.widest = std::max(result.widest, live.size());
    }

    // What is still live was cut short: it ends as it stands, and its mass is reported.
    result.truncated = total(live);
    for (const auto& [state, p] : done) result.states.push_back({state, p, false});
    for (const auto& [state, p] : live) {
        // A state both collected (stopped) and live cannot happen: stop() decides by the state.
        result.states.push_back({state, p, true});
    }
    return result;
}

}  // namespace umpire::odds
