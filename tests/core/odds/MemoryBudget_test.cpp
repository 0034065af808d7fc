// The run's memory cap for what the odds engine holds outside any host (core/odds/MemoryBudget.hpp):
// the Monte Carlo workers' merged counts and the Result made from them, the exact Result, and the
// estimate a report is charged by before it is built (report_bytes), against the heap bytes the
// report and its writers really take (glibc's mallinfo2, before and after).
#include <catch2/catch.hpp>

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <string>

#include "core/odds/Exact.hpp"
#include "core/odds/Joint.hpp"
#include "core/odds/MemoryBudget.hpp"
#include "core/odds/MonteCarlo.hpp"
#include "core/odds/Report.hpp"
#include "scripts.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define MEMORY_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMORY_TEST_ASAN 1
#endif
#endif

using namespace umpire::odds;
using namespace odds_test;

namespace {

// Four dice of a million faces written out with a 200-byte pad: an outcome that (almost) never
// repeats, each worker's differing from the other's.
Outcome never_repeats(DieSource& d) {
    std::string s(200, 'x');
    for (int i = 0; i < 4; ++i) s += " " + std::to_string(d.die(1000000));
    return Outcome(s);
}

// Six d6 as a string: 6^6 distinct outcomes, each 1/46656.
Outcome six_dice_text(DieSource& d) {
    std::string s(100, 'y');
    for (int i = 0; i < 6; ++i) s += std::to_string(d.die(6));
    return Outcome(s);
}

}  // namespace

TEST_CASE("memory budget: the Monte Carlo workers' merged counts are charged against the run's cap",
          "[odds][memory]") {
    MonteCarloOptions options;
    options.samples = 40000;
    options.threads = 2;
    options.seed = 7;
    // 40 000 distinct outcomes of ~230 bytes: their merge and its Result take ~20 MiB, far past
    // 4 MiB. The workers' own tallies are a host's to charge (Script::on_memory), not this cap's.
    MemoryBudget small(std::size_t{4} << 20);
    options.bounds.memory = &small;
    try {
        (void)monte_carlo([] { return Script(never_repeats); }, options);
        FAIL("a merge past the cap was not refused");
    } catch (const MemoryLimitError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("memory limit: the Monte Carlo workers' counts merged into one total (") == 0);
        CHECK(what.find("would pass the memory cap of 4 MiB") != std::string::npos);
    }
    CHECK(small.used() == 0);  // the refused merge gave its charge back

    // Under a cap that holds them, the same run answers, and the charge ends with it.
    MemoryBudget roomy(std::size_t{256} << 20);
    options.bounds.memory = &roomy;
    const Result r = monte_carlo([] { return Script(never_repeats); }, options);
    std::uint64_t counted = 0;
    for (const auto& o : r.outcomes) counted += o.count;
    CHECK(counted == options.samples);
    CHECK(r.outcomes.size() > 39000);
    CHECK(roomy.used() == 0);

    // A script with few outcomes runs under the small cap as before.
    options.bounds.memory = &small;
    const Result dice = monte_carlo([] { return Script(two_d6); }, options);
    CHECK(dice.outcomes.size() == 11);
    CHECK(small.used() == 0);
}

TEST_CASE("memory budget: the exact result is charged against the run's cap", "[odds][memory]") {
    RunBounds bounds;
    MemoryBudget small(std::size_t{2} << 20);
    bounds.memory = &small;
    try {
        (void)enumerate(Script(six_dice_text), default_budget, bounds);
        FAIL("an exact result past the cap was not refused");
    } catch (const MemoryLimitError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("memory limit: the exact result of 46656 distinct outcomes would take ~") == 0);
    }
    CHECK(small.used() == 0);
    MemoryBudget roomy(std::size_t{64} << 20);
    bounds.memory = &roomy;
    const auto exact = enumerate(Script(six_dice_text), default_budget, bounds);
    REQUIRE(exact);
    REQUIRE(exact->outcomes.size() == 46656);
    // Counted from the rule's numbers: every sequence of six faces once, 1/6^6 each.
    for (const auto& o : exact->outcomes) CHECK(o.exact == mpq_class(1, 46656));
    CHECK(roomy.used() == 0);
}

TEST_CASE("memory budget: the copy given() makes of the outcomes meeting a condition is charged against the run's cap",
          "[odds][memory]") {
    // `umpire odds --given` conditions the result after the run's hosts have ended: its copy of
    // the kept outcomes (a map of them, then a Result) has no host to charge.
    const auto exact = enumerate(Script(six_dice_text));
    REQUIRE(exact);
    REQUIRE(exact->outcomes.size() == 46656);
    // The sixth die at most 3: half of the outcomes.
    const auto text = [](const Outcome& o) { return std::get<std::string>(o.scalar()); };
    const Predicate low_last = [&](const Outcome& o) { return text(o).back() <= '3'; };
    MemoryBudget small(std::size_t{4} << 20);
    try {
        (void)given(*exact, low_last, &small);
        FAIL("a copy past the cap was not refused");
    } catch (const MemoryLimitError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("memory limit: the result given the condition, 23328 distinct outcomes copied from 46656, "
                        "would take ~") == 0);
        CHECK(what.find("would pass the memory cap of 4 MiB") != std::string::npos);
    }
    CHECK(small.used() == 0);  // the refused copy gave its charge back
    // Under a cap that holds it, the answer, counted from the rule's numbers: every kept sequence
    // of six faces once, so 1/(6^5 * 3) each; and the charge ends with the copy.
    MemoryBudget roomy(std::size_t{64} << 20);
    const Result low = given(*exact, low_last, &roomy);
    REQUIRE(low.outcomes.size() == 23328);
    for (const auto& o : low.outcomes) CHECK(o.exact == mpq_class(1, 23328));
    CHECK(roomy.used() == 0);
    // A condition few outcomes meet fits the small cap; so does a Monte Carlo result's copy.
    const Predicate all_sixes = [&](const Outcome& o) { return text(o).ends_with("666666"); };
    CHECK(given(*exact, all_sixes, &small).outcomes.size() == 1);
    MonteCarloOptions options;
    options.samples = 20000;
    options.seed = 3;
    const Result sampled = monte_carlo([] { return Script(six_dice_text); }, options);
    MemoryBudget tiny(std::size_t{1} << 20);
    CHECK_THROWS_AS(given(sampled, low_last, &tiny), MemoryLimitError);
    CHECK(tiny.used() == 0);
    CHECK(small.used() == 0);
}

TEST_CASE("memory budget: a hold gives back what it charged, and a refusal names what and the cap",
          "[odds][memory]") {
    MemoryBudget budget(1000);
    {
        MemoryHold hold(&budget);
        hold.grow(600, [] { return std::string("first"); }, "");
        CHECK(budget.used() == 600);
        try {
            hold.grow(500, [] { return std::string("the second thing"); }, "a hint");
            FAIL("not refused");
        } catch (const MemoryLimitError& e) {
            CHECK(std::string(e.what()) ==
                  "memory limit: the second thing would take ~1 MiB of C++ memory, which would pass the memory "
                  "cap of 0 MiB (a hint)");
        }
        CHECK(budget.used() == 600);
        hold.grow(400, [] { return std::string("third"); }, "");
        CHECK(hold.held() == 1000);
    }
    CHECK(budget.used() == 0);
    MemoryHold none(nullptr);
    none.grow(std::size_t{1} << 40, [] { return std::string("anything"); }, "");  // no budget: not charged
}

namespace {

std::size_t heap_in_use() { return mallinfo2().uordblks + mallinfo2().hblkhd; }

// A random result: scalar or table outcomes, fields of few or many values, short or long strings.
Result random_result(std::mt19937& rng, bool exact) {
    std::uniform_int_distribution<int> coin(0, 1);
    const bool table = coin(rng) == 1;
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, 3000)(rng);
    const std::size_t pad = std::uniform_int_distribution<std::size_t>(0, 3)(rng) == 0 ? 400 : 10;
    const int few = std::uniform_int_distribution<int>(2, 12)(rng);
    const bool numeric = !table && coin(rng) == 1;
    // Probabilities of long fraction texts, as a chain of many dice gives, or short ones.
    const bool long_fractions = coin(rng) == 1;
    mpz_class six_to_30;
    mpz_ui_pow_ui(six_to_30.get_mpz_t(), 6, 30);
    std::map<std::string, std::pair<Outcome, mpq_class>> sums;
    std::map<std::string, std::pair<Outcome, std::uint64_t>> counts;
    for (std::size_t i = 0; i < n; ++i) {
        Outcome o;
        if (numeric) o = Outcome(static_cast<double>(i));
        else if (!table) o = Outcome(std::string(pad, 's') + std::to_string(i));
        else
            o = Outcome(Fields{{"id", static_cast<double>(i)},
                               {"kind", static_cast<double>(i % few)},
                               {"pad", std::string(pad, 'p')},
                               {"tag", std::string("t") + std::to_string(i % 3)}});
        mpq_class p(1, static_cast<long>(n));
        if (long_fractions) {
            p = mpq_class(mpz_class(static_cast<unsigned long>(rng() | 1)), six_to_30);
            p.canonicalize();
        }
        sums.emplace(o.key(), std::make_pair(o, p));
        counts.emplace(o.key(), std::make_pair(o, 1 + i % 7));
    }
    if (exact) return Result::from_exact(sums, n);
    std::uint64_t samples = 0;
    for (const auto& [key, entry] : counts) samples += entry.second;
    return Result::from_counts(counts, samples);
}

}  // namespace

TEST_CASE("memory budget: a report's estimate is never under what it and its writer hold, and within 2 times (3 as text)",
          "[odds][memory]") {
#ifdef MEMORY_TEST_ASAN
    WARN("SKIPPED: under ASan, malloc is the sanitizer's, whose sizes the estimate does not model");
    return;
#endif
    std::mt19937 rng(16);
    {
        // The first report of the process allocates what stays (locale data): not a report's.
        const Result warm = random_result(rng, true);
        (void)to_json(build_report("warm", {{"", warm}})).dump(2);
        (void)format_text(build_report("warm", {{"", warm}}));
    }
    double most = 0, least = 1e9;
    for (int round = 0; round < 40; ++round) {
        const bool json = round % 2 == 0, compare = round % 5 == 0;
        std::vector<ReportSide> sides{{"a", random_result(rng, round % 3 != 0)}};
        if (compare) sides.push_back({"b", random_result(rng, true)});
        std::vector<const Result*> results;
        for (const auto& s : sides) results.push_back(&s.result);
        const std::size_t estimate = report_bytes(results, json, TextOptions{}.fold_below);
        // The report's tables, then its document and text, all held at once (as the command holds
        // them until it has printed).
        std::vector<ReportSide> moved = sides;  // the command moves its results in
        const std::size_t before = heap_in_use();
        const Report report = build_report("t", std::move(moved));
        std::size_t held = 0;
        if (json) {
            const nlohmann::json document = to_json(report);
            const std::string text = document.dump(2);
            held = heap_in_use() - before;
        } else {
            const std::string text = format_text(report);
            held = heap_in_use() - before;
        }
        INFO("round " << round << (json ? " json" : " text") << (compare ? " compare" : "") << ": "
                      << sides[0].result.outcomes.size() << " outcomes, estimate " << estimate << ", held " << held);
        CHECK(estimate >= held);
        // The estimate counts what is gone by the time `held` is measured (make_table's look-ups,
        // the marginals' sums, the rows vector's old buffer, the text writer's table of cells),
        // which weighs more beside a text than beside a JSON document.
        CHECK(estimate <= (json ? 2 : 3) * held);
        const double ratio = static_cast<double>(estimate) / static_cast<double>(held);
        most = std::max(most, ratio);
        least = std::min(least, ratio);
        if (std::getenv("MEMORY_TEST_VERBOSE"))
            WARN("round " << round << (json ? " json" : " text") << (compare ? " compare" : "") << " table "
                          << sides[0].result.outcomes.front().outcome.is_table() << ": ratio " << ratio);
    }
    WARN("report_bytes: between " << least << " and " << most << " times what the report held");
}
