#include "host/FileSnapshot.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

namespace umpire::file_snapshot {
namespace {

// The hosts of a worker are loaded on one thread (Monte Carlo's included: core/odds/MonteCarlo.cpp
// makes every host before it starts a thread), but the lock costs nothing next to a file read.
struct Kept {
    std::mutex mutex;
    std::map<std::string, std::string> files;
    std::map<std::string, std::vector<std::string>> folders;
};

Kept& kept() {
    static Kept k;
    return k;
}

std::atomic<bool> g_enabled{false};
std::atomic<int> g_recordings{0};

bool recording() { return g_enabled.load() && g_recordings.load() > 0; }

}  // namespace

void enable() { g_enabled = true; }
bool enabled() { return g_enabled.load(); }

Recording::Recording() { ++g_recordings; }
Recording::~Recording() { --g_recordings; }

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
    k.files.insert_or_assign(file.native(), bytes);
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
        k.folders.insert_or_assign(dir.native(), names);
    }
    return names;
}

}  // namespace umpire::file_snapshot
