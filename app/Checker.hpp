// `umpire check RULESET`: everything an author should run before publishing a ruleset.
//
//  1. the manifest against schemas/ruleset.schema.json;
//  2. every data file and scenario of the ruleset against its JSON Schema (SchemaValidator.hpp),
//     problems at the YAML's file:line:col;
//  3. the whole ruleset loads in the sandbox (its extends chain, all modules, every module's own
//     validate(data));
//  4. its spec tests pass.
//
// Which schema a YAML file has (the first that exists):
//  - the file's own modeline "# yaml-language-server: $schema=<path>" (relative to the file), the
//    line a YAML language server reads, so the editor and `umpire check` use the same schema;
//  - <ruleset>/schemas/<kind>.schema.json, for a ruleset that ships its own schemas;
//  - <repo>/schemas/<ruleset name>/<kind>.schema.json,
// where <kind> is the data file's base name (data/sw_mg.yaml -> sw_mg) or "scenario" for
// scenarios/*.yaml, looked up for the ruleset and then each parent up the extends chain (a house
// rule's data/sw_mg.yaml uses asl's sw_mg schema, as a partial overlay: `required` is not checked).
#pragma once
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "host/LuaHost.hpp"

namespace umpire {

struct CheckResult {
    std::vector<std::string> problems;  // "file:line:col: what" each; empty = the ruleset is fine
    std::vector<std::string> notes;     // informational: files without a schema, counts
    int files_validated = 0;
    int specs_passed = 0, specs_failed = 0;
};

// The schema file for a YAML file of the ruleset chain (root first, the checked ruleset last),
// or an empty path. kind: the data file's base name, or "scenario".
std::filesystem::path schema_for(const std::filesystem::path& yaml_file, const std::string& kind,
                                 const std::vector<std::filesystem::path>& chain_dirs,
                                 const std::vector<std::string>& chain_names);

// Runs the four checks on one ruleset (a name on the search path or a directory). Spec test
// output goes to `spec_output` (pass a null stream to drop it).
CheckResult check_ruleset(const std::string& name_or_dir, const HostOptions& options,
                          std::ostream& spec_output);

}  // namespace umpire
