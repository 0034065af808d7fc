#include "host/FileSnapshot.hpp"

#include <dirent.h>

#include <cerrno>
#include <cstring>

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
struct Carried;

struct Kept {
    std::mutex mutex;
    std::map<std::string, std::string> files;
    std::map<std::string, std::vector<std::string>> folders;
    std::size_t bytes = 0;  // of files and folders: the texts, the paths, the names
    // The live games that carry them (each host whose load recorded, until it ends): every byte
    // kept later is charged to each, so a host made earlier carries the files kept after its load.
    std::vector<Carried*> carriers;
    std::size_t budget = SIZE_MAX;  // limit(): the most kept in all, with or without a host
};

Kept& kept() {
    static Kept k;
    return k;
}

std::atomic<bool> g_enabled{false};
std::atomic<int> g_recordings{0};

bool recording() { return g_enabled.load() && g_recordings.load() > 0; }

// What a game carries of the kept bytes (a host extension: it lives and dies with the host, whose
// cap dies with it, so nothing is given back; it leaves the carriers then).
struct Carried {
    explicit Carried(Game& carrier) : game(carrier) {}
    ~Carried() {
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        std::erase(k.carriers, this);
    }
    Carried(const Carried&) = delete;
    Carried& operator=(const Carried&) = delete;
    Game& game;
    std::size_t bytes = 0;
};

std::string mib(std::size_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20); }

// Charges `added` more kept bytes (with k.mutex held) to every live game that carries them, this
// thread's among them; false if the budget or any cap has no room, and then nothing is charged.
// The carriers are charged from the loading thread: a worker's hosts load one after another,
// Monte Carlo's before its threads start (core/odds/MonteCarlo.cpp), so none runs meanwhile.
bool charge(Kept& k, std::size_t added) {
    if (added == 0) return true;
    if (k.bytes + added > k.budget) return false;
    for (std::size_t i = 0; i < k.carriers.size(); ++i) {
        if (!k.carriers[i]->game.charge_memory(added)) {
            while (i-- > 0) k.carriers[i]->game.release_memory(added);
            return false;
        }
    }
    for (Carried* carrier : k.carriers) carrier->bytes += added;
    return true;
}

std::string refusal(const std::string& what, std::size_t added, const Kept& k) {
    return what + "memory limit: keeping it (~" + mib(added) + " MiB) with the ruleset files kept in memory for the " +
           "loads after this worker's files close (" + std::to_string(k.files.size()) + " files, ~" + mib(k.bytes) +
           " MiB) would pass the Lua memory cap (they count against it; a ruleset of many large files?)";
}

}  // namespace

void enable() { g_enabled = true; }

void limit(std::size_t most) {
    Kept& k = kept();
    std::lock_guard lock(k.mutex);
    k.budget = most;
}
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
        if (std::find(k.carriers.begin(), k.carriers.end(), &carried) == k.carriers.end()) k.carriers.push_back(&carried);
    }
    ++g_recordings;
}

Recording::~Recording() {
    --g_recordings;
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
    if (after > before && !charge(k, after - before)) {
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
    // readdir's names as they are: directory_iterator made a path of each entry and split it for
    // its file name (most of a reload's listing of the scenarios folder). A folder that cannot be
    // opened is left to directory_iterator, which raises its usual error.
    // (A read that fails half-way goes to directory_iterator too.)
    std::vector<std::string> names;
    bool listed = false;
    if (DIR* d = ::opendir(dir.c_str())) {
        errno = 0;
        while (const dirent* e = ::readdir(d)) {
            if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.emplace_back(e->d_name);
            errno = 0;
        }
        listed = errno == 0;
        ::closedir(d);
    }
    if (!listed) {
        names.clear();
        for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().native());
    }
    std::sort(names.begin(), names.end());
    if (recording()) {
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        std::size_t added = dir.native().size();
        for (const auto& name : names) added += name.size();
        if (!k.folders.count(dir.native())) {
            if (!charge(k, added)) throw ScriptError(refusal(LuaHost::display_path(dir) + ": the list of its files: ", added, k));
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
