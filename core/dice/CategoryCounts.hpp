// Pool counting by category: n dice of `sides` faces, each face assigned to one of m categories
// (e.g. 1-3 miss, 4-5 hit, 6 crit), and the exact distribution of the count vector
// (misses, hits, crits). The multinomial variant of Distribution::count_matching.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include <gmpxx.h>

namespace umpire::dice {

struct CategoryCounts {
    // count vector (one entry per category, summing to n) -> weight; only possible vectors appear.
    std::map<std::vector<std::uint32_t>, mpz_class> weights;
    mpz_class denominator;  // sides^n

    // category_of(face) must return 0..categories-1 for each face 1..sides (RuleError otherwise).
    // Weight of (k_1..k_m) is n!/(k_1!...k_m!) * a_1^k_1 ... a_m^k_m, a_c = faces in category c;
    // the C(n+m-1, m-1) count vectors are enumerated, never the sides^n sequences.
    static CategoryCounts count(std::uint32_t n, std::uint32_t sides, std::uint32_t categories,
                                const std::function<std::uint32_t(std::uint32_t face)>& category_of);

    // P(counts == exactly this vector), reduced; 0 for an impossible or malformed vector.
    mpq_class probability(const std::vector<std::uint32_t>& counts) const;
};

}  // namespace umpire::dice
