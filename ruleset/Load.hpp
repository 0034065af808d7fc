// Loading rulesets into a game: which folders, in which load generation, and again on reload.
//
// A load is one transactional generation of the host (LuaHost::load_generation): every ruleset
// named, with its extends chain, is read into a fresh env (ruleset::load_into), and only if all
// of it loads is it swapped in. On error nothing changes and the ScriptError says file and line.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace umpire {
class LuaHost;
}

namespace umpire::ruleset {

// Where ruleset names are looked up: HostOptions::search_path (the --ruleset folders), then
// UMPIRE_PATH, then the shipped rulesets (ruleset/Shared.hpp).
std::vector<std::filesystem::path> search_path(const LuaHost& host);
// The same from HostOptions::search_path, for a caller that has no host yet.
std::vector<std::filesystem::path> search_path(std::vector<std::filesystem::path> given);

// In a worker that closes its files after loading (host/FileSnapshot.hpp): reads every file a
// load of these rulesets will read (manifests, data files, modules, scenarios), so that a load
// made after the files are closed (`odds --compare` loads its second ruleset after the first
// side's odds) finds them in memory. Errors are left to that load, which meets them in the same
// order and reports them as usual. Does nothing elsewhere. With `specs`, each ruleset's spec files
// too (`umpire test`). Each name is read on its own: one ruleset's error does not stop the next.
void read_ahead(const std::vector<std::string>& names_or_dirs, const std::vector<std::filesystem::path>& search_path,
                bool specs = false);

// The text of a spec file a manifest names (Manifest::tests), read as the loader reads the files
// it names (read_source: one descriptor, a regular file of at most LuaHost::kMaxCodeBytes, answered
// from memory in a worker that keeps its files). `checked` is where the manifest's check found it
// (Manifest::tests_real): a descriptor that leads anywhere else, a symlink swapped in since the
// check, is refused with a ScriptError naming `display`. Empty: not checked (a spec file named by
// its path, not by a manifest: tests).
std::string read_spec_file(const std::filesystem::path& file, const std::string& checked, const std::string& display);

// Loads the named rulesets (a name from the search path, or a directory) as one generation.
void load(LuaHost& host, const std::vector<std::string>& names_or_dirs);

// The same rulesets again, from disk (hot reload).
void reload(LuaHost& host);

// The folders of the committed load, in the order named (empty before any load).
const std::vector<std::filesystem::path>& loaded_dirs(LuaHost& host);

}  // namespace umpire::ruleset
