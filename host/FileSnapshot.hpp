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
// kernel as before, which refuses it once the files are closed ("cannot read ..."). The read that
// keeps a file is the loader's checked one (ruleset/LoadCache.hpp, read_source: one descriptor,
// checked to lead where the manifest's check found the file), so what every later load is
// answered was checked once, as in any other process.
//
// Only a worker that closes its files and loads again afterwards turns this on (enable()): `odds`,
// `test` (which reads every ruleset and spec ahead, then closes) and a `serve` page (which reads
// ahead what the page reads, then closes). `run` and `replay` close
// their files too but never load again, so they keep nothing; `watch` reloads from disk by design
// and must see every edit. Reads outside a Recording (the
// journal, --state) are never kept: they are read once.
//
// What is kept counts against the memory cap (docs/sandbox.md, "Memory"): a file's bytes and its
// path, a folder's names. Each host whose load records (a Recording made with its Game) carries
// the whole of it, topped up when the Recording starts and charged as each new file is kept (by
// whichever load keeps it: a host made earlier carries the files kept after its load too), for
// the host's life: the copies outlive every host of the worker, so each must have room for them
// beside its own heap. And limit() bounds them in all, so a read-ahead made before any host
// exists (`odds --compare`, `test`, a `serve` page) stops at the cap too. A stranger's ruleset of
// many large files, each under the file caps, is so refused at the cap instead of filling the
// worker's address space.
#pragma once
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace umpire {
class Game;
}

namespace umpire::file_snapshot {

// Turns keeping on for this process (a worker of run, odds or replay). Off by default.
void enable();
bool enabled();
// The most that may be kept in all (the hosts' memory cap: each host carries all of it), whether a
// host records or not; past it keep() and list() refuse as past a host's cap. No limit by default.
void limit(std::size_t most);

// While one lives (on any thread), the files read and folders listed are kept (if enabled()).
// With a game: the game carries all that is kept against its memory cap from now on, for its
// life (topped up at once: ScriptError past the cap), and each file kept later, by any load, is
// charged to it and to every other game that carries them.
class Recording {
public:
    explicit Recording(Game* charged_to = nullptr);
    ~Recording();
    Recording(const Recording&) = delete;
    Recording& operator=(const Recording&) = delete;
};

// The bytes kept for `file` (by its path as written), if any.
std::optional<std::string> find(const std::filesystem::path& file);
// Keeps `bytes` as `file`'s, if enabled() and a Recording lives. ScriptError ("file:1:1: memory
// limit: ...") if limit() or a game that carries them has no room for them; then nothing is kept.
void keep(const std::filesystem::path& file, const std::string& bytes);

// The bytes kept in all (files, their paths, folders' names), and the number of files.
std::size_t bytes();
std::size_t files();

// The names in `dir` (sorted; "." and ".." left out): kept ones if any, else listed now and kept
// while recording (charged as keep() charges). Throws std::filesystem::filesystem_error as
// directory_iterator does when the folder cannot be listed.
std::vector<std::string> list(const std::filesystem::path& dir);

}  // namespace umpire::file_snapshot
