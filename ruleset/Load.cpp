#include "ruleset/Load.hpp"

#include "host/LuaHost.hpp"
#include "ruleset/LoadCache.hpp"
#include "ruleset/Ruleset.hpp"
#include "ruleset/Shared.hpp"

namespace umpire::ruleset {
namespace fs = std::filesystem;

namespace {

// What the committed generation was loaded from, kept with the game so reload() can repeat it.
struct Loaded {
    explicit Loaded(Game&) {}
    std::vector<std::string> names;
    std::vector<fs::path> dirs;
};

}  // namespace

std::vector<fs::path> search_path(const LuaHost& host) {
    auto path = host.options().search_path;
    for (auto& dir : env_path()) path.push_back(std::move(dir));
    if (!shared().rulesets.empty()) path.push_back(shared().rulesets);
    return path;
}

void load(LuaHost& host, const std::vector<std::string>& names_or_dirs) {
    std::vector<fs::path> dirs;
    for (const auto& name : names_or_dirs) dirs.push_back(find(name, search_path(host)));
    auto& cache = host.extension<LoadCache>();
    cache.begin_load();
    host.load_generation([&](int env_index) { load_into(host, env_index, dirs); });
    cache.end_load(host.state());  // only after a committed load: a failed one drops nothing
    auto& loaded = host.extension<Loaded>();
    loaded.names = names_or_dirs;
    loaded.dirs = std::move(dirs);
}

void reload(LuaHost& host) {
    const auto names = host.extension<Loaded>().names;  // a copy: load() replaces it
    load(host, names);
}

const std::vector<fs::path>& loaded_dirs(LuaHost& host) { return host.extension<Loaded>().dirs; }

}  // namespace umpire::ruleset
