// Valid and invalid examples for every JSON Schema under schemas/ (one per file kind: the manifest,
// each data table, scenarios), so a schema that stops catching a mistake fails here.
//
// Invalid examples: tests/schemas/<ruleset>/<kind>.<mistake>.invalid.yaml (the manifest's:
// tests/schemas/ruleset.<mistake>.invalid.yaml). Each is a realistic mistake of a house-rule
// author and starts, like a shipped file, with the modeline naming its schema (so an editor shows
// the same error), then states every problem the validator must report, in order, as
// `Problem::str()` prints it (the file is named from the repository root):
//   # yaml-language-server: $schema=../../../schemas/asl/sw_mg.schema.json
//   # expect: tests/schemas/asl/sw_mg.b13.invalid.yaml:5:20: counters.ger_mmg.B: 13 is above the maximum 12
// `# partial: true` validates it as a child ruleset's overlay (`required` not checked), as
// `umpire check` does for a house rule's data file.
//
// Valid examples: the shipped files themselves (rulesets/*/**.yaml, each carrying the modeline of
// its schema), which "schema: every shipped schema loads and the shipped data matches it"
// (test_schema_validator.cpp) validates; a kind whose only shipped files were partial overlays
// would need tests/schemas/<ruleset>/<kind>.<what>.valid.yaml (no `# expect:` lines) -- there is
// none today, but the format is checked here so one can be added.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "ruleset/SchemaValidator.hpp"

namespace fs = std::filesystem;
using umpire::schema::SchemaValidator;

namespace {

const fs::path kRoot(UMPIRE_SOURCE_DIR);

std::string read(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string repo_relative(const fs::path& file) {
    return fs::absolute(file).lexically_normal().lexically_relative(kRoot.lexically_normal()).generic_string();
}

// The schema a YAML file's modeline names, repo-relative ("" if it has none).
std::string modeline_target(const fs::path& file, const std::string& text) {
    const std::string m = umpire::schema::modeline_schema(text);
    if (m.empty()) return "";
    return repo_relative(file.parent_path() / m);
}

struct Example {
    fs::path file;
    std::string schema;                 // repo-relative
    std::vector<std::string> expected;  // empty: a valid example
    bool partial = false;
};

// The header of an example: the comment lines before the first other line.
Example parse_example(const fs::path& file) {
    Example e;
    e.file = file;
    const std::string text = read(file);
    e.schema = modeline_target(file, text);
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line) && line.rfind("#", 0) == 0) {
        if (line.rfind("# expect: ", 0) == 0) e.expected.push_back(line.substr(10));
        if (line == "# partial: true") e.partial = true;
    }
    return e;
}

std::vector<fs::path> files_under(const fs::path& dir, const std::string& suffix) {
    std::vector<fs::path> out;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Every schema file, repo-relative.
std::vector<std::string> schemas() {
    std::vector<std::string> out;
    // Not the overlays (<kind>.overlay.schema.json): each is generated from its full schema, whose
    // examples cover it (test_schema_validator.cpp checks they agree).
    for (const auto& f : files_under(kRoot / "schemas", ".schema.json"))
        if (f.filename().string().find(".overlay.") == std::string::npos) out.push_back(repo_relative(f));
    return out;
}

// Is a shipped file a data file overlaid on its parent's (rulesets/<r>/data/*.yaml of a ruleset
// with `extends:`)? Then it is only a partial example.
bool is_overlay(const fs::path& yaml_file) {
    if (yaml_file.parent_path().filename() != "data") return false;
    const fs::path manifest = yaml_file.parent_path().parent_path() / "ruleset.yaml";
    return fs::is_regular_file(manifest) && YAML::LoadFile(manifest.string())["extends"];
}

std::vector<std::string> problems(const Example& e) {
    const auto v = SchemaValidator::from_file(kRoot / e.schema);
    umpire::schema::Options o;
    o.partial = e.partial;
    std::vector<std::string> out;
    for (const auto& p : v.validate(YAML::LoadFile(e.file.string()), repo_relative(e.file), o)) out.push_back(p.str());
    return out;
}

}  // namespace

TEST_CASE("schema examples: every invalid example reports exactly its stated problems") {
    const auto files = files_under(kRoot / "tests/schemas", ".invalid.yaml");
    REQUIRE_FALSE(files.empty());
    for (const auto& f : files) {
        const Example e = parse_example(f);
        INFO(repo_relative(f));
        REQUIRE_FALSE(e.schema.empty());         // the modeline names the schema
        REQUIRE(fs::is_regular_file(kRoot / e.schema));
        REQUIRE_FALSE(e.expected.empty());       // an invalid example states what is wrong
        CHECK(problems(e) == e.expected);
    }
}

TEST_CASE("schema examples: every valid example has no problem") {
    for (const auto& f : files_under(kRoot / "tests/schemas", ".valid.yaml")) {
        const Example e = parse_example(f);
        INFO(repo_relative(f));
        REQUIRE_FALSE(e.schema.empty());
        CHECK(e.expected.empty());
        CHECK(problems(e).empty());
    }
}

TEST_CASE("schema examples: every schema has an invalid example and a valid one") {
    std::map<std::string, int> invalid, valid;
    for (const auto& f : files_under(kRoot / "tests/schemas", ".invalid.yaml")) ++invalid[parse_example(f).schema];
    for (const auto& f : files_under(kRoot / "tests/schemas", ".valid.yaml")) ++valid[parse_example(f).schema];
    // The shipped files are the valid examples (validated against their schemas by
    // test_schema_validator.cpp); a partial overlay does not count, it leaves `required` unchecked.
    for (const auto& f : files_under(kRoot / "rulesets", ".yaml"))
        if (!is_overlay(f)) ++valid[modeline_target(f, read(f))];
    const auto all = schemas();
    REQUIRE(all.size() >= 20);
    for (const auto& s : all) {
        INFO(s);
        CHECK(invalid[s] > 0);  // add tests/schemas/<ruleset>/<kind>.<mistake>.invalid.yaml
        CHECK(valid[s] > 0);    // ship a file with its modeline, or add a .valid.yaml example
    }
    // An example naming no existing schema is a typo in its modeline.
    const std::set<std::string> known(all.begin(), all.end());
    for (const auto& [s, n] : invalid) {
        INFO(s);
        CHECK(known.count(s));
    }
}
