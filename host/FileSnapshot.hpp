// The ruleset files a worker has read, kept in memory so that the loads after its files are closed
// open none (docs/sandbox.md, "No file opened after loading").
//
// `run`, `odds` and `replay` close their worker's file access once everything is loaded
// (isolation::close_files: a Landlock layer with no rights at all). But an odds run loads the same
// rulesets again after rule code has run: the Monte Carlo fallback makes one host per thread
// after the exact enumeration gave up, and `--compare` loads the second ruleset after the first
// side's odds. So in such a worker every file the loader reads (manifests, data files, modules,
// scenarios, the odds script) and every folder it lists is kept here the first time, inside a
// Recording; a later read of the same path is answered from memory. A path not kept goes to the
// kernel as before, which refuses it once the files are closed ("cannot read ...").
//
// Only a worker that will close its files turns this on (enable()): `watch` and `test` reload from
// disk by design and must see every edit, and the other commands have no use for the copies.
// Reads outside a Recording (the journal, --state) are never kept: they are read once.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace umpire::file_snapshot {

// Turns keeping on for this process (a worker of run, odds or replay). Off by default.
void enable();
bool enabled();

// While one lives (on any thread), the files read and folders listed are kept (if enabled()).
class Recording {
public:
    Recording();
    ~Recording();
    Recording(const Recording&) = delete;
    Recording& operator=(const Recording&) = delete;
};

// The bytes kept for `file` (by its path as written), if any.
std::optional<std::string> find(const std::filesystem::path& file);
// Keeps `bytes` as `file`'s, if enabled() and a Recording lives.
void keep(const std::filesystem::path& file, const std::string& bytes);

// The names in `dir` (sorted; "." and ".." left out): kept ones if any, else listed now and kept
// while recording. Throws std::filesystem::filesystem_error as directory_iterator does when the
// folder cannot be listed.
std::vector<std::string> list(const std::filesystem::path& dir);

}  // namespace umpire::file_snapshot
