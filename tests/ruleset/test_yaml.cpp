// YAML -> Lua conversion and its error positions.
#include <catch2/catch.hpp>

#include <random>
#include <regex>

#include "host/Sandbox.hpp"
#include "ruleset/YamlLoader.hpp"
#include "ruleset/YamlTree.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

namespace {

// Loads YAML text as umpire.state.y (via the raw state) and evaluates an expression on it.
std::string yaml_eval(TestHost& t, const std::string& text, const std::string& expr) {
    lua_State* L = t.host.state();
    umpire::yaml::push_string(L, text, "t.yaml");
    t.host.push_env();
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "y");
    lua_pop(L, 2);
    return t.eval(expr);
}

}  // namespace

TEST_CASE("YAML scalars follow YAML 1.2 core rules", "[yaml]") {
    TestHost t;
    const std::string doc = "a: 12\nb: -1.5\nc: true\nd: 'true'\ne: yes\nf: ½\ng: 1/2\nh: 0x1F\n"
                            "i: \"12\"\nj: ~\nk: [1, two, 3.0]\n7: seven\n";
    // Scripts see the env's globals through umpire only; read y from the generation env.
    lua_State* L = t.host.state();
    umpire::yaml::push_string(L, doc, "t.yaml");
    t.host.push_env();
    lua_getfield(L, -1, "umpire");
    umpire::sandbox::push_writable(L, -1);  // umpire is a read-only view; host code writes behind it
    lua_pushvalue(L, -4);
    lua_setfield(L, -2, "y");
    lua_pop(L, 4);
    CHECK(t.eval("umpire.y.a + 1") == "13");
    CHECK(t.eval("umpire.y.b") == "-1.5");
    CHECK(t.eval("type(umpire.y.c)") == "boolean");
    CHECK(t.eval("type(umpire.y.d)") == "string");
    CHECK(t.eval("umpire.y.e") == "yes");
    CHECK(t.eval("umpire.y.f") == "½");
    CHECK(t.eval("umpire.y.g") == "1/2");
    CHECK(t.eval("umpire.y.h") == "31");
    CHECK(t.eval("type(umpire.y.i)") == "string");
    CHECK(t.eval("umpire.y.j") == "nil");
    CHECK(t.eval("#umpire.y.k .. umpire.y.k[2]") == "3two");
    CHECK(t.eval("umpire.y[7]") == "seven");
    CHECK(t.eval("umpire.where(umpire.y, 'g')") == "t.yaml:7:1");
    CHECK(t.eval("umpire.where(umpire.y.k, 2)") == "t.yaml:11:8");
}

TEST_CASE("YAML errors say file:line:col", "[yaml]") {
    TestHost t;
    lua_State* L = t.host.state();
    const int top = lua_gettop(L);
    CHECK_THROWS_WITH(umpire::yaml::push_string(L, "a: 1\nb: [1, 2\n", "data/x.yaml"),
                      Catch::StartsWith("data/x.yaml:3:1: "));
    CHECK_THROWS_WITH(umpire::yaml::push_string(L, "a: 1\nb:\n  c: 1\n  c: 2\n", "data/x.yaml"),
                      Catch::Equals("data/x.yaml:4:3: duplicate key 'c' (first defined at line 3)"));
    CHECK_THROWS_WITH(umpire::yaml::push_string(L, "a: [1, ~, 3]\n", "data/x.yaml"),
                      Catch::StartsWith("data/x.yaml:1:8: empty item in a list"));
    // A map's keys are checked for duplicates in a list up to 16 keys, then in a hash map
    // (YamlConvert.hpp, SeenKeys): a duplicate is found on either side of that change.
    std::string wide;
    for (int k = 1; k <= 20; ++k) wide += "k" + std::to_string(k) + ": " + std::to_string(k) + "\n";
    for (const int again : {1, 16, 17, 20}) {
        CHECK_THROWS_WITH(umpire::yaml::push_string(L, wide + "k" + std::to_string(again) + ": 0\n", "data/x.yaml"),
                          Catch::Equals("data/x.yaml:21:1: duplicate key 'k" + std::to_string(again) +
                                        "' (first defined at line " + std::to_string(again) + ")"));
        std::string narrow;
        for (int k = 1; k <= again && k <= 16; ++k) narrow += "k" + std::to_string(k) + ": 1\n";
        CHECK_THROWS_WITH(umpire::yaml::push_string(L, narrow + "k1: 0\n", "data/x.yaml"),
                          Catch::Contains("duplicate key 'k1' (first defined at line 1)"));
    }
    umpire::yaml::push_string(L, wide, "data/x.yaml");  // twenty keys, none twice
    lua_pop(L, 1);
    // A key given twice through an alias was refused at the anchor (the alias is the anchored
    // node): at the alias now, where it was written the second time, in a block and a flow map.
    CHECK_THROWS_WITH(umpire::yaml::push_string(L, "? &k a\n: 1\nb: 2\n*k : 3\n", "data/x.yaml"),
                      Catch::Equals("data/x.yaml:4:1: duplicate key 'a' (first defined at line 1)"));
    CHECK_THROWS_WITH(umpire::yaml::push_string(L, "x: &k a\ny: {a: 1,\n  *k : 2}\n", "data/x.yaml"),
                      Catch::Equals("data/x.yaml:3:3: duplicate key 'a' (first defined at line 2)"));
    CHECK_THROWS_WITH(umpire::yaml::push_string(L, "x: &k a\ny:\n  *k : 1\n  a: 2\n", "data/x.yaml"),
                      Catch::Equals("data/x.yaml:4:3: duplicate key 'a' (first defined at line 3)"));
    // Found by the YAML fuzzer: a NaN map key made lua_rawset raise inside the loader.
    CHECK_THROWS_WITH(umpire::yaml::push_string(L, "a: {.nan: 2}\n", "data/x.yaml"),
                      Catch::Equals("data/x.yaml:1:5: a map key cannot be NaN (.nan)"));
    CHECK_THROWS_WITH(t.host.protect([&] { umpire::yaml::push_string(L, ".NAN: 1\n", "data/x.yaml"); }),
                      Catch::StartsWith("data/x.yaml:1:1: a map key cannot be NaN"));
    CHECK(lua_gettop(L) == top);
    (void)yaml_eval;
}

// The hand-written scalar classes against the regular expressions they replaced (the YAML 1.2
// core schema's int/float, hex and octal forms), over random strings of the characters that
// matter to them.
TEST_CASE("number forms match the core schema's regular expressions", "[yaml]") {
    const std::regex decimal(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
    const std::regex integer(R"([-+]?[0-9]+)");
    const std::regex hex(R"(0x[0-9a-fA-F]+)");
    const std::regex octal(R"(0o[0-7]+)");
    const std::string alphabet = "0123456789+-.eExoaFgf 9";
    std::mt19937 rng(18);
    int numbers = 0;
    for (int i = 0; i < 200000; ++i) {
        std::string text;
        const int n = std::uniform_int_distribution<int>(0, 7)(rng);
        for (int k = 0; k < n; ++k)
            text += alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
        if (i % 3 == 0) text = "0" + std::string(1, "xo"[i % 2]) + text;
        INFO("'" << text << "'");
        const bool is_number = std::regex_match(text, integer) || std::regex_match(text, decimal);
        REQUIRE(umpire::yaml::is_decimal(text) == is_number);
        REQUIRE(umpire::yaml::is_hex(text) == std::regex_match(text, hex));
        REQUIRE(umpire::yaml::is_octal(text) == std::regex_match(text, octal));
        numbers += is_number;
    }
    CHECK(numbers > 1000);  // the strings did reach the number forms
}

// parse_tree's fast pass (libyaml) decides only that a manifest is far from every bound of the
// counter (yaml-cpp); each case it must not pass goes to the counter, whose error is the message.
TEST_CASE("the manifest reader's fast pass passes only what is far from every bound", "[yaml]") {
    using umpire::yaml::reads_plainly;
    CHECK(reads_plainly("name: asl\nmodules: [a, b]\nx: &k {p: 1}\ny: *k\n", 100, 10));
    CHECK(reads_plainly("", 100, 10));
    CHECK_FALSE(reads_plainly("a: [1, 2\n", 100, 10));              // a syntax error
    CHECK_FALSE(reads_plainly("a: \"x\\u0000y\"\n", 100, 10));      // a NUL written as an escape
    CHECK_FALSE(reads_plainly("a: 1\n---\nb: 2\n", 100, 10));      // a second document
    CHECK_FALSE(reads_plainly("a: 1\n...\nb: 2\n", 100, 10));      // text after the document's end
    CHECK(reads_plainly("[[[[1]]]]", 100, 4));
    CHECK_FALSE(reads_plainly("[[[[[1]]]]]", 100, 4));               // deeper than the bound
    CHECK(reads_plainly("[1, 2, 3]", 4, 10));                         // the list and its three items
    CHECK_FALSE(reads_plainly("[1, 2, 3, 4]", 4, 10));
    CHECK_FALSE(reads_plainly("[&a 1, *a, *a, *a]", 4, 10));          // an alias counts one
    // What the fast pass refuses, the counter refuses with its own words and place.
    CHECK_THROWS_WITH(umpire::yaml::parse_tree("a: 1\n---\nb: 2\n", "m.yaml"), Catch::Contains("m.yaml:2:1"));
    CHECK_THROWS_WITH(umpire::yaml::parse_tree("a: \"x\\u0000y\"\n", "m.yaml"),
                      Catch::Contains(umpire::yaml::kNulEscapeRefused));
}
