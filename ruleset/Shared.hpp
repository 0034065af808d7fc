// Where the shipped files are (the rulesets, the JSON Schemas, the editor stubs), found at run time
// from the binary's own location, never from a path fixed at build time: a copied checkout or an
// installed package must read its own files, not the build machine's.
//
// From the folder of /proc/self/exe, up to three folders up, the first that holds either
//  - share/umpire/schemas/ruleset.schema.json: an install (`cmake --install`, the .deb):
//    <prefix>/bin/umpire reads <prefix>/share/umpire/{rulesets,schemas,stubs};
//  - schemas/ruleset.schema.json and rulesets/: a source checkout (build/cli/umpire, the tests in
//    build/tests): <checkout>/{rulesets,schemas,docs/stubs}.
// UMPIRE_HOME, if set, names that folder instead (either layout), for a build outside the checkout.
// UMPIRE_PATH (folders separated by ':') adds ruleset folders ahead of the shipped ones.
#pragma once
#include <filesystem>
#include <vector>

namespace umpire::ruleset {

struct Shared {
    std::filesystem::path root;      // empty if none was found
    std::filesystem::path rulesets;  // <root>/rulesets
    std::filesystem::path schemas;   // <root>/schemas
    std::filesystem::path stubs;     // <root>/stubs (install) or <root>/docs/stubs (checkout)
};

// The shipped files of this binary (looked up once).
const Shared& shared();

// UMPIRE_PATH split at ':' (empty entries skipped).
std::vector<std::filesystem::path> env_path();

// A folder path without "." / ".." parts or a trailing separator: `--ruleset .` and `./` name the
// folder itself, so its parent_path() is the folder that holds it (where `extends` looks first).
std::filesystem::path clean_dir(const std::filesystem::path& dir);

}  // namespace umpire::ruleset
