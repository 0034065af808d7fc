#include "ruleset/LoadCache.hpp"

#include "host/LuaHost.hpp"
#include "ruleset/YamlLoader.hpp"

namespace umpire::ruleset {

std::shared_ptr<const yaml::Document> LoadCache::data(const std::filesystem::path& file,
                                                      const std::string& display, lua_State* charge_to) {
    std::string bytes = yaml::read_data_file(file, display);
    DataEntry& entry = data_[file];
    if (!entry.document || entry.bytes != bytes || entry.display != display) {
        entry.document.reset();  // a file that no longer parses leaves no stale document behind
        entry.document = yaml::parse(bytes, display, charge_to);
        entry.bytes = std::move(bytes);
        entry.display = display;
    }
    entry.used = true;
    return entry.document;
}

YAML::Node LoadCache::manifest(const std::filesystem::path& file, const std::string& display,
                               const std::function<YAML::Node(const std::string&)>& parse) {
    std::string bytes = yaml::read_data_file(file, display);  // a manifest is capped like data
    ManifestEntry& entry = manifests_[file];
    if (!entry.parsed || entry.bytes != bytes || entry.display != display) {
        entry.parsed = false;  // stays so if parse raises
        entry.root = parse(bytes);
        entry.parsed = true;
        entry.bytes = std::move(bytes);
        entry.display = display;
    }
    entry.used = true;
    return entry.root;
}

void LoadCache::push_chunk(LuaHost& host, const std::filesystem::path& file, const std::string& display,
                           int env_index) {
    lua_State* L = host.state();
    if (env_index < 0) env_index = lua_gettop(L) + env_index + 1;
    std::string bytes = LuaHost::read_file(file, LuaHost::kMaxCodeBytes, "a rules module");
    const std::string chunkname = "@" + display;
    ChunkEntry& entry = chunks_[file];
    if (entry.ref != LUA_NOREF && entry.bytes == bytes && entry.chunkname == chunkname) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, entry.ref);
        lua_pushvalue(L, env_index);
        lua_setfenv(L, -2);
    } else {
        if (entry.ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, entry.ref);
        entry.ref = LUA_NOREF;
        host.load_chunk(bytes, chunkname, env_index);
        lua_pushvalue(L, -1);
        entry.ref = luaL_ref(L, LUA_REGISTRYINDEX);
        entry.bytes = std::move(bytes);
        entry.chunkname = chunkname;
    }
    entry.used = true;
}

void LoadCache::begin_load() {
    for (auto& [file, entry] : data_) entry.used = false;
    for (auto& [file, entry] : chunks_) entry.used = false;
    for (auto& [file, entry] : manifests_) entry.used = false;
}

void LoadCache::end_load(lua_State* L) {
    std::erase_if(data_, [](const auto& item) { return !item.second.used; });
    std::erase_if(manifests_, [](const auto& item) { return !item.second.used; });
    for (auto it = chunks_.begin(); it != chunks_.end();) {
        if (it->second.used) {
            ++it;
            continue;
        }
        luaL_unref(L, LUA_REGISTRYINDEX, it->second.ref);
        it = chunks_.erase(it);
    }
}

}  // namespace umpire::ruleset
