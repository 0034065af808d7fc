// umpire.data.scenario: the scenarios of the loaded rulesets, read and parsed while they load.
//
// Every scenarios/<name>.yaml of every layer (a name of letters, digits, '_' and '-', the names
// umpire.data.scenario accepts) is read and checked as a data file is (size, UTF-8, syntax,
// duplicate keys, the node cap; errors "file:line:col" at load), and its parsed values are kept
// with the load generation, their C++ memory charged against the Lua memory cap for as long as
// they are kept. A call then only looks the name up and makes fresh tables from what was kept:
// each call returns a table of its own, as when it read the file at every call, so a script that
// changes one does not change the next. No file is opened at run time, which is what lets `run`
// and `odds` close their files after loading (docs/sandbox.md, "No file opened after loading").
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ruleset/FileStamp.hpp"
#include "ruleset/Ruleset.hpp"

namespace umpire {
class LuaHost;
}

namespace umpire::ruleset {

class LoadCache;

// One scenario file: its path; whether it resolves inside its ruleset folder (symlinks
// followed); and its stamp when it is no symlink (taken by the same lstat, so that the load
// cache does not stat it again).
struct ScenarioFile {
    // The folder as given, '/', the file's name: a string, as Manifest::data (a path splits itself
    // into parts when made); `name` is the part after the '/' (<name>.yaml).
    std::string path;
    std::string_view name() const { return std::string_view(path).substr(path.rfind('/') + 1); }
    bool inside = false;
    std::optional<FileStamp> stamp;
    // Where the check found it (its canonical path), for the read to check that it still leads
    // there (ruleset/LoadCache.hpp, read_source); "" when it did not resolve.
    std::string real;
};

// Whether `name` (a file's name without ".yaml") is one umpire.data.scenario accepts: letters,
// digits, '_' and '-'. A scenario file of another name fails the load (scenario_folder).
bool valid_scenario_name(const std::string& name);

// Whether a file in a scenarios folder is meant as a scenario: <something>.yaml, not hidden. A
// name starting with '.' is left alone, as ls and file managers hide it: editors and copies to
// other file systems leave such files beside the real ones (".#a.yaml", "._a.yaml").
bool is_scenario_file(std::string_view file_name);

// The error of a scenario file (shown as `display_file`) whose name umpire.data.scenario cannot
// take: "<display_file>:1:1: not a scenario name (...): rename it". The one text for it, which
// the load throws and so `umpire check` reports.
std::string bad_scenario_name(const std::string& display_file);

// The scenarios folder of one ruleset folder: its name as messages show it (LuaHost::display_path)
// and its files, scenarios/<name>.yaml, regular files (symlinks followed), in name order, listed
// through the file snapshot. ScriptError (bad_scenario_name) for a scenario file of a name
// umpire.data.scenario cannot take.
struct ScenarioFolder {
    std::string display;
    std::vector<ScenarioFile> files;
};
// The scenarios folder of the ruleset folder `layer`, whose canonical path this load resolved as
// `real_layer` (Manifest::real_dir; "" if it did not resolve: nothing is inside it); `cwd` is the
// working directory as getcwd gives it, for the display name. With a load cache, the folder's
// names are listed again only when the folder changed (LoadCache::folder_names).
ScenarioFolder scenario_folder(const std::filesystem::path& layer, const std::string& real_layer, const std::string& cwd,
                               LoadCache* cache = nullptr);
// Reads the scenarios of `layers` (root first; a later layer's scenario hides an earlier one's of
// the same name) and pushes the function umpire.data.scenario over them.
void push_scenario_function(LuaHost& host, const std::vector<Manifest>& layers, const std::string& cwd);
}  // namespace umpire::ruleset
