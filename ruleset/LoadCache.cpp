#include "ruleset/LoadCache.hpp"

#include <system_error>
#include <utility>

#include "host/FileSnapshot.hpp"
#include "bindings/LuaError.hpp"
#include "host/LuaHost.hpp"
#include "host/RegularFile.hpp"
#include "ruleset/YamlLoader.hpp"

namespace umpire::ruleset {

bool LoadCache::unchanged(const Source& source, const std::string& file, const std::optional<FileStamp>& stamp) {
    if (!source.trusted) return false;
    const auto now = stamp ? stamp : stamp_of(std::filesystem::path(file));
    return now && *now == *source.stamp;
}

namespace {

// The bytes and stamp of a regular file of at most max_bytes, with one open and one fstat
// (host/RegularFile.hpp): the stamp is that of the very file read, taken before its bytes are
// read. None when the file cannot be opened, or is (or grew while read) over max_bytes: the
// caller's read then meets the same file and raises its error.
//
// `checked` (if not empty) is where the manifest's check found the file, inside the ruleset
// folder (ruleset/Ruleset.cpp, resolve_file and Resolver::regular_file; Scenarios.cpp,
// scenario_folder). The check and this open are two steps on a path, so a symlink swapped in
// between (for the file, or for any folder on its path) would be followed out of the folder: the
// descriptor leading anywhere but the file checked is refused, never read. And a file that is no
// longer a regular file (a FIFO swapped in, which would block the reader for ever) is refused
// here, not left to the caller's read of the path.
std::optional<std::pair<std::string, FileStamp>> read_once(const std::filesystem::path& file, std::size_t max_bytes,
                                                           const std::string& checked, const std::string& display) {
    auto got = regular_file::read(file, max_bytes, checked);
    using Status = regular_file::Read::Status;
    const auto changed = [&](const std::string& now) {
        return ScriptError(display + ": changed while the rules were read: " + now +
                               ", not the file checked inside the ruleset folder (not read; save again to reload)",
                           display);
    };
    switch (got.status) {
        case Status::read: return std::pair<std::string, FileStamp>{std::move(got.bytes), stamp_from(got.st)};
        case Status::elsewhere:
            if (got.leads_to.empty())
                throw changed("cannot tell where it leads (/proc/self/fd: " + std::error_code(got.error, std::generic_category()).message() + ")");
            throw changed("it now leads to " + LuaHost::display_path(got.leads_to));
        case Status::not_regular:
            // (A file no check found was never a regular file the rules checked: then it is just
            // not one. The session 33 review.)
            if (checked.empty())
                throw ScriptError(display + ": not a regular file (" + regular_file::kind_of(got.st) + ")", display);
            throw changed("it is no longer a regular file (" + std::string(regular_file::kind_of(got.st)) + ")");
        case Status::cannot_open:
        case Status::too_big:
        case Status::read_error: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

std::pair<std::string, std::optional<FileStamp>> read_source(const std::filesystem::path& file, std::size_t max_bytes,
                                                             const std::function<std::string(const std::filesystem::path&)>& read,
                                                             const std::string& checked, const std::string& display) {
    // In a worker that keeps its files (host/FileSnapshot.hpp), a file read before (by a load
    // before this one, or the read-ahead) is answered from memory; the first read of a file is
    // checked as any other, then kept.
    if (auto kept = file_snapshot::enabled() ? file_snapshot::find(file) : std::nullopt)
        return {std::move(*kept), stamp_of(file)};
    if (auto once = read_once(file, max_bytes, checked, display)) {
        file_snapshot::keep(file, once->first);
        return {std::move(once->first), once->second};
    }
    const auto stamp = stamp_of(file);
    std::string bytes = read(file);  // raises the usual errors (missing, unreadable, too big)
    // ... which it should have: read_once refused this file a moment ago, so a read of the path
    // that succeeds now read another file, swapped in meanwhile (read_once, `checked`).
    if (!checked.empty())
        throw ScriptError(display + ": changed while the rules were read (not read; save again to reload)", display);
    return {std::move(bytes), stamp};
}

void LoadCache::read(const std::filesystem::path& file, Source& fresh, std::size_t max_bytes,
                     const std::function<std::string(const std::filesystem::path&)>& read,
                     const std::string& checked, const std::string& display) {
    const std::int64_t started = now_ns();
    auto [bytes, stamp] = read_source(file, max_bytes, read, checked, display);
    fresh.bytes = std::move(bytes);
    fresh.stamp = stamp;
    fresh.trusted = fresh.stamp && settled(*fresh.stamp, started, settle_margin);
    ++counts_.reads;
}

std::shared_ptr<const yaml::Document> LoadCache::data(const std::string& file,
                                                      const std::string& display, lua_State* charge_to,
                                                      const std::optional<FileStamp>& stamp, const std::string& checked) {
    DataEntry& entry = data_[file];
    if (entry.document && entry.display == display && unchanged(entry.source, file, stamp)) {
        entry.used_in = load_;
        return entry.document;
    }
    Source fresh;
    read(file, fresh, yaml::kMaxFileBytes, [&](const std::filesystem::path& f) { return yaml::read_data_file(f, display); },
         checked, display);
    if (!entry.document || entry.source.bytes != fresh.bytes || entry.display != display) {
        entry.document.reset();  // a file that no longer parses leaves no stale document behind
        entry.document = yaml::parse(fresh.bytes, display, charge_to);
        entry.display = display;
        ++counts_.parses;
    }
    entry.source = std::move(fresh);
    entry.used_in = load_;
    return entry.document;
}

YAML::Node LoadCache::manifest(const std::filesystem::path& file, const std::string& display,
                               const std::function<YAML::Node(const std::string&)>& parse,
                               const std::optional<FileStamp>& stamp, const std::string& checked) {
    ManifestEntry& entry = manifests_[file];
    if (entry.parsed && entry.display == display && unchanged(entry.source, file.native(), stamp)) {
        entry.used_in = load_;
        return entry.root;
    }
    Source fresh;  // a manifest is capped like data
    read(file, fresh, yaml::kMaxFileBytes, [&](const std::filesystem::path& f) { return yaml::read_data_file(f, display); },
         checked, display);
    if (!entry.parsed || entry.source.bytes != fresh.bytes || entry.display != display) {
        entry.parsed = false;  // stays so if parse raises
        entry.fields.reset();
        entry.root = parse(fresh.bytes);
        entry.parsed = true;
        entry.display = display;
        ++counts_.parses;
    }
    entry.source = std::move(fresh);
    entry.used_in = load_;
    return entry.root;
}

std::shared_ptr<const void>& LoadCache::manifest_fields(const std::filesystem::path& file) {
    return manifests_[file].fields;
}

std::shared_ptr<const yaml::Document> LoadCache::text(const std::string& text, const std::string& display) {
    TextEntry& entry = texts_[display];
    if (!entry.document || entry.text != text) {
        entry.document.reset();
        entry.document = yaml::parse(text, display);
        entry.text = text;
        ++counts_.parses;
    }
    entry.used_in = load_;
    return entry.document;
}

void LoadCache::push_chunk(LuaHost& host, const std::string& file, const std::string& display,
                           int env_index, const std::optional<FileStamp>& stamp, const std::string& checked) {
    lua_State* L = host.state();
    if (env_index < 0) env_index = lua_gettop(L) + env_index + 1;
    const std::string chunkname = "@" + display;
    ChunkEntry& entry = chunks_[file];
    bool reuse = entry.ref != LUA_NOREF && entry.chunkname == chunkname && unchanged(entry.source, file, stamp);
    if (!reuse) {
        Source fresh;
        read(file, fresh, LuaHost::kMaxCodeBytes, [](const std::filesystem::path& f) {
            return LuaHost::read_file(f, LuaHost::kMaxCodeBytes, "a rules module");
        }, checked, display);
        reuse = entry.ref != LUA_NOREF && entry.source.bytes == fresh.bytes && entry.chunkname == chunkname;
        if (!reuse) {
            if (entry.ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, entry.ref);
            entry.ref = LUA_NOREF;
            host.load_chunk(fresh.bytes, chunkname, env_index);
            lua_pushvalue(L, -1);
            entry.ref = luaL_ref(L, LUA_REGISTRYINDEX);
            entry.chunkname = chunkname;
            ++counts_.compiles;
        }
        entry.source = std::move(fresh);
        if (!reuse) {
            entry.used_in = load_;
            return;
        }
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, entry.ref);
    lua_pushvalue(L, env_index);
    lua_setfenv(L, -2);
    entry.used_in = load_;
}

const std::vector<std::string>& LoadCache::folder_names(const std::string& folder, int fd) {
    ListingEntry& entry = listings_[folder];
    entry.used_in = load_;
    const std::int64_t started = now_ns();
    struct stat st {};
    const bool stamped = !file_snapshot::enabled() && ::fstat(fd, &st) == 0;
    if (stamped && entry.trusted && stamp_from(st) == entry.stamp) return entry.names;
    // The stamp is taken before the names: a change in between leaves a stamp that no longer
    // matches, so the folder is listed again next time.
    entry.trusted = false;
    entry.names = file_snapshot::list(folder);  // raises as it did (a folder that cannot be listed)
    ++counts_.listings;
    if (stamped) {
        entry.stamp = stamp_from(st);
        entry.trusted = settled(entry.stamp, started, settle_margin);
    }
    return entry.names;
}

// A load is numbered, and an entry keeps the number of the last load that used it: starting a
// load is one increment where it was a walk over every entry (cold map nodes, ~2% of a reload
// after a data edit), and end_load drops what the number says this load did not use.
void LoadCache::begin_load() { ++load_; }

void LoadCache::end_load(lua_State* L) {
    std::erase_if(data_, [this](const auto& item) { return item.second.used_in != load_; });
    std::erase_if(manifests_, [this](const auto& item) { return item.second.used_in != load_; });
    std::erase_if(texts_, [this](const auto& item) { return item.second.used_in != load_; });
    std::erase_if(listings_, [this](const auto& item) { return item.second.used_in != load_; });
    for (auto it = chunks_.begin(); it != chunks_.end();) {
        if (it->second.used_in == load_) {
            ++it;
            continue;
        }
        luaL_unref(L, LUA_REGISTRYINDEX, it->second.ref);
        it = chunks_.erase(it);
    }
}

}  // namespace umpire::ruleset
