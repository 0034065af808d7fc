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

// The heap one entry of a state map holds: its text, the map node, the fraction and its limbs
// (an estimate: fractions of a few words each).
std::size_t entry_bytes(const std::string& state) { return state.capacity() + 160; }

std::size_t map_bytes(const std::map<std::string, mpq_class>& map) {
    std::size_t bytes = 0;
    for (const auto& [state, p] : map) bytes += entry_bytes(state);
    return bytes;
}

mpq_class total(const std::map<std::string, mpq_class>& map) {
    mpq_class sum = 0;
    for (const auto& [state, p] : map) sum += p;
    return sum;
}

// Adds to `next` every state that one run of `step` reaches from `state` (of probability p), each
// with p times the probability of its dice: the step's dice are enumerated alone, one run per path.
// The first path is run twice and must reach the same state (the step is a function of its state
// and dice); `runs` counts the runs against options.budget.
// `held` is the bytes the fold's maps hold, told to options.on_memory as `next` grows.
void step_from(const std::string& state, const mpq_class& p, const FoldStep& step, const FoldOptions& options,
               std::uint64_t& runs, std::map<std::string, mpq_class>& next, std::size_t& held) {
    EnumeratingSource source;
    bool first = true;
    do {
        if (runs >= options.budget)
            throw FoldOverBudget(options.name + ": more than " + std::to_string(options.budget) +
                                 " step runs to fold exactly");
        source.begin_path();
        std::string reached = step(state, source);
        if (first) {
            // The first path again, from the same state: same dice, same next state.
            source.finish_path();
            source.begin_path();
            const std::string again = step(state, source);
            if (again != reached) {
                const auto shown = [&](const std::string& text) {
                    return options.describe ? options.describe(text) : text;
                };
                throw RuleError(options.name + " is not a function of its state and dice: from the "
                                "same state and dice it reached " + shown(again) + " where it reached " +
                                shown(reached) + " before (a step may read only its state, its dice "
                                "and the rules' data)");
            }
            first = false;
        }
        const mpq_class q = source.finish_path();
        ++runs;
        const std::size_t before = next.size();
        add(next, reached, p * q);
        if (next.size() != before && options.on_memory) {
            held += entry_bytes(reached);
            options.on_memory(held);
        }
    } while (source.advance());
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
        std::size_t held = options.on_memory ? map_bytes(live) + map_bytes(done) : 0;
        for (const auto& [state, p] : live) step_from(state, p, step, options, result.runs, next, held);
        live.clear();
        for (auto& [state, p] : next) {
            if (stop(state)) add(done, state, p);
            else live.emplace(state, std::move(p));
        }
        result.widest = std::max(result.widest, live.size());
        if (options.on_memory) options.on_memory(map_bytes(live) + map_bytes(done));
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

FoldResult fold_after_first(const std::string& initial, const FoldStep& first, const FoldStep& step,
                            const FoldStop& stop, const FoldOptions& options) {
    FoldResult result;
    std::map<std::string, mpq_class> origins;
    FoldOptions first_options = options;
    first_options.name = options.first_name;
    std::size_t origins_bytes = 0;
    step_from(initial, 1, first, first_options, result.runs, origins, origins_bytes);
    result.widest = origins.size();
    std::size_t ends_bytes = 0;

    // Each state the first step reaches is the start of a chain of its own, folded as if the chain
    // had been called with it; equal end states of different chains merge.
    std::map<std::string, std::pair<mpq_class, bool>> ends;
    std::uint32_t longest = 0;
    for (const auto& [origin, p] : origins) {
        FoldOptions rest = options;
        rest.budget = options.budget - result.runs;
        // What this chain holds comes on top of the origins and the end states so far.
        if (options.on_memory)
            rest.on_memory = [&](std::size_t bytes) { options.on_memory(origins_bytes + ends_bytes + bytes); };
        const FoldResult chain = fold(origin, step, stop, rest);
        result.runs += chain.runs;
        result.widest = std::max(result.widest, chain.widest);
        longest = std::max(longest, chain.steps);
        result.truncated += p * chain.truncated;
        for (const auto& end : chain.states) {
            // stop() decides by the state, so a state is truncated (live at the cut) in every chain
            // that ends in it or in none.
            auto [it, inserted] = ends.try_emplace(end.state, p * end.probability, end.truncated);
            if (!inserted) it->second.first += p * end.probability;
            else ends_bytes += entry_bytes(end.state);
        }
        if (options.on_memory) options.on_memory(origins_bytes + ends_bytes);
    }
    result.steps = 1 + longest;
    for (auto& [state, end] : ends)
        if (!end.second) result.states.push_back({state, std::move(end.first), false});
    for (auto& [state, end] : ends)
        if (end.second) result.states.push_back({state, std::move(end.first), true});
    return result;
}

}  // namespace umpire::odds
