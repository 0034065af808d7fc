// Rulesets: rulesets/<name>/ruleset.yaml, data/*.yaml, rules/*.lua, tests/*.lua.
// Format and the meaning of `extends`: docs/rulesets.md.
#pragma once
#include <lua.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ruleset/FileStamp.hpp"

namespace umpire {
class LuaHost;
}

namespace umpire::ruleset {

class LoadCache;

struct Manifest {
    std::filesystem::path dir;
    // canonical(dir) when the manifest was read ("" if it did not resolve: then nothing is inside
    // it), resolved once per read: the checks of this load that a file is inside the folder use it.
    std::string real_dir;
    std::string display;  // of its ruleset.yaml, for messages
    std::string name, version, extends;
    std::string turn_sequence_yaml;  // any YAML shape (list of phases, map...), as written
    // The files, spelled as this read found them (the folder as given, then the entry): strings,
    // not std::filesystem::path, which splits itself into parts when made, copied or compared,
    // for every file of every load (about 6% of a reload's instructions). Each converts to a path
    // where one is wanted.
    std::vector<std::string> data, modules, tests;
    // What the check of each data file and module (same order) found when the manifest was read:
    // its canonical path (display names are made from it without resolving the file again) and,
    // for a file that is no symlink, its stamp (the load cache's "changed?" needs no second stat).
    struct Resolved {
        std::string real;
        std::optional<FileStamp> stamp;
    };
    std::vector<Resolved> data_resolved, modules_resolved;
    // The canonical path the check of each spec file (same order as `tests`) found, inside the
    // ruleset folder: its reader refuses a descriptor that leads anywhere else (read_spec_file).
    std::vector<std::string> tests_real;
};

// Reads <dir>/ruleset.yaml; every problem is a ScriptError "ruleset.yaml:line:col: ...".
// With a cache (a load of a host), the YAML of an unchanged manifest is not parsed again; the
// files it names are resolved and checked again every time.
Manifest read_manifest(const std::filesystem::path& dir, LoadCache* cache = nullptr);

// A ruleset directory from a name (looked up in the search path) or a path to a directory that
// holds ruleset.yaml.
std::filesystem::path find(const std::string& name_or_dir,
                           const std::vector<std::filesystem::path>& search_path);

// Is `name` a ruleset's name (letters, digits, '_', '-', '.'; not "." or ".."), never a path?
bool valid_name(const std::string& name);

// A ruleset by name only (never a path: what `extends:` and a replayed journal name). A name is
// letters, digits, '_', '-', '.'; anything else, or no such folder on the path, is a ScriptError.
std::filesystem::path find_by_name(const std::string& name,
                                   const std::vector<std::filesystem::path>& search_path);

// Is file (symlinks followed) strictly inside dir (symlinks followed)?
bool inside(const std::filesystem::path& dir, const std::filesystem::path& file);
// The same for paths resolved already: is the canonical path `real` strictly inside the canonical
// folder `root`? (false when root is empty: a folder that did not resolve holds nothing)
bool inside_real(const std::string& root, const std::string& real);
// LuaHost::display_path of a file whose canonical path is `real`, without resolving it again: the
// path relative to the working directory `cwd` (canonical, as getcwd gives it) when inside it,
// else the absolute path.
std::string display_of(const std::string& real, const std::string& cwd);

// The checks of a manifest entry (a relative path) on its text, as std::filesystem::path reads it
// (a path split into parts at each construction cost more than the rest of the check): does a
// part of it, between '/'s, read ".."? Has its file name an extension (a '.' in the part after the
// last '/', not its first character; "." and ".." have none)?
bool entry_climbs(const std::string& entry);
bool entry_has_extension(const std::string& entry);
// Every ruleset directory under the search path (sorted by name, first hit per name wins).
std::vector<std::filesystem::path> all(const std::vector<std::filesystem::path>& search_path);

// The extends chain of dir, root first; a cycle or a missing parent is an error.
std::vector<Manifest> chain(const std::filesystem::path& dir,
                            const std::vector<std::filesystem::path>& search_path, LoadCache* cache = nullptr);

// Loads the rulesets (each with its extends chain, in order; a later one layers over the
// earlier ones like a child) into the env at env_index: all data first (deep-merged), then the
// modules (a module with a parent's name extends it), then every module's validate(data).
// With retry_fresh, the committed generation's data tables are kept where their files did not
// change (ruleset/Ruleset.cpp, ReusableData); if the rule code's check then finds kept data
// changed, *retry_fresh is set before the error is thrown: the caller puts the committed data back
// and loads again without it (null), which makes fresh tables only.
void load_into(LuaHost& host, int env_index, const std::vector<std::filesystem::path>& dirs,
               bool* retry_fresh = nullptr);

}  // namespace umpire::ruleset
