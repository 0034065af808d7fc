#include "app/Replay.hpp"

#include <lua.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>
#include <vector>

#include "bindings/GameLog.hpp"
#include "host/FileSnapshot.hpp"
#include "host/Isolation.hpp"
#include "host/LuaHost.hpp"
#include "core/bus/Hash.hpp"
#include "ruleset/Load.hpp"

namespace umpire::replay {
namespace fs = std::filesystem;

namespace {

// The folder's hash, read file by file from disk.
std::string hash_of_folder(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), dir));
    std::sort(files.begin(), files.end());
    std::uint64_t h = bus::fnv1a_64("");
    for (const auto& file : files) {
        h = bus::fnv1a_64(file.generic_string(), h);
        h = bus::fnv1a_64(std::string(1, '\0'), h);
        // In pieces: FNV-1a runs byte by byte, so the hash is the same as of the whole text, and a
        // huge file in a ruleset's folder is never held in memory.
        std::ifstream in(dir / file, std::ios::binary);
        if (!in) throw ScriptError("cannot read " + LuaHost::display_path(dir / file) + ": no such file or not readable");
        std::string piece(std::size_t{64} << 10, '\0');
        while (in.read(piece.data(), static_cast<std::streamsize>(piece.size())) || in.gcount() > 0)
            h = bus::fnv1a_64(std::string_view(piece.data(), static_cast<std::size_t>(in.gcount())), h);
    }
    return bus::hash_hex(h);
}

}  // namespace

std::string ruleset_hash(const fs::path& dir) {
    // A worker that keeps the ruleset files it read (host/FileSnapshot.hpp) loads them from memory
    // after its files close, as they were when first read; it keeps each folder's hash the same
    // way, so a `serve` page hashes its rulesets ahead and stamps its games' journals after the
    // close. Elsewhere (watch, a page with --no-isolate) every call reads the folder as it is now.
    if (!file_snapshot::enabled()) return hash_of_folder(dir);
    static std::mutex mutex;
    static std::map<std::string, std::string> kept;
    const std::lock_guard lock(mutex);
    const auto [at, fresh] = kept.try_emplace(dir.string());
    if (fresh) {
        try {
            at->second = hash_of_folder(dir);
        } catch (...) {
            kept.erase(at);
            throw;
        }
    }
    return at->second;
}

void stamp_header(LuaHost& host, std::uint64_t seed, nlohmann::json inputs) {
    auto& header = host.extension<GameLog>().journal.header();
    header.engine_version = UMPIRE_VERSION;
    header.seed = seed;
    header.inputs = std::move(inputs);
    header.rulesets = nlohmann::json::object();
    for (const auto& dir : ruleset::loaded_dirs(host))
        header.rulesets[dir.filename().string()] = ruleset_hash(dir);
}

namespace {

// A Lua value as JSON, for printing what a script returned (not for saving: the game state has
// its own exact canonical JSON). A table with keys 1..n is an array, any other an object with
// its keys as text; depth is capped because a returned table may refer to itself.
nlohmann::json to_json(lua_State* L, int index, int depth = 0) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    switch (lua_type(L, index)) {
    case LUA_TNIL: return nullptr;
    case LUA_TBOOLEAN: return lua_toboolean(L, index) != 0;
    case LUA_TNUMBER: {
        const lua_Number n = lua_tonumber(L, index);
        if (std::isnan(n)) return "NaN";  // (JSON has no such number: see play in Replay.hpp)
        if (std::isinf(n)) return n > 0 ? "Infinity" : "-Infinity";
        if (n == static_cast<lua_Number>(static_cast<long long>(n))) return static_cast<long long>(n);
        return n;
    }
    case LUA_TSTRING: return std::string(lua_tostring(L, index));
    case LUA_TTABLE: {
        if (depth >= 16) return "(table nested too deep)";
        const std::size_t n = lua_objlen(L, index);
        std::size_t keys = 0;
        lua_pushnil(L);
        while (lua_next(L, index)) {
            ++keys;
            lua_pop(L, 1);
        }
        if (keys > 0 && keys == n) {
            nlohmann::json array = nlohmann::json::array();
            for (std::size_t i = 1; i <= n; ++i) {
                lua_rawgeti(L, index, static_cast<int>(i));
                array.push_back(to_json(L, -1, depth + 1));
                lua_pop(L, 1);
            }
            return array;
        }
        nlohmann::json object = nlohmann::json::object();
        lua_pushnil(L);
        while (lua_next(L, index)) {
            lua_pushvalue(L, -2);  // a copy: lua_tostring on the key itself would confuse lua_next
            const std::string key = lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER
                                        ? lua_tostring(L, -1) : luaL_typename(L, -1);
            lua_pop(L, 1);
            object[key] = to_json(L, -1, depth + 1);
            lua_pop(L, 1);
        }
        return object;
    }
    default: return std::string(luaL_typename(L, index));
    }
}

}  // namespace

nlohmann::json play(LuaHost& host, std::uint64_t seed, const std::vector<std::string>& rulesets, nlohmann::json inputs,
                    std::string* printed) {
    if (!rulesets.empty()) ruleset::load(host, rulesets);
    if (inputs.contains("state") && inputs["state"].is_string()) host.set_state_json(inputs["state"].get<std::string>());
    inputs["state"] = host.state_json();
    const std::string code = inputs.value("code", std::string());
    const std::string script = inputs.value("script", std::string());
    stamp_header(host, seed, inputs);
    // Loaded and hashed: under `run` and `replay` in a worker, no file opens from here on, while
    // the script runs (docs/sandbox.md, "No file opened after loading").
    isolation::close_files();
    const int n = host.run_string(code, script.empty() ? "=(command line)" : "@" + LuaHost::display_path(script), true);
    lua_State* L = host.state();
    nlohmann::json results = nlohmann::json::array();
    for (int i = n; i >= 1; --i) {
        results.push_back(to_json(L, -i));
        if (!printed) continue;
        if (i != n) *printed += "\t";
        const nlohmann::json& value = results.back();
        if (lua_type(L, -i) == LUA_TNUMBER && !std::isfinite(lua_tonumber(L, -i))) *printed += lua_tostring(L, -i);
        else *printed += value.is_string() ? value.get<std::string>() : value.dump();
    }
    lua_pop(L, n);
    return results;
}

std::optional<bus::Journal::Divergence> compare(const bus::Journal& recorded,
                                                const bus::Journal& replayed) {
    const auto& was = recorded.header().rulesets;
    const auto& now = replayed.header().rulesets;
    for (auto it = was.begin(); it != was.end(); ++it) {
        const std::string hash_now = now.contains(it.key()) ? now[it.key()].get<std::string>() : "";
        if (hash_now != it.value().get<std::string>()) {
            bus::Journal::Divergence d;
            d.where = bus::Journal::Divergence::Where::header;
            d.path = "/header/rulesets/" + it.key();
            d.expected = it.value().dump();
            d.actual = hash_now.empty() ? "" : nlohmann::json(hash_now).dump();
            d.message = "ruleset '" + it.key() + "' has changed since the journal was recorded" +
                        (hash_now.empty() ? " (it is not loaded now)" : "");
            return d;
        }
    }
    return bus::Journal::first_divergence(recorded, replayed, true);
}

}  // namespace umpire::replay
