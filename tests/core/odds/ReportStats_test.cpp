// The report's figures (mean, variance/sd, at least, at most) against hand-computed fractions,
// and against a brute-force enumeration written here: every face sequence of random small dice
// pools with a random modifier and a random "hit" field, counted one by one.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>

#include "core/odds/Exact.hpp"
#include "core/odds/MonteCarlo.hpp"
#include "core/odds/Report.hpp"
#include "core/odds/ReportStats.hpp"
#include "scripts.hpp"

using namespace umpire::odds;
using namespace odds_test;

namespace {
const ReportRow& row_of(const ReportTable& t, double value) {
    for (const auto& r : t.rows)
        if (r.outcome == Outcome(value)) return r;
    FAIL("no row " << value);
    return t.rows.front();
}

std::size_t count_of(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

// Every sequence of n dice of `sides` faces, each with weight 1/sides^n: the distribution of
// sum + modifier, by plain counting.
std::map<long, mpq_class> brute_force(int n, int sides, int modifier) {
    std::map<long, mpq_class> dist;
    std::vector<int> faces(n, 1);
    mpq_class weight(1);
    for (int i = 0; i < n; ++i) weight /= sides;
    while (true) {
        long total = modifier;
        for (int f : faces) total += f;
        dist[total] += weight;
        int i = 0;
        while (i < n && faces[i] == sides) faces[i++] = 1;
        if (i == n) break;
        ++faces[i];
    }
    return dist;
}
}  // namespace

TEST_CASE("report figures of 2d6 are the hand-computed fractions", "[odds][report][stats]") {
    const auto r = enumerate(two_d6);
    REQUIRE(r);
    const Report report = build_report("2d6", {{"", *r}});
    const ReportTable& t = report.outcomes;
    REQUIRE(t.numeric);
    REQUIRE(t.moments.size() == 1);
    // E = 7; E[X^2] = 329/6, so Var = 329/6 - 49 = 35/6.
    CHECK(t.moments[0].mean == mpq_class(7));
    CHECK(t.moments[0].variance == mpq_class(35, 6));
    CHECK(t.moments[0].sd == Approx(std::sqrt(35.0 / 6)));
    // P(>= 10) = (3 + 2 + 1)/36 = 1/6; P(<= 4) = (1 + 2 + 3)/36 = 1/6; P(>= 2) = 1; P(<= 12) = 1.
    CHECK(row_of(t, 10).sides[0].at_least == mpq_class(1, 6));
    CHECK(row_of(t, 4).sides[0].at_most == mpq_class(1, 6));
    CHECK(row_of(t, 7).sides[0].at_least == mpq_class(7, 12));
    CHECK(row_of(t, 2).sides[0].at_least == 1);
    CHECK(row_of(t, 12).sides[0].at_most == 1);
    // Text and JSON show them.
    const std::string text = format_text(report);
    CHECK_THAT(text, Catch::Contains("mean 7, sd 2.4152 (variance 35/6)"));
    const auto j = to_json(report);
    CHECK(j["moments"][0]["mean_exact"] == "7");
    CHECK(j["moments"][0]["variance_exact"] == "35/6");
    CHECK(j["outcomes"][8]["sides"][0]["at_least_exact"] == "1/6");  // outcome 10
    CHECK(j["outcomes"][2]["sides"][0]["at_most_exact"] == "1/6");   // outcome 4
}

TEST_CASE("report figures match a brute-force count over random dice", "[odds][report][stats]") {
    std::mt19937 rng(19);
    for (int trial = 0; trial < 25; ++trial) {
        const int n = std::uniform_int_distribution<int>(1, 4)(rng);
        const int sides = std::uniform_int_distribution<int>(2, 8)(rng);
        const int modifier = std::uniform_int_distribution<int>(-3, 3)(rng);
        const int target = std::uniform_int_distribution<int>(n, n * sides)(rng);
        INFO(n << "d" << sides << (modifier >= 0 ? "+" : "") << modifier << ", hit on " << target);
        const auto script = [&](umpire::dice::DieSource& d) {
            long total = 0;
            for (int i = 0; i < n; ++i) total += d.die(static_cast<std::uint32_t>(sides));
            return Outcome(Fields{{"total", static_cast<double>(total + modifier)}, {"hit", total >= target}});
        };
        const auto r = enumerate(script, 100000);
        REQUIRE(r);
        const Report report = build_report("", {{"", *r}});
        REQUIRE(report.fields.size() == 2);
        REQUIRE(report.fields[1].first == "total");
        const ReportTable& total = report.fields[1].second;
        REQUIRE(total.numeric);
        CHECK_FALSE(report.fields[0].second.numeric);  // hit: a boolean
        CHECK_FALSE(report.outcomes.numeric);          // the joint outcome: a table
        if (trial == 0) {  // one chart per field beside the joint chart
            const std::string svg = to_svg(report);
            CHECK(count_of(svg, "<g class=\"chart field\">") == 2);
            CHECK(count_of(svg, "<g class=\"chart joint\">") == 1);
        }

        const auto dist = brute_force(n, sides, modifier);
        mpq_class mean = 0, square = 0;
        for (const auto& [x, p] : dist) {
            mean += x * p;
            square += x * x * p;
        }
        CHECK(total.moments[0].mean == mean);
        CHECK(total.moments[0].variance == square - mean * mean);
        REQUIRE(total.rows.size() == dist.size());
        for (const auto& row : total.rows) {
            const long x = std::lround(std::get<double>(row.outcome.scalar()));
            mpq_class at_least = 0, at_most = 0;
            for (const auto& [y, p] : dist) {
                if (y >= x) at_least += p;
                if (y <= x) at_most += p;
            }
            CHECK(row.sides[0].exact == dist.at(x));
            CHECK(row.sides[0].at_least == at_least);
            CHECK(row.sides[0].at_most == at_most);
            CHECK(row.sides[0].at_least_value == Approx(at_least.get_d()));
        }
    }
}

TEST_CASE("a comparison gives each side's figures and the difference of the means", "[odds][report][stats]") {
    const auto a = enumerate(two_d6);
    const auto b = enumerate([](umpire::dice::DieSource& d) { return Outcome(d.die(6) + d.die(6) + 1); });
    const Report report = build_report("", {{"asl", *a}, {"house", *b}});
    const auto& t = report.outcomes;
    REQUIRE(t.moments.size() == 2);
    CHECK(t.moments[1].mean == 8);
    CHECK(t.moments[1].variance == mpq_class(35, 6));
    // 13 is only on the house side: P(>= 13) = 1/36 there, 0 in the original.
    CHECK(row_of(t, 13).sides[0].at_least == 0);
    CHECK(row_of(t, 13).sides[1].at_least == mpq_class(1, 36));
    CHECK(row_of(t, 13).sides[0].at_most == 1);
    CHECK(to_json(report)["moments_difference"]["mean_exact"] == "1");
}

TEST_CASE("Monte Carlo figures estimate the exact ones", "[odds][report][stats]") {
    MonteCarloOptions options;
    options.samples = 20000;
    options.threads = 1;
    options.seed = 3;
    const Result mc = monte_carlo([] { return Script(two_d6); }, options);
    const auto m = moments(mc);
    CHECK_FALSE(m.is_exact);
    CHECK(m.mean_value == Approx(7).margin(0.1));
    CHECK(m.sd == Approx(std::sqrt(35.0 / 6)).margin(0.1));
    const Report report = build_report("", {{"", mc}});
    CHECK(row_of(report.outcomes, 10).sides[0].at_least_value == Approx(1.0 / 6).margin(0.02));
    CHECK_FALSE(to_json(report)["moments"][0].contains("mean_exact"));
}

TEST_CASE("rare rows fold in the text and SVG, never in the JSON", "[odds][report]") {
    // 2d6's 2 and 12 are 1/36 each (2.78%): folded below 3%, kept below 1%.
    const auto r = enumerate(two_d6);
    const Report report = build_report("", {{"", *r}});
    TextOptions fold;
    fold.fold_below = 0.03;
    const std::string text = format_text(report, fold);
    CHECK_THAT(text, Catch::Contains("2 more < 3%  1/18"));
    CHECK(text.find("\n12 ") == std::string::npos);
    CHECK(format_text(report).find("\n12 ") != std::string::npos);
    const std::string svg = to_svg(report, fold);
    CHECK_THAT(svg, Catch::Contains("2 below 3%"));
    CHECK(to_json(report)["outcomes"].size() == 11);
    // --digits: decimals in the text.
    TextOptions digits;
    digits.digits = 3;
    CHECK_THAT(format_text(report, digits), Catch::Contains("0.0278") && !Catch::Contains("1/36"));
}
