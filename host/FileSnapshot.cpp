#include "host/FileSnapshot.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "host/LuaHost.hpp"

namespace umpire::file_snapshot {
namespace {

// The hosts of a worker are loaded on one thread (Monte Carlo's included: core/odds/MonteCarlo.cpp
// makes every host before it starts a thread), but the lock costs nothing next to a file read.
struct Kept {
    std::mutex mutex;
    std::map<std::string, std::string> files;
    std::map<std::string, std::vector<std::string>> folders;
    std::size_t bytes = 0;  // of files and folders: the texts, the paths, the names
};

Kept& kept() {
    static Kept k;
    return k;
}

std::atomic<bool> g_enabled{false};
std::atomic<int> g_recordings{0};
// The game this thread's Recording charges (the innermost one with a game).
thread_local Game* t_charged_to = nullptr;

bool recording() { return g_enabled.load() && g_recordings.load() > 0; }

// What a game carries of the kept bytes (a host extension: it lives and dies with the host, whose
// cap dies with it, so nothing is given back).
struct Carried {
    explicit Carried(Game&) {}
    std::size_t bytes = 0;
};

std::string mib(std::size_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20); }

// Charges `added` more kept bytes to this thread's game, if any; false if its cap has no room.
bool charge(std::size_t added) {
    if (!t_charged_to || added == 0) return true;
    if (!t_charged_to->charge_memory(added)) return false;
    t_charged_to->extension<Carried>().bytes += added;
    return true;
}

std::string refusal(const std::string& what, std::size_t added, const Kept& k) {
    return what + "memory limit: keeping it (~" + mib(added) + " MiB) with the ruleset files kept in memory for the " +
           "loads after this worker's files close (" + std::to_string(k.files.size()) + " files, ~" + mib(k.bytes) +
           " MiB) would pass the Lua memory cap (they count against it; a ruleset of many large files?)";
}

}  // namespace

void enable() { g_enabled = true; }
bool enabled() { return g_enabled.load(); }

Recording::Recording(Game* charged_to) {
    if (charged_to && enabled()) {
        // A host that loads from what was kept carries all of it, as the one that read it does.
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        auto& carried = charged_to->extension<Carried>();
        if (k.bytes > carried.bytes) {
            if (!charged_to->charge_memory(k.bytes - carried.bytes))
                throw ScriptError("memory limit: the ruleset files kept in memory for the loads after this worker's "
                                  "files close (" + std::to_string(k.files.size()) + " files, ~" + mib(k.bytes) +
                                  " MiB) would pass the Lua memory cap of this host (they count against it)");
            carried.bytes = k.bytes;
        }
    }
    previous_ = t_charged_to;
    if (charged_to) t_charged_to = charged_to;
    ++g_recordings;
}

Recording::~Recording() {
    --g_recordings;
    t_charged_to = previous_;
}

std::optional<std::string> find(const std::filesystem::path& file) {
    if (!enabled()) return std::nullopt;
    Kept& k = kept();
    std::lock_guard lock(k.mutex);
    const auto it = k.files.find(file.native());
    if (it == k.files.end()) return std::nullopt;
    return it->second;
}

void keep(const std::filesystem::path& file, const std::string& bytes) {
    if (!recording()) return;
    Kept& k = kept();
    std::lock_guard lock(k.mutex);
    const auto it = k.files.find(file.native());
    const std::size_t before = it == k.files.end() ? 0 : file.native().size() + it->second.size();
    const std::size_t after = file.native().size() + bytes.size();
    if (after > before && !charge(after - before)) {
        const std::string shown = LuaHost::display_path(file);
        throw ScriptError(refusal(shown + ":1:1: ", after - before, k), shown, 1);
    }
    k.files.insert_or_assign(file.native(), bytes);
    k.bytes = k.bytes - before + after;
}

std::vector<std::string> list(const std::filesystem::path& dir) {
    if (enabled()) {
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        if (const auto it = k.folders.find(dir.native()); it != k.folders.end()) return it->second;
    }
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().native());
    std::sort(names.begin(), names.end());
    if (recording()) {
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        std::size_t added = dir.native().size();
        for (const auto& name : names) added += name.size();
        if (!k.folders.count(dir.native())) {
            if (!charge(added)) throw ScriptError(refusal(LuaHost::display_path(dir) + ": the list of its files: ", added, k));
            k.folders.emplace(dir.native(), names);
            k.bytes += added;
        }
    }
    return names;
}

std::size_t bytes() {
    Kept& k = kept();
    std::lock_guard lock(k.mutex);
    return k.bytes;
}

std::size_t files() {
    Kept& k = kept();
    std::lock_guard lock(k.mutex);
    return k.files.size();
}

}  // namespace umpire::file_snapshot
