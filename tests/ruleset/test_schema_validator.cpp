// The JSON Schema subset of ruleset/SchemaValidator.hpp, on YAML nodes (so errors keep line:col),
// and the shipped schemas against the shipped data.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/Checker.hpp"
#include "tests/support/helpers.hpp"
#include "ruleset/SchemaValidator.hpp"
#include "core/Error.hpp"

using umpire::schema::SchemaValidator;
using json = nlohmann::json;

namespace {

std::vector<std::string> problems(const json& schema, const std::string& yaml, bool partial = false) {
    SchemaValidator v(schema, "test.schema.json");
    umpire::schema::Options o;
    o.partial = partial;
    std::vector<std::string> out;
    for (const auto& p : v.validate(YAML::Load(yaml), "t.yaml", o)) out.push_back(p.str());
    return out;
}

const json kCounter = json::parse(R"({
  "type": "object",
  "required": ["counters"],
  "additionalProperties": false,
  "definitions": {
    "counter": {
      "type": "object", "required": ["name"], "additionalProperties": false,
      "properties": {
        "name": {"type": "string"},
        "type": {"enum": ["LMG", "MMG"]},
        "B": {"type": "integer", "minimum": 2, "maximum": 12},
        "shots": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^D[0-9]+$"}]}
      }
    }
  },
  "properties": {
    "counters": {"type": "object", "propertyNames": {"pattern": "^[a-z_]+$"},
                 "additionalProperties": {"$ref": "#/definitions/counter"}},
    "row": {"type": "array", "minItems": 3, "maxItems": 3, "items": {"type": "number"}}
  }
})");

}  // namespace

TEST_CASE("schema: a valid document has no problems") {
    CHECK(problems(kCounter, "counters:\n  mmg: {name: MMG, type: MMG, B: 11, shots: D6}\nrow: [1, 2.5, 3]\n").empty());
}

TEST_CASE("schema: problems name file:line:col and the path") {
    const auto p = problems(kCounter, "counters:\n  mmg: {name: MMG, B: 13}\n");
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "t.yaml:2:23: counters.mmg.B: 13 is above the maximum 12");
}

TEST_CASE("schema: type, enum, required, additionalProperties, items, pattern, anyOf") {
    auto p = problems(kCounter, "counters:\n  mmg: {name: 5}\n");
    REQUIRE(p.size() == 1);
    CHECK_THAT(p[0], Catch::Contains("t.yaml:2:15: counters.mmg.name: expected string, got integer '5'"));

    p = problems(kCounter, "counters:\n  mmg: {name: x, type: HMG}\n");
    REQUIRE(p.size() == 1);
    CHECK_THAT(p[0], Catch::Contains("must be one of [\"LMG\",\"MMG\"], got 'HMG'"));

    p = problems(kCounter, "counters:\n  mmg: {type: MMG}\n");
    REQUIRE(p.size() == 1);
    CHECK_THAT(p[0], Catch::Contains("t.yaml:2:8: counters.mmg: missing required key 'name'"));

    p = problems(kCounter, "counters:\n  mmg: {name: x, Bee: 3}\n");
    REQUIRE(p.size() == 1);
    CHECK_THAT(p[0], Catch::Contains("t.yaml:2:18: counters.mmg.Bee: unknown key 'Bee'"));

    p = problems(kCounter, "counters: {}\nrow: [1, 2]\n");
    REQUIRE(p.size() == 1);
    CHECK_THAT(p[0], Catch::Contains("t.yaml:2:6: row: expected at least 3 items, got 2"));

    p = problems(kCounter, "counters: {}\nrow: [1, 2, x, 4]\n");
    REQUIRE(p.size() == 2);
    CHECK_THAT(p[0], Catch::Contains("expected at most 3 items, got 4"));
    CHECK_THAT(p[1], Catch::Contains("t.yaml:2:13: row[2]: expected number, got string 'x'"));

    p = problems(kCounter, "counters:\n  Bad-Name: {name: x}\n");
    REQUIRE(p.size() == 1);
    CHECK_THAT(p[0], Catch::Contains("bad key 'Bad-Name'"));

    p = problems(kCounter, "counters:\n  mmg: {name: x, shots: 2d6}\n");
    REQUIRE(p.size() == 1);
    CHECK_THAT(p[0], Catch::Contains("matches none of the allowed forms"));
}

TEST_CASE("schema: YAML 1.2 core scalars: quoted numbers are strings, 'yes' is a string") {
    const json s = json::parse(R"({"type": "object", "properties": {
        "n": {"type": "integer"}, "b": {"type": "boolean"}, "f": {"type": "number"}, "s": {"type": "string"}}})");
    CHECK(problems(s, "{n: 3, b: false, f: 1.5, s: yes}").empty());
    CHECK(problems(s, "{n: '3'}").size() == 1);
    CHECK(problems(s, "{b: yes}").size() == 1);
    CHECK(problems(s, "{n: 1.5}").size() == 1);
}

TEST_CASE("schema: partial (a child's overlay) does not check required") {
    CHECK(problems(kCounter, "counters:\n  mmg: {B: 12}\n", true).empty());
    CHECK(problems(kCounter, "counters:\n  mmg: {B: 12}\n", false).size() == 1);
}

TEST_CASE("schema: unsupported keywords and dangling $refs are schema errors") {
    CHECK_THROWS_WITH(SchemaValidator(json::parse(R"({"oneOf": []})"), "x.json"),
                      Catch::Contains("unsupported JSON Schema keyword 'oneOf'"));
    CHECK_THROWS_WITH(SchemaValidator(json::parse(R"({"$ref": "#/definitions/nope"})"), "x.json"),
                      Catch::Contains("cannot resolve $ref"));
}

TEST_CASE("schema: the yaml-language-server modeline") {
    CHECK(umpire::schema::modeline_schema("# yaml-language-server: $schema=../../../schemas/asl/ift.schema.json\na: 1\n") ==
          "../../../schemas/asl/ift.schema.json");
    CHECK(umpire::schema::modeline_schema("a: 1\n").empty());
}

TEST_CASE("schema: every shipped schema loads and the shipped data matches it") {
    // Stricter than `umpire check`, which only notes a file without a schema (a user's own ruleset
    // may have none): every shipped ruleset's every YAML file has a schema, named by the modeline
    // on its first line (the line an editor's YAML language server reads), and matches it.
    namespace fs = std::filesystem;
    const fs::path root(UMPIRE_SOURCE_DIR);
    for (const auto& e : fs::recursive_directory_iterator(root / "schemas"))
        if (e.path().extension() == ".json") CHECK_NOTHROW(SchemaValidator::from_file(e.path()));
    std::vector<fs::path> rulesets;
    for (const auto& e : fs::directory_iterator(root / "rulesets"))
        if (fs::is_regular_file(e.path() / "ruleset.yaml")) rulesets.push_back(e.path());
    std::sort(rulesets.begin(), rulesets.end());
    REQUIRE(rulesets.size() >= 5);
    for (const auto& dir : rulesets) {
        umpire::HostOptions o;
        std::ostringstream specs;
        const auto r = umpire::check_ruleset(dir.string(), o, specs);
        INFO(dir.filename().string());
        for (const auto& p : r.problems)
            if (p.rfind("spec ", 0) != 0) FAIL(p);  // spec failures belong to the rules' own tests
        for (const auto& n : r.notes)
            if (n.find("no schema") != std::string::npos) FAIL(n);
        CHECK(r.files_validated > 0);
    }
    for (const auto& e : fs::recursive_directory_iterator(root / "rulesets")) {
        if (e.path().extension() != ".yaml") continue;
        std::ifstream in(e.path());
        std::string first;
        std::getline(in, first);
        INFO(e.path().lexically_relative(root).generic_string() << " starts with: " << first);
        const std::string schema = umpire::schema::modeline_schema(first);
        CHECK_FALSE(schema.empty());  // add "# yaml-language-server: $schema=<relative path>" as line 1
        if (!schema.empty()) {
            const fs::path target = (e.path().parent_path() / schema).lexically_normal();
            CHECK(fs::is_regular_file(target));
            CHECK(target.lexically_relative(root).generic_string().rfind("schemas/", 0) == 0);
        }
    }
}

TEST_CASE("schema: a broken IFT row is reported at its line") {
    const auto v = SchemaValidator::from_file(std::filesystem::path(UMPIRE_SOURCE_DIR) / "schemas/asl/ift.schema.json");
    std::string yaml =
        "columns: [1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36]\nresults:\n";
    for (int dr = 0; dr <= 15; ++dr)
        yaml += "  " + std::to_string(dr) + ": [\"-\", \"-\", \"-\", \"-\", \"-\", \"-\", \"-\", \"-\", \"-\", \"-\"" +
                (dr == 7 ? std::string("]\n") : std::string(", \"PTC\"]\n"));
    const auto p = v.validate(YAML::Load(yaml), "ift.yaml");
    REQUIRE(p.size() == 1);
    CHECK(p[0].str() == "ift.yaml:10:6: results.7: expected at least 11 items, got 10");
}

TEST_CASE("schema: each shipped overlay is its schema without required keys (overlay_schema)") {
    namespace fs = std::filesystem;
    // scripts/gen_overlay_schemas.py writes the shipped overlays; `umpire new house-rule` makes one
    // with overlay_schema() for a user's schema. The two must agree.
    const fs::path root(UMPIRE_SOURCE_DIR);
    int overlays = 0;
    for (const auto& e : fs::recursive_directory_iterator(root / "schemas")) {
        const std::string name = e.path().filename().string();
        const auto at = name.find(".overlay.schema.json");
        if (at == std::string::npos) continue;
        INFO(e.path().string());
        ++overlays;
        auto read_json = [](const fs::path& f) {
            std::ifstream in(f);
            return nlohmann::json::parse(in);
        };
        nlohmann::json shipped = read_json(e.path());
        nlohmann::json made = umpire::schema::overlay_schema(read_json(e.path().parent_path() / (name.substr(0, at) + ".schema.json")));
        for (auto* j : {&shipped, &made}) {  // annotations only
            j->erase("title");
            j->erase("$comment");
        }
        CHECK(shipped == made);
        CHECK(shipped.dump().find("\"required\":[") == std::string::npos);
    }
    CHECK(overlays >= 20);
}

TEST_CASE("check: a scenario file whose name umpire.data.scenario cannot take is a problem") {
    // umpire.data.scenario("my scenario") is refused (its name is not letters, digits, _ and -), so
    // a load fails on scenarios/my scenario.yaml, and `check` says so once, in the load's words
    // (ruleset::bad_scenario_name). A hidden file is no scenario, and no problem.
    namespace fs = std::filesystem;
    const fs::path dir = test_helpers::scratch_copy("bad-scenario-name") / "base";
    fs::create_directories(dir / "scenarios");
    test_helpers::write(dir / "scenarios" / "my scenario.yaml", "name: x\n");
    test_helpers::write(dir / "scenarios" / "good_one-2.yaml", "name: y\n");
    test_helpers::write(dir / "scenarios" / "._good_one-2.yaml", std::string("\x00\x05\x16\x07", 4));
    std::ostringstream specs;
    const auto r = umpire::check_ruleset(dir.string(), umpire::HostOptions{}, specs);
    std::vector<std::string> about_names;
    for (const auto& p : r.problems)
        if (p.find("not a scenario name") != std::string::npos) about_names.push_back(p);
    REQUIRE(about_names.size() == 1);
    CHECK(about_names[0].find("scenarios/my scenario.yaml:1:1: not a scenario name (letters, digits, _ and - only)") !=
          std::string::npos);
    for (const auto& p : r.problems) CHECK(p.find("._good_one-2") == std::string::npos);
}

TEST_CASE("check: a scenario that is a symlink out of the ruleset folder is a problem, not read") {
    // `check` validated every scenarios/*.yaml by its path, so a symlink to a YAML file anywhere was
    // read and its values shown in the schema's problems (session 35). Now it is named and not read,
    // as umpire.data.scenario refuses it.
    namespace fs = std::filesystem;
    const fs::path root = test_helpers::scratch_copy("scenario-out");
    const fs::path dir = root / "base";
    fs::create_directories(dir / "scenarios");
    test_helpers::write(root / "secret.yaml", "token: not-for-a-ruleset-to-read\n");
    fs::create_symlink(root / "secret.yaml", dir / "scenarios" / "leak.yaml");
    std::ostringstream specs;
    const auto r = umpire::check_ruleset(dir.string(), umpire::HostOptions{}, specs);
    int named = 0;
    for (const auto& p : r.problems) {
        CHECK(p.find("not-for-a-ruleset-to-read") == std::string::npos);
        if (p.find("scenarios/leak.yaml:1:1: resolves outside the ruleset folder (a symlink?): not read") != std::string::npos)
            ++named;
    }
    CHECK(named == 1);
    for (const auto& n : r.notes) CHECK(n.find("leak.yaml") == std::string::npos);  // not looked at for a schema
}

TEST_CASE("check: a modeline naming a schema outside the ruleset's folders and the shipped schemas is a problem, not read") {
    // A data file's modeline names its schema by any path, and a schema's text comes back in the
    // problems it finds (here its enum): so a schema is read only from the ruleset's chain or the
    // shipped schemas (session 35). Before, any JSON file the user could read was.
    namespace fs = std::filesystem;
    const fs::path root = test_helpers::scratch_copy("schema-out");
    const fs::path dir = root / "base";
    test_helpers::write(root / "secret.json", R"({"type": "object", "properties": {"rof": {"enum": ["not-for-a-ruleset-to-read"]}}})");
    std::ifstream in(dir / "data" / "weapons.yaml");
    const std::string weapons((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    test_helpers::write(dir / "data" / "weapons.yaml", "# yaml-language-server: $schema=../../secret.json\n" + weapons);
    std::ostringstream specs;
    const auto r = umpire::check_ruleset(dir.string(), umpire::HostOptions{}, specs);
    int named = 0;
    for (const auto& p : r.problems) {
        CHECK(p.find("not-for-a-ruleset-to-read") == std::string::npos);
        if (p.find("data/weapons.yaml:1:1: its schema ") != std::string::npos &&
            p.find("secret.json lies outside the ruleset's folders and the shipped schemas: not read") != std::string::npos)
            ++named;
    }
    CHECK(named == 1);
}
