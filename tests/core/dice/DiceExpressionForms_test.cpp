// The dice language's forms beyond NdX (docs/dice.md): each exact distribution against a brute
// force written here, for random small parameters, and each roll against fixed dice.
//
// The brute force models one die as its list of faces, a re-roll set (once, or until: the kept
// faces conditioned on not being re-rolled, which is what "until" means) and an explosion set with
// a depth, expanded recursively into (result, probability) pairs; a pool is every n-tuple of those
// results, reduced by sum, keep/drop (sort the tuple) or a success count, then multiplied.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"
#include "core/dice/FixedSource.hpp"

using namespace umpire::dice;

namespace {

using Dist = std::map<std::int64_t, mpq_class>;

struct Model {
    std::vector<std::int64_t> faces;
    std::set<std::int64_t> reroll;
    bool once = false;
    std::set<std::int64_t> explode;
    int depth = 0;
};

Dist plain(const Model& m) {
    Dist out;
    const mpq_class k(static_cast<long>(m.faces.size()));
    if (m.reroll.empty() || m.once) {
        for (const auto f : m.faces) {
            if (!m.reroll.count(f)) { out[f] += 1 / k; continue; }
            for (const auto g : m.faces) out[g] += 1 / (k * k);
        }
        return out;
    }
    long kept = 0;
    for (const auto f : m.faces) kept += m.reroll.count(f) ? 0 : 1;
    for (const auto f : m.faces)
        if (!m.reroll.count(f)) out[f] += mpq_class(1, kept);
    return out;
}

Dist one_die(const Model& m, int depth) {
    Dist out;
    for (const auto& [v, p] : plain(m)) {
        if (!m.explode.count(v) || depth == 0) { out[v] += p; continue; }
        for (const auto& [w, q] : one_die(m, depth - 1)) out[v + w] += p * q;
    }
    return out;
}

// Every n-tuple of one die's results, reduced by `reduce`.
Dist pool(const Dist& die, int n, const std::function<std::int64_t(std::vector<std::int64_t>)>& reduce) {
    std::vector<std::pair<std::int64_t, mpq_class>> r(die.begin(), die.end());
    std::vector<std::size_t> at(n, 0);
    Dist out;
    for (;;) {
        std::vector<std::int64_t> values;
        mpq_class p = 1;
        for (const auto i : at) { values.push_back(r[i].first); p *= r[i].second; }
        out[reduce(values)] += p;
        int j = 0;
        while (j < n && ++at[j] == r.size()) at[j++] = 0;
        if (j == n) return out;
    }
}

void check_equal(const Distribution& d, const Dist& want) {
    mpq_class total = 0;
    for (const auto& [v, p] : want) {
        INFO("outcome " << v);
        REQUIRE(d.probability_equal(v) == p);
        total += p;
    }
    REQUIRE(total == 1);  // so d has no other outcome
}

std::string list(const std::vector<std::int64_t>& v) {
    std::string out;
    for (const auto x : v) out += (out.empty() ? "" : ",") + std::to_string(x);
    return out;
}

}  // namespace

TEST_CASE("every new dice form matches a brute force for random small parameters", "[dice][expression]") {
    std::mt19937 rng(19);
    const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for (int round = 0; round < 300; ++round) {
        Model m;
        std::string text;
        const int n = pick(1, 3);
        text += std::to_string(n) + "d";
        const int kind = pick(0, 2);
        if (kind == 0) {
            const int sides = pick(2, 6);
            for (int f = 1; f <= sides; ++f) m.faces.push_back(f);
            text += std::to_string(sides);
            if (sides == 2) m.faces = {1, 1, 1, 2, 2, 2};
            if (sides == 3) m.faces = {1, 1, 2, 2, 3, 3};
        } else if (kind == 1) {
            m.faces = {-1, -1, 0, 0, 1, 1};
            text += "F";
        } else {
            for (int i = pick(1, 5); i > 0; --i) m.faces.push_back(pick(-2, 6));
            text += "[" + list(m.faces) + "]";
        }
        const std::set<std::int64_t> distinct(m.faces.begin(), m.faces.end());
        const std::int64_t top = *distinct.rbegin();
        // re-roll: r<N or rN, once or until (until needs a face left to stand)
        if (pick(0, 1)) {
            m.once = pick(0, 1);
            const std::int64_t low = *distinct.begin();
            const bool below = pick(0, 1);
            const std::int64_t target = below ? low + pick(0, 2) : low;
            for (const auto f : distinct)
                if (below ? f < target : f == target) m.reroll.insert(f);
            if (!m.reroll.empty() && (m.once || m.reroll.size() < distinct.size()))
                text += std::string(m.once ? "ro" : "r") + (below ? "<" : "") + std::to_string(target);
            else
                m.reroll.clear();
        }
        if (pick(0, 1)) {
            m.depth = pick(1, 3);
            const bool at_least = pick(0, 1);
            const std::int64_t on = at_least ? top - pick(0, 1) : top;
            for (const auto f : distinct)
                if (at_least ? f >= on : f == on) m.explode.insert(f);
            if (m.once || m.reroll.empty() || true) {
                std::set<std::int64_t> possible;
                for (const auto f : distinct)
                    if (m.once || !m.reroll.count(f)) possible.insert(f);
                std::set<std::int64_t> live;
                for (const auto f : m.explode)
                    if (possible.count(f)) live.insert(f);
                m.explode = live;
            }
            if (!m.explode.empty())
                text += "!" + (at_least ? ">=" + std::to_string(on) : std::string()) + "{" + std::to_string(m.depth) + "}";
            else
                m.depth = 0;
        }
        const Dist die = one_die(m, m.depth);
        const int select = pick(0, 5);
        const int k = pick(1, n);
        const std::int64_t target = pick(-1, 5);
        std::function<std::int64_t(std::vector<std::int64_t>)> reduce;
        switch (select) {
            case 0: reduce = [](auto v) { std::int64_t s = 0; for (auto x : v) s += x; return s; }; break;
            case 1: case 2: {  // kh / kl
                const bool high = select == 1;
                text += (high ? "kh" : "kl") + std::to_string(k);
                reduce = [=](auto v) {
                    std::sort(v.begin(), v.end());
                    if (high) std::reverse(v.begin(), v.end());
                    std::int64_t s = 0;
                    for (int i = 0; i < k; ++i) s += v[i];
                    return s;
                };
                break;
            }
            case 3: {  // dh / dl, when at least one die stays
                if (n < 2) { reduce = [](auto v) { return v[0]; }; break; }
                const int d = pick(1, n - 1);
                const bool high = pick(0, 1);
                text += (high ? "dh" : "dl") + std::to_string(d);
                reduce = [=](auto v) {
                    std::sort(v.begin(), v.end());
                    if (!high) std::reverse(v.begin(), v.end());  // dropping the lowest keeps the highest
                    std::int64_t s = 0;
                    for (int i = 0; i < n - d; ++i) s += v[i];
                    return s;
                };
                break;
            }
            default: {  // >= / <=
                const bool at_least = select == 4;
                text += (at_least ? ">=" : "<=") + std::to_string(target);
                reduce = [=](auto v) {
                    std::int64_t c = 0;
                    for (auto x : v) c += at_least ? x >= target : x <= target;
                    return c;
                };
            }
        }
        const int mult = pick(0, 3) == 0 ? pick(0, 3) : 1;
        if (mult != 1) text += "*" + std::to_string(mult);
        const int constant = pick(-2, 2);
        if (constant) text += (constant > 0 ? "+" : "") + std::to_string(constant);
        INFO(text);
        Dist want;
        for (const auto& [v, p] : pool(die, n, reduce)) want[v * mult + constant] += p;
        const DiceExpression e(text);
        check_equal(e.distribution(), want);
        CHECK(e.min() == want.begin()->first);
        CHECK(e.max() == want.rbegin()->first);
        CHECK(DiceExpression(e.to_string()).to_string() == e.to_string());
        CHECK(DiceExpression(e.to_string()).distribution() == e.distribution());
    }
}

TEST_CASE("d66 is tens and units, d[1..66] is the plain 66-sided die", "[dice][expression]") {
    Dist want;
    for (int t = 1; t <= 6; ++t)
        for (int u = 1; u <= 6; ++u) want[10 * t + u] += mpq_class(1, 36);
    check_equal(DiceExpression("d66").distribution(), want);
    CHECK(DiceExpression("D66").min() == 11);
    CHECK(DiceExpression("d66").max() == 66);
    FixedSource s{3, 5};
    const RollResult r = DiceExpression("d66").roll(s);
    CHECK(r.total == 35);
    REQUIRE(r.faces.size() == 2);
    CHECK(r.faces[0].value == 3);
    CHECK(r.faces[1].value == 5);

    Dist flat;
    for (int v = 1; v <= 66; ++v) flat[v] = mpq_class(1, 66);
    check_equal(DiceExpression("d[1..66]").distribution(), flat);
    // 2d66kh1: the better of two D66 rolls.
    check_equal(DiceExpression("2d66kh1").distribution(),
                pool(want, 2, [](auto v) { return std::max(v[0], v[1]); }));
}

TEST_CASE("rolls of the new forms show every face, re-rolls and explosions included", "[dice][expression]") {
    const auto values = [](const RollResult& r) {
        std::vector<std::int64_t> v;
        for (const auto& f : r.faces) v.push_back(f.value);
        return v;
    };
    const auto kept = [](const RollResult& r) {
        std::vector<bool> v;
        for (const auto& f : r.faces) v.push_back(f.kept);
        return v;
    };
    {   // explode: 6 then 6 then 2 is one die of 14; the second die shows 3
        FixedSource s{6, 6, 2, 3};
        const RollResult r = DiceExpression("2d6!").roll(s);
        CHECK(r.total == 17);
        CHECK(values(r) == std::vector<std::int64_t>{6, 6, 2, 3});
    }
    {   // depth 1: 6, 6 stops after one extra die
        FixedSource s{6, 6, 4};
        CHECK(DiceExpression("d6!{1}").roll(s).total == 12);
        CHECK(s.remaining() == 1);
    }
    {   // re-roll until: 1, 1, 4 -> 4, the ones shown as not kept
        FixedSource s{1, 1, 4};
        const RollResult r = DiceExpression("d6r1").roll(s);
        CHECK(r.total == 4);
        CHECK(values(r) == std::vector<std::int64_t>{1, 1, 4});
        CHECK(kept(r) == std::vector<bool>{false, false, true});
    }
    {   // re-roll once: 1, 1 -> the second 1 stands
        FixedSource s{1, 1};
        const RollResult r = DiceExpression("d6ro1").roll(s);
        CHECK(r.total == 1);
        CHECK(kept(r) == std::vector<bool>{false, true});
    }
    {   // r<3 then explode on the re-rolled 6
        FixedSource s{2, 6, 1, 5};
        const RollResult r = DiceExpression("d6r<3!").roll(s);
        CHECK(r.total == 6 + 5);  // 2 re-rolled, 6 explodes, 1 re-rolled, 5
        CHECK(kept(r) == std::vector<bool>{false, true, false, true});
    }
    {   // success count: 5, 2, 6, 4 against >=5 is 2 hits
        FixedSource s{5, 2, 6, 4};
        const RollResult r = DiceExpression("4d6>=5+1").roll(s);
        CHECK(r.total == 3);
        CHECK(r.faces.size() == 4);
    }
    {   // drop lowest: 3, 1, 5, 2 drops the 1
        FixedSource s{3, 1, 5, 2};
        const RollResult r = DiceExpression("4d6dl1").roll(s);
        CHECK(r.total == 10);
        CHECK(kept(r) == std::vector<bool>{true, false, true, true});
    }
    {   // dF reads the d6: 1 -> -1, 3 -> 0, 6 -> +1
        FixedSource s{1, 3, 6};
        const RollResult r = DiceExpression("3dF").roll(s);
        CHECK(r.total == 0);
        CHECK(values(r) == std::vector<std::int64_t>{-1, 0, 1});
        CHECK(r.faces[2].raw == 6);
    }
    {   // custom faces: die(6) 6 is the face 8
        FixedSource s{6};
        CHECK(DiceExpression("d[1,1,2,3,5,8]").roll(s).total == 8);
    }
    {   // multiplication either side
        FixedSource s{4, 4};
        CHECK(DiceExpression("d6*2").roll(s).total == 8);
        CHECK(DiceExpression("3*d6").roll(s).total == 12);
    }
}

TEST_CASE("the new forms parse to their canonical form", "[dice][expression]") {
    const std::pair<const char*, const char*> cases[] = {
        {"d6!", "d6!{10}"},           {"D6!>=5{3}", "d6!>=5{3}"}, {"d6R1", "d6r1"},
        {"1d6RO1", "d6ro1"},          {"d6r<3", "d6r<3"},         {"4d6DL1", "4d6dl1"},
        {"4d6dh1", "4d6dh1"},         {"10d6>=5", "10d6>=5"},     {"10d6<=2", "10d6<=2"},
        {"4df", "4dF"},               {"d[1, 1,2,3,5,8]", "d[1,1,2,3,5,8]"},
        {"d[1..3]", "d[1,2,3]"},      {"d6*2", "d6*2"},           {"2*d6", "d6*2"},
        {"2 * 3", "6"},               {"d66", "d66"},             {"2d66kh1", "2d66kh1"},
        {"10d6!>=5", "10d6!>=5{10}"}, {"10d6!{10}>=5", "10d6!{10}>=5"},
    };
    for (const auto& [text, canonical] : cases) {
        INFO(text);
        CHECK(DiceExpression(text).to_string() == canonical);
    }
}

TEST_CASE("bad new forms point at the offending character", "[dice][expression]") {
    const std::pair<const char*, size_t> cases[] = {
        {"d6r7", 2},      {"d6r<1", 2},  {"d6r<7", 2},   {"d6!<3", 3},   {"d6!{0}", 4},
        {"d6!{3", 5},     {"d[]", 2},    {"d[1,", 4},    {"d[3..1]", 5}, {"4d6dl4", 5},
        {"d6*d6", 3},     {"d6*", 3},    {"d66r1", 3},   {"d[1..2000]", 2}, {"d6>=", 4},
        {"d6r", 3},       {"d6!{101}", 4},
    };
    for (const auto& [text, position] : cases) {
        INFO("'" << text << "'");
        try {
            DiceExpression e(text);
            FAIL("parsed");
        } catch (const umpire::ParseError& e) {
            CHECK(e.position == position);
        }
    }
}
