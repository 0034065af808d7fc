#include "core/odds/Joint.hpp"

#include <cstdlib>
#include <map>

#include "core/Error.hpp"

namespace umpire::odds {

namespace {

// What given() copies of the outcomes that meet `keep`, charged to `hold` before any is made: per
// outcome a map entry (its key again, the outcome shared, its probability or count) and the new
// Result's entry, as core/odds/Exact.cpp charges the exact result. The values of the outcomes are
// shared with `result`, not copied (Outcome). Refused with the budget's MemoryLimitError.
void charge_copies(MemoryHold& hold, const Result& result, const Predicate& keep) {
    using Entry = std::map<std::string, std::pair<Outcome, mpq_class>>::value_type;
    std::size_t bytes = sizeof(Result), kept = 0;
    for (const auto& o : result.outcomes) {
        if (!keep(o.outcome)) continue;
        bytes += 32 + sizeof(Entry) + o.key.capacity() + 1 + result_entry_bytes(o.key);
        ++kept;
    }
    hold.grow(bytes, [&] {
        return "the result given the condition, " + std::to_string(kept) + " distinct outcomes copied from " +
               std::to_string(result.outcomes.size()) + ",";
    }, kOutcomesNeverRepeat);
}

// Groups the outcomes of `result` that meet `keep` by project(outcome), adding probabilities
// (exact) or counts, then renormalizes over the kept ones (a no-op when every outcome is kept).
// With a `memory` budget, the copies are charged to it while they are built (charge_copies).
Result project(const Result& result, const std::function<Outcome(const Outcome&)>& fn,
               const Predicate& keep = [](const Outcome&) { return true; }, MemoryBudget* memory = nullptr) {
    MemoryHold hold(memory);
    if (memory) charge_copies(hold, result, keep);
    Result r;
    if (result.is_exact()) {
        std::map<std::string, std::pair<Outcome, mpq_class>> sums;
        mpq_class kept = 0;
        for (const auto& o : result.outcomes) {
            if (!keep(o.outcome)) continue;
            kept += o.exact;
            Outcome p = fn(o.outcome);
            auto [it, fresh] = sums.try_emplace(p.key(), p, o.exact);
            if (!fresh) it->second.second += o.exact;
        }
        if (kept == 0) throw RuleError("the condition never happens (probability 0)");
        for (auto& [key, entry] : sums) entry.second /= kept;
        r = Result::from_exact(sums, result.paths);
    } else {
        std::map<std::string, std::pair<Outcome, std::uint64_t>> counts;
        std::uint64_t kept = 0;
        for (const auto& o : result.outcomes) {
            if (!keep(o.outcome)) continue;
            kept += o.count;
            Outcome p = fn(o.outcome);
            auto [it, fresh] = counts.try_emplace(p.key(), p, o.count);
            if (!fresh) it->second.second += o.count;
        }
        if (kept == 0)
            throw RuleError("the condition never happened in " + std::to_string(result.samples) + " samples");
        r = Result::from_counts(counts, kept);
    }
    r.seed = result.seed;
    r.threads = result.threads;
    r.note = result.note;
    r.condition = result.condition;
    return r;
}

Scalar parse_value(const std::string& text) {
    if (text == "true") return true;
    if (text == "false") return false;
    if (text == "nil") return {};
    if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
        text.back() == text.front())
        return text.substr(1, text.size() - 2);
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (!text.empty() && end == text.c_str() + text.size()) return x;
    return text;
}

}  // namespace

Predicate field_is(std::string name, Scalar value) {
    return [name = std::move(name), value = std::move(value)](const Outcome& o) {
        return compare_scalars(o.field(name), value) == 0;
    };
}

namespace {

// name<value, name<=value, name>value, name>=value: numbers only.
Predicate ordering(const std::string& text, std::size_t op) {
    const bool less = text[op] == '<';
    const bool or_equal = op + 1 < text.size() && text[op + 1] == '=';
    const std::size_t value_at = op + (or_equal ? 2 : 1);
    const Scalar bound = parse_value(text.substr(value_at));
    if (!std::holds_alternative<double>(bound))
        throw ParseError("field condition", text, value_at, "expected a number after " + text.substr(op, value_at - op));
    const double limit = std::get<double>(bound);
    return [name = text.substr(0, op), less, or_equal, limit](const Outcome& o) {
        const Scalar v = o.field(name);
        if (!std::holds_alternative<double>(v)) return false;
        const double x = std::get<double>(v);
        return less ? (or_equal ? x <= limit : x < limit) : (or_equal ? x >= limit : x > limit);
    };
}

}  // namespace

Predicate parse_field_predicate(const std::string& text) {
    std::size_t op = text.find_first_of("=~!<>");
    if (op == std::string::npos || op == 0)
        throw ParseError("field condition", text, op == 0 ? 0 : text.size(),
                         "expected name=value (or name~=value, name<=number, name>number, ...)");
    if (text[op] == '<' || text[op] == '>') return ordering(text, op);
    const bool negate = text[op] == '~' || text[op] == '!';
    std::size_t value_at = op + 1;
    if (negate || (value_at < text.size() && text[value_at] == '=')) {
        if (value_at >= text.size() || text[value_at] != '=')
            throw ParseError("field condition", text, value_at, "expected '='");
        ++value_at;
    }
    Predicate is = field_is(text.substr(0, op), parse_value(text.substr(value_at)));
    if (!negate) return is;
    return [is](const Outcome& o) { return !is(o); };
}

Result marginal(const Result& result, const std::string& field) {
    return project(result, [&](const Outcome& o) { return Outcome(o.field(field)); });
}

Result joint(const Result& result, const std::vector<std::string>& fields) {
    return project(result, [&](const Outcome& o) {
        Fields kept;
        for (const auto& name : fields) {
            Scalar v = o.field(name);
            if (v.index() != 0) kept.emplace(name, std::move(v));  // a Lua table holds no nil
        }
        return Outcome(std::move(kept));
    });
}

Result given(const Result& result, const Predicate& condition, MemoryBudget* memory) {
    return project(result, [](const Outcome& o) { return o; }, condition, memory);
}

Probability probability(const Result& result, const Predicate& event) {
    return conditional(result, event, [](const Outcome&) { return true; });
}

Probability conditional(const Result& result, const Predicate& event, const Predicate& given) {
    Probability p;
    p.is_exact = result.is_exact();
    mpq_class both = 0, condition = 0;
    std::uint64_t both_count = 0, condition_count = 0;
    for (const auto& o : result.outcomes) {
        if (!given(o.outcome)) continue;
        condition += o.exact;
        condition_count += o.count;
        if (event(o.outcome)) {
            both += o.exact;
            both_count += o.count;
        }
    }
    if (p.is_exact) {
        if (condition == 0) throw RuleError("P(A | B) is undefined: B never happens");
        p.exact = both / condition;
        p.value = p.exact.get_d();
        p.interval = {p.value, p.value};
    } else {
        if (condition_count == 0)
            throw RuleError("P(A | B) is undefined: B never happened in " +
                            std::to_string(result.samples) + " samples");
        p.count = both_count;
        p.trials = condition_count;
        p.value = static_cast<double>(both_count) / static_cast<double>(condition_count);
        p.interval = wilson_interval(both_count, condition_count);
    }
    return p;
}

}  // namespace umpire::odds
