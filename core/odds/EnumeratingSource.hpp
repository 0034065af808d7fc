// A DieSource that walks every branch of a rule script's decision tree, one path per run.
//
// The script is a black box that rolls dice through this source. Each call (die, count or pool)
// is one decision with a known set of branches. The source keeps the current path: the branch
// chosen at each decision so far. Running the script once follows that path: at decision i it
// replays the recorded branch if the path has one, otherwise it takes the first branch and records
// the decision (what was asked, how many branches it has). After the run, advance() moves to the
// next path like an odometer: the deepest decision that still has an untried branch moves to it,
// and every decision below it is dropped, to be rediscovered by the next run (a different branch
// may lead the script to roll different dice, or none). The walk is depth-first and visits every
// leaf exactly once; its cost is one script run per leaf.
//
// Branches are weighted: die(s) has s branches of 1/s each; count(n, s, lo, hi) has one branch per
// number of hits k with weight C(n,k) a^k b^(n-k) / s^n (a faces hit, b miss), so ten dice at 5+
// are 11 branches rather than 6^10 sequences; pool(n, s) has one branch per multiset of faces
// (C(n+s-1, s-1) of them) with multinomial weight n! / (m1! ... ms!) / s^n, returned sorted
// ascending; folded(exact, roll) has one branch per outcome of the exact distribution, with its
// probability (the dice are never asked for); choose(branches) has one branch per given
// probability (how a folded chain hands its distinct end states back to the script). Branches of
// zero weight are never visited. A path's probability is the product of its branch weights, exact.
//
// The script must be a function of its dice alone. If a replay of a recorded prefix asks for a
// different roll than the first time (or stops before the prefix ends), it depends on something
// else (a clock, state kept between runs, an unseeded generator) and the odds would be wrong, so
// the source throws RuleError.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmpxx.h>

#include "core/dice/DieSource.hpp"
#include "core/dice/Distribution.hpp"

namespace umpire::odds {

class EnumeratingSource final : public dice::DieSource {
public:
    EnumeratingSource();
    // Unique per source made in this process: what caches of one enumeration are keyed by.
    std::uint64_t id() const { return id_; }

    std::uint32_t die(std::uint32_t sides) override;
    std::vector<std::uint32_t> pool(std::uint32_t n, std::uint32_t sides) override;
    std::uint32_t count(std::uint32_t n, std::uint32_t sides, std::int64_t lo,
                        std::int64_t hi) override;
    std::int64_t folded(const dice::Distribution& exact,
                        const std::function<std::int64_t(DieSource&)>& roll) override;

    // One of several weighted branches, by index: `probabilities` (each > 0) is shared by every
    // replay of the same choice (a replay with a different list is a determinism error). A
    // branch marked in `truncated` marks the whole path as cut short (path_truncated()).
    struct Choice {
        std::vector<mpq_class> probabilities;
        std::vector<bool> truncated;       // empty: none
        std::vector<std::int64_t> values;  // what each branch stands for, if a value (folded rolls)
        std::string what;                  // for messages: "the end states of umpire.odds.chain"
    };
    std::size_t choose(std::shared_ptr<const Choice> choice);

    // Call before each run of the script.
    void begin_path() { cursor_ = 0; }
    // Call after a run that returned normally: checks the whole recorded prefix was replayed
    // (RuleError otherwise) and returns the exact probability of the path just run.
    mpq_class finish_path();
    // The same check, with the path's probability as numerator / denominator, not reduced, when
    // both products fit in 64 bits (the usual case: a few dice): false when they do not, and then
    // finish_path() gives it. A few multiplications where finish_path takes GMP's products and gcd.
    bool finish_path_small(std::uint64_t& numerator, std::uint64_t& denominator);
    // Moves to the next unvisited path; false once every path has been visited.
    bool advance();
    // Whether the path just run went through a truncated branch of a choice (a chain cut at its
    // max_steps or epsilon).
    bool path_truncated() const;

    // Decisions on the current path.
    std::size_t depth() const { return path_.size(); }
    // The product of the branch counts along the current path (a double: it may be astronomic).
    // For a tree whose every path rolls the same dice it is the number of paths; otherwise a
    // rough size estimate (Knuth's estimator, here along one path).
    double branch_product() const;

private:
    enum class Kind { die, count, pool, choice };
    struct Decision {
        Kind kind;
        std::uint32_t n = 1;  // dice in the decision
        std::uint32_t sides;
        std::int64_t lo = 0, hi = 0;        // count(): the hit range as asked
        std::uint32_t value = 0;            // die: the face; count: the number of hits
        std::uint32_t last = 0;             // die, count: the last value with non-zero weight
        std::vector<std::uint32_t> faces;   // pool: the current multiset, ascending
        std::shared_ptr<const Choice> choice;  // choice: the branches (value = index)
        double branches = 1;                // how many branches this decision has
        // Weight of the current branch over `denominator`, in GMP: set only when exact_set (a die's
        // 1/sides is made in 64 bits alone, and in GMP only for a path whose product overflows).
        mpz_class weight;
        mpz_class denominator;
        bool exact_set = false;
        // The same two in 64 bits, or small_denominator = 0 when either does not fit.
        std::uint64_t small_weight = 0, small_denominator = 0;
    };

    // The decision at the cursor: the recorded one (checked against what is asked now), or a new
    // one on its first branch. Advances the cursor.
    Decision& next_decision(Kind kind, std::uint32_t n, std::uint32_t sides, std::int64_t lo,
                            std::int64_t hi);
    // The weight of the decision's current branch: set_exact_weight the GMP fraction, set_weight
    // its 64-bit copy (through the GMP one, except for a die: see Decision::weight).
    static void set_weight(Decision& d);
    static void set_exact_weight(Decision& d);
    void check_finished() const;
    static std::string describe(Kind kind, std::uint32_t n, std::uint32_t sides, std::int64_t lo,
                                std::int64_t hi);

    std::vector<Decision> path_;
    std::size_t cursor_ = 0;
    std::uint64_t id_;
};

}  // namespace umpire::odds
