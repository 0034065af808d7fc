// LuaHost: owns the one lua_State of a game, and everything that makes it safe to run other
// people's rules in it: the memory cap (counting allocator), the sandbox environment, the
// instruction/time limits, the game state that survives reloads, and the transactional loading
// of rulesets (see Ruleset.hpp and Registry.hpp).
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
#include <memory>
#include <map>
#include <string>
#include <typeindex>
#include <vector>

#include "bindings/LuaError.hpp"
#include "bindings/Registry.hpp"
#include "core/dice/DieSource.hpp"
#include "core/dice/GeneratorSource.hpp"

namespace umpire {

struct HostOptions {
    // Trusted mode keeps the JIT on for rule code and enforces time_limit with a watchdog thread
    // that ends the process (compiled traces cannot be interrupted in-process). Untrusted (the
    // default) runs rule code interpreted under a count hook; see docs/sandbox.md.
    bool trusted = false;
    std::size_t memory_limit = std::size_t{256} << 20;  // bytes of Lua heap
    double time_limit = 10.0;                            // seconds per top-level call; 0 = none
    std::uint64_t instruction_limit = 0;                 // per top-level call; 0 = none
    std::uint64_t seed = 1;                              // seeds the default die source
    std::vector<std::filesystem::path> search_path;      // ruleset folders (+ <repo>/rulesets)
    bool traceback = false;                              // put a Lua traceback in ScriptError
    std::function<void(const std::string&)> print;       // where print() goes; default stdout
};

class LuaHost {
public:
    explicit LuaHost(HostOptions options = {});
    ~LuaHost();
    LuaHost(const LuaHost&) = delete;
    LuaHost& operator=(const LuaHost&) = delete;

    lua_State* state() { return L_; }
    const HostOptions& options() const { return options_; }
    static LuaHost& from(lua_State* L);  // the host that owns L

    // ---- dice ------------------------------------------------------------------------------
    // Every die of the game comes from one core DieSource: the game's generator (seeded by
    // HostOptions::seed), or one set here: fixed dice in spec tests, the odds engine's
    // enumerating source. nullptr goes back to the generator.
    void set_die_source(std::shared_ptr<dice::DieSource> source) { source_ = std::move(source); }
    const std::shared_ptr<dice::DieSource>& die_source() const { return source_; }
    dice::DieSource& dice() { return source_ ? *source_ : generator_; }
    dice::GeneratorSource& generator() { return generator_; }
    std::uint32_t die(std::uint32_t sides) { return dice().die(sides); }

    // ---- running code ----------------------------------------------------------------------
    // Loads text (never bytecode) as a function on top of the stack, with the JIT switched off
    // for it and all its nested functions unless trusted. chunkname is "@<relative path>" or
    // "=<label>". The function's environment is the table at env_index (0: the current env).
    void load_chunk(const std::string& code, const std::string& chunkname, int env_index = 0);
    // Protected call under the memory/time/instruction limits; a Lua error becomes ScriptError.
    void call(int nargs, int nresults);
    // Runs a script file in a fresh script env (so `watch` re-runs start clean).
    void run_file(const std::filesystem::path& file);
    // Runs a string in the host's persistent script env: globals set by one run_string are seen
    // by the next (a REPL, `run -e`, tests). Its `umpire` follows every committed reload.
    void run_string(const std::string& code, const std::string& label = "=(command line)");

    // ---- rulesets (transactional; see Ruleset.hpp) ------------------------------------------
    // Loads the named rulesets (a name from the search path, or a directory) into a fresh env;
    // only if all of it loads is it swapped in. On error nothing changes and ScriptError says
    // file and line.
    void load_rulesets(const std::vector<std::string>& names_or_dirs);
    void reload();  // the same rulesets again, from disk
    const std::vector<std::filesystem::path>& loaded_dirs() const { return loaded_dirs_; }
    std::vector<std::filesystem::path> search_path() const;

    void push_env();    // pushes the current env (globals of the committed generation)
    void push_state();  // pushes umpire.state
    // A new env table (allow-list + a new `umpire` table), used by each load generation.
    void push_new_env();
    // A new env table (allow-list) sharing the committed generation's `umpire` table: what a
    // script or spec file runs in, so its globals never leak into the rules.
    void push_script_env();

    // ---- game state (see GameState.hpp) -------------------------------------------------------
    std::string state_json();                   // canonical JSON
    std::uint64_t state_hash();                 // FNV-1a 64 of state_json()
    void save_state(const std::filesystem::path& file);
    void load_state(const std::filesystem::path& file);
    void set_state_json(const std::string& json);  // replaces the contents in place

    // ---- registrations staged per load generation ---------------------------------------------
    Registry& registry() { return registry_; }

    // ---- output, memory ------------------------------------------------------------------------
    void print(const std::string& line);
    std::size_t memory_used() const;

    // Display form of a file path in messages and chunk names: relative to the working directory
    // when the file is below it ("rulesets/asl/rules/x.lua"), absolute otherwise.
    static std::string display_path(const std::filesystem::path& file);
    static std::string read_file(const std::filesystem::path& file);

    // Per-host singletons of bindings that keep C++ state (umpire.hooks, later the bus): created
    // on first use with T(LuaHost&), destroyed before the lua_State closes.
    template <class T>
    T& extension() {
        auto& slot = extensions_[std::type_index(typeid(T))];
        if (!slot) slot = std::make_shared<T>(*this);
        return *static_cast<T*>(slot.get());
    }

    struct Limits;

    // Set once a limit has stopped the current call: the sandbox's pcall/xpcall re-raise the
    // stop instead of letting the script catch it and carry on.
    const char* stop_message() const;

private:
    void commit_env(int env_index);

    HostOptions options_;
    struct Allocator;
    std::unique_ptr<Allocator> alloc_;
    std::unique_ptr<Limits> limits_;
    lua_State* L_ = nullptr;
    dice::GeneratorSource generator_;
    std::shared_ptr<dice::DieSource> source_;
    Registry registry_;
    std::vector<std::filesystem::path> loaded_dirs_;
    std::vector<std::string> loaded_names_;
    int env_ref_ = LUA_NOREF;
    int script_env_ref_ = LUA_NOREF;
    int state_ref_ = LUA_NOREF;
    int call_depth_ = 0;
    std::string last_traceback_;
    std::map<std::type_index, std::shared_ptr<void>> extensions_;

    static int message_handler(lua_State* L);
    static void count_hook(lua_State* L, lua_Debug* ar);
};

}  // namespace umpire
