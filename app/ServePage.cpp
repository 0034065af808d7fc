#include "app/ServePage.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include "app/OddsRunner.hpp"
#include "app/Replay.hpp"
#include "app/ScenarioDraw.hpp"
#include "bindings/GameLog.hpp"
#include "core/LinearRegex.hpp"
#include "core/bus/Journal.hpp"
#include "core/odds/Report.hpp"
#include "host/FileSnapshot.hpp"
#include "host/Isolation.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"

namespace umpire::serve {
namespace fs = std::filesystem;

namespace {

// The odds of the script, as `umpire odds --json` reports them (the same runner and report, so
// the page and the command line can never disagree on a figure; docs/odds-report.md).
nlohmann::json odds_of(const PageRequest& request) {
    odds_runner::Request odds;
    odds.host = request.host;
    odds.rulesets = request.rulesets;
    odds.script = request.script;
    odds.odds = request.odds;
    // What the run holds outside its hosts, and the report, as `umpire odds` charges them.
    odds::MemoryBudget memory(request.host.memory_limit);
    odds.odds.monte_carlo.bounds.memory = &memory;
    std::string title = LuaHost::display_path(request.script), plain_label;
    for (const auto& r : request.rulesets) plain_label += (plain_label.empty() ? "" : ", ") + r;
    std::vector<odds::ReportSide> sides;
    sides.push_back({request.compare.empty() ? plain_label : "original", odds_runner::run_script(odds)});
    if (!request.compare.empty()) {
        odds.rulesets = {request.compare};
        const fs::path other = fs::path(request.compare).lexically_normal();
        sides.push_back({(other.filename().empty() ? other.parent_path() : other).filename().string(),
                         odds_runner::run_script(odds)});
        title += " vs " + request.compare;
    }
    odds::MemoryHold report_memory(&memory);
    std::vector<const odds::Result*> kept;
    for (const auto& side : sides) kept.push_back(&side.result);
    odds_runner::charge_report(report_memory, kept, true, 0, odds_runner::script_label(odds));
    return odds::to_json(odds::build_report(title, std::move(sides)));
}

// Every section the journal cites (entries, and the steps of modifier pipelines), in order.
nlohmann::json citations_of(const nlohmann::json& journal) {
    nlohmann::json out = nlohmann::json::array();
    std::set<std::string> seen;
    auto add = [&](const nlohmann::json& c) {
        if (c.is_string() && !c.get<std::string>().empty() && seen.insert(c.get<std::string>()).second) out.push_back(c);
    };
    for (const auto& e : journal["entries"]) {
        add(e["citation"]);
        if (e["data"].contains("steps"))
            for (const auto& step : e["data"]["steps"])
                if (step.contains("citation")) add(step["citation"]);
    }
    return out;
}

// One game of the script under `rulesets` with the host's seed, as `umpire run --seed N` plays and
// records it (replay::play), so the journal the page offers replays with `umpire replay`.
nlohmann::json game_of(const PageRequest& request, const std::vector<std::string>& rulesets) {
    std::vector<std::string> output;
    HostOptions options = request.host;
    options.print = [&output](const std::string& line) { output.push_back(line); };
    LuaHost host(options);
    nlohmann::json inputs = {{"rulesets", rulesets},
                             {"script", request.script.string()},
                             {"args", request.set},
                             {"code", LuaHost::read_file(request.script)},
                             {"state", nullptr}};
    const nlohmann::json returned = replay::play(host, request.host.seed, rulesets, std::move(inputs));
    const auto& journal = host.extension<GameLog>().journal;
    nlohmann::json game = {{"returned", returned},
                           {"output", output},
                           {"journal", journal.to_json()},
                           {"journal_hash", journal.hash_hex()}};
    // Each entry's line as `umpire run --explain` prints it, so the page words the log the same.
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& entry : journal.entries()) lines.push_back(bus::explain_line(entry));
    game["lines"] = std::move(lines);
    game["citations"] = citations_of(game["journal"]);
    return game;
}

// The scenario file the map draws: the page's --scenario (a file or a name), else the one the
// script names; none when neither names one.
std::optional<fs::path> map_scenario(const PageRequest& request, const std::vector<fs::path>& search_path) {
    std::string wanted = request.scenario;
    if (wanted.empty()) {
        const auto named = scenario_named_in(LuaHost::read_file(request.script));
        if (!named) return std::nullopt;
        wanted = *named;
    }
    return find_scenario(wanted, request.rulesets, search_path);
}

// The scenario's picture, with the overlays that apply to its kind: a hex map shows its Fire
// Lanes, covered arcs, facings and moves (and the rulesets' own notes, through a host with them
// loaded, as `umpire draw --ruleset` does); a tabletop always shows its arcs and templates.
nlohmann::json map_of(const PageRequest& request) {
    LuaHost rules(request.host);
    const auto file = map_scenario(request, ruleset::search_path(rules));
    if (!file) return nullptr;
    if (!request.rulesets.empty()) ruleset::load(rules, request.rulesets);
    const bool table = is_tabletop_scenario(*file);
    DrawOptions options;
    if (!table) options.fire_lane = options.covered_arc = options.facing = options.path = true;
    return {{"scenario", LuaHost::display_path(*file)},
            {"kind", table ? "table" : "hex"},
            {"svg", draw_scenario(*file, options, &rules)}};
}

// In a page's worker, which keeps what it reads (host/FileSnapshot.hpp): reads everything the page
// will read, so that it can close its files before any rule code runs (docs/sandbox.md, "No file
// opened after loading"): the rulesets and --compare's (manifests, data, modules, scenarios), the
// script, the scenario the map draws, and the hash of each ruleset folder a game's journal is
// stamped with (replay::ruleset_hash keeps it in such a worker). Errors are left to the page, which
// meets them where it met them before and reports them the same way. Does nothing elsewhere.
void read_ahead(const PageRequest& request) {
    if (!file_snapshot::enabled()) return;
    const auto search_path = ruleset::search_path(request.host.search_path);
    std::vector<std::string> names = request.rulesets;
    if (!request.compare.empty()) names.push_back(request.compare);
    ruleset::read_ahead(names, search_path);
    const file_snapshot::Recording recording;
    const auto quietly = [](const std::function<void()>& read) {
        try {
            read();
        } catch (const std::exception&) {
            // The page meets the same error at the same place and reports it.
        }
    };
    quietly([&] { LuaHost::read_file(request.script, LuaHost::kMaxCodeBytes, "a script"); });
    for (const auto& name : names) quietly([&] { replay::ruleset_hash(ruleset::find(name, search_path)); });
    quietly([&] {
        if (const auto file = map_scenario(request, search_path)) LuaHost::read_file(*file);
    });
}

}  // namespace

nlohmann::json compute_page(const PageRequest& request) {
    // In a worker (`serve` isolated): read what the page needs, then open no file while its rule
    // code runs. A fresh worker per page, so each page reads the files as they are now.
    read_ahead(request);
    isolation::close_files();
    nlohmann::json page = {{"script", LuaHost::display_path(request.script)},
                           {"rulesets", request.rulesets},
                           {"compare", request.compare},
                           {"seed", request.host.seed}};
    page["odds"] = odds_of(request);
    page["game"] = game_of(request, request.rulesets);
    // Under --compare the house rule's game too, with the same seed, so the two logs can be read
    // side by side (the same dice wherever the rules ask for the same rolls).
    page["compare_game"] = request.compare.empty() ? nlohmann::json(nullptr) : game_of(request, {request.compare});
    page["map"] = map_of(request);
    return page;
}

std::optional<std::string> scenario_named_in(const std::string& script_text) {
    static const std::regex call(R"(umpire\.data\.scenario\s*\(?\s*["']([A-Za-z0-9_-]+)["'])", kLinearRegex);
    std::smatch m;
    if (std::regex_search(script_text, m, call)) return m[1].str();
    return std::nullopt;
}

nlohmann::json citing_lines(const std::string& section, const std::vector<fs::path>& ruleset_dirs) {
    nlohmann::json out = nlohmann::json::array();
    const std::string double_quoted = "\"" + section + "\"", single_quoted = "'" + section + "'";
    for (const auto& dir : ruleset_dirs) {
        if (!fs::is_directory(dir / "rules")) continue;
        // Only files inside the ruleset folder, symlinks followed, read through the loader's checked
        // reader (one descriptor, which must lead where the check found the file): a module's
        // symlink out of the folder (or `rules/` itself one) showed an outside file's lines here.
        std::error_code ec;
        const std::string root = fs::canonical(dir, ec).native();
        if (ec) continue;
        std::vector<fs::path> files;
        for (const auto& e : fs::recursive_directory_iterator(dir / "rules", ec))
            if (e.is_regular_file() && e.path().extension() == ".lua") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            const std::string real = fs::canonical(file, ec).native();
            if (ec || !ruleset::inside_real(root, real)) continue;
            std::string text;
            try {
                text = ruleset::read_spec_file(file, real, LuaHost::display_path(file));
            } catch (const std::exception&) {
                continue;  // swapped for a symlink since, too big: not shown (the load reports it)
            }
            std::istringstream in(text);
            std::string line;
            for (int n = 1; std::getline(in, line); ++n) {
                if (line.find(double_quoted) == std::string::npos && line.find(single_quoted) == std::string::npos)
                    continue;
                const auto first = line.find_first_not_of(" \t");
                out.push_back({{"file", LuaHost::display_path(file)},
                               {"line", n},
                               {"text", first == std::string::npos ? "" : line.substr(first)}});
            }
        }
    }
    return out;
}

std::string section_text(const std::string& rules_text, const std::string& section) {
    // "A9.22" and "9.22" both name the text's "9.22 ..." line (a chapter's text numbers its
    // sections without the chapter letter).
    const auto digits = section.find_first_of("0123456789");
    if (digits == std::string::npos) return "";
    const std::string number = section.substr(digits);
    static const std::regex numbered(R"(^\d+(\.\d+)+\s)", kLinearRegex);
    std::string out, line;
    bool inside = false;
    std::size_t pos = 0;
    while (pos <= rules_text.size()) {
        const auto end = std::min(rules_text.find('\n', pos), rules_text.size());
        line = rules_text.substr(pos, end - pos);
        pos = end + 1;
        if (!inside) {
            inside = line.rfind(number + " ", 0) == 0;
        } else if (std::regex_search(line, numbered)) {
            break;
        }
        if (inside) out += line + "\n";
        if (end == rules_text.size()) break;
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
}

}  // namespace umpire::serve
