// umpire sweep's grid: axis forms, cell numbering (last axis fastest), shards that partition the
// cells, a merge that refuses a missing or doubled cell, and the memory cap over the reports a
// sweep keeps.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "app/Sweep.hpp"
#include "bindings/LuaError.hpp"
#include "core/Error.hpp"
#include "tests/support/helpers.hpp"

using namespace umpire::sweep;


TEST_CASE("grid axes: ranges with steps, lists of numbers, booleans and strings", "[sweep]") {
    const Axis range = parse_axis("range=2..8:3");
    CHECK(range.name == "range");
    CHECK(range.texts == std::vector<std::string>{"2", "5", "8"});
    CHECK(std::get<double>(range.values[1]) == 5);
    const Axis mixed = parse_axis("x=1.5,true,asl-house-mg");
    CHECK(std::get<double>(mixed.values[0]) == 1.5);
    CHECK(std::get<bool>(mixed.values[1]));
    CHECK(std::get<std::string>(mixed.values[2]) == "asl-house-mg");
    for (const char* bad : {"range", "=1", "r=3..1", "r=1..", "r=..3", "r=1..3:0", "r=1,,2", "r=1..3x"})
        CHECK_THROWS_AS(parse_axis(bad), umpire::ParseError);
}

// A value is a number only when written whole with nothing around it: strtod skips leading space,
// so ' 5' read as the number 5 while '5 ' was text (session 38 h2). `--set` reads values the same way.
TEST_CASE("a value with a space around its number is text, on either side", "[sweep]") {
    CHECK(std::get<double>(read_value("5")) == 5);
    CHECK(std::get<double>(read_value("-2.5e1")) == -25);
    for (const char* text : {" 5", "5 ", "\t5", "5\n", "", "inf", "nan", "1e999", "true ", " false"})
        CHECK(std::get<std::string>(read_value(text)) == text);
    CHECK(std::get<bool>(read_value("true")));
    CHECK_FALSE(std::get<bool>(read_value("false")));
}

TEST_CASE("cells are numbered with the last axis fastest, and shards partition them", "[sweep]") {
    Grid g;
    g.axes = {parse_axis("a=1..3"), parse_axis("b=0,1"), parse_axis("c=x,y")};
    REQUIRE(g.size() == 12);
    CHECK(g.coordinates(0) == std::vector<std::size_t>{0, 0, 0});
    CHECK(g.coordinates(1) == std::vector<std::size_t>{0, 0, 1});
    CHECK(g.coordinates(7) == std::vector<std::size_t>{1, 1, 1});
    CHECK(g.coordinates(11) == std::vector<std::size_t>{2, 1, 1});
    for (std::size_t n : {1u, 4u, 5u, 13u}) {
        std::multiset<std::size_t> seen;
        for (std::size_t i = 1; i <= n; ++i) {
            const Shard s = parse_shard(std::to_string(i) + "/" + std::to_string(n));
            for (std::size_t cell = 0; cell < g.size(); ++cell)
                if (s.has(cell)) seen.insert(cell);
        }
        CHECK(seen.size() == g.size());
        CHECK(std::set<std::size_t>(seen.begin(), seen.end()).size() == g.size());
    }
    for (const char* bad : {"0/4", "5/4", "1/0", "x", "1/", "/4", "1/4x"})
        CHECK_THROWS_AS(parse_shard(bad), umpire::ParseError);
}

TEST_CASE("a merge needs every cell of one grid exactly once", "[sweep]") {
    auto line = [](std::size_t cell, const char* grid = "a=1,2,3") {
        return nlohmann::json{{"cell", cell}, {"cells", 3}, {"grid", {grid}}};
    };
    const auto merged = merge({line(2), line(0), line(1)});
    CHECK(merged[0]["cell"] == 0);
    CHECK(merged[2]["cell"] == 2);
    CHECK_THROWS_WITH(merge({line(0), line(1)}), Catch::Contains("missing: 2"));
    CHECK_THROWS_WITH(merge({line(0), line(1), line(1), line(2)}), Catch::Contains("more than one shard"));
    CHECK_THROWS_WITH(merge({line(0), line(1), line(2, "a=1,2,4")}), Catch::Contains("different grids"));
}

TEST_CASE("sweep: the reports kept until the sweep ends are charged against one cap, and the cell that passes it is named",
          "[sweep][memory]") {
    // Every cell's report is kept until the sweep writes them (app/Sweep.cpp, run), charged
    // against one budget of the host's cap. Each cell here (five d6 after a pad: 7776 outcomes
    // that never repeat, a report of ~32 MiB as JSON) fits under the cap of 80 MiB alone, and two
    // together, but not three.
    constexpr std::size_t kCap = std::size_t{80} << 20;
    namespace fs = std::filesystem;
    const fs::path dir = test_helpers::scratch_root() / "sweep-memory";
    fs::create_directories(dir);
    test_helpers::write(dir / "cell.lua", "local s = ('p'):rep(100 + umpire.args.n)\n"
                                          "for i = 1, 5 do s = s .. umpire.dice.roll('d6') end\nreturn s\n");
    Request request;
    request.odds.script = dir / "cell.lua";
    request.odds.host.memory_limit = kCap;
    request.grid.axes = {parse_axis("n=1..3")};
    try {
        (void)run(request);
        FAIL("the kept reports passed the cap");
    } catch (const umpire::ScriptError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("cell 2 (n=3): ") == 0);
        CHECK(what.find("cell.lua: memory limit: the report of 7776 distinct outcomes as JSON") != std::string::npos);
        CHECK(what.find("which would pass the memory cap of " + std::to_string(kCap >> 20) + " MiB") !=
              std::string::npos);
    }
    // Each shard of one cell keeps one report: the same cells answer, and so does the next sweep.
    for (const char* shard : {"1/3", "2/3", "3/3"}) {
        request.shard = parse_shard(shard);
        const auto lines = run(request);
        REQUIRE(lines.size() == 1);
        CHECK(lines[0]["report"]["outcomes"].size() == 7776);
    }
}
