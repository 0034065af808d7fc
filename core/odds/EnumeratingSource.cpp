#include "core/odds/EnumeratingSource.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "core/Error.hpp"

namespace umpire::odds {

namespace {
const char* const determinism_hint =
    "; an odds script must depend on nothing but its dice (no clock, no state kept between runs, "
    "no other random generator)";
}

EnumeratingSource::EnumeratingSource() {
    static std::atomic<std::uint64_t> last{0};
    id_ = ++last;
}

std::string EnumeratingSource::describe(Kind kind, std::uint32_t n, std::uint32_t sides,
                                        std::int64_t lo, std::int64_t hi) {
    const std::string dice = std::to_string(n) + "d" + std::to_string(sides);
    switch (kind) {
        case Kind::die: return "a d" + std::to_string(sides);
        case Kind::pool: return "a pool of " + dice;
        case Kind::choice: return "a weighted choice";
        default:
            return "a count of " + dice + " showing " + std::to_string(lo) + ".." +
                   std::to_string(hi);
    }
}

EnumeratingSource::Decision& EnumeratingSource::next_decision(Kind kind, std::uint32_t n,
                                                              std::uint32_t sides,
                                                              std::int64_t lo, std::int64_t hi) {
    if (sides == 0) throw RuleError("a die needs at least one side (asked for " +
                                    describe(kind, n, sides, lo, hi) + ")");
    if (cursor_ < path_.size()) {
        Decision& d = path_[cursor_];
        if (d.kind != kind || d.n != n || d.sides != sides || d.lo != lo || d.hi != hi)
            throw RuleError("the script is not deterministic given its dice: replaying the same "
                            "dice, roll #" + std::to_string(cursor_ + 1) + " asked for " +
                            describe(kind, n, sides, lo, hi) + " where it asked for " +
                            describe(d.kind, d.n, d.sides, d.lo, d.hi) + " before" +
                            determinism_hint);
        ++cursor_;
        return d;
    }
    Decision d;
    d.kind = kind;
    d.n = n;
    d.sides = sides;
    d.lo = lo;
    d.hi = hi;
    switch (kind) {
        case Kind::die:
            d.value = 1;
            d.last = sides;
            d.branches = sides;
            break;
        case Kind::count: {
            const std::int64_t from = std::max<std::int64_t>(lo, 1);
            const std::int64_t to = std::min<std::int64_t>(hi, sides);
            const std::uint64_t hits = to >= from ? static_cast<std::uint64_t>(to - from + 1) : 0;
            // Only k with non-zero weight are branches: none hit if no face can, all if every face does.
            d.value = hits == sides ? n : 0;
            d.last = hits == 0 ? 0 : n;
            d.branches = d.last - d.value + 1.0;
            break;
        }
        case Kind::pool: {
            d.faces.assign(n, 1);
            // C(n+s-1, k) with k = min(n, s-1), multiplied up in floating point.
            const std::uint64_t k = std::min<std::uint64_t>(n, sides - 1ULL);
            const double top = static_cast<double>(n) + sides - 1.0;
            for (std::uint64_t i = 0; i < k; ++i) d.branches = d.branches * (top - i) / (i + 1.0);
            break;
        }
        case Kind::choice: break;  // made by choose(), never here
    }
    set_weight(d);
    path_.push_back(std::move(d));
    ++cursor_;
    return path_.back();
}

// A die's branch is 1/sides, which fits: its GMP weight is left unset (exact_set false) until a
// path's 64-bit product overflows and finish_path needs it. That spares the die decisions of every
// path two GMP assignments and, for a decision made anew, their allocations: ~300 machine
// instructions of a path of the ASL MG fire-group attack (two dice a path).
void EnumeratingSource::set_weight(Decision& d) {
    if (d.kind == Kind::die) {
        d.exact_set = false;
        d.small_weight = 1;
        d.small_denominator = d.sides;
        return;
    }
    set_exact_weight(d);
    const bool fits = mpz_fits_ulong_p(d.weight.get_mpz_t()) && mpz_fits_ulong_p(d.denominator.get_mpz_t());
    d.small_weight = fits ? mpz_get_ui(d.weight.get_mpz_t()) : 0;
    d.small_denominator = fits ? mpz_get_ui(d.denominator.get_mpz_t()) : 0;
}

void EnumeratingSource::set_exact_weight(Decision& d) {
    d.exact_set = true;
    switch (d.kind) {
        case Kind::choice: {
            const mpq_class& p = d.choice->probabilities[d.value];
            d.weight = p.get_num();
            d.denominator = p.get_den();
            return;
        }
        case Kind::die:
            d.weight = 1;
            d.denominator = d.sides;
            return;
        case Kind::count: {
            const std::int64_t from = std::max<std::int64_t>(d.lo, 1);
            const std::int64_t to = std::min<std::int64_t>(d.hi, d.sides);
            const unsigned long a = to >= from ? static_cast<unsigned long>(to - from + 1) : 0;
            const unsigned long b = d.sides - a;
            mpz_class power;
            mpz_bin_uiui(d.weight.get_mpz_t(), d.n, d.value);
            mpz_ui_pow_ui(power.get_mpz_t(), a, d.value);
            d.weight *= power;
            mpz_ui_pow_ui(power.get_mpz_t(), b, d.n - d.value);
            d.weight *= power;
            mpz_ui_pow_ui(d.denominator.get_mpz_t(), d.sides, d.n);
            return;
        }
        case Kind::pool: {
            // Multinomial n! / (m1! m2! ...): the number of roll orders giving this multiset.
            mpz_fac_ui(d.weight.get_mpz_t(), d.n);
            mpz_class run_factorial;
            for (std::size_t i = 0; i < d.faces.size();) {
                std::size_t j = i;
                while (j < d.faces.size() && d.faces[j] == d.faces[i]) ++j;
                mpz_fac_ui(run_factorial.get_mpz_t(), j - i);
                mpz_divexact(d.weight.get_mpz_t(), d.weight.get_mpz_t(), run_factorial.get_mpz_t());
                i = j;
            }
            mpz_ui_pow_ui(d.denominator.get_mpz_t(), d.sides, d.n);
            return;
        }
    }
}

std::uint32_t EnumeratingSource::die(std::uint32_t sides) {
    return next_decision(Kind::die, 1, sides, 0, 0).value;
}

std::uint32_t EnumeratingSource::count(std::uint32_t n, std::uint32_t sides, std::int64_t lo,
                                       std::int64_t hi) {
    return next_decision(Kind::count, n, sides, lo, hi).value;
}

std::vector<std::uint32_t> EnumeratingSource::pool(std::uint32_t n, std::uint32_t sides) {
    return next_decision(Kind::pool, n, sides, 0, 0).faces;
}

std::size_t EnumeratingSource::choose(std::shared_ptr<const Choice> choice) {
    const auto& p = choice->probabilities;
    if (p.empty()) throw RuleError(choice->what + ": nothing to choose from");
    if (cursor_ < path_.size()) {
        Decision& d = path_[cursor_];
        const bool same = d.kind == Kind::choice &&
                          (d.choice == choice || (d.choice->probabilities == p && d.choice->values == choice->values));
        if (!same)
            throw RuleError("the script is not deterministic given its dice: replaying the same "
                            "dice, roll #" + std::to_string(cursor_ + 1) + " asked for " + choice->what +
                            " (" + std::to_string(p.size()) + " outcomes) where it asked for " +
                            (d.kind == Kind::choice ? d.choice->what + " with other odds"
                                                    : describe(d.kind, d.n, d.sides, d.lo, d.hi)) +
                            " before" + determinism_hint);
        ++cursor_;
        return d.value;
    }
    Decision d;
    d.kind = Kind::choice;
    d.sides = 1;
    d.choice = std::move(choice);
    d.value = 0;
    d.last = static_cast<std::uint32_t>(p.size() - 1);
    d.branches = static_cast<double>(p.size());
    set_weight(d);
    path_.push_back(std::move(d));
    ++cursor_;
    return 0;
}

std::int64_t EnumeratingSource::folded(const dice::Distribution& exact,
                                       const std::function<std::int64_t(DieSource&)>&) {
    auto choice = std::make_shared<Choice>();
    choice->what = "a folded roll";
    choice->values = exact.outcomes();
    for (const std::int64_t v : choice->values) choice->probabilities.push_back(exact.probability_equal(v));
    return choice->values[choose(std::move(choice))];
}

bool EnumeratingSource::path_truncated() const {
    for (const Decision& d : path_)
        if (d.kind == Kind::choice && !d.choice->truncated.empty() && d.choice->truncated[d.value]) return true;
    return false;
}

void EnumeratingSource::check_finished() const {
    if (cursor_ != path_.size())
        throw RuleError("the script is not deterministic given its dice: replaying the same dice, "
                        "it stopped after " + std::to_string(cursor_) +
                        " rolls where it made at least " + std::to_string(path_.size()) +
                        " before" + determinism_hint);
}

bool EnumeratingSource::finish_path_small(std::uint64_t& numerator, std::uint64_t& denominator) {
    check_finished();
    std::uint64_t n = 1, d = 1;
    for (const Decision& decision : path_)
        if (decision.small_denominator == 0 || __builtin_mul_overflow(n, decision.small_weight, &n) ||
            __builtin_mul_overflow(d, decision.small_denominator, &d))
            return false;
    numerator = n;
    denominator = d;
    return true;
}

mpq_class EnumeratingSource::finish_path() {
    check_finished();
    mpz_class numerator = 1, denominator = 1;
    for (Decision& d : path_) {
        if (!d.exact_set) set_exact_weight(d);
        numerator *= d.weight;
        denominator *= d.denominator;
    }
    mpq_class p(numerator, denominator);
    p.canonicalize();
    return p;
}

bool EnumeratingSource::advance() {
    while (!path_.empty()) {
        Decision& d = path_.back();
        bool moved = false;
        if (d.kind == Kind::pool) {
            // Next multiset in lexicographic order of the ascending faces: bump the rightmost face
            // that can still grow and level every face after it to the same value.
            auto it = std::find_if(d.faces.rbegin(), d.faces.rend(),
                                   [&](std::uint32_t f) { return f < d.sides; });
            if (it != d.faces.rend()) {
                const std::uint32_t v = *it + 1;
                std::fill(d.faces.begin() + (d.faces.rend() - it - 1), d.faces.end(), v);
                moved = true;
            }
        } else if (d.value < d.last) {
            ++d.value;
            moved = true;
        }
        if (moved) {
            set_weight(d);
            return true;
        }
        path_.pop_back();  // exhausted: the level above moves on and this one is rediscovered
    }
    return false;
}

double EnumeratingSource::branch_product() const {
    double product = 1;
    for (const Decision& d : path_) product *= d.branches;
    return product;
}

}  // namespace umpire::odds
