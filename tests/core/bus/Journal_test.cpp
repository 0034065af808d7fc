#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/bus/Hash.hpp"
#include "core/bus/Journal.hpp"
#include "core/bus/ModifierPipeline.hpp"

using namespace umpire;
using namespace umpire::bus;
using Kind = JournalEntry::Kind;

namespace {

// A small A9 history: a Fire Lane attack with a malfunction.
Journal sample() {
    Journal j(Journal::Header{"0.1.0", {{"asl", "00ff00ff00ff00ff"}}, 42,
                              {{"scenario", "A9.22 EX"}}});
    j.set_context({2, "American", "DFPh"});
    j.cite("A9.22", "the MMG declares a Fire Lane");
    ModifierPipeline drm("IFT DRM", "DRM");
    drm.add(-1, "FFNAM", "A4.6").add(3, "TEM", "B23.3");
    {
        Journal::Nest nest(j);
        j.roll("IFT DR, MMG", "2d6", {5, 6}, 11, "A9.2", {{"dice", "DR"}});
        j.modifiers(drm, "A7.1");
    }
    j.cite("A9.7", "Original DR 11 ≤ B# 11: the MMG malfunctions");
    j.state_change("units.mmg_a.malfunctioned", false, true, "A9.7");
    j.set_context({2, "American", "AFPh"});
    j.result("MMG malfunctioned", {{"mmg", "malfunction"}});
    j.note("ratio", {{"p", 0.25}, {"n", 3.0}});
    return j;
}

}  // namespace

TEST_CASE("entries carry seq, context, depth and citation", "[bus][journal]") {
    Journal j = sample();
    REQUIRE(j.size() == 7);
    CHECK(j.entries()[0].seq == 1);
    CHECK(j.entries()[6].seq == 7);
    CHECK(j.entries()[1].kind == Kind::roll);
    CHECK(j.entries()[1].depth == 1);
    CHECK(j.entries()[1].data["faces"] == nlohmann::json{5, 6});
    CHECK(j.entries()[1].data["dice"] == "DR");
    CHECK(j.entries()[2].text == "+2 DRM (-1 [FFNAM] +3 [TEM])");
    CHECK(j.entries()[3].depth == 0);
    CHECK(j.entries()[3].context == JournalEntry::Context{2, "American", "DFPh"});
    CHECK(j.entries()[5].context.phase == "AFPh");
    // 3.0 (a Lua number) journals as the integer 3; 0.25 stays a float.
    CHECK(j.entries()[6].data["n"].is_number_integer());
    CHECK(j.entries()[6].data["p"] == 0.25);
    CHECK_THROWS_AS(j.note("bad", {{"x", std::numeric_limits<double>::quiet_NaN()}}), RuleError);
    CHECK_THROWS_AS(j.append(Kind::note, "bad", nlohmann::json::array()), RuleError);
}

TEST_CASE("journal JSON round trip is byte-identical", "[bus][journal]") {
    Journal j = sample();
    std::string text = j.dump();
    Journal back = Journal::load(text);
    CHECK(back.dump() == text);
    CHECK(back.entries() == j.entries());
    CHECK(back.header() == j.header());
    // Building the same history again gives the same bytes.
    CHECK(sample().dump() == text);
    // The format starts with sorted keys.
    CHECK(text.rfind(R"({"entries":[{"citation":"A9.22","data":{},"depth":0,"kind":"cite",)", 0) == 0);
}

TEST_CASE("bad journals are refused with a reason", "[bus][journal]") {
    std::string text = sample().dump();
    CHECK_THROWS_AS(Journal::load(text.substr(0, text.size() - 3)), ParseError);
    auto j = nlohmann::json::parse(text);
    j["format"] = "other";
    CHECK_THROWS_AS(Journal::from_json(j), ParseError);
    j = nlohmann::json::parse(text);
    j["entries"][2]["seq"] = 9;
    CHECK_THROWS_WITH(Journal::from_json(j), Catch::Contains("entry 3 has seq 9"));
    j = nlohmann::json::parse(text);
    j["entries"][0]["kind"] = "dance";
    CHECK_THROWS_AS(Journal::from_json(j), ParseError);
    try {
        Journal::load(R"({"format": "umpire-journal/1", "header": {}, "entries": [})");
        FAIL("expected ParseError");
    } catch (const ParseError& e) {
        CHECK(e.input[e.position] == '}');
    }
}

TEST_CASE("explain reads like a rule log", "[bus][journal]") {
    CHECK(sample().explain() ==
          "Turn 2 · American · DFPh\n"
          "[A9.22] the MMG declares a Fire Lane\n"
          "  [A9.2] IFT DR, MMG: 2d6 → 5 6 = 11\n"
          "  [A7.1] IFT DRM: +2 DRM (-1 [FFNAM] +3 [TEM])\n"
          "    -1 [FFNAM] (A4.6) → -1\n"
          "    +3 [TEM] (B23.3) → 2\n"
          "    = +2 DRM\n"
          "[A9.7] Original DR 11 ≤ B# 11: the MMG malfunctions\n"
          "[A9.7] units.mmg_a.malfunctioned: false → true\n"
          "Turn 2 · American · AFPh\n"
          "⇒ MMG malfunctioned\n"
          "ratio\n");
}

TEST_CASE("first_divergence finds the first differing entry and field", "[bus][journal]") {
    Journal a = sample();
    CHECK_FALSE(Journal::first_divergence(a, sample()).has_value());

    // Same history except the roll's second die.
    Journal b(a.header());
    b.set_context({2, "American", "DFPh"});
    b.cite("A9.22", "the MMG declares a Fire Lane");
    b.push_depth();
    b.roll("IFT DR, MMG", "2d6", {5, 4}, 9, "A9.2", {{"dice", "DR"}});
    auto d = Journal::first_divergence(a, b);
    REQUIRE(d.has_value());
    CHECK(d->where == Journal::Divergence::Where::entry);
    CHECK(d->index == 1);
    CHECK(d->path == "/data/faces/1");
    CHECK(d->expected == "6");
    CHECK(d->actual == "4");
    CHECK(d->message.find("entry 2 differs") == 0);

    // A prefix: the divergence is the length, at the first missing entry.
    Journal c = Journal::load(a.dump());
    auto j = c.to_json();
    j["entries"].erase(j["entries"].begin() + 4, j["entries"].end());
    Journal prefix = Journal::from_json(j);
    d = Journal::first_divergence(a, prefix);
    REQUIRE(d.has_value());
    CHECK(d->where == Journal::Divergence::Where::length);
    CHECK(d->index == 4);
    CHECK(d->message.find("ends after entry 4") != std::string::npos);

    // Header differences come first, and can be ignored.
    Journal other_seed = sample();
    other_seed.header().seed = 43;
    d = Journal::first_divergence(a, other_seed);
    REQUIRE(d.has_value());
    CHECK(d->where == Journal::Divergence::Where::header);
    CHECK(d->path == "/seed");
    CHECK_FALSE(Journal::first_divergence(a, other_seed, false).has_value());
}

TEST_CASE("FNV-1a 64 matches the published test vectors", "[bus][hash]") {
    CHECK(fnv1a_64("") == 0xcbf29ce484222325ULL);
    CHECK(fnv1a_64("a") == 0xaf63dc4c8601ec8cULL);
    CHECK(fnv1a_64("foobar") == 0x85944171f73967e8ULL);
    CHECK(hash_hex(0xaf63dc4c8601ec8cULL) == "af63dc4c8601ec8c");
    CHECK(hash_hex(1) == "0000000000000001");
    static_assert(fnv1a_64("a") == 0xaf63dc4c8601ec8cULL);
}

TEST_CASE("the journal hash is stable", "[bus][hash]") {
    Journal j = sample();
    CHECK(j.hash() == fnv1a_64(j.dump()));
    CHECK(j.hash() == Journal::load(j.dump()).hash());
    // Pinned: changes only if the journal format changes (then bump format_name).
    CHECK(Journal().hash_hex() == "3cb8a0d910ac866d");
    CHECK(j.hash_hex() == "72134b7b2e570c80");
    Journal k = sample();
    k.note("one more");
    CHECK(k.hash() != j.hash());
}

TEST_CASE("a divergence the explain line does not show names the differing values", "[bus][journal]") {
    Journal a, b;
    a.append(Kind::note, "same text", {{"hidden", 1}});
    b.append(Kind::note, "same text", {{"hidden", 2}});
    const auto d = Journal::first_divergence(a, b);
    REQUIRE(d.has_value());
    CHECK(d->path == "/data/hidden");
    // Not "expected \"same text\", got \"same text\"": the values that differ.
    CHECK(d->message.find("expected 1, got 2") != std::string::npos);
}
