#include "cli/Common.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <climits>
#include <functional>
#include <iostream>
#include <new>
#include <thread>

#include "app/Sweep.hpp"
#include "core/Error.hpp"
#include "ruleset/Shared.hpp"

namespace umpire::cli {
namespace fs = std::filesystem;

namespace {
// "" if `text` is a number of seconds from 0 (no limit) to a year, else what is wrong with it.
// NaN and negative numbers read as "no limit" before, and an infinity or 1e308 overflowed the
// deadline's clock, so the script was stopped at once with "ran longer than infs".
std::string timeout_problem(const std::string& text) {
    constexpr double kYear = 365.0 * 24 * 3600;
    char* end = nullptr;
    const double seconds = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(seconds >= 0 && seconds <= kYear))
        return "--timeout " + text + ": expected seconds from 0 (no limit) to 31536000 (a year)";
    return "";
}

// "" if `text` is a whole number from 0 to 2^64 - 1 in digits, else what is wrong with it: -1 and
// 99999999999999999999999 were read as 2^64 - 1, so three different seeds gave one game.
std::string seed_problem(const std::string& text) {
    errno = 0;
    char* end = nullptr;
    (void)std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || *end != '\0' || errno == ERANGE)
        return "--seed " + text + ": expected a whole number from 0 to 18446744073709551615";
    return "";
}
}  // namespace

void add_common(CLI::App* app, Common& c) {
    app->add_option("--ruleset", c.rulesets,
                    "Ruleset to load (a name on the search path, or a folder holding ruleset.yaml), "
                    "or a folder of rulesets to add to the search path. Repeatable.")
        // One value per --ruleset, so `--ruleset asl SCRIPT` does not eat the script.
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app->add_option("--seed", c.seed, "Seed of the game's dice (default 1: runs are reproducible)")
        ->check(CLI::Validator([](std::string& text) { return seed_problem(text); }, "SEED"));
    app->add_flag("--explain", c.explain, "Explain every roll and modifier with its rule citation");
    app->add_flag("--json", c.json, "One JSON document on stdout instead of text");
    app->add_flag("--trusted", c.trusted,
                  "Keep the JIT on for rule code (fast; a runaway loop ends the process)");
    app->add_flag("--traceback", c.traceback, "Show a Lua traceback with script errors");
    app->add_option_function<double>(
           "--timeout", [&c](double seconds) { c.timeout = seconds; c.timeout_given = true; },
           "Seconds a script may run before it is stopped (0: no limit; default 10). Given to "
           "`odds`, it also bounds the whole run, exact enumeration and Monte Carlo alike")
        ->check(CLI::Validator([](std::string& text) { return timeout_problem(text); }, "SECONDS"));
    app->add_flag("--no-isolate", c.no_isolate,
                  "Run the rules in this process instead of a worker process with kernel limits "
                  "(--memory, --cpu, no files written, reads only beneath the rulesets' folders where the kernel "
                  "has Landlock, no programs, no network; docs/sandbox.md). "
                  "--trusted implies it");
    app->add_flag("--jit", c.jit,
                  "Keep the JIT on for sandboxed rule code (faster loops; a compiled runaway loop is "
                  "then stopped by killing the worker at --timeout, naming the loop's line)");
    app->add_option("--memory", c.memory_mib,
                    "MiB of address space for the rules' worker process (default 2048; 0: no limit). An "
                    "eighth of it is the rules' memory cap (Lua heap and the C++ memory charged to it; "
                    "256 MiB by default and with 0), with or without the worker");
    app->add_option("--cpu", c.cpu_seconds,
                    "Seconds of CPU time (all threads) for the rules' worker process, per run under watch "
                    "(default 600; 0: no limit)");
}

// "" if `text` is name=value with a Lua identifier as name, else what is wrong with it (without
// the text itself, which each caller names its own way: `--set x` on the command line,
// `inputs.args` of a journal).
std::string set_problem(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos) return "expected name=value (e.g. --set range=6)";
    const std::string name = text.substr(0, eq);
    const bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                            std::all_of(name.begin(), name.end(), [](char ch) {
                                return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                            });
    if (!identifier) return "the name '" + name + "' is not a Lua identifier (letters, digits, _)";
    return "";
}

void add_set_option(CLI::App* app, Common& c) {
    app->add_option("--set", c.set,
                    "Give the script a parameter: umpire.args.NAME (read-only). Repeatable. VALUE reads\n"
                    "as true/false, a number, or else a string. E.g. --set range=6 --set hero=true")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->check(CLI::Validator([](std::string& text) {
            const std::string problem = set_problem(text);
            return problem.empty() ? problem : "--set " + text + ": " + problem;
        }, "NAME=VALUE"));
}

std::map<std::string, std::variant<bool, double, std::string>> parse_set(const std::vector<std::string>& set) {
    std::map<std::string, std::variant<bool, double, std::string>> args;
    for (const auto& text : set) {
        if (const std::string problem = set_problem(text); !problem.empty()) throw Error("--set " + text + ": " + problem);
        const auto eq = text.find('=');
        const std::string name = text.substr(0, eq), value = text.substr(eq + 1);
        if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') && value.back() == value.front())
            args[name] = value.substr(1, value.size() - 2);  // quoted: text, even '5' or 'true'
        else args[name] = sweep::read_value(value);
    }
    return args;
}

RulesetArgs split_rulesets(const Common& c) {
    RulesetArgs out;
    for (const auto& r : c.rulesets) {
        const fs::path p(r);
        std::error_code ec;  // a name too long for a path is a name (then "not found"), not an exception
        if (fs::is_directory(p, ec) && !fs::is_regular_file(p / "ruleset.yaml", ec)) out.search.push_back(p);
        else out.load.push_back(r);
    }
    return out;
}

namespace {

// --memory in bytes. Saturates rather than wraps for an absurd --memory (the address space is then
// no bound).
std::size_t address_space_bytes(const Common& c) {
    return std::min<std::size_t>(c.memory_mib, SIZE_MAX >> 20) << 20;
}

}  // namespace

std::size_t memory_cap(const Common& c) {
    if (c.memory_mib == 0) return HostOptions{}.memory_limit;
    return std::max<std::size_t>(address_space_bytes(c) / kAddressSpacePerCap, 1);
}

ThreadedCap monte_carlo_cap(const Common& c, unsigned asked) {
    ThreadedCap out;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    out.cap = memory_cap(c);
    if (c.memory_mib == 0) {
        out.threads = asked ? asked : cores;
        return out;
    }
    // The caps of all threads together take at most half the address space, and none falls under
    // kMinThreadCap (or under the cap itself, for a --memory whose eighth is smaller still).
    const std::size_t half = address_space_bytes(c) / 2;
    const std::size_t floor = std::min(out.cap, kMinThreadCap);
    const auto fitting = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(half / floor, 1), UINT_MAX));
    if (asked > fitting)
        throw Error("--threads " + std::to_string(asked) + " does not fit in --memory " + std::to_string(c.memory_mib) +
                    ": the Lua memory caps of the Monte Carlo threads' hosts share half of it, which would leave each ~" +
                    std::to_string((half / asked) >> 10) + " KiB, under the " + std::to_string(floor >> 10) +
                    " KiB a host is given at least (at most " + std::to_string(fitting) +
                    " threads here: use fewer, or more --memory)");
    out.threads = asked ? asked : std::min(cores, fitting);
    out.cap = std::min(out.cap, std::max<std::size_t>(half / out.threads, 1));
    return out;
}

HostOptions host_options(const Common& c) {
    HostOptions o;
    o.memory_limit = memory_cap(c);
    o.trusted = c.trusted;
    o.sandbox_jit = c.jit;
    o.seed = c.seed;
    o.traceback = c.traceback;
    o.time_limit = c.timeout;
    o.search_path = split_rulesets(c).search;
    o.args = parse_set(c.set);
    return o;
}

int guarded(const Common& common, const std::function<int()>& body) {
    try {
        return body();
    } catch (const ScriptError& e) {
        std::cerr << "umpire: " << e.what() << "\n";
        if (common.traceback && !e.traceback.empty()) std::cerr << e.traceback << "\n";
        return kScriptError;
    } catch (const std::bad_alloc&) {
        if (isolation::in_worker())
            std::cerr << "umpire: the rules ran out of address space (limit " << common.memory_mib << " MiB, --memory)\n";
        else
            std::cerr << "umpire: out of memory (std::bad_alloc)\n";
        return kScriptError;
    } catch (const std::exception& e) {
        std::cerr << "umpire: " << e.what() << "\n";
        return kScriptError;
    }
}

bool isolates(const Common& c) { return !c.no_isolate && !c.trusted; }

namespace {
// Everything a worker may read: the search path (--ruleset folders, UMPIRE_PATH, the shipped
// rulesets), the shipped schemas (`check`), each ruleset or input named on the command line. A
// ruleset named by its folder may extend a ruleset beside it (`extends` looks there first), so the
// folders beside it that hold a ruleset.yaml are readable too; nothing else of its parent folder.
// Only names are looked at here, never file contents: the parent does not parse untrusted input.
std::vector<fs::path> readable_paths(const Common& c, const std::vector<std::string>& inputs) {
    const RulesetArgs args = split_rulesets(c);
    std::vector<fs::path> out = args.search;
    for (auto& dir : ruleset::env_path()) out.push_back(std::move(dir));
    for (const auto& dir : {ruleset::shared().rulesets, ruleset::shared().schemas})
        if (!dir.empty()) out.push_back(dir);
    std::error_code ec;
    std::function<void(const fs::path&)> add_named = [&](const fs::path& path) {
        if (!fs::exists(path, ec)) return;  // a ruleset name: found on the search path
        out.push_back(path);
        // A scenario inside a ruleset (`draw rulesets/x/scenarios/s.yaml`) brings its ruleset.
        const fs::path home = fs::absolute(path, ec).parent_path().parent_path();
        if (fs::is_regular_file(path, ec) && fs::is_regular_file(home / "ruleset.yaml", ec)) add_named(home);
        if (!fs::is_regular_file(path / "ruleset.yaml", ec)) return;
        const fs::path beside = ruleset::clean_dir(path).parent_path();
        for (const auto& entry : fs::directory_iterator(beside.empty() ? "." : beside, ec))
            if (fs::is_regular_file(entry.path() / "ruleset.yaml", ec)) out.push_back(entry.path());
    };
    for (const auto& name : args.load) add_named(name);
    for (const auto& name : inputs) add_named(name);
    return out;
}
}  // namespace

isolation::Limits isolation_limits(const Common& c, const std::vector<std::string>& inputs) {
    isolation::Limits limits;
    limits.address_space = c.memory_mib << 20;
    limits.cpu_seconds = c.cpu_seconds;
    limits.confine_files = true;
    limits.readable = readable_paths(c, inputs);
    return limits;
}

int isolated(const Common& common, const std::function<int()>& body,
             const std::vector<std::filesystem::path>& outputs, const std::vector<std::string>& inputs,
             FileAccess after_load) {
    if (!isolates(common)) return guarded(common, body);
    try {
        isolation::Limits limits = isolation_limits(common, inputs);
        limits.close_files_after_load = after_load != FileAccess::confined;
        limits.keep_files_for_reload = after_load == FileAccess::none_reloading;
        return isolation::run(limits, [&] { return guarded(common, body); }, outputs);
    } catch (const std::exception& e) {
        std::cerr << "umpire: " << e.what() << "\n";
        return kScriptError;
    }
}

}  // namespace umpire::cli
