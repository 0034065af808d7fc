#include "core/dice/CategoryCounts.hpp"

#include <string>

#include "core/Error.hpp"

namespace umpire::dice {

CategoryCounts CategoryCounts::count(std::uint32_t n, std::uint32_t sides, std::uint32_t categories,
                                     const std::function<std::uint32_t(std::uint32_t)>& category_of) {
    if (sides == 0) throw RuleError("a die needs at least 1 side");
    if (categories == 0) throw RuleError("pool counting needs at least one category");
    std::vector<unsigned long> faces_in(categories, 0);
    for (std::uint64_t f = 1; f <= sides; ++f) {
        const std::uint32_t c = category_of(static_cast<std::uint32_t>(f));
        if (c >= categories)
            throw RuleError("face " + std::to_string(f) + " put in category " + std::to_string(c) +
                            " of only " + std::to_string(categories));
        ++faces_in[c];
    }
    // Enumerate the count vectors recursively, carrying the product of binomials
    // C(remaining, k_c) * a_c^k_c, which multiplies out to the multinomial weight.
    CategoryCounts result;
    mpz_ui_pow_ui(result.denominator.get_mpz_t(), sides, n);
    std::vector<std::uint32_t> counts(categories, 0);
    std::function<void(std::uint32_t, std::uint32_t, const mpz_class&)> place =
        [&](std::uint32_t c, std::uint32_t remaining, const mpz_class& weight) {
            if (c + 1 == categories) {
                counts[c] = remaining;
                mpz_class p;
                mpz_ui_pow_ui(p.get_mpz_t(), faces_in[c], remaining);
                if (sgn(p) != 0) result.weights.emplace(counts, weight * p);
                return;
            }
            for (std::uint32_t k = 0; k <= remaining; ++k) {
                mpz_class b, p;
                mpz_bin_uiui(b.get_mpz_t(), remaining, k);
                mpz_ui_pow_ui(p.get_mpz_t(), faces_in[c], k);
                if (sgn(p) == 0) continue;  // an empty category can only hold 0 dice
                counts[c] = k;
                place(c + 1, remaining - k, weight * b * p);
            }
        };
    place(0, n, mpz_class(1));
    return result;
}

mpq_class CategoryCounts::probability(const std::vector<std::uint32_t>& counts) const {
    const auto it = weights.find(counts);
    if (it == weights.end()) return 0;
    mpq_class q(it->second, denominator);
    q.canonicalize();
    return q;
}

}  // namespace umpire::dice
