#include "app/Replay.hpp"

#include <algorithm>
#include <vector>

#include "bindings/GameLog.hpp"
#include "host/LuaHost.hpp"
#include "core/bus/Hash.hpp"
#include "ruleset/Load.hpp"

namespace umpire::replay {
namespace fs = std::filesystem;

std::string ruleset_hash(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), dir));
    std::sort(files.begin(), files.end());
    std::uint64_t h = bus::fnv1a_64("");
    for (const auto& file : files) {
        h = bus::fnv1a_64(file.generic_string(), h);
        h = bus::fnv1a_64(std::string(1, '\0'), h);
        h = bus::fnv1a_64(LuaHost::read_file(dir / file), h);
    }
    return bus::hash_hex(h);
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

void play(LuaHost& host, std::uint64_t seed, const std::vector<std::string>& rulesets, nlohmann::json inputs) {
    if (!rulesets.empty()) ruleset::load(host, rulesets);
    if (inputs.contains("state") && inputs["state"].is_string()) host.set_state_json(inputs["state"].get<std::string>());
    inputs["state"] = host.state_json();
    const std::string code = inputs.value("code", std::string());
    const std::string script = inputs.value("script", std::string());
    stamp_header(host, seed, inputs);
    host.run_string(code, script.empty() ? "=(command line)" : "@" + LuaHost::display_path(script));
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
