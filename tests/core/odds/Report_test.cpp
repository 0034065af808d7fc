#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <set>

#include "core/odds/Exact.hpp"
#include "core/odds/MonteCarlo.hpp"
#include "core/odds/Report.hpp"
#include "core/odds/SvgChart.hpp"
#include "scripts.hpp"

using namespace umpire::odds;
using namespace odds_test;

namespace {
std::size_t count_of(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

// Not a full XML parser: every tag opened is closed in order (enough for our flat SVG).
bool tags_balanced(const std::string& svg) {
    std::vector<std::string> open;
    const std::regex tag(R"(<(/?)([a-zA-Z?][a-zA-Z0-9]*)[^>]*?(/?)>)");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag); it != std::sregex_iterator(); ++it) {
        const auto& m = *it;
        const std::string name = m[2];
        if (name == "?xml") continue;
        if (m[1] == "/") {
            if (open.empty() || open.back() != name) return false;
            open.pop_back();
        } else if (m[3] != "/") {
            open.push_back(name);
        }
    }
    return open.empty();
}

Report plain(const Result& r) { return build_report("", {{"", r}}); }
Report pair(const Result& a, const Result& b) { return build_report("", {{"asl", a}, {"house", b}}); }

Result monte_carlo_2d6() {
    MonteCarloOptions options;
    options.samples = 10000;
    options.threads = 2;
    options.seed = 5;
    return monte_carlo([] { return Script(two_d6); }, options);
}
}  // namespace

TEST_CASE("Text table of exact and Monte Carlo results", "[odds][report]") {
    const auto exact = enumerate(two_d6);
    REQUIRE(exact);
    const std::string text = format_text(plain(*exact));
    CHECK_THAT(text, Catch::Contains("1/36") && Catch::Contains("16.6667%") &&
                         Catch::Contains("exact: 36 paths evaluated"));
    // Numeric order: the 2 row comes before the 10 row.
    CHECK(text.find("\n2 ") < text.find("\n10 "));

    const std::string mc = format_text(plain(monte_carlo_2d6()));
    CHECK_THAT(mc, Catch::Contains("±") && Catch::Contains("monte-carlo: 10000 samples, seed 5, 2 threads"));
}

TEST_CASE("JSON of a result parses back with exact fractions as strings", "[odds][report]") {
    const auto exact = enumerate(attack_table);
    REQUIRE(exact);
    const auto j = nlohmann::json::parse(to_json(plain(*exact)).dump());
    CHECK(j["sides"][0]["method"] == "exact");
    CHECK(j["sides"][0]["paths"] == 36);
    REQUIRE(j["outcomes"].size() == 4);
    mpq_class sum = 0;
    for (const auto& o : j["outcomes"]) {
        sum += mpq_class(o["sides"][0]["exact"].get<std::string>());
        CHECK(o["outcome"].is_object());
        CHECK(o["outcome"]["kia"].is_boolean());
    }
    CHECK(sum == 1);

    const auto m = nlohmann::json::parse(to_json(plain(monte_carlo_2d6())).dump());
    CHECK(m["sides"][0]["method"] == "monte-carlo");
    CHECK(m["sides"][0]["samples"] == 10000);
    CHECK(m["sides"][0]["seed"] == 5);
    REQUIRE(m["outcomes"].size() == 11);
    CHECK(m["outcomes"][0]["outcome"] == 2);
    CHECK(m["outcomes"][0]["sides"][0]["interval"].size() == 2);
    CHECK(m["outcomes"][0]["sides"][0].contains("count"));
    CHECK_FALSE(m["outcomes"][0]["sides"][0].contains("exact"));
}

TEST_CASE("JSON of a comparison", "[odds][report]") {
    const auto a = enumerate(two_d6);
    const auto b = enumerate([](DieSource& d) { return Outcome(d.die(6) + d.die(6) + 1); });
    const Report c = pair(*a, *b);
    const auto j = nlohmann::json::parse(to_json(c).dump());
    CHECK(j["exact"] == true);
    CHECK(j["sides"][0]["label"] == "asl");
    CHECK(j["outcomes"].size() == 12);
    CHECK(j["outcomes"][0]["difference"]["exact"] == "-1/36");
    // The shape of a plain run: the one-side case.
    const auto one = to_json(plain(*a));
    CHECK(one["sides"].size() == 1);
    CHECK(one["outcomes"][0]["sides"].size() == 1);
    CHECK_FALSE(one["outcomes"][0].contains("difference"));
    const std::string text = format_text(c);
    CHECK_THAT(text, Catch::Contains("-1/36") && Catch::Contains("pp"));
}

TEST_CASE("SVG bar charts are well-formed with one bar per outcome", "[odds][report]") {
    const auto exact = enumerate(two_d6);
    const std::string svg = to_svg(build_report("2d6 <attack> & more", {{"", *exact}}));
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(count_of(svg, "<svg ") == 1);
    CHECK(count_of(svg, "<rect class=\"bar\"") == 11);
    CHECK(count_of(svg, "<rect") == 11);
    CHECK(tags_balanced(svg));
    CHECK_THAT(svg, Catch::Contains("&lt;attack&gt; &amp; more") && Catch::Contains("16.67%"));

    const auto b = enumerate([](DieSource& d) { return Outcome(d.die(6) + d.die(6) + 1); });
    const std::string both = to_svg(pair(*exact, *b));
    CHECK(count_of(both, "<rect class=\"bar\"") == 2 * 12);
    CHECK(count_of(both, "<rect class=\"legend\"") == 2);
    CHECK(tags_balanced(both));
}

TEST_CASE("SvgChart helpers", "[odds][report]") {
    SvgChart svg(100, 50);
    svg.polygon({{0, 0}, {10, 0}, {5, 8.66}}, "#ccc", "#000");
    svg.circle(5, 5, 2.5, "red");
    svg.line(0, 0, 1.005, 2, "black");
    const std::string s = svg.str();
    CHECK_THAT(s, Catch::Contains("points=\"0,0 10,0 5,8.66\"") && Catch::Contains("r=\"2.5\""));
    CHECK(tags_balanced(s));
    CHECK(SvgChart::number(12.0) == "12");
    CHECK(SvgChart::number(-0.001) == "0");
}

// Outcomes that display alike (the number 5 and the string "5"; true and "true"; two tables whose
// "a=1 b=2" reads the same) were printed as two identical rows; `--json` told them apart. Each row
// must now read differently, by its key where it would read as another row, and by its display
// everywhere else.
TEST_CASE("rows that would read alike are told apart by their keys", "[odds][report]") {
    const auto mixed = [](DieSource& d) {
        switch (d.die(8)) {
            case 1: return Outcome(5);
            case 2: return Outcome("5");
            case 3: return Outcome(true);
            case 4: return Outcome("true");
            case 5: return Outcome(Fields{{"a", std::string("1 b=2")}});
            case 6: return Outcome(Fields{{"a", 1.0}, {"b", 2.0}});
            case 7: return Outcome("\"5\"");  // reads as the string "5"'s key
            default: return Outcome("hit");
        }
    };
    const auto exact = enumerate(mixed);
    REQUIRE(exact);
    const Report report = plain(*exact);
    const std::vector<std::string> labels = row_labels(report.outcomes);
    REQUIRE(labels.size() == 8);
    CHECK(std::set<std::string>(labels.begin(), labels.end()).size() == 8);
    for (std::size_t r = 0; r < labels.size(); ++r) {
        const Outcome& o = report.outcomes.rows[r].outcome;
        CHECK((labels[r] == o.display() || labels[r] == o.key()));
    }
    for (std::size_t r = 0; r < labels.size(); ++r)  // alike to no other row: as before
        if (report.outcomes.rows[r].outcome.key() == "\"hit\"") CHECK(labels[r] == "hit");
    CHECK(std::count(labels.begin(), labels.end(), "hit") == 1);
    const std::string text = format_text(report);
    for (const char* row : {"\n5 ", "\n\"5\" ", "\ntrue ", "\n\"true\" ", "\n{a=\"1 b=2\"} ", "\n{a=1,b=2} ", "\nhit "})
        CHECK_THAT(text, Catch::Contains(row));
    // A report with no such pair reads exactly as display() gives its rows.
    const auto b11 = enumerate(asl_b11);
    REQUIRE(b11);
    const Report plain_b11 = plain(*b11);
    for (std::size_t r = 0; r < plain_b11.outcomes.rows.size(); ++r)
        CHECK(row_labels(plain_b11.outcomes)[r] == plain_b11.outcomes.rows[r].outcome.display());
}
