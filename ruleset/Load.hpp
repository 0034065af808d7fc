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

// Loads the named rulesets (a name from the search path, or a directory) as one generation.
void load(LuaHost& host, const std::vector<std::string>& names_or_dirs);

// The same rulesets again, from disk (hot reload).
void reload(LuaHost& host);

// The folders of the committed load, in the order named (empty before any load).
const std::vector<std::filesystem::path>& loaded_dirs(LuaHost& host);

}  // namespace umpire::ruleset
