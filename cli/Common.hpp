// What every subcommand shares: the common flags, building a host from them, and turning errors
// into exit codes (0 success, 1 a rule/script error, 2 bad usage).
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <variant>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/Isolation.hpp"
#include "host/LuaHost.hpp"

namespace umpire::cli {

constexpr int kOk = 0, kScriptError = 1, kUsage = 2;

struct Common {
    std::vector<std::string> rulesets;  // --ruleset: a ruleset dir, a folder of rulesets, or a name
    std::uint64_t seed = 1;
    bool explain = false;
    bool json = false;
    bool trusted = false;
    bool traceback = false;
    double timeout = 10.0;
    bool timeout_given = false;  // --timeout on the command line: then it also bounds a whole odds run
    std::vector<std::string> set;  // --set name=value: umpire.args of the script
    // Process isolation (host/Isolation.hpp): untrusted rules run in a worker process with these
    // kernel limits; --no-isolate (or --trusted) runs them in this process.
    bool no_isolate = false;
    bool jit = false;  // --jit: the JIT stays on in the sandbox (HostOptions::sandbox_jit)
    std::size_t memory_mib = 2048;  // --memory: the worker's address space
    double cpu_seconds = 600;       // --cpu: the worker's CPU time, all threads
};

// --set name=value (repeatable) on a command that runs a script: the value reads as true/false,
// a number, or else a string ("rulesets/asl" or 'quoted'). A malformed one is bad usage (exit 2,
// from the parser).
void add_set_option(CLI::App* app, Common& common);
// "" if `text` is a well-formed name=value, else what is wrong with it (the text not repeated).
std::string set_problem(const std::string& text);
// The parsed --set values; Error for a malformed one (the parser already refused it on the
// command line; a journal's recorded args come through here too).
std::map<std::string, std::variant<bool, double, std::string>> parse_set(const std::vector<std::string>& set);

void add_common(CLI::App* app, Common& common);

// Splits --ruleset values into search folders and rulesets to load.
struct RulesetArgs {
    std::vector<std::filesystem::path> search;
    std::vector<std::string> load;
};
RulesetArgs split_rulesets(const Common& common);

HostOptions host_options(const Common& common);

// The one memory cap of every host a command makes (HostOptions::memory_limit: the Lua heap and
// the C++ memory charged against it) follows --memory: an eighth of the worker's address space,
// so 256 MiB at the default 2048 (and with --memory 0, no address-space limit). The other seven
// eighths are headroom the cap does not count: the binary and its libraries, thread stacks and
// malloc arenas, the Monte Carlo sampler's further hosts (one per thread: past four threads they
// share half of --memory instead, monte_carlo_cap below), and what an odds run holds outside its
// hosts (merged counts, results, the report: charged against a cap of this size of their own,
// core/odds/MemoryBudget.hpp). So a script that grows memory under a small
// --memory meets the cap first, whose error names the limit and its file:line, and not the
// address space, whose death in the worker can name neither (docs/sandbox.md, "Memory").
constexpr std::size_t kAddressSpacePerCap = 8;
std::size_t memory_cap(const Common& common);

// A Monte Carlo run keeps one host per thread alive at once, each with its own cap, so past four
// threads an eighth of --memory each would let the caps together reach the whole address space
// (eight threads) and pass it. The threads' caps share half of --memory instead: each host gets
// min(an eighth, half / threads), the same as before up to four threads. `asked` is --threads (0:
// every core, then as many cores as keep each cap at kMinThreadCap or more); an asked number whose
// caps would fall under kMinThreadCap is refused (Error: use fewer threads or more --memory).
// With --memory 0 (no address-space limit) the cap is the default and the threads as asked.
struct ThreadedCap {
    unsigned threads = 1;
    std::size_t cap = 0;  // HostOptions::memory_limit of each host of the run
};
constexpr std::size_t kMinThreadCap = std::size_t{8} << 20;
ThreadedCap monte_carlo_cap(const Common& common, unsigned asked);

// Runs body, printing a ScriptError/Error as "umpire: <message>" on stderr; returns the exit code.
int guarded(const Common& common, const std::function<int()>& body);
// guarded(), in a worker process unless --no-isolate or --trusted: a worker that dies is an
// error naming the limit (exit 1). `outputs` are the files body may write with
// isolation::write_file (the worker itself cannot open a file for writing).
// `inputs` are the other files or folders the command reads (its script, a state file, a journal,
// a scenario, a --compare ruleset): with the ruleset folders and the search path they are all the
// worker may read (Landlock, isolation::Limits::readable).
// `after_load`: FileAccess::none for the commands that load once and then only compute (`run`,
// `replay`): once loaded, the worker opens no file at all (isolation::close_files).
// FileAccess::none_reloading for `odds`, `test`, `check` and `draw`, which load or read again after
// that from the files they kept in memory (host/FileSnapshot.hpp). `watch` keeps reading beneath
// those folders after rule code ran.
enum class FileAccess { confined, none, none_reloading };
int isolated(const Common& common, const std::function<int()>& body,
             const std::vector<std::filesystem::path>& outputs = {},
             const std::vector<std::string>& inputs = {},
             FileAccess after_load = FileAccess::confined);
bool isolates(const Common& common);
isolation::Limits isolation_limits(const Common& common, const std::vector<std::string>& inputs = {});

// Report.cpp: host options whose print() is captured into `captured` under --json (so stdout
// holds one JSON document), and the report of a finished run (--explain: the rule log; --json:
// {"command", "output", "journal", "journal_hash", "state_hash"}).
HostOptions host_options(const Common& common, std::vector<std::string>* captured);
// `returned`: what the script returned (a JSON array), shown as "returned" under --json.
int report_run(const Common& common, const char* command, LuaHost& host,
               const std::vector<std::string>& captured,
               const nlohmann::json& returned = nlohmann::json::array());
// Commands that cannot honour --json (or --explain) say so and exit 2 instead of ignoring it.
int refuse_output_flags(const Common& common, const char* command, bool explain_ok);

// What `umpire run` was asked to do; recorded in the journal header so `replay` can do it again.
struct RunInputs {
    std::string script, code, state_in, state_out, journal_out;
};

int cmd_run(const Common& common, const RunInputs& inputs);
int cmd_watch(const Common& common, const std::string& script);
int cmd_test(const Common& common, const std::vector<std::string>& rulesets);
int cmd_check(const Common& common, const std::vector<std::string>& rulesets, bool verbose);
// What `umpire new` was asked: `new ruleset NAME [--dir DIR]` or
// `new house-rule NAME --extends PARENT [--ruleset FOLDER...] [--dir DIR]`.
struct NewInputs {
    std::string kind, name, extends, dir;
};
int cmd_new(const Common& common, const NewInputs& inputs);
// What `umpire draw` was asked.
struct DrawInputs {
    std::string scenario, svg;
    bool fire_lane = false, alt_grain = false, covered_arc = false, facing = false, path = false;
};
int cmd_draw(const Common& common, const DrawInputs& inputs);
int cmd_roll(const Common& common, const std::string& expr);
// What `umpire odds` was asked.
struct OddsInputs {
    bool no_fold = false;  // --no-fold: chains run path by path (a check of the fold)
    std::string target;              // dice expression or script file
    std::string code;                // -e: Lua code run as the odds script instead
    std::string compare;             // --compare: a ruleset to run the same script under
    std::string svg;                 // --svg FILE
    std::uint64_t budget = 1000000;  // --budget: paths before switching to Monte Carlo
    bool monte_carlo = false;        // --monte-carlo
    std::uint64_t samples = 1000000; // --samples
    double precision = 0;            // --precision PP: sample until every 95% half-width <= PP
    unsigned threads = 0;            // --threads (0: every core)
    std::vector<std::string> given;  // --given FIELD=VALUE (repeatable; all must hold)
    int digits = -1;                 // --digits N: probabilities as decimals in the text
    double fold_below = 0.01;        // --fold PP: text/SVG rows below this percentage folded
};
int cmd_odds(const Common& common, const OddsInputs& inputs);
// What `umpire sweep` (and `sweep merge`) was asked.
struct SweepInputs {
    std::string script;
    std::vector<std::string> grid;   // --grid AXIS=VALUES (repeatable)
    std::string shard;               // --shard I/N
    std::uint64_t budget = 1000000;  // --budget: exact paths per cell
    std::string csv, jsonl, svg;     // outputs (none: JSON Lines on stdout)
    std::string heat, x, y;          // the heat map: --heat WHAT --x AXIS --y AXIS
    std::vector<std::string> merge;  // sweep merge FILES
};
int cmd_sweep(const Common& common, const SweepInputs& inputs);
int cmd_sweep_merge(const Common& common, const SweepInputs& inputs);
int cmd_replay(const Common& common, const std::string& journal);
// What `umpire serve` was asked.
struct ServeInputs {
    std::string script, compare, scenario;
    int port = 8765;                      // --port (0: any free port, printed)
    std::vector<std::string> rules_texts; // --rules-text FILE: what /rules/<section> shows
    std::uint64_t budget = 1000000;       // as for odds
    bool monte_carlo = false;
    std::uint64_t samples = 1000000;
};
int cmd_serve(const Common& common, const ServeInputs& inputs);

}  // namespace umpire::cli
