// LuaHost: owns the one lua_State of a game, and everything that makes it safe to run other
// people's rules in it: the memory cap (counting allocator), the sandbox environment, the
// instruction/time limits, the game state that survives reloads, and the transactional load
// generations that rulesets are loaded in (ruleset/Load.hpp fills them; Registry.hpp). It is the
// Game (bindings/Game.hpp) the Lua face runs in, and it installs that face into every env.
//
// Layout inside the lua_State:
//   raw globals        the full standard library; only host code (C++ and the sandbox prelude)
//                      ever runs with these. Rules never see them.
//   current env        the globals table of the committed rules generation: an allow-list of
//                      functions plus `umpire` (data, rules, state, test, ... see api_modules.hpp).
//   state table        umpire.state: one plain-data table owned by the host; every generation's
//                      env points at the same table, so it survives reloads.
#pragma once
#include <lua.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <variant>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"

namespace umpire {

struct HostOptions {
    // Trusted mode keeps the JIT on for rule code and enforces time_limit with a watchdog thread
    // that ends the process (compiled traces cannot be interrupted in-process). Untrusted (the
    // default) runs rule code interpreted under a count hook; see docs/sandbox.md.
    bool trusted = false;
    // The sandbox (allow-list, count hook, limits) with the JIT left on: compiled loops never
    // reach the hook, so they are stopped only by the watchdog -- the worker's parent when
    // isolated (docs/sandbox.md, "The JIT and untrusted code"). Off by default.
    bool sandbox_jit = false;
    std::size_t memory_limit = std::size_t{256} << 20;  // bytes of Lua heap
    double time_limit = 10.0;                            // seconds per top-level call; 0 = none
    std::uint64_t instruction_limit = 0;                 // per top-level call; 0 = none
    std::uint64_t seed = 1;                              // seeds the default die source
    std::vector<std::filesystem::path> search_path;      // ruleset folders (+ <repo>/rulesets)
    bool traceback = false;                              // put a Lua traceback in ScriptError
    std::function<void(const std::string&)> print;       // where print() goes; default stdout
    // umpire.odds.chain folds under the exact odds engine; false runs it as a plain loop there
    // too, path by path (`umpire odds --no-fold`: a check that folding changes no fraction).
    bool fold = true;
    // umpire.args: the parameters a script was given (`--set name=value`, or a sweep's cell),
    // a read-only table of booleans, numbers and strings.
    std::map<std::string, std::variant<bool, double, std::string>> args;
};

class LuaHost final : public Game {
public:
    explicit LuaHost(HostOptions options = {});
    ~LuaHost() override;

    const HostOptions& options() const { return options_; }
    static LuaHost& from(lua_State* L) { return static_cast<LuaHost&>(Game::of(L)); }

    // ---- running code ----------------------------------------------------------------------
    // Loads text (never bytecode) as a function on top of the stack, with the JIT switched off
    // for it and all its nested functions unless trusted. chunkname is "@<relative path>" or
    // "=<label>". The function's environment is the table at env_index (0: the current env).
    void load_chunk(const std::string& code, const std::string& chunkname, int env_index = 0);
    // Names a chunk (by its chunkname, "=(spec api)") as a Lua front of the host's rather than
    // rule code: a place noted for the watchdog (note_c_entry) passes over its frames to the rule
    // code that called it (the spec API's raises() matches its pattern on a test's behalf: a
    // pattern bomb there is the test's line, not raises' own).
    void add_front(const std::string& chunkname) {
        for (const auto& front : fronts_)
            if (front == chunkname) return;
        fronts_.push_back(chunkname);
    }
    // Protected call under the memory/time/instruction limits; a Lua error becomes ScriptError.
    void call(int nargs, int nresults) override;
    // Runs a script file in a fresh script env (so `watch` re-runs start clean).
    void run_file(const std::filesystem::path& file);
    // Runs a string in the host's persistent script env: globals set by one run_string are seen
    // by the next (a REPL, `run -e`, tests). Its `umpire` follows every committed reload.
    // With keep_results, what the chunk returns is left on the stack and its count returned
    // (the caller pops it): `run -e 'return x'` prints x.
    int run_string(const std::string& code, const std::string& label = "=(command line)",
                   bool keep_results = false);

    // ---- load generations (transactional) --------------------------------------------------
    // Runs fill(env_index) on a fresh env (allow-list + a new `umpire` table, see push_new_env);
    // only if fill returns is that env swapped in as the committed generation. If it throws,
    // nothing changes: the previous env stays, this generation's registrations are dropped, the
    // game state is restored from a snapshot, and the exception goes on to the caller.
    // ruleset::load (ruleset/Load.hpp) is the caller that fills it with rulesets.
    void load_generation(const std::function<void(int env_index)>& fill);
    // Runs host code that uses the Lua API inside a protected call: a Lua error (the memory cap)
    // becomes a ScriptError, a C++ exception is rethrown after the protected call has returned.
    // The body runs on a stack frame of its own: stack indices of the caller are not valid in it,
    // and what it leaves on the stack is dropped.
    void protect(const std::function<void()>& body);

    void push_env();    // pushes the current env (globals of the committed generation)
    void push_state() override;  // pushes umpire.state
    // A new env table (allow-list + a new `umpire` table), used by each load generation.
    void push_new_env();
    // A new table of options().args (the caller makes it umpire.args, read-only).
    void push_args();
    // A new env table (allow-list) sharing the committed generation's `umpire` table: what a
    // script or spec file runs in, so its globals never leak into the rules.
    void push_script_env();

    // ---- game state (see GameState.hpp) -------------------------------------------------------
    std::string state_json();                   // canonical JSON
    std::uint64_t state_hash();                 // FNV-1a 64 of state_json()
    void save_state(const std::filesystem::path& file);
    void load_state(const std::filesystem::path& file);
    void set_state_json(const std::string& json);  // replaces the contents in place
    // The game state as canonical JSON, charged against the memory cap for as long as it is kept
    // (past game_state::kUnchargedText, as the writer charges): a copy held while memory can
    // still grow (a load's undo, a spec file's starting state, the text on its way out of the
    // worker), so the state cannot double itself outside the cap. `why` completes the error when
    // it does not fit: "memory limit: umpire.state as JSON (~N MiB), <why>, would pass the Lua
    // memory cap of M MiB".
    class KeptState {
    public:
        KeptState(LuaHost& host, const std::string& why);
        ~KeptState();
        KeptState(const KeptState&) = delete;
        KeptState& operator=(const KeptState&) = delete;
        const std::string& text() const { return text_; }
    private:
        LuaHost& host_;
        std::string text_;
        std::size_t charged_ = 0;
    };

    // ---- output, memory ------------------------------------------------------------------------
    void print(const std::string& line);
    // Output of a run that may be made again (a reload retried with fresh data tables,
    // ruleset/Load.cpp): while held, print() keeps its lines (charged against the memory cap)
    // instead of printing them; release_output prints them (`show`) or drops them, and ends the
    // hold. Holds do not nest.
    void hold_output();
    void release_output(bool show);
    std::size_t memory_used() const;
    // Of memory_used(), the C++ memory charged through charge_memory (the rest is the Lua heap).
    std::size_t charged_memory() const { return charged_; }
    bool charge_memory(std::size_t bytes) override;
    void release_memory(std::size_t bytes) override;
    // Runs host code with the memory cap raised by `extra` bytes, for work that must not fail at
    // the cap: putting umpire.data back after a memory stop, when the heap may still be full
    // (host/DataGuard.cpp). What it allocates stays counted after the cap is lowered again, so
    // rule code gains no room: its next allocations are refused until the heap is back under.
    void with_raised_cap(std::size_t extra, const std::function<void()>& body);
    // A full collection that the memory cap cannot refuse. The collector mostly frees, but it
    // also takes memory: it halves LuaJIT's string table (once a cycle, when three quarters of
    // it are empty) into a new table, and shrinks its string buffer. At the cap that block was
    // refused, and lua_gc raised the refusal as a Lua error where the host collects outside any
    // protected call (after a memory stop, a failed load), unwinding into C++. The cap is lifted
    // while the collector runs: what it takes is smaller than what it replaces, so the heap ends
    // no larger than it began.
    void collect_garbage();
    // Host code could not put the host back into a safe shape (the data a run changed could not
    // be restored): from now on every top-level call refuses with `why` instead of running rule
    // code against half-restored data. Final for this host.
    // Never throws: with no memory left for `why`, a fixed reason stands.
    void make_unusable(const char* why) noexcept;
    bool unusable() const { return unusable_; }

    // Display form of a file path in messages and chunk names: relative to the working directory
    // when the file is below it ("rulesets/asl/rules/x.lua"), absolute otherwise.
    static std::string display_path(const std::filesystem::path& file);
    static std::string read_file(const std::filesystem::path& file);
    // read_file for a file a stranger may have made (rule code, a spec, a journal): a file over
    // max_bytes is refused before it is read, with "file:1:1: N MiB; <what> may hold at most M
    // MiB", so its text never takes C++ memory outside the Lua cap (docs/sandbox.md, "Memory").
    static std::string read_file(const std::filesystem::path& file, std::size_t max_bytes, const char* what);
    // The cap of read_file for rule code (modules, specs, scripts): as for a YAML data file.
    static constexpr std::size_t kMaxCodeBytes = std::size_t{16} << 20;

    struct Limits;

    // Set once a limit has stopped the current call: the sandbox's pcall/xpcall re-raise the
    // stop instead of letting the script catch it and carry on.
    const char* stop_message() const;
    // The memory cap fired (a LUA_ERRMEM seen by a protected call of the sandbox): from now on
    // the call is stopped like a time limit, with LuaJIT's own message.
    void note_memory_stop();
    static constexpr const char* kNotEnoughMemory = "not enough memory";
    // For the sandbox's protected calls and resumes: after a failed one (status != 0), raises
    // the stop again if a limit has fired (or status is a memory error); returns 0 otherwise.
    static int raise_if_stopped(lua_State* L, int status);
    // How many allocations the host's allocator has refused so far (each raised LUA_ERRMEM).
    static std::uint64_t refused_allocations(lua_State* L);
    // While it lives, `co` is the coroutine running on its host (the sandbox's coroutine.resume
    // makes one around lua_resume), so that a memory error from an allocation in it names the
    // coroutine's own line, not its resume's (note_refused_allocation).
    class Resuming {
    public:
        explicit Resuming(lua_State* co);
        ~Resuming();
        Resuming(const Resuming&) = delete;
        Resuming& operator=(const Resuming&) = delete;

    private:
        LuaHost& host_;
        lua_State* previous_;
    };
    // Notes "file:line: in what:" for the watchdog's message, before a C call that may run long
    // (a pattern match on a long subject).
    static void note_c_entry(lua_State* L, const char* what);
    void note_long_call(lua_State* L, const char* what) override { note_c_entry(L, what); }
    // For the sandbox's error(message, level): when the frame `level` (counted from error) is
    // gone because error's caller was reached by a tail call from the function the host called,
    // pushes the place of that tail call ("file:line: ", as luaL_where) and returns true;
    // otherwise pushes nothing.
    static bool push_error_tail_caller_where(lua_State* L, int level);

private:
    void commit_env(int env_index);

    HostOptions options_;
    struct Allocator;
    std::unique_ptr<Allocator> alloc_;
    std::unique_ptr<Limits> limits_;
    int env_ref_ = LUA_NOREF;
    int script_env_ref_ = LUA_NOREF;
    int state_ref_ = LUA_NOREF;
    int message_handler_ref_ = LUA_NOREF;
    int call_depth_ = 0;
    // The function each call() running is calling, by depth (1 for the outermost): a registry
    // table (called_ref_) holds them, called_ the address of each, so that the same function called
    // again is not stored again. For the message handler's place of an error in a C function that
    // function reached by a tail call (place_tail_called_error).
    int called_ref_ = LUA_NOREF;
    std::vector<const void*> called_;
    std::vector<std::string> fronts_;  // chunknames of the host's Lua fronts (add_front)
    lua_State* running_ = nullptr;  // the coroutine running (Resuming), null for the main thread
    std::string last_traceback_;
    bool unusable_ = false;
    std::string unusable_why_;  // make_unusable's reason
    std::size_t charged_ = 0;  // of the memory in use, the C++ memory charged (charge_memory)
    bool holding_output_ = false;
    std::vector<std::string> held_output_;  // print()'s lines while held (hold_output)
    std::size_t held_output_bytes_ = 0;     // charged for them
    std::size_t collected_near_cap_at_ = 0;  // memory in use after charge_memory's last collection near the cap
    // The function of the last top-level call in a worker and its "file:" (isolation::note_where).
    const void* where_function_ = nullptr;
    int where_ref_ = LUA_NOREF;
    std::string where_;

    void start_limits();
    void stop_limits();
    void watch_memory_position();
    void note_refused_allocation();
    // Under --jit: traces flushed and the compiler off, from the count hook once Lua memory
    // passes half the cap, so that the memory error can name its file:line (watch_memory_position);
    // back on at the next top-level call that starts below half the cap.
    void suspend_jit();
    bool jit_suspended_ = false;
    bool traces_recorded_ = false;  // trace_lines::attach recorded this state's traces (--jit)
    // The frame of the outermost call's LuaHost::call: the C stack a memory error's search for a
    // compiled loop ends at (note_refused_allocation, trace_lines::find_caller).
    const void* call_frame_ = nullptr;
    // The collector's pause and step multiplier: kRoomyPause and kRoomyStepMul while the heap is
    // small, LuaJIT's defaults otherwise.
    void pace_collector(bool roomy);
    std::size_t roomy_heap_bytes() const;
    static constexpr int kRoomyPause = 600;
    static constexpr int kRoomyStepMul = 20000;
    static constexpr std::size_t kRoomyHeapBytes = std::size_t{8} << 20;
    static constexpr std::size_t kRoomyHeapShareOfCap = 32;
    int default_pause_ = 200;
    int default_step_mul_ = 200;

    static int message_handler(lua_State* L);
    static void place_tail_called_error(lua_State* L);
    static std::string tail_call_place(lua_State* L, int running);
    static void place_error_of_tail_call_from_lua(lua_State* L, const lua_Debug& below);
    static void count_hook(lua_State* L, lua_Debug* ar);
};

}  // namespace umpire
