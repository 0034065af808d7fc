// What a reload reuses from the loads before it in the same host: each data file's checked YAML,
// each manifest's YAML tree and each rules module's compiled chunk, keyed by the file's path and
// its exact bytes.
//
// Incremental reload. A reload first asks the kernel whether each file changed (a stat: device,
// inode, size, mtime and ctime with nanoseconds, ruleset/FileStamp.hpp, the way make and git
// decide); a file whose stamp is the one recorded when its bytes were read, and was already
// settled then (not written within the last few seconds), is not read again. Any other file is
// read (a few hundred kB for a whole ruleset: cheap) and its bytes compared with those last parsed
// or compiled. Equal bytes reuse the result; any difference parses or compiles again, with every
// check and error of a cold load. Nothing is ever read back from disk but source text: no
// bytecode, no serialized cache, and no hash taken as proof of equality (the bytes themselves
// are compared whenever the stamp changed).
//
// What is always re-run: each module's body and every validate(data), in the new generation's
// fresh env. A module's functions see `umpire` through the env of the generation that ran its
// body, so reusing a module table of the old generation would not give what a cold load gives.
// The data tables of a name (umpire.data.<name>) are new ones only when one of that name's data
// files changed: the others are the committed generation's sealed tables, checked against their
// seal after the rule code ran (ruleset/Ruleset.cpp, ReusableData, says why that equals a cold
// load and what keeps it safe). Those steps are a small part of a load (about 3% of a cold start; parsing YAML and
// compiling Lua are the rest), so a reload costs little more than a stat of each file, and its
// result is a cold load's by construction (tests/ruleset/test_reload.cpp checks that over random
// edit sequences).
//
// The paths are checked again on every load, stamps or not (ruleset/Ruleset.cpp, resolve_file):
// a file swapped for a symlink that leads out of the ruleset folder changes no stamp of this cache
// (stat follows the link), and is refused there.
//
// A cached chunk is the function luaL_loadbuffer made (a main chunk has no upvalues): each
// generation calls it again after setting its env to the new generation's env; the closures its
// body makes take that env.
#pragma once
#include <lua.hpp>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ruleset/FileStamp.hpp"

namespace umpire {
class Game;
class LuaHost;
namespace yaml {
struct Document;
}
}  // namespace umpire

namespace umpire::ruleset {

// The bytes of a file a load reads, and its stamp (none if it could not be taken), as every load
// reads them: a regular file of at most max_bytes through one descriptor (host/RegularFile.hpp),
// refused (ScriptError naming `display`) if it is no longer one, or if `checked` is not empty and
// the descriptor leads anywhere but there (the canonical path the manifest's check found: a
// symlink swapped in since). A file that cannot be opened or is too big goes through `read(file)`,
// which raises the usual errors. In a worker that keeps its files (host/FileSnapshot.hpp), a file
// kept already is answered from memory, and one read here is kept: the first read of each is
// checked as in any other process.
std::pair<std::string, std::optional<FileStamp>> read_source(
    const std::filesystem::path& file, std::size_t max_bytes,
    const std::function<std::string(const std::filesystem::path&)>& read, const std::string& checked,
    const std::string& display);

class LoadCache {
public:
    explicit LoadCache(Game&) {}

    // The checked YAML of a data file (yaml::parse), parsed again only when its bytes changed.
    // charge_to: the state whose memory cap the yaml-cpp tree counts against while it is parsed.
    // stamp: the file's stamp if the caller just took it (the manifest check's lstat of a file
    // that is no symlink), so that it is not taken again. checked: where the manifest's check
    // found the file (its canonical path, inside the ruleset folder); a file read that leads
    // anywhere else, swapped between the check and the read, is refused (ScriptError).
    std::shared_ptr<const yaml::Document> data(const std::string& file, const std::string& display,
                                               lua_State* charge_to = nullptr,
                                               const std::optional<FileStamp>& stamp = std::nullopt,
                                               const std::string& checked = {});

    // The YAML tree of a ruleset.yaml, parsed again (by parse, which raises its errors) only when
    // its bytes changed. Read it as a const YAML::Node. stamp, checked: as for data().
    YAML::Node manifest(const std::filesystem::path& file, const std::string& display,
                        const std::function<YAML::Node(const std::string&)>& parse,
                        const std::optional<FileStamp>& stamp = std::nullopt, const std::string& checked = {});

    // What the loader read from the tree manifest(file, ...) gave this load (ruleset/Ruleset.cpp,
    // ManifestFields), kept with that tree: null until the loader sets it, and dropped whenever the
    // tree is parsed again.
    std::shared_ptr<const void>& manifest_fields(const std::filesystem::path& file);

    // The checked YAML of text that is not a file (a manifest's turn sequence), parsed again only
    // when the text changed; keyed by display.
    std::shared_ptr<const yaml::Document> text(const std::string& text, const std::string& display);

    // Pushes the compiled chunk of a rules module with its env set to the table at env_index,
    // compiled again (LuaHost::load_chunk) only when its bytes or its chunk name changed.
    // stamp, checked: as for data().
    void push_chunk(LuaHost& host, const std::string& file, const std::string& display, int env_index,
                    const std::optional<FileStamp>& stamp = std::nullopt, const std::string& checked = {});

    // The names in `folder` (file_snapshot::list: sorted, "." and ".." left out), opened by the
    // caller as `fd` (O_PATH will do), listed again only when the folder's stamp changed. A folder's
    // mtime and ctime change whenever a name in it is added, removed or renamed (a file swapped
    // for a symlink too), so an equal stamp, settled as a file's is, means the same names; what
    // each name is now (a regular file, a symlink) is for the caller to check, as it did. In a
    // worker that keeps its files (host/FileSnapshot.hpp) every call lists, as before.
    const std::vector<std::string>& folder_names(const std::string& folder, int fd);

    // Around one load: entries not used by it are dropped at the end, so a file removed from a
    // manifest does not stay in memory.
    void begin_load();
    void end_load(lua_State* L);

    // How much work the loads of this host did, for tests and benchmarks: files read from disk,
    // YAML files parsed (data and manifests), modules compiled, folders listed (folder_names),
    // manifests whose spec files were resolved (ruleset/Ruleset.cpp, spec_files; the loader counts).
    struct Counts {
        long reads = 0, parses = 0, compiles = 0, listings = 0, spec_resolutions = 0;
    };
    const Counts& counts() const { return counts_; }
    void count_spec_resolution() { ++counts_.spec_resolutions; }

    // How long after its last change a file's stamp is trusted (FileStamp.hpp); tests set 0 to
    // see the stat path without waiting.
    std::chrono::nanoseconds settle_margin = kSettleMargin;

private:
    // The bytes of a file as last read, and whether its stamp then may stand for them.
    struct Source {
        std::string bytes;
        std::optional<FileStamp> stamp;
        bool trusted = false;  // the stamp was settled when the bytes were read
    };
    // Is source still the file's content, by its stamp alone? (false: read and compare)
    static bool unchanged(const Source& source, const std::string& file,
                          const std::optional<FileStamp>& stamp = std::nullopt);
    // Reads file and fills `fresh` (stamp taken before the bytes: a write in between leaves a
    // stamp that no longer matches, so the file is read again next time), by read_source.
    // `checked`, `display`: as for data() (not checked when empty).
    void read(const std::filesystem::path& file, Source& fresh, std::size_t max_bytes,
              const std::function<std::string(const std::filesystem::path&)>& read,
              const std::string& checked = {}, const std::string& display = {});

    struct DataEntry {
        Source source;
        std::string display;
        std::shared_ptr<const yaml::Document> document;
        std::uint64_t used_in = 0;  // the number of the last load that used it (load_)
    };
    struct ManifestEntry {
        Source source;
        std::string display;
        YAML::Node root;
        std::shared_ptr<const void> fields;  // of root (manifest_fields)
        bool parsed = false;
        std::uint64_t used_in = 0;  // the number of the last load that used it (load_)
    };
    struct ChunkEntry {
        Source source;
        std::string chunkname;
        int ref = LUA_NOREF;  // the function, in the registry
        std::uint64_t used_in = 0;  // the number of the last load that used it (load_)
    };
    // Files by their path as spelled (the loader spells each the same way every load): comparing
    // the text is a memcmp, where path's operator< compares part by part, about 3% of a reload;
    // and data files and modules are looked up by the strings the manifest's read made, with no
    // path made for them (Manifest::data).
    struct BySpelling {
        bool operator()(const std::filesystem::path& a, const std::filesystem::path& b) const {
            return a.native() < b.native();
        }
    };
    std::map<std::string, DataEntry, std::less<>> data_;
    std::map<std::string, ChunkEntry, std::less<>> chunks_;
    std::map<std::filesystem::path, ManifestEntry, BySpelling> manifests_;
    struct ListingEntry {
        std::vector<std::string> names;
        FileStamp stamp;
        bool trusted = false;  // the stamp was settled when the folder was listed
        std::uint64_t used_in = 0;  // the number of the last load that used it (load_)
    };
    std::map<std::string, ListingEntry, std::less<>> listings_;
    struct TextEntry {
        std::string text;
        std::shared_ptr<const yaml::Document> document;
        std::uint64_t used_in = 0;  // the number of the last load that used it (load_)
    };
    std::map<std::string, TextEntry> texts_;
    std::uint64_t load_ = 0;  // the number of the current load (begin_load)
    Counts counts_;
};

}  // namespace umpire::ruleset
