#include "app/Checker.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "ruleset/Ruleset.hpp"
#include "ruleset/SchemaValidator.hpp"
#include "app/SpecRunner.hpp"
#include "host/FileSnapshot.hpp"
#include "host/Isolation.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/LoadCache.hpp"
#include "ruleset/Scenarios.hpp"
#include "ruleset/Shared.hpp"
#include "ruleset/YamlLoader.hpp"

namespace umpire {
namespace fs = std::filesystem;

namespace {

fs::path repo_schemas() { return ruleset::shared().schemas; }

// The text of a YAML file `check` validates, read as the loader reads it (ruleset::read_source:
// one descriptor, a regular file of at most yaml::kMaxFileBytes). `checked`: where the manifest's
// check found the file inside the ruleset folder; a descriptor leading anywhere else (a symlink
// swapped in since) is refused, never read. Empty for the manifest, which is no file it names.
std::string read_yaml(const fs::path& file, const std::string& checked, const std::string& display) {
    return ruleset::read_source(file, yaml::kMaxFileBytes, [&](const fs::path& f) {
        return yaml::read_data_file(f, display);
    }, checked, display).first;
}

// Validates one YAML file, whose text is `text`, against its schema; appends problems.
void validate_text(const std::string& text, const std::string& display, const fs::path& schema_file, bool partial,
                   CheckResult& out) {
    YAML::Node doc;
    try {
        doc = yaml::parse_tree(text, display);
    } catch (const YAML::Exception& e) {
        out.problems.push_back(display + ":" + std::to_string(e.mark.line + 1) + ":" +
                               std::to_string(e.mark.column + 1) + ": " + e.msg);
        return;
    } catch (const ScriptError& e) {  // too large: names the file and place itself
        out.problems.push_back(e.what());
        return;
    } catch (const std::exception& e) {
        out.problems.push_back(display + ": " + e.what());
        return;
    }
    try {
        const auto validator = schema::SchemaValidator::from_file(schema_file);
        schema::Options options;
        options.partial = partial;
        for (const auto& p : validator.validate(doc, display, options))
            out.problems.push_back(p.str() + " (schema " + LuaHost::display_path(schema_file) + ")");
        ++out.files_validated;
    } catch (const std::exception& e) {
        out.problems.push_back(e.what());
    }
}

// Does `schema_file` (symlinks followed) lie inside one of the chain's folders or the shipped
// schemas folder?
bool schema_allowed(const fs::path& schema_file, const std::vector<fs::path>& dirs) {
    return ruleset::inside(repo_schemas(), schema_file) ||
           std::any_of(dirs.begin(), dirs.end(), [&](const fs::path& dir) { return ruleset::inside(dir, schema_file); });
}

// The problem of a YAML file whose schema lies outside (schema_allowed is false), as `check` and
// `new house-rule` say it.
std::string outside_schema(const std::string& display, const fs::path& schema_file) {
    return display + ":1:1: its schema " + LuaHost::display_path(schema_file) +
           " lies outside the ruleset's folders and the shipped schemas: not read";
}

// The schema named by a YAML file's modeline (its text), else the first that exists of the chain's.
fs::path schema_of(const std::string& text, const fs::path& yaml_file, const std::string& kind,
                   const std::vector<fs::path>& dirs, const std::vector<std::string>& names) {
    const std::string modeline = schema::modeline_schema(text);
    if (!modeline.empty()) return (yaml_file.parent_path() / modeline).lexically_normal();
    for (std::size_t i = dirs.size(); i-- > 0;) {
        for (const fs::path& candidate : {dirs[i] / "schemas" / (kind + ".schema.json"),
                                          repo_schemas() / names[i] / (kind + ".schema.json")})
            if (fs::is_regular_file(candidate)) return candidate;
    }
    return {};
}

}  // namespace

fs::path schema_for(const fs::path& yaml_file, const std::string& kind, const std::vector<fs::path>& dirs,
                    const std::vector<std::string>& names) {
    fs::path schema =
        schema_of(LuaHost::read_file(yaml_file, LuaHost::kMaxCodeBytes, "a data file"), yaml_file, kind, dirs, names);
    // `new house-rule` writes an overlay made from this schema's text into the house rule's folder,
    // so the schema is read only where `check` reads one (below): a parent's modeline naming
    // ~/.docker/config.json had its tokens copied into the new house rule (session 37).
    std::error_code ec;
    if (!schema.empty() && fs::is_regular_file(schema, ec) && !schema_allowed(schema, dirs))
        throw ScriptError(outside_schema(LuaHost::display_path(yaml_file), schema));
    return schema;
}

namespace {

// What steps 1 and 2 of a check found, and what steps 3 and 4 need.
struct Prepared {
    CheckResult result;
    fs::path dir;
    std::vector<std::string> tests, tests_real;  // the ruleset's own spec files (Manifest::tests)
    bool load = false;  // steps 3 and 4 are to run: the manifests were read
};

// Steps 1 and 2: they read files and run no rule code.
Prepared check_files(const std::string& name_or_dir, const HostOptions& options) {
    Prepared prepared;
    CheckResult& out = prepared.result;
    const auto search_path = ruleset::search_path(options.search_path);
    fs::path& dir = prepared.dir;
    try {
        dir = ruleset::find(name_or_dir, search_path);
    } catch (const std::exception& e) {
        out.problems.push_back(e.what());
        return prepared;
    }

    // 1. The manifest: the schema first (every problem at once), then the host's own reader.
    const fs::path manifest_file = dir / "ruleset.yaml";
    {
        const std::string display = LuaHost::display_path(manifest_file);
        try {
            validate_text(read_yaml(manifest_file, {}, display), display, repo_schemas() / "ruleset.schema.json",
                          false, out);
        } catch (const std::exception& e) {  // (validate_text raises nothing: the read did)
            out.problems.push_back(e.what());
        }
    }
    std::vector<ruleset::Manifest> chain;
    try {
        chain = ruleset::chain(dir, search_path);
    } catch (const std::exception& e) {
        out.problems.push_back(e.what());
        return prepared;
    }
    std::vector<fs::path> dirs;
    std::vector<std::string> names;
    for (const auto& m : chain) {
        dirs.push_back(m.dir);
        names.push_back(m.name);
    }
    const ruleset::Manifest& self = chain.back();
    prepared.tests = self.tests;
    prepared.tests_real = self.tests_real;
    prepared.load = true;

    // 2. Data files and scenarios against their schemas.
    std::set<std::string> parent_data;
    for (std::size_t i = 0; i + 1 < chain.size(); ++i)
        for (const auto& f : chain[i].data) parent_data.insert(fs::path(f).stem().string());
    // Each file with its kind and where the check found it (its canonical path, inside the folder).
    struct ToValidate {
        fs::path file;
        std::string kind, checked;
    };
    std::vector<ToValidate> files;
    for (std::size_t i = 0; i < self.data.size(); ++i)
        files.push_back({self.data[i], fs::path(self.data[i]).stem().string(), self.data_resolved[i].real});
    if (fs::is_directory(self.dir / "scenarios")) {
        std::vector<fs::path> scenarios;
        for (const auto& e : fs::directory_iterator(self.dir / "scenarios"))
            if (ruleset::is_scenario_file(e.path().filename().native())) scenarios.push_back(e.path());
        std::sort(scenarios.begin(), scenarios.end());
        // A scenario file of a name umpire.data.scenario cannot take fails the load, so step 3
        // reports it with the load's own words (ruleset::bad_scenario_name); it is still checked
        // against its schema here, so that one run names every problem it has. One that resolves
        // outside the ruleset folder (a symlink) is not read: umpire.data.scenario refuses it too.
        for (const auto& f : scenarios) {
            std::error_code ec;
            const std::string real = fs::canonical(f, ec).native();
            if (ec || !ruleset::inside_real(self.real_dir, real)) {
                // (named by the link, not by where it leads: display_path follows it)
                out.problems.push_back(LuaHost::display_path(f.parent_path()) + "/" + f.filename().string() +
                                       ":1:1: resolves outside the ruleset folder (a symlink?): not read");
                continue;
            }
            files.push_back({f, "scenario", real});
        }
    }
    for (const auto& [file, kind, checked] : files) {
        const std::string display = LuaHost::display_path(file);
        std::string text;
        try {
            text = read_yaml(file, checked, display);
        } catch (const std::exception& e) {
            out.problems.push_back(e.what());
            continue;
        }
        const fs::path schema_file = schema_of(text, file, kind, dirs, names);
        if (schema_file.empty()) {
            out.notes.push_back(display + ": no schema (add schemas/" + self.name + "/" + kind + ".schema.json)");
            continue;
        }
        if (!fs::is_regular_file(schema_file)) {
            out.problems.push_back(display + ":1:1: its schema " + LuaHost::display_path(schema_file) +
                                   " does not exist");
            continue;
        }
        // A modeline names any path, and the schema's text can come back in its problems (its
        // enums, its parse error): so a schema is read only from a folder of the ruleset's chain or
        // the shipped schemas, symlinks followed (session 35; before, any file the user could read).
        if (!schema_allowed(schema_file, dirs)) {
            out.problems.push_back(outside_schema(display, schema_file));
            continue;
        }
        const bool partial = kind != "scenario" && parent_data.count(kind);
        validate_text(text, display, schema_file, partial, out);
    }

    return prepared;
}

// Steps 3 and 4: load everything in the sandbox (modules, validate(data)), then the spec tests.
void check_rules(Prepared& prepared, const HostOptions& options, std::ostream& spec_output) {
    if (!prepared.load) return;
    CheckResult& out = prepared.result;
    LuaHost host(options);
    try {
        ruleset::load(host, {prepared.dir.string()});
    } catch (const ScriptError& e) {
        out.problems.push_back(std::string("does not load: ") + e.what());
        return;
    }
    for (std::size_t i = 0; i < prepared.tests.size(); ++i) {
        std::ostringstream captured;
        const SpecResult r = run_spec_file(host, prepared.tests[i], prepared.tests_real[i], captured);
        spec_output << captured.str();
        out.specs_passed += r.passed;
        out.specs_failed += r.failed;
        if (r.failed) {
            std::istringstream lines(captured.str());
            std::string line, pending;
            while (std::getline(lines, line)) {
                if (line.rfind("FAIL ", 0) == 0) {
                    if (!pending.empty()) out.problems.push_back("spec " + pending);
                    pending = line.substr(5);
                } else if (!pending.empty() && line.rfind("     ", 0) == 0) {
                    out.problems.push_back("spec " + pending + ": " + line.substr(5));
                    pending.clear();
                }
            }
            if (!pending.empty()) out.problems.push_back("spec " + pending);
        }
    }
}

}  // namespace

CheckResult check_ruleset(const std::string& name_or_dir, const HostOptions& options, std::ostream& spec_output) {
    Prepared prepared = check_files(name_or_dir, options);
    check_rules(prepared, options, spec_output);
    return std::move(prepared.result);
}

std::vector<CheckResult> check_rulesets(const std::vector<std::string>& names_or_dirs, const HostOptions& options,
                                        std::vector<std::string>& spec_outputs) {
    std::vector<Prepared> prepared;
    for (const auto& name : names_or_dirs) prepared.push_back(check_files(name, options));
    // Every file the loads and spec runs will read, read now and kept (in a worker that closes its
    // files: host/FileSnapshot.hpp), each host carrying them all: no more than its cap.
    std::vector<std::string> dirs;
    for (const auto& p : prepared)
        if (p.load) dirs.push_back(p.dir.string());
    file_snapshot::limit(options.memory_limit);
    ruleset::read_ahead(dirs, ruleset::search_path(options.search_path), true);
    isolation::close_files();
    std::vector<CheckResult> results;
    spec_outputs.clear();
    for (auto& p : prepared) {
        std::ostringstream specs;
        check_rules(p, options, specs);
        results.push_back(std::move(p.result));
        spec_outputs.push_back(specs.str());
    }
    return results;
}

}  // namespace umpire
