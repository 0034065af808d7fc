#include "ruleset/Load.hpp"

#include "host/DataGuard.hpp"
#include "host/FileSnapshot.hpp"
#include "host/LuaHost.hpp"
#include "ruleset/LoadCache.hpp"
#include "ruleset/Ruleset.hpp"
#include "ruleset/Scenarios.hpp"
#include "ruleset/YamlLoader.hpp"
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

std::vector<fs::path> search_path(std::vector<fs::path> given) {
    for (auto& dir : env_path()) given.push_back(std::move(dir));
    if (!shared().rulesets.empty()) given.push_back(shared().rulesets);
    return given;
}

std::vector<fs::path> search_path(const LuaHost& host) { return search_path(host.options().search_path); }

void read_ahead(const std::vector<std::string>& names_or_dirs, const std::vector<fs::path>& search_path, bool specs) {
    if (!file_snapshot::enabled()) return;
    const file_snapshot::Recording recording;
    // Display names from the paths the manifest check resolved (display_path resolved each
    // file's whole path again, a system call per component).
    std::error_code ec;
    const std::string cwd = fs::current_path(ec).native();
    for (const auto& name : names_or_dirs) {
        try {
            const auto layers = chain(find(name, search_path), search_path);  // reads the manifests
            // Each read as a load reads it (read_source: checked to lead where the manifest's
            // check found it), since what is kept here is what every later load is answered.
            for (const auto& m : layers) {
                for (std::size_t i = 0; i < m.data.size(); ++i) {
                    const std::string display = display_of(m.data_resolved[i].real, cwd);
                    read_source(m.data[i], yaml::kMaxFileBytes, [&](const fs::path& f) { return yaml::read_data_file(f, display); },
                                m.data_resolved[i].real, display);
                }
                for (std::size_t i = 0; i < m.modules.size(); ++i)
                    read_source(m.modules[i], LuaHost::kMaxCodeBytes, [](const fs::path& f) {
                        return LuaHost::read_file(f, LuaHost::kMaxCodeBytes, "a rules module");
                    }, m.modules_resolved[i].real, display_of(m.modules_resolved[i].real, cwd));
                const auto [folder, files] = scenario_folder(m.dir, m.real_dir, cwd);
                for (const auto& file : files) {
                    if (!file.inside) continue;
                    const std::string display = folder + "/" + std::string(file.name());
                    read_source(file.path, yaml::kMaxFileBytes, [&](const fs::path& f) { return yaml::read_data_file(f, display); },
                                file.real, display);
                }
            }
            if (specs) {  // the named ruleset's own specs: the last layer of its chain
                const Manifest& m = layers.back();
                for (std::size_t i = 0; i < m.tests.size(); ++i)
                    read_spec_file(m.tests[i], m.tests_real[i], display_of(m.tests_real[i], cwd));
            }
        } catch (const std::exception&) {
            // The load meets the same error at the same file and reports it.
        }
    }
}

std::string read_spec_file(const fs::path& file, const std::string& checked, const std::string& display) {
    return read_source(file, LuaHost::kMaxCodeBytes, [](const fs::path& f) {
        return LuaHost::read_file(f, LuaHost::kMaxCodeBytes, "a spec file");
    }, checked, display).first;
}

void load(LuaHost& host, const std::vector<std::string>& names_or_dirs) {
    // What this load reads is kept, in a worker that closes its files after loading, for the
    // loads of the same rulesets that follow (host/FileSnapshot.hpp), against this host's cap.
    const file_snapshot::Recording recording(&host);
    std::vector<fs::path> dirs;
    for (const auto& name : names_or_dirs) dirs.push_back(find(name, search_path(host)));
    auto& cache = host.extension<LoadCache>();
    // A load that took the committed data tables (ruleset/Ruleset.cpp, ReusableData) ran its rule
    // code on them: whatever it wrote is put back before the old generation runs again. If the
    // check found them changed, the load is made again with fresh tables only, so that a change
    // is blamed on this load only if its own rule code makes it again. What the rule code printed
    // in a load that is made again is dropped, so that each line is printed once: the output of
    // a load that may be retried is held until it is known not to be.
    const auto attempt = [&](bool reuse) {
        bool retry_fresh = false;
        cache.begin_load();
        if (reuse) host.hold_output();
        try {
            host.load_generation([&](int env_index) { load_into(host, env_index, dirs, reuse ? &retry_fresh : nullptr); });
        } catch (const std::exception&) {
            DataGuard::restore_quietly(host);
            if (reuse) host.release_output(!retry_fresh);
            if (!retry_fresh) throw;
            return false;
        }
        if (reuse) host.release_output(true);
        return true;
    };
    if (!attempt(true)) attempt(false);
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
