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
// or an empty path. kind: the data file's base name, or "scenario". A schema that lies outside the
// chain's folders and the shipped schemas (a modeline may name any path) is an error: not read.
std::filesystem::path schema_for(const std::filesystem::path& yaml_file, const std::string& kind,
                                 const std::vector<std::filesystem::path>& chain_dirs,
                                 const std::vector<std::string>& chain_names);

// Runs the four checks on one ruleset (a name on the search path or a directory). Spec test
// output goes to `spec_output` (pass a null stream to drop it).
CheckResult check_ruleset(const std::string& name_or_dir, const HostOptions& options,
                          std::ostream& spec_output);

// The four checks of each ruleset, as `umpire check` runs them: steps 1 and 2 of every ruleset
// first (they read files, the schemas too, and run no rule code); then every file the loads and
// the spec runs will read is read and kept (ruleset::read_ahead with the specs), and a worker
// that closes its files closes them (isolation::close_files: docs/sandbox.md, "No file opened
// after loading"); then steps 3 and 4 of each, whose module bodies, validate and specs run with no
// file open. One result per name, in order; each ruleset's spec output in spec_outputs.
std::vector<CheckResult> check_rulesets(const std::vector<std::string>& names_or_dirs, const HostOptions& options,
                                        std::vector<std::string>& spec_outputs);

}  // namespace umpire
