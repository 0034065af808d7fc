// umpire odds on real Lua scripts: exact fractions computed by hand, pools folded by counts,
// Monte Carlo inside its interval of the exact answer, and the same seed giving the same sample.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>

#include "app/OddsRunner.hpp"
#include "core/odds/Report.hpp"
#include "core/Error.hpp"
#include "core/odds/Exact.hpp"
#include "core/odds/Joint.hpp"
#include "tests/support/helpers.hpp"

namespace {

namespace fs = std::filesystem;

umpire::odds::Result run(const std::string& code, bool monte_carlo = false, std::uint64_t seed = 1) {
    const fs::path dir = test_helpers::scratch_root() / "odds";
    fs::create_directories(dir);
    const fs::path script = dir / "script.lua";
    test_helpers::write(script, code);
    umpire::odds_runner::Request request;
    request.script = script;
    request.odds.monte_carlo_only = monte_carlo;
    request.odds.monte_carlo.samples = 200000;
    request.odds.monte_carlo.seed = seed;
    request.odds.monte_carlo.threads = 2;
    return umpire::odds_runner::run_script(request);
}

// A fraction in lowest terms, as the engine prints it.
std::string frac(long a, long b) {
    mpq_class q(a, b);
    q.canonicalize();
    return q.get_str();
}

std::string exact(const umpire::odds::Result& r, const umpire::odds::Outcome& o) {
    return r.exact_probability(o).get_str();
}

// The script gives `outcome` on every path and on every Monte Carlo sample.
void check_always(const std::string& code, const umpire::odds::Outcome& outcome) {
    const auto exact_run = run(code);
    REQUIRE(exact_run.outcomes.size() == 1);
    CHECK(exact(exact_run, outcome) == "1");
    const auto sampled = run(code, true);
    REQUIRE(sampled.outcomes.size() == 1);
    CHECK(sampled.outcomes[0].outcome == outcome);
}

}  // namespace

TEST_CASE("exact odds of 2d6, d20 and D3+1 from scripts", "[odds]") {
    const auto two_d6 = run("return umpire.dice.roll('2d6')");
    CHECK(two_d6.is_exact());
    // umpire.dice.roll under odds folds to one branch per total: the 11 totals of 2d6, not the 21
    // multisets of two faces or the 36 ordered sequences.
    CHECK(two_d6.paths == 11);
    CHECK(exact(two_d6, 7) == "1/6");
    CHECK(exact(two_d6, 2) == "1/36");
    CHECK(exact(two_d6, 11) == "1/18");
    const auto d20 = run("return umpire.dice.d(20)");
    CHECK(d20.outcomes.size() == 20);
    CHECK(exact(d20, 13) == "1/20");
    const auto d3 = run("return umpire.dice.d3() + 1");
    CHECK(exact(d3, 2) == "1/3");
    CHECK(exact(d3, 4) == "1/3");
}

TEST_CASE("an ASL DR against a B#: P(Original DR >= 11) = 3/36", "[odds]") {
    const auto r = run("local dr = umpire.dice.dr() return dr.total >= 11 and 'malfunction' or 'ok'");
    CHECK(exact(r, std::string("malfunction")) == "1/12");  // 3/36
    CHECK(exact(r, std::string("ok")) == "11/12");
}

TEST_CASE("a 10-dice pool counted against a target costs 11 paths", "[odds]") {
    const auto r = run("return umpire.dice.count(10, 6, 5)");
    CHECK(r.paths == 11);
    // P(k hits of 10d6 at 5+) = C(10,k) 2^k 4^(10-k) / 6^10.
    CHECK(exact(r, 0) == frac(1048576, 60466176));
    CHECK(exact(r, 3) == frac(120 * 8 * 16384, 60466176));
    CHECK(exact(r, 10) == frac(1024, 60466176));
}

TEST_CASE("joint outcomes keep their fields", "[odds]") {
    const auto r = run("local dr = umpire.dice.dr() "
                       "return {kia = dr.total <= 3, malfunction = dr.total >= 11}");
    CHECK(r.outcomes.size() == 3);
    CHECK(r.exact_probability(umpire::odds::Outcome(umpire::odds::Fields{
              {"kia", true}, {"malfunction", false}})).get_str() == frac(3, 36));
}

TEST_CASE("Monte Carlo lands inside its interval and repeats for the same seed", "[odds]") {
    const std::string script = "return umpire.dice.roll('2d6')";
    const auto mc = run(script, true, 7);
    CHECK_FALSE(mc.is_exact());
    CHECK(mc.samples == 200000);
    const auto* seven = mc.find(umpire::odds::Outcome(7).key());
    REQUIRE(seven);
    CHECK(seven->low <= 1.0 / 6);
    CHECK(seven->high >= 1.0 / 6);
    const auto again = run(script, true, 7);
    CHECK(again.find(umpire::odds::Outcome(7).key())->count == seven->count);
}

TEST_CASE("no path or sample sees what another wrote into its globals", "[odds]") {
    // Each run's globals are its own: a count kept through _G, through a plain global or through
    // a chunk made by load starts again on every path and every sample, so the outcome is always
    // 3. Before, _G and load reached the env the runs share, and the count grew path by path.
    const std::string code =
        "local d = umpire.dice.d(6)\n"
        "_G.a = (_G.a or 0) + 1\n"
        "b = (b or 0) + 1\n"
        "load('c = (c or 0) + 1')()\n"
        "loadstring('_G.c = c + 0')()\n"
        "return a + b + c\n";
    check_always(code, 3);
}

TEST_CASE("a run that writes no global hands on a clean globals table, one that writes any does not", "[odds]") {
    // The worker keeps a run's globals table for the next run only while no run wrote to it
    // (ScriptWorker::globals_clean). Here each face of the die writes another way: a plain
    // global, rawset, a global set and then cleared (the one that leaves the table clean), _G
    // itself, load and loadstring replaced or removed. Every run looks at its globals before
    // writing: they must always be as new, on every path and sample, so the outcome is always true.
    const std::string code =
        "local clean = x == nil and rawget(_G, 'y') == nil and _G._G == _G\n"
        "  and type(load) == 'function' and load == loadstring and w == nil\n"
        "local n = 0\n"
        "for k in pairs(_G) do n = n + 1 end\n"
        "clean = clean and n == 0 and next(_G) == nil\n"
        "local d = umpire.dice.d(8)\n"
        "if d == 1 then x = 1\n"
        "elseif d == 2 then rawset(_G, 'y', 2)\n"
        "elseif d == 3 then w = 1; w = nil\n"
        "elseif d == 4 then _G = nil\n"
        "elseif d == 5 then load = nil\n"
        "elseif d == 6 then loadstring = print\n"
        "elseif d == 7 then load('w = 7')()\n"
        "end\n"
        "return clean\n";
    check_always(code, true);
}

// `_G`, `load` and `loadstring` are no entries of a run's globals table but read through to the
// worker's defaults (ScriptWorker::push_globals). When they were entries, a run that set one to nil
// read the script env's own instead: `_G = nil` bared the env (shared by all the worker's runs),
// `load = nil` a `load` compiling into it, and a write through either reached every later run (5
// of the 6 paths here saw `x` set by the first). Each face writes another way; every run must
// begin with `x` unset.
TEST_CASE("a run that sets _G or load to nil writes into no table a later run reads", "[odds]") {
    const std::string code =
        "local seen = x\n"
        "local d = umpire.dice.d(6)\n"
        "if d == 1 then _G = nil; _G.x = 1\n"
        "elseif d == 2 then load = nil; load('x = 2')()\n"
        "elseif d == 3 then loadstring = nil; loadstring('x = 3')()\n"
        "elseif d == 4 then local g = _G; _G = nil; local e = _G; _G = g; rawset(e, 'x', 4)\n"
        "elseif d == 5 then rawset(_G, '_G', nil); _G.x = 5\n"
        "end\n"
        "return seen == nil and x == (d < 6 and d or nil)\n";
    check_always(code, true);
}

// The other half of globals_clean: a run that wrote nothing must hand its globals table on
// (the check compares addresses; one that never matched would make a fresh table every run, the
// cost it exists to save). tostring(_G) shows the table's address: the same over runs that write
// nothing, and over those after a run that wrote a global (its replacement is handed on in turn).
// (Whether the replacement has another address depends on the collector, so it is not checked;
// "a run that writes no global hands on a clean globals table" checks that it is clean.)
TEST_CASE("runs that write no global share one globals table", "[odds]") {
    umpire::odds_runner::Request request;
    request.code = "local d = umpire.dice.d(6)\nif d == 6 then z = 1 end\nreturn tostring(_G)";
    umpire::odds_runner::ScriptWorker worker(request);
    struct Faces : umpire::dice::DieSource {
        std::vector<std::uint32_t> faces;
        std::size_t next = 0;
        std::uint32_t die(std::uint32_t) override { return faces.at(next++); }
    } source;
    source.faces = {1, 2, 6, 3, 4};
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < source.faces.size(); ++i) seen.push_back(worker.run(source).key());
    CHECK(seen[0] == seen[1]);
    CHECK(seen[1] == seen[2]);  // the run that writes z still began with the clean table
    CHECK(seen[4] == seen[3]);
}

// A worker reads a run's result by its print (ScriptOutcome.hpp) and checks that the run's globals
// are still empty (ScriptWorker::globals_clean). Runs in a random order: results that are a prefix of
// another's, have another value or type, or the same fields set in another order, and runs that
// write a global (rawset, a plain global, load removed). Each run reads as itself, and each
// begins with clean globals (`clean`).
TEST_CASE("each run of a worker reads as itself and begins clean, in any order of runs", "[odds]") {
    umpire::odds_runner::Request request;
    request.code = R"(
local clean = rawget(_G, 'y') == nil and x == nil and _G._G == _G and next(_G) == nil
  and load == loadstring and type(load) == 'function'
local d = umpire.dice.d(8)
local t
if d == 1 then t = {a = 1}
elseif d == 2 then t = {a = 1, b = 2}
elseif d == 3 then t = {}; t.b = 2; t.a = 1
elseif d == 4 then t = {a = 2}
elseif d == 5 then rawset(_G, 'y', 1); t = {a = 1}
elseif d == 6 then x = 1; t = {a = 1, b = 2}
elseif d == 7 then t = {a = 1, b = 2, c = 3}
else load = nil; t = {a = '1'}
end
t.clean = clean
return t
)";
    umpire::odds_runner::ScriptWorker worker(request);
    const char* const expected[] = {"{a=1,clean=true}",     "{a=1,b=2,clean=true}", "{a=1,b=2,clean=true}",
                                    "{a=2,clean=true}",     "{a=1,clean=true}",     "{a=1,b=2,clean=true}",
                                    "{a=1,b=2,c=3,clean=true}", "{a=\"1\",clean=true}"};
    struct Faces : umpire::dice::DieSource {
        std::vector<std::uint32_t> faces;
        std::size_t next = 0;
        std::uint32_t die(std::uint32_t) override { return faces.at(next++); }
    } source;
    std::uint64_t x = 20261125;
    for (int i = 0; i < 2000; ++i) {
        x = x * 16807 % 2147483647;
        source.faces.push_back(static_cast<std::uint32_t>(x % 8) + 1);
    }
    for (std::size_t i = 0; i < source.faces.size(); ++i) {
        const std::uint32_t face = source.faces[i];
        INFO("run " << i << ", face " << face);
        CHECK(worker.run(source).key() == expected[face - 1]);
    }
}

TEST_CASE("a script that fails says where", "[odds]") {
    REQUIRE_THROWS_WITH(run("local x = umpire.dice.d6()\nif x == 6 then error('boom') end\nreturn x"),
                        Catch::Contains("script.lua:2") && Catch::Contains("boom"));
}

// The worker compiles a script as the body of a function (so that the JIT can trace it; OddsRunner.cpp,
// ScriptWorker::load_script): what the text means, and its errors, are those of the text as a chunk.
TEST_CASE("an odds script means what it says as a chunk and fails as one", "[odds]") {
    // `...` is no expression of a function without parameters: the chunk runs as it is, with no arguments.
    check_always("local n = select('#', ...)\nreturn n + umpire.dice.d6() * 0", 0);
    // A last line that is a comment does not swallow the wrapper's end.
    check_always("local x = umpire.dice.d6() * 0\nreturn x + 2 -- the end", 2);
    // A text that is no chunk fails with the chunk's own error, even where it would compile wrapped:
    // this one closes the wrapper early and would return 1.
    REQUIRE_THROWS_WITH(run("return 1 end, function() return 2"),
                        Catch::Contains("script.lua:1") && Catch::Contains("'<eof>' expected near 'end'"));
    REQUIRE_THROWS_WITH(run("local x =\n"), Catch::Contains("script.lua:2") && Catch::Contains("near '<eof>'"));
    // Lines are the text's own.
    REQUIRE_THROWS_WITH(run("local t = {}\n\n\nreturn t.x.y"), Catch::Contains("script.lua:4"));
}

namespace {
// scripts/asl/odds_mmg_rof_kia.lua worked out independently, from the rules' numbers alone: an MMG
// + squad Fire Group (8 column, -1 leader) Prep Fires, then the MMG alone (4 column, -1) while it
// keeps ROF. Over the 36 (coloured, white) DRs of a shot: a KIA is a Final DR <= 1 on the 8 column
// (Original DR <= 3) on the first shot and <= 0 on the 4 column (Original DR 2) after; ROF is kept
// on a coloured dr <= 2 (A9.2, ROF 2); B11 breaks the MG on an Original DR >= 11 (A9.7). The shots
// after the first are a chain whose odds stop once the chance of still firing, measured from the
// chain's start, is below 1e-9; the states still firing then end where they stand (truncated).
struct RofKia {
    std::map<std::string, mpq_class> joint;  // "kia=.. malfunction=.. shots=.." -> P
    mpq_class truncated = 0;
};
RofKia rof_kia_by_hand() {
    RofKia out;
    const auto key = [](bool kia, bool malf, int shots) {
        return std::string("kia=") + (kia ? "true" : "false") + " malfunction=" + (malf ? "true" : "false") +
               " shots=" + std::to_string(shots);
    };
    std::map<bool, mpq_class> live = {{false, 1}};  // still firing, by "a KIA so far"
    mpq_class chain_start = 0;
    const mpq_class epsilon(1e-9);
    for (int shot = 1;; ++shot) {
        std::map<bool, mpq_class> next;
        for (const auto& [had_kia, p_state] : live)
            for (int c = 1; c <= 6; ++c)
                for (int w = 1; w <= 6; ++w) {
                    const int dr = c + w;
                    const bool kia = had_kia || dr <= (shot == 1 ? 3 : 2);
                    const bool malf = dr >= 11;
                    const mpq_class p = p_state / 36;
                    if (c <= 2 && !malf) next[kia] += p;
                    else out.joint[key(kia, malf, shot)] += p;
                }
        mpq_class mass = 0;
        for (const auto& [kia, p] : next) mass += p;
        if (shot == 1) chain_start = mass;
        live = std::move(next);
        if (live.empty()) break;
        if (mass / chain_start < epsilon) {  // cut: what still fires ends as it stands
            for (const auto& [kia, p] : live) {
                out.joint[key(kia, false, shot)] += p;
                out.truncated += p;
            }
            break;
        }
    }
    return out;
}
}  // namespace

TEST_CASE("the distribution given a condition: malfunction given a KIA", "[odds][given]") {
    const RofKia expected = rof_kia_by_hand();
    umpire::odds_runner::Request request;
    request.rulesets = {(fs::path(UMPIRE_SOURCE_DIR) / "rulesets" / "asl").string()};
    request.script = fs::path(UMPIRE_SOURCE_DIR) / "scripts" / "asl" / "odds_mmg_rof_kia.lua";
    const auto all = umpire::odds_runner::run_script(request);
    REQUIRE(all.is_exact());
    // The whole joint distribution, fraction by fraction, and the truncated mass.
    std::map<std::string, mpq_class> got;
    for (const auto& o : all.outcomes) got[o.outcome.display()] = o.exact;
    CHECK(got == expected.joint);
    CHECK(all.truncated == expected.truncated);
    CHECK(all.truncated > 0);
    // Given a KIA, as the by-hand joint says.
    mpq_class kia = 0, kia_malf = 0;
    for (const auto& [k, p] : expected.joint) {
        if (k.find("kia=true") == std::string::npos) continue;
        kia += p;
        if (k.find("malfunction=true") != std::string::npos) kia_malf += p;
    }
    const auto given_kia = umpire::odds_runner::given(all, {"kia=true"});
    CHECK_THAT(given_kia.condition, Catch::StartsWith("kia=true (P = " + kia.get_str() + ", "));
    const auto malfunction = umpire::odds::marginal(given_kia, "malfunction");
    CHECK(malfunction.exact_probability(umpire::odds::Outcome(true)) == kia_malf / kia);
    // Two conditions must both hold; a KIA on the first shot keeps ROF and a malfunction stops
    // it, so a KIA and a malfunction never come in one shot.
    CHECK_THROWS_WITH(umpire::odds_runner::given(all, {"kia=true", "malfunction=true", "shots=1"}),
                      Catch::Contains("never happens"));
    CHECK_THROWS_AS(umpire::odds_runner::given(all, {"kia"}), umpire::ParseError);
    // The report of a conditioned result says what it is conditioned on, in text and JSON.
    const auto report = umpire::odds::build_report("kia", {{"", given_kia}});
    CHECK_THAT(umpire::odds::format_text(report), Catch::Contains("given: kia=true (P = " + kia.get_str()));
    const auto json = umpire::odds::to_json(report);
    CHECK(json["sides"][0]["given"] == given_kia.condition);
    CHECK(json["fields"]["malfunction"]["outcomes"][1]["sides"][0]["exact"] == mpq_class(kia_malf / kia).get_str());
    CHECK_THAT(umpire::odds::format_text(umpire::odds::build_report("all", {{"", all}})),
               Catch::Contains("truncated: " + expected.truncated.get_str()));
}

TEST_CASE("a comparison shows each field's marginal too", "[odds][compare]") {
    const auto first = run("local dr = umpire.dice.dr() return {kia = dr.total <= 3, malfunction = dr.total >= 11}");
    const auto second = run("local dr = umpire.dice.dr() return {kia = dr.total <= 3, malfunction = dr.total >= 12}");
    const auto report = umpire::odds::build_report("house", {{"B11", first}, {"B12", second}});
    CHECK_THAT(umpire::odds::format_text(report), Catch::Contains("Marginal distribution of malfunction:"));
    const auto json = umpire::odds::to_json(report);
    const auto& rows = json["fields"]["malfunction"]["outcomes"];
    REQUIRE(rows.size() == 2);
    CHECK(rows[1]["sides"][0]["exact"] == frac(3, 36));
    CHECK(rows[1]["sides"][1]["exact"] == frac(1, 36));
    CHECK(rows[1]["difference"]["exact"] == frac(-2, 36));
    CHECK(json["fields"]["kia"]["outcomes"][1]["difference"]["exact"] == "0");
}

namespace {
// The exact odds of `code` under `ruleset`, folding chains or not; nullopt past `budget` paths.
std::optional<umpire::odds::Result> exact_odds(const std::string& ruleset, const std::string& code, bool fold,
                                               std::uint64_t budget = 200000) {
    umpire::odds_runner::Request request;
    if (!ruleset.empty()) request.rulesets = {ruleset};
    request.code = code;
    request.host.fold = fold;
    umpire::odds_runner::ScriptWorker worker(request);
    return umpire::odds::enumerate([&](umpire::dice::DieSource& d) { return worker.run(d); }, budget);
}

std::string slurp(const fs::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void check_same_fractions(const umpire::odds::Result& folded, const umpire::odds::Result& paths) {
    std::map<std::string, mpq_class> a, b;
    for (const auto& o : folded.outcomes) a[o.key] = o.exact;
    for (const auto& o : paths.outcomes) b[o.key] = o.exact;
    CHECK(a == b);
    CHECK(folded.truncated == paths.truncated);
}
}  // namespace

TEST_CASE("folding changes no fraction: every shipped odds script, folded and path by path", "[odds][fold]") {
    const fs::path root(UMPIRE_SOURCE_DIR);
    int compared = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root / "scripts")) {
        if (entry.path().extension() != ".lua") continue;
        const std::string code = slurp(entry.path());
        const auto header = code.substr(0, code.find('\n', code.find('\n') + 1));
        if (header.find("umpire odds") == std::string::npos) continue;
        const auto at = header.find("--ruleset rulesets/");
        const std::string ruleset = at == std::string::npos ? "" : header.substr(at + 19, header.find(' ', at + 19) - at - 19);
        INFO(entry.path().filename().string() << " under " << ruleset);
        // The uncapped ROF chain has no end of paths: it is compared capped, below.
        // The Fire Lane run (a Morale Check after most attacks) is compared on its first Location.
        const std::string name = entry.path().filename().string();
        const std::string capped = (name == "odds_mmg_rof_kia.lua"    ? "SHOTS = 3\n"
                                    : name == "odds_fire_lane_run.lua" ? "HEXES = 1\n"
                                                                       : "") + code;
        const auto folded = exact_odds((root / "rulesets" / ruleset).string(), capped, true);
        const auto paths = exact_odds((root / "rulesets" / ruleset).string(), capped, false);
        REQUIRE(folded.has_value());
        REQUIRE(paths.has_value());
        check_same_fractions(*folded, *paths);
        ++compared;
    }
    CHECK(compared >= 15);
}

TEST_CASE("the ASL ROF chain, folded and path by path, for 1 to 4 shots", "[odds][fold]") {
    const fs::path root(UMPIRE_SOURCE_DIR);
    const std::string code = slurp(root / "scripts/asl/odds_mmg_rof_kia.lua");
    for (int shots = 1; shots <= 4; ++shots) {
        INFO(shots << " shots at most");
        const std::string capped = "SHOTS = " + std::to_string(shots) + "\n" + code;
        const auto folded = exact_odds((root / "rulesets/asl").string(), capped, true);
        const auto paths = exact_odds((root / "rulesets/asl").string(), capped, false);
        REQUIRE(folded.has_value());
        REQUIRE(paths.has_value());
        check_same_fractions(*folded, *paths);
        if (shots >= 3) CHECK(folded->paths * 4 < paths->paths);  // ×12 a shot unfolded, linear folded
    }
}

TEST_CASE("Bolt Action ranging in, folded and path by path, against a brute force of the rule's numbers",
          "[odds][fold]") {
    // BA Indirect fire (seed 003): a 6 to hit, then 5+, 4+, 3+, and 2+ in all later turns, the
    // same unmoved target from an unmoved mortar. The turn of the first hit, by brute force over
    // every sequence of one d6 a turn.
    const int kRanging[] = {6, 5, 4, 3, 2};
    const fs::path root(UMPIRE_SOURCE_DIR);
    std::mt19937 rng(15);
    for (int trial = 0; trial < 6; ++trial) {
        const int turns = 1 + static_cast<int>(rng() % 6);
        const int models = 1 + static_cast<int>(rng() % 4);
        const int start = 1 + static_cast<int>(rng() % 3);
        INFO(turns << " turns from turn " << start << " at " << models << " models");
        std::map<std::string, long> count;
        long total = 1;
        for (int t = 0; t < turns; ++t) total *= 6;
        for (long code = 0; code < total; ++code) {
            std::string outcome = "no hit";
            long rest = code;
            for (int t = 0; t < turns; ++t) {
                const int face = 1 + static_cast<int>(rest % 6);
                rest /= 6;
                if (face >= kRanging[std::min(t, 4)]) {
                    outcome = "turn " + std::to_string(start + t);
                    break;
                }
            }
            ++count[outcome];
        }
        std::string code = R"(
            local SC, IF = umpire.rules.scenario, umpire.rules.indirect_fire
            local mortar = SC.line("mortar", "allies", 2, nil, { type = "support_team" })
            mortar.models[1].weapon, mortar.models[1].role = "light_mortar", "firer"
            mortar.models[2].role = "crew"
            local target = SC.line("grens", "axis", MODELS, "rifle", { y = 20 })
            local r = IF.fire_turns({ shooter = mortar, target = target, world = {}, turn = START },
                                    { turns = TURNS, until_hit = true })
            return r.first_hit and "turn " .. r.first_hit or "no hit")";
        code = "MODELS, START, TURNS = " + std::to_string(models) + ", " + std::to_string(start) + ", " +
               std::to_string(turns) + "\n" + code;
        const auto folded = exact_odds((root / "rulesets/bolt-action").string(), code, true);
        const auto paths = exact_odds((root / "rulesets/bolt-action").string(), code, false);
        REQUIRE(folded.has_value());
        REQUIRE(paths.has_value());
        check_same_fractions(*folded, *paths);
        std::map<std::string, mpq_class> expected, got;
        for (const auto& [outcome, n] : count) {
            mpq_class& p = expected[umpire::odds::Outcome(outcome).key()];
            p = mpq_class(n, total);
            p.canonicalize();
        }
        for (const auto& o : folded->outcomes) got[o.key] = o.exact;
        CHECK(got == expected);
    }
}

namespace {
// A unit moving along the A9.222 EX's Fire Lane (MMG in 3X3, counter in BB5), by brute force over
// every DR from the rule's numbers: the lane's Residual FP is the column left of the MMG's 5 FP
// column (4 -> 2 FP), doubled in the ADJACENT Y4 (A9.22); the DRM is the target hex's TEM (woods +1
// in BB5; the grain in Z4 is no DRM to a Fire Lane, A9.222) and -1 FFNAM; the IFT columns 2 and 4
// (data/ift.yaml); an Original DR >= 11 (the German MMG's B11) removes the lane after that attack
// (A9.223); a Morale Check breaks above the morale and pins at it, a PTC pins above it; a KIA
// eliminates, K/n reduces. The unit stops once eliminated, broken or pinned, or the lane is gone.
struct LaneHex {
    const char* name;
    int column;  // 0: the 2 column, 1: the 4 column, -1: no Fire Lane Residual FP there
    int tem;
};

const char* const kIftColumns2And4[16][2] = {
    {"2KIA", "2KIA"}, {"1KIA", "1KIA"}, {"K/1", "K/2"}, {"1MC", "2MC"}, {"1MC", "1MC"}, {"NMC", "1MC"},
    {"PTC", "NMC"},   {"-", "PTC"},     {"-", "-"},     {"-", "-"},     {"-", "-"},     {"-", "-"},
    {"-", "-"},       {"-", "-"},       {"-", "-"},     {"-", "-"}};

struct Mover {
    bool eliminated = false, broken = false, pinned = false, lane = true;
    int entered = 0;
};

void lane_brute_force(const std::vector<LaneHex>& path, int morale, bool ffnam, std::size_t at, Mover m,
                      const mpq_class& p, std::map<std::string, mpq_class>& out) {
    if (at == path.size() || !m.lane || m.eliminated || m.broken || m.pinned) {
        const std::string fate = m.eliminated ? "eliminated" : m.broken ? "broken" : m.pinned ? "pinned" : "through";
        out[umpire::odds::Outcome(fate + "/" + std::to_string(m.entered) + "/" + (m.lane ? "kept" : "removed")).key()] += p;
        return;
    }
    ++m.entered;
    const LaneHex& h = path[at];
    if (h.column < 0) return lane_brute_force(path, morale, ffnam, at + 1, m, p, out);
    for (int dr = 2; dr <= 12; ++dr) {
        const mpq_class p_dr = p * mpq_class(6 - std::abs(dr - 7), 36);
        Mover next = m;
        if (dr >= 11) next.lane = false;
        const int final_dr = std::clamp(dr + h.tem - (ffnam ? 1 : 0), 0, 15);
        const std::string result = kIftColumns2And4[final_dr][h.column];
        int mc = -1;  // the +n of a Morale Check, -1: none
        if (result.find("KIA") != std::string::npos) next.eliminated = true;
        else if (result == "NMC") mc = 0;
        else if (result.find("MC") != std::string::npos) mc = result[0] - '0';
        if (mc < 0 && result != "PTC") {
            lane_brute_force(path, morale, ffnam, at + 1, next, p_dr, out);
            continue;
        }
        for (int check = 2; check <= 12; ++check) {
            Mover after = next;
            const int total = check + (mc < 0 ? 0 : mc);
            if (mc >= 0 && total > morale) after.broken = true;        // A Morale Check failed
            else if (mc >= 0 && total == morale) after.pinned = true;  // ... passed exactly: pinned
            else if (mc < 0 && total > morale) after.pinned = true;    // a PTC failed
            lane_brute_force(path, morale, ffnam, at + 1, after, p_dr * mpq_class(6 - std::abs(check - 7), 36), out);
        }
    }
}
}  // namespace

TEST_CASE("a Fire Lane run, folded and path by path, against a brute force of the rule's numbers", "[odds][fold]") {
    const LaneHex kLane[] = {{"Y4", 1, 0}, {"Z4", 0, 0}, {"AA5", 0, 0}, {"BB5", 0, 1}, {"AA4", -1, 0}};
    const fs::path root(UMPIRE_SOURCE_DIR);
    std::mt19937 rng(222);
    for (int trial = 0; trial < 6; ++trial) {
        // A path of 1 to 3 Locations in lane order (AA4, off the lane, anywhere), a morale, FFNAM or not.
        std::vector<int> picked = {0, 1, 2, 3};
        std::shuffle(picked.begin(), picked.end(), rng);
        picked.resize(1 + rng() % 3);
        std::sort(picked.begin(), picked.end());
        std::vector<LaneHex> path;
        for (const int i : picked) path.push_back(rng() % 5 == 0 ? kLane[4] : kLane[i]);
        const int morale = 6 + static_cast<int>(rng() % 3);
        const bool ffnam = rng() % 2;
        std::string hexes;
        for (const auto& h : path) hexes += std::string(hexes.empty() ? "" : ", ") + "\"" + h.name + "\"";
        INFO("path " << hexes << ", morale " << morale << (ffnam ? ", FFNAM" : ""));
        std::map<std::string, mpq_class> expected;
        lane_brute_force(path, morale, ffnam, 0, Mover{}, 1, expected);

        const std::string code = "local HEXES, MORALE, FFNAM = {" + hexes + "}, " + std::to_string(morale) + ", " +
                                 (ffnam ? "true" : "false") + R"(
            local R = umpire.rules
            local sc = umpire.data.scenario("a9_222")
            local map = R.map_los.map(sc.map)
            local mmg = R.mg_usage.counter("ger_mmg", {hex = "X3"})
            local squad = {name = "German 4-6-7", kind = "squad", fp = 4, range = 6}
            R.fire_lane.declare(mmg, {side = "DEFENDER", phase = "MPh", crew = {squad}, range = 3})
            local lane = R.fire_lane.place(mmg, {mg_hex = "X3", target = "AA5", counter = "BB5", map = map, crew = {squad}})
            local unit = {name = "Russian 4-4-7", morale = MORALE}
            local path = {}
            for _, h in ipairs(HEXES) do path[#path + 1] = {hex = h, movement = FFNAM and {"ffnam"} or {}} end
            local run = R.fire_lane.move_through(lane, mmg, map, unit, path)
            local fate = unit.eliminated and "eliminated" or unit.broken and "broken" or unit.pinned and "pinned" or "through"
            return fate .. "/" .. run.entered .. "/" .. (run.lane_removed and "removed" or "kept"))";
        const auto folded = exact_odds((root / "rulesets/asl").string(), code, true);
        REQUIRE(folded.has_value());
        std::map<std::string, mpq_class> got;
        for (const auto& o : folded->outcomes) got[o.key] = o.exact;
        CHECK(got == expected);
        if (path.size() == 1) {  // path by path is 36 x 36 runs a Location: compared where it is small
            const auto paths = exact_odds((root / "rulesets/asl").string(), code, false);
            REQUIRE(paths.has_value());
            check_same_fractions(*folded, *paths);
        }
    }
}

// An odds worker keeps the starting umpire.state as JSON for its whole life (to put it back after
// a path that changed it), and it is charged against the memory cap while kept. A module fills
// the state with 2 million thirds (16 MiB of Lua array, ~28 MiB as JSON); every path writes the
// state again to see whether it changed (the writer's own charge), which beside the kept copy
// passes a 64 MiB cap and fits 256 MiB. Before, the kept copy was charged to nothing, and the run
// held over 70 MiB under the 64 MiB cap.
TEST_CASE("odds: the starting state a worker keeps as JSON counts against the memory cap",
          "[odds][attacks][memory][cxx]") {
    const fs::path dir = test_helpers::scratch_root() / "odds-kept-state";
    fs::remove_all(dir);
    fs::create_directories(dir / "rules");
    test_helpers::write(dir / "ruleset.yaml", "name: stateful\nmodules: [fill]\n");
    test_helpers::write(dir / "rules" / "fill.lua",
                        "local t = {}\nfor i = 1, 2000000 do t[i] = i / 3 end\numpire.state.thirds = t\nreturn {}\n");
    test_helpers::write(dir / "script.lua", "return umpire.dice.d(6)\n");
    umpire::odds_runner::Request request;
    request.rulesets = {dir.string()};
    request.script = dir / "script.lua";
    request.host.memory_limit = std::size_t{64} << 20;
    CHECK_THROWS_WITH(umpire::odds_runner::run_script(request),
                      Catch::Contains("memory limit: umpire.state written as JSON would take more than"));
    request.host.memory_limit = std::size_t{256} << 20;
    const auto result = umpire::odds_runner::run_script(request);
    REQUIRE(result.outcomes.size() == 6);
    for (const auto& o : result.outcomes) CHECK(o.exact == mpq_class(1, 6));
}
