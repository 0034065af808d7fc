// What a reload reuses from the loads before it in the same host: each data file's checked YAML,
// each manifest's YAML tree and each rules module's compiled chunk, keyed by the file's path and
// its exact bytes.
//
// Incremental reload. A reload reads every file of the rulesets again (a few hundred kB: cheap)
// and compares the bytes with those it last parsed or compiled. Equal bytes reuse the result; any
// difference parses or compiles again, with every check and error of a cold load. Nothing is
// ever read back from disk but source text: no bytecode, no serialized cache, and no hash taken
// as proof of equality (the bytes themselves are compared).
//
// What is always re-run: each module's body and every validate(data), in the new generation's
// fresh env, on fresh data tables. A module's functions see `umpire` through the env of the
// generation that ran its body, and data tables may have been changed by rule code since, so
// reusing a module table or a data table of the old generation would not give what a cold load
// gives. Those steps are a small part of a load (about 3% of a cold start; parsing YAML and
// compiling Lua are the rest), so a reload costs little more than reading the files, and its
// result is a cold load's by construction (tests/ruleset/test_reload.cpp checks that over random
// edit sequences).
//
// A cached chunk is the function luaL_loadbuffer made (a main chunk has no upvalues): each
// generation calls it again after setting its env to the new generation's env; the closures its
// body makes take that env.
#pragma once
#include <lua.hpp>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace umpire {
class Game;
class LuaHost;
namespace yaml {
struct Document;
}
}  // namespace umpire

namespace umpire::ruleset {

class LoadCache {
public:
    explicit LoadCache(Game&) {}

    // The checked YAML of a data file (yaml::parse), parsed again only when its bytes changed.
    // charge_to: the state whose memory cap the yaml-cpp tree counts against while it is parsed.
    std::shared_ptr<const yaml::Document> data(const std::filesystem::path& file, const std::string& display,
                                               lua_State* charge_to = nullptr);

    // The YAML tree of a ruleset.yaml, parsed again (by parse, which raises its errors) only when
    // its bytes changed. Read it as a const YAML::Node.
    YAML::Node manifest(const std::filesystem::path& file, const std::string& display,
                        const std::function<YAML::Node(const std::string&)>& parse);

    // Pushes the compiled chunk of a rules module with its env set to the table at env_index,
    // compiled again (LuaHost::load_chunk) only when its bytes or its chunk name changed.
    void push_chunk(LuaHost& host, const std::filesystem::path& file, const std::string& display, int env_index);

    // Around one load: entries not used by it are dropped at the end, so a file removed from a
    // manifest does not stay in memory.
    void begin_load();
    void end_load(lua_State* L);

private:
    struct DataEntry {
        std::string bytes;
        std::string display;
        std::shared_ptr<const yaml::Document> document;
        bool used = false;
    };
    struct ManifestEntry {
        std::string bytes;
        std::string display;
        YAML::Node root;
        bool parsed = false;
        bool used = false;
    };
    struct ChunkEntry {
        std::string bytes;
        std::string chunkname;
        int ref = LUA_NOREF;  // the function, in the registry
        bool used = false;
    };
    std::map<std::filesystem::path, DataEntry> data_;
    std::map<std::filesystem::path, ChunkEntry> chunks_;
    std::map<std::filesystem::path, ManifestEntry> manifests_;
};

}  // namespace umpire::ruleset
