// `umpire odds`: the odds engine (core/odds) running real rule scripts. A script is wrapped as an
// odds::Script: each worker gets its own LuaHost with the rulesets loaded (one Lua state per
// thread), rolls through the engine's DieSource (enumerating, or a Monte Carlo stream), and what
// the script returns becomes the outcome.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/ScriptOutcome.hpp"
#include "host/LuaHost.hpp"
#include "core/odds/Odds.hpp"
#include "core/odds/Result.hpp"

namespace umpire::odds_runner {

struct Request {
    HostOptions host;                   // sandbox, limits, search path
    std::vector<std::string> rulesets;  // loaded into every worker's host
    std::filesystem::path script;       // the rule script; it returns the outcome
    std::string code;                   // or its text (then `script` is not read)
    odds::OddsOptions odds;             // budget, Monte Carlo options (seed, samples, threads)
};

// One worker: a host with the rulesets loaded and the script compiled once. Every run gets a
// global table no earlier run wrote to (reads fall through to the script env) and the starting
// game state, so no run can see what an earlier path left behind. run_script makes one per thread; benchmarks use
// one directly to time the odds of a script without the host's start-up.
class ScriptWorker {
public:
    explicit ScriptWorker(const Request& request);
    odds::Outcome run(dice::DieSource& source);
    // Once at the end of an odds run (not per path): refuses the run if the script changed
    // umpire.data (host/DataGuard.hpp).
    void check_data();
    // odds::Script::on_memory: the engine's tally of this worker's distinct outcomes holds `bytes`
    // of C++ memory; charged against the host's memory cap, or a ScriptError naming the cap.
    void charge_tally(std::size_t bytes);
    ~ScriptWorker();
    ScriptWorker(const ScriptWorker&) = delete;
    ScriptWorker& operator=(const ScriptWorker&) = delete;

private:
    void load_script(const std::string& code, const std::string& chunkname);
    bool state_is_empty();
    void push_globals();
    bool globals_clean(int index);
    void drop_globals();
    odds::Outcome read_outcome();

    LuaHost host_;
    // The state as loaded, to put it back after a path that changed it: charged while kept.
    std::optional<LuaHost::KeptState> initial_state_;
    bool initial_state_empty_ = false;
    bool state_touched_ = false;
    int globals_meta_ = LUA_NOREF;  // {__index = script_env_}, the metatable of each run's globals
    int script_env_ = LUA_NOREF;    // this worker's script env, holding the runs' _G, load and loadstring
    int function_ = LUA_NOREF;
    int globals_ = LUA_NOREF;  // the (empty) globals table runs take while none writes to it (push_globals)
    bool function_env_is_globals_ = false;  // the script's env is globals_ (set by run)
    OutcomeReader outcomes_;
    std::string label_;
    // The die source of the last run, handed to the host without taking ownership: made again
    // only when a run is given another source.
    std::shared_ptr<dice::DieSource> borrowed_source_;
    std::size_t tally_charged_ = 0;   // bytes of the engine's tally charged to host_
    std::size_t tally_outcomes_ = 0;  // distinct outcomes in it (one charge each)
};

// Runs the script under the odds engine. ScriptError (with file and line) if the script fails on
// some path, or (with the script's file) if what the engine holds outside the hosts would pass
// request.odds.monte_carlo.bounds.memory; RuleError if it is not deterministic given its dice.
odds::Result run_script(const Request& request);

// "path/to/script.lua", or "(odds script)" for code given as text: where an odds run's errors are.
std::string script_label(const Request& request);

// Charges the results a command keeps and the report it will build of them (odds::report_bytes,
// with `json` if it writes the JSON document, else text folding rows below `fold_below`) to
// `hold`, before the report is built: what holds them has no host left to charge once the run's
// hosts have ended. ScriptError starting with `place` (the script) and naming the cap if they
// would pass it (docs/sandbox.md, "Memory").
void charge_report(odds::MemoryHold& hold, const std::vector<const odds::Result*>& sides, bool json,
                   double fold_below, const std::string& place);

// The distribution given every condition ("ift=1KIA", "malfunction=true", "final_dr<=4"; see
// odds::parse_field_predicate), with `condition` naming them and their probability. ParseError
// for a malformed condition, RuleError if they never hold together. The copy is charged to
// `memory` (the run's budget) while it is built, as the report is (charge_report): ScriptError
// starting with `place` (the script) and naming the cap if it would pass it.
odds::Result given(const odds::Result& result, const std::vector<std::string>& conditions,
                   odds::MemoryBudget* memory = nullptr, const std::string& place = "");

// The exact distribution of a dice expression ("2d6+1"), as an odds Result. An expression whose
// distribution and report (a row per possible total, bytes_per_total bytes each in all) would take
// more than memory_limit bytes is refused before anything is computed, with an Error naming the
// limit: `umpire odds d1000000` took 1.85 GB. Bytes per total, measured as the peak resident
// memory of `umpire odds --no-isolate d262144` less that of d10000, over the totals between:
// 0.78 KB printing text (or SVG), 3.9 KB printing JSON (its document holds every row).
inline constexpr std::size_t kTextBytesPerTotal = 1024;
inline constexpr std::size_t kJsonBytesPerTotal = 4608;
odds::Result of_expression(const std::string& expression, std::size_t bytes_per_total = kTextBytesPerTotal,
                           std::size_t memory_limit = HostOptions{}.memory_limit);

}  // namespace umpire::odds_runner
