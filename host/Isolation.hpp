// Process isolation, the last line of the sandbox (docs/sandbox.md, "Out of process").
//
// The in-process limits (count hook, sticky stop, C-call depth, memory cap) stop rule code that
// runs Lua; they cannot stop a C function that never returns (a pattern bomb), a compiled trace,
// C++ memory outside the counted objects, or a native crash. So a command that runs untrusted
// rules runs its body in a worker process: forked from the command before it has made any thread
// or Lua state, with kernel limits on the worker (RLIMIT_AS, RLIMIT_CPU) and a seccomp filter
// installed before any rule code runs. The parent only waits: it reads the worker's messages,
// kills it when a call it armed passes its deadline (the out-of-process watchdog: Watchdog.hpp
// writes each call's deadline into a page shared with the parent), and turns a death into an
// error that names the limit and, when known, the rules' file:line. The parent holds no rules and
// no Lua state, so a dead worker leaves it exactly as it was.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace umpire::isolation {

struct Limits {
    std::size_t address_space = std::size_t{2048} << 20;  // RLIMIT_AS in bytes; 0 = none
    double cpu_seconds = 600;                              // RLIMIT_CPU of the worker; 0 = none
    // A long-lived worker (`watch`) gives each run its own cpu_seconds: new_cpu_budget() asks the
    // parent to raise RLIMIT_CPU to the CPU time used so far plus cpu_seconds.
    bool cpu_per_run = false;
    // Landlock (where the kernel has it): when confine_files is set, the worker may read only
    // beneath `readable` (folders: their files and subfolders; files: that file) and may write,
    // create, remove or execute nothing anywhere. Files already open (stdin/out/err) stay usable.
    bool confine_files = false;
    std::vector<std::filesystem::path> readable;
    // `run`, `odds`, `replay`, `test`, a `serve` page: once the command has read what it needs,
    // close_files() takes the worker's file access away entirely (a second Landlock layer).
    // `watch` reloads in the same worker by design and leaves it off.
    bool close_files_after_load = false;
    // `odds`, `test` and `serve` (with close_files_after_load): they load again after the close
    // (Monte Carlo's hosts, --compare; ruleset after ruleset; a page's games and map), so the ruleset files read before are kept in memory for those loads
    // (host/FileSnapshot.hpp), against the memory cap. `run` and `replay` never load again, so
    // they keep nothing.
    bool keep_files_for_reload = false;
};

// The worker died (a signal, a kill at a deadline, a limit): what() is the message for the user.
struct WorkerDied : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs body in a worker process and returns its exit code. on_message receives what the worker
// sends (send()), as it arrives; `outputs` are the files the worker may ask the parent to write
// (write_file()). Throws WorkerDied if the worker did not exit on its own.
// Call it only while the process runs no other thread (fork copies only the calling thread).
int run(const Limits& limits, const std::function<int()>& body,
        const std::vector<std::filesystem::path>& outputs = {},
        const std::function<void(const std::string& topic, const std::string& payload)>& on_message = {});

// A fork server: a small process forked when this object is made, which forks a fresh worker
// (run(), with `limits`) for each call() and passes its messages back. It is how a process that
// has threads (`serve`: the web server, the file watcher, the in-process watchdog) still computes
// in a worker without ever forking itself: fork copies only the calling thread, and a lock that
// another thread held at that moment (the allocator's, a sanitizer's) stays locked for ever in
// the child -- the first attempt at isolating serve forked from its session thread and hung under
// ASan. So make it while the process runs no other thread; the fork server itself stays
// single-threaded (it only forks, reads and waits), so its forks are safe for as long as it lives.
// Protocol: the frames of send() both ways over one socket pair -- "call" (request) to the fork
// server; the worker's own frames back as they arrive, then "exit" (its exit code), "died"
// (WorkerDied's message) or "failed" (the fork server could not run it).
class ForkServer {
public:
    // body(request) is run in each worker; its send()s reach call()'s on_message.
    ForkServer(const Limits& limits, std::function<int(const std::string& request)> body);
    ~ForkServer();  // ends the fork server (and a worker it runs)
    ForkServer(const ForkServer&) = delete;
    ForkServer& operator=(const ForkServer&) = delete;

    // Runs body(request) in a fresh worker and returns its exit code; throws WorkerDied as run()
    // does, or std::runtime_error if the fork server is gone. One call at a time (serialised).
    int call(const std::string& request,
             const std::function<void(const std::string& topic, const std::string& payload)>& on_message);

private:
    int socket_ = -1;
    int pid_ = -1;
    std::mutex mutex_;
};

// True inside a worker made by run().
bool in_worker();

// In a worker whose Limits::cpu_per_run is set: a new run starts, with cpu_seconds of CPU time of
// its own from now (the parent raises the worker's RLIMIT_CPU; the worker's filter lets it not).
// Does nothing elsewhere.
void new_cpu_budget();

// Hands a message to the parent's on_message (in a worker); does nothing outside one. The payload
// is `parts` one after another (so a large text and its tail are sent without joining them).
void send(std::string_view topic, std::initializer_list<std::string_view> parts);
inline void send(const std::string& topic, const std::string& payload) {
    send(std::string_view(topic), std::initializer_list<std::string_view>{payload});
}

// Writes a command's output file: in a worker (which may not open files for writing) the parent
// writes it, if it is one of run()'s `outputs`; outside a worker it is written here.
// `tail` follows `content` (a final newline, without copying a large text to append it).
void write_file(const std::filesystem::path& path, std::string_view content, std::string_view tail = {});

// ---- the out-of-process watchdog (used by host/Watchdog) -------------------------------------
// A slot of the page shared with the parent: one per Watchdog of the worker (one per LuaHost).
// -1 when there is no worker or no free slot (the Watchdog then runs its own thread).
int claim_slot();
void release_slot(int slot);
// The parent kills the worker once steady_clock passes `deadline` while the slot is armed.
// `seconds` and `trusted` are for its message.
void arm_slot(int slot, std::int64_t deadline_ns, double seconds, bool trusted);
void disarm_slot(int slot);
// Where the rules last were ("file:line: in string.find:"), for the parent's message.
void note_where(const char* where);
// Async-signal-safe: the line of the compiled loop the deadline's signal interrupted
// ("file:line:", trace_lines::find), for the parent's message if it has to kill the worker.
void note_compiled_loop(const char* where);
// The worker's memory ran out (operator new or the Lua allocator failed under RLIMIT_AS).
void note_out_of_memory();

// The Landlock ABI version of the running kernel (0: no Landlock; then the worker's reads are not
// confined, only its writes, by the seccomp filter).
int landlock_abi();
// In a worker: was its file access confined with Landlock (Limits::confine_files and a kernel
// that has it)?
bool files_confined();

// In a worker whose Limits::close_files_after_load is set: the calling thread, and every thread it
// makes later, may open no file at all from now on (a Landlock layer that handles every file
// right and allows none; files already open, stdout/stderr and the pipe to the parent, stay
// usable). A Landlock layer binds the thread that adds it and the threads it makes afterwards,
// so call it while the worker runs no other thread: the callers do (cmd_test before any load;
// replay::play before the script runs; odds_runner::ScriptWorker after its load, and the Monte
// Carlo sampler makes every host before it starts its threads). Once done, later calls do nothing. Returns whether the
// files are closed; false outside such a worker, and where the kernel has no Landlock.
bool close_files();
// Has close_files() closed the worker's files?
bool files_closed();

// The syscalls the worker's filter refuses, for docs and tests.
const std::vector<std::string>& denied_syscalls();

}  // namespace umpire::isolation
