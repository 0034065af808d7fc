#include "host/Isolation.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <gmp.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <ctime>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <new>

#include "host/FileSnapshot.hpp"
#include "host/Sanitizers.hpp"
#include "host/TraceLines.hpp"
#include "host/WorkerFrames.hpp"

namespace umpire::isolation {
namespace {

constexpr int kSlots = 64;
// How often the parent looks at the armed deadlines: the kill lands at most this late.
constexpr int kPollMilliseconds = 5;
// Where the count hook can stop the call (interpreted code) it gets the first word: the worker is
// killed only once it has had this much CPU time past the deadline without disarming it. The
// hook needs microseconds; the CPU condition is what keeps a worker that was merely waiting for a
// core on a loaded machine from being killed instead of stopped with its line. kMaxWait bounds
// the wait in wall time all the same.
constexpr double kCpuPastDeadline = 0.01;
constexpr std::int64_t kMaxWaitNs = 1'000'000'000;

// One cache line per slot: each host's watchdog slot is written by its own thread at every
// top-level call (arm_slot, disarm_slot), and two Monte Carlo threads' slots on one line made each
// write take the line from the other core (false sharing; issue 18).
struct alignas(64) Slot {
    std::atomic<int> claimed;
    std::atomic<std::int64_t> deadline_ns;  // steady_clock; 0 = disarmed
    std::atomic<std::int64_t> seconds_ms;   // the limit, for the message
    std::atomic<int> trusted;               // compiled code: no hook, killed at the deadline itself
};

// The page shared by the parent and its worker (MAP_SHARED, made before the fork). The worker
// writes, the parent reads: deadlines while the worker runs, the rest after it has died.
struct Page {
    Slot slots[kSlots];
    std::atomic<int> out_of_memory;
    std::atomic<int> where_writing;  // held while a thread writes `where` (note_where)
    std::atomic<int> where_in_loop;  // `where` is a compiled loop's line (note_compiled_loop)
    std::atomic<std::int64_t> where_in_loop_ns;  // when it was noted (steady_clock)
    std::atomic<int> where_crashed;  // `where` is the line of the compiled code the worker crashed in
    char where[256];
};

// The message by which a worker asks for a new CPU budget (Limits::cpu_per_run).
constexpr const char* kNewCpuBudget = "\x01cpu-budget";

Page* g_page = nullptr;  // in a worker: the shared page
int g_pipe = -1;         // in a worker: the write end of the message pipe

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// operator new failed: under RLIMIT_AS this is the address space running out. Noted for the
// parent (the worker may then die in std::terminate), then new throws std::bad_alloc as usual.
void on_new_failure() {
    note_out_of_memory();
    std::set_new_handler(nullptr);
}

// GMP (the exact distributions' big integers) allocates with malloc and aborts when that fails,
// so its allocation failures are noted the same way before GMP's own abort.
void* gmp_allocate(std::size_t size) {
    void* block = std::malloc(size);
    if (!block) note_out_of_memory();
    if (!block) std::abort();
    return block;
}
void* gmp_reallocate(void* old, std::size_t, std::size_t size) {
    void* block = std::realloc(old, size);
    if (!block) note_out_of_memory();
    if (!block) std::abort();
    return block;
}
void gmp_free(void* block, std::size_t) { std::free(block); }

// The handler of a crash signal in the worker. Under --jit, compiled code has no frames the
// debug API could read, and a crash there (a LuaJIT bug: docs/sandbox.md, "The JIT and untrusted
// code") left the parent only the chunk of the top-level call. The machine code says where it is,
// though (trace_lines::find_crashed: the trace holding the program counter, or the trace a C
// helper was called from), so its line is noted in the shared page for the parent's message.
// Then the worker dies of the signal as before: SA_RESETHAND made the action the default one
// again, and the signal raised here is delivered as this handler returns (a fault would also
// fault again). Only async-signal-safe calls; a fault inside the search kills the worker at once,
// by the default action, with the chunk's note unchanged.
void note_compiled_crash(const char* where) {
    if (!g_page) return;
    // The thread that crashed may hold `where_writing` itself (the fault came while it noted a
    // position), and no other thread's note matters now: the worker is about to die. So the
    // text is written whatever the flag says.
    g_page->where_writing.store(1, std::memory_order_relaxed);
    std::size_t i = 0;
    for (; i + 1 < sizeof g_page->where && where[i]; ++i) g_page->where[i] = where[i];
    g_page->where[i] = '\0';
    g_page->where_crashed.store(1, std::memory_order_relaxed);
    g_page->where_writing.store(0, std::memory_order_release);
}

void on_crash(int sig, siginfo_t*, void* context) {
    char where[160];
    if (trace_lines::find_crashed(context, where, sizeof where)) note_compiled_crash(where);
    raise(sig);
}

// ---- the seccomp filter ----------------------------------------------------------------------
// Installed in the worker before any rule code runs (loading runs rule code too: module bodies,
// validate), so it covers load time as well as run time. Reads stay allowed by the filter: the
// rules are read while they load, and loads are interleaved with rule code in every command (each
// Monte Carlo thread's host loads the rulesets, `test` loads ruleset after ruleset, `watch`
// reloads on every save, umpire.data.scenario reads a scenario at run time). Those reads are
// path-checked inside the ruleset folders by the loader (docs/sandbox.md, "Paths"), and confined
// to the search path by Landlock (below) where the kernel has it; rule code itself has no way to
// open a file. What native code that escaped the VM could do with a file is what the filter
// takes away: opening one for writing or creating one, changing the file system, running a
// program, starting a process, the network, reaching other processes, raising its own limits.
// Each refusal is EPERM rather than a kill: code that asks gets an error it can report, and the
// worker's death stays reserved for the limits.
// The Landlock calls (landlock_create_ruleset, landlock_add_rule, landlock_restrict_self) stay
// allowed, after the filter too: close_files() adds its layer once the command has loaded, and a
// Landlock layer can only take rights away from the thread that adds it, never give any back, so
// native code that escaped the VM gains nothing by calling them.
struct Denied {
    const char* name;
    int nr;
};

#define UMPIRE_DENY(name) Denied{#name, SCMP_SYS(name)}
const Denied kDenied[] = {
    UMPIRE_DENY(execve), UMPIRE_DENY(execveat), UMPIRE_DENY(fork), UMPIRE_DENY(vfork),
    UMPIRE_DENY(socket), UMPIRE_DENY(socketpair), UMPIRE_DENY(connect), UMPIRE_DENY(bind),
    UMPIRE_DENY(listen), UMPIRE_DENY(accept), UMPIRE_DENY(accept4), UMPIRE_DENY(ptrace),
    UMPIRE_DENY(process_vm_readv), UMPIRE_DENY(process_vm_writev), UMPIRE_DENY(pidfd_open),
    UMPIRE_DENY(pidfd_getfd), UMPIRE_DENY(creat), UMPIRE_DENY(unlink), UMPIRE_DENY(unlinkat),
    UMPIRE_DENY(rename), UMPIRE_DENY(renameat), UMPIRE_DENY(renameat2), UMPIRE_DENY(mkdir),
    UMPIRE_DENY(mkdirat), UMPIRE_DENY(rmdir), UMPIRE_DENY(symlink), UMPIRE_DENY(symlinkat),
    UMPIRE_DENY(link), UMPIRE_DENY(linkat), UMPIRE_DENY(chmod), UMPIRE_DENY(fchmodat),
    UMPIRE_DENY(chown), UMPIRE_DENY(lchown), UMPIRE_DENY(fchownat), UMPIRE_DENY(truncate),
    UMPIRE_DENY(mknod), UMPIRE_DENY(mknodat), UMPIRE_DENY(mount), UMPIRE_DENY(umount2),
    UMPIRE_DENY(pivot_root), UMPIRE_DENY(chroot), UMPIRE_DENY(setns), UMPIRE_DENY(unshare),
    UMPIRE_DENY(setrlimit), UMPIRE_DENY(open_by_handle_at), UMPIRE_DENY(name_to_handle_at),
    UMPIRE_DENY(io_uring_setup), UMPIRE_DENY(io_uring_enter), UMPIRE_DENY(io_uring_register),
    UMPIRE_DENY(bpf), UMPIRE_DENY(perf_event_open), UMPIRE_DENY(userfaultfd),
    UMPIRE_DENY(keyctl), UMPIRE_DENY(add_key), UMPIRE_DENY(request_key),
    UMPIRE_DENY(init_module), UMPIRE_DENY(finit_module), UMPIRE_DENY(delete_module),
    UMPIRE_DENY(kexec_load), UMPIRE_DENY(reboot), UMPIRE_DENY(personality),
};
#undef UMPIRE_DENY

void install_filter() {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) throw std::runtime_error("seccomp_init failed");
    const auto add = [&](std::uint32_t action, int nr, unsigned count, const scmp_arg_cmp* args) {
        const int rc = seccomp_rule_add_array(ctx, action, nr, count, args);
        if (rc != 0) {
            seccomp_release(ctx);
            throw std::runtime_error(std::string("seccomp_rule_add: ") + std::strerror(-rc));
        }
    };
    const std::uint32_t eperm = SCMP_ACT_ERRNO(EPERM);
    for (const auto& d : kDenied) add(eperm, d.nr, 0, nullptr);
    // open/openat for writing or creating: each flag is a rule of its own (rules of one syscall
    // are OR-ed). O_RDONLY is 0, so a read-only open matches none of them.
    for (const int flag : {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_TMPFILE & ~O_DIRECTORY}) {
        const scmp_arg_cmp open_flags = SCMP_A1(SCMP_CMP_MASKED_EQ, static_cast<scmp_datum_t>(flag),
                                                static_cast<scmp_datum_t>(flag));
        const scmp_arg_cmp openat_flags = SCMP_A2(SCMP_CMP_MASKED_EQ, static_cast<scmp_datum_t>(flag),
                                                  static_cast<scmp_datum_t>(flag));
        add(eperm, SCMP_SYS(open), 1, &open_flags);
        add(eperm, SCMP_SYS(openat), 1, &openat_flags);
    }
    // openat2 and clone3 pass their flags in a struct the filter cannot read: "not implemented",
    // which makes glibc fall back to openat and clone (checked by the filter's test).
    add(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0, nullptr);
    add(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0, nullptr);
    // Threads (the Monte Carlo workers) are clones with CLONE_THREAD; a new process is not.
    const scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    add(eperm, SCMP_SYS(clone), 1, &not_thread);
    // Signals only to itself (abort() and raise() use tgkill on their own pid).
    const auto self = static_cast<scmp_datum_t>(getpid());
    const scmp_arg_cmp other_pid = SCMP_A0(SCMP_CMP_NE, self);
    add(eperm, SCMP_SYS(kill), 1, &other_pid);
    add(eperm, SCMP_SYS(tgkill), 1, &other_pid);
    add(eperm, SCMP_SYS(tkill), 0, nullptr);
    // prlimit64 may read limits (getrlimit uses it) but not set them, on itself or anyone else.
    const scmp_arg_cmp sets_limit = SCMP_A2(SCMP_CMP_NE, 0);
    add(eperm, SCMP_SYS(prlimit64), 1, &sets_limit);
    const int rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0) throw std::runtime_error(std::string("seccomp_load: ") + std::strerror(-rc));
}

// ---- Landlock: reads confined, no writes ---------------------------------------------------------
// The filter above can refuse opening for writing but cannot look at a path, so it cannot tell a
// ruleset's file from ~/.ssh/id_rsa. Landlock can: the worker restricts itself (every thread it
// makes later inherits the restriction) to reading beneath the folders it was given, and to no
// write, creation, removal or execution anywhere. Each right is "handled" (denied unless a rule
// allows it) as far as the kernel's ABI knows it; the old kernel headers of the build machine may
// lack the newer rights, so their bits are spelt out here.
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif

bool g_files_confined = false;

std::uint64_t handled_rights(int abi) {
    std::uint64_t rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  // ABI 1: bits 0..12
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
    if (abi >= 5) rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
    return rights;
}

// Adds a Landlock layer to the calling thread (and the threads it makes later) that handles every
// file right the kernel knows and allows only what `add_rules` adds to the ruleset it is given
// (nothing, if it adds no rule). Returns false when the kernel has no Landlock, or refuses it: a
// kernel that reports an ABI but refuses the calls (a container's own seccomp policy) is treated
// as one without Landlock, and the worker runs without that layer.
bool restrict_files(const std::function<void(int ruleset)>& add_rules) {
    const int abi = landlock_abi();
    if (abi <= 0) return false;
    landlock_ruleset_attr attr{};
    attr.handled_access_fs = handled_rights(abi);
    const int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
    if (ruleset < 0) return false;
    struct Close {
        int fd;
        ~Close() { close(fd); }
    } close_ruleset{ruleset};
    add_rules(ruleset);
    // Landlock needs no_new_privs (the seccomp filter sets it too).
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
}

// The first layer: reading beneath `readable`, nothing else. Paths that do not exist are skipped
// (a search folder that is not there).
bool confine_files(const std::vector<std::filesystem::path>& readable) {
    return restrict_files([&](int ruleset) {
        for (const auto& path : readable) {
            const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
            if (fd < 0) continue;
            struct stat st{};
            const bool is_dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
            landlock_path_beneath_attr rule{};
            rule.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | (is_dir ? LANDLOCK_ACCESS_FS_READ_DIR : 0);
            rule.parent_fd = fd;
            // A path the kernel will not take a rule for stays unreadable: the command then says
            // "cannot read" about it, which is the safe side.
            syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
            close(fd);
        }
    });
}

// The second layer, of close_files(): no rule, so nothing can be opened, listed, written or
// executed beneath any folder. Layers stack: the first one stays in force, this one only takes
// away what it left.
bool forbid_all_files() {
    return restrict_files([](int) {});
}

bool g_close_files_after_load = false;
std::atomic<bool> g_files_closed{false};

void set_limit(int resource, rlim_t soft, rlim_t hard) {
    const rlimit limit{soft, hard};
    if (setrlimit(resource, &limit) != 0)
        throw std::runtime_error(std::string("setrlimit: ") + std::strerror(errno));
}

[[noreturn]] void worker_main(const Limits& limits, pid_t parent, const std::function<int()>& body) {
    int rc = 1;
    try {
        // The worker must not outlive a parent that was killed: nobody would enforce its clock.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
        // AddressSanitizer reserves terabytes of shadow memory up front, so any RLIMIT_AS a worker
        // could live with makes an ASan build fail at its first allocation. Under ASan the
        // address-space limit is skipped (the other limits and the filter stay); ASan's own
        // allocator reports exhaustion.
#ifndef UMPIRE_ASAN
        if (limits.address_space) set_limit(RLIMIT_AS, limits.address_space, limits.address_space);
#endif
        if (limits.cpu_seconds > 0) {
            // SIGXCPU at the soft limit, SIGKILL one second later if it is ignored. With a budget
            // per run the parent raises the soft limit at each run (prlimit), which an
            // unprivileged parent can do only below the hard limit: that stays open.
            const auto soft = static_cast<rlim_t>(std::ceil(limits.cpu_seconds));
            set_limit(RLIMIT_CPU, soft, limits.cpu_per_run ? RLIM_INFINITY : soft + 1);
        }
        // The worker dies by its own signals, so the parent can name them: no handler inherited
        // from the parent (a test framework's, a sanitizer's) turns a crash into something else.
        // A crash signal only notes where compiled code crashed first (on_crash), then kills.
        for (const int sig : {SIGABRT, SIGXCPU}) std::signal(sig, SIG_DFL);
        for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
            struct sigaction action {};
            action.sa_sigaction = on_crash;
            action.sa_flags = SA_SIGINFO | SA_RESETHAND;  // the default action again from its first word
            sigemptyset(&action.sa_mask);
            if (sigaction(sig, &action, nullptr) != 0) std::signal(sig, SIG_DFL);
        }
        std::set_new_handler(on_new_failure);
        mp_set_memory_functions(gmp_allocate, gmp_reallocate, gmp_free);
        if (limits.confine_files) {
            g_files_confined = confine_files(limits.readable);
            if (!g_files_confined && std::getenv("UMPIRE_VERBOSE"))
                std::fprintf(stderr, "umpire: note: this kernel has no Landlock; the worker's reads are not "
                                     "confined to the ruleset folders (docs/sandbox.md)\n");
        }
        if (limits.close_files_after_load) {
            g_close_files_after_load = true;
            if (limits.keep_files_for_reload) file_snapshot::enable();
        }
        install_filter();
        rc = body();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "umpire: %s\n", e.what());
        rc = 1;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    // _exit: the parent's static objects and atexit handlers belong to the parent.
    _exit(rc);
}

std::string signal_name(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV, a segmentation fault";
        case SIGBUS: return "SIGBUS, a bus error";
        case SIGABRT: return "SIGABRT, an abort";
        case SIGFPE: return "SIGFPE, an arithmetic fault";
        case SIGILL: return "SIGILL, an illegal instruction";
        case SIGKILL: return "SIGKILL";
        case SIGSYS: return "SIGSYS, a forbidden system call";
        default: return std::string("signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
    }
}

std::string format_mib(std::size_t bytes) {
    if (bytes >= (std::size_t{1} << 30) && bytes % (std::size_t{1} << 30) == 0)
        return std::to_string(bytes >> 30) + " GiB";
    return std::to_string(bytes >> 20) + " MiB";
}

// A position the worker noted, as the "last known position" of a message: "file:line" or
// "file:line: in string.find" as noted (less the colon that ends it); a chunk noted with no line
// ("file:", the top-level call's chunk) says so, rather than leave "file:" with nothing after it.
std::string position_of(std::string where) {
    if (!where.empty() && where.back() == ':') where.pop_back();
    const std::size_t colon = where.rfind(':');
    const bool line_known = colon != std::string::npos && colon + 1 < where.size() &&
                            (where.find(": in ", colon) == colon ||
                             where.find_first_not_of("0123456789", colon + 1) == std::string::npos);
    return line_known ? where : "in " + where + ", line not known";
}

// The message for a worker that did not exit on its own, or whose frame the parent refused
// (`refused_frame`: that frame's announced length, FrameReader::refused).
std::string death_message(const Limits& limits, const Page& page, int status, int deadline_slot,
                          double cpu_used, std::size_t refused_frame) {
    const std::string where(page.where, strnlen(page.where, sizeof page.where));
    const std::string last = where.empty() ? "" : " (last known position: " + position_of(where) + ")";
    if (refused_frame)
        return (where.empty() ? "" : where + " ") + "the rules' worker announced a message of " +
               format_mib(refused_frame) + " to umpire, more than its whole address space (" +
               format_mib(limits.address_space) +
               ", --memory) could hold: no real message is that large, so the worker was stopped";
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (deadline_slot >= 0) {
        const Slot& slot = page.slots[deadline_slot];
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", slot.seconds_ms.load() / 1000.0);
        return (where.empty() ? "" : where + " ") + "script stopped: killed at the wall-clock limit of " +
               seconds + " s (--timeout): " +
               (slot.trusted.load()        ? "compiled code cannot be interrupted in-process"
                : page.where_in_loop.load() ? "it was running code compiled under --jit for the loop at this "
                                              "line, which the time check cannot reach (the loop that does "
                                              "not end is this one or one that calls it)"
                                            : "it was still running inside code the time check cannot reach "
                                              "(a C function such as a pattern match: a pattern-matching bomb?; "
                                              "or a loop compiled under --jit)");
    }
    if (page.out_of_memory.load())
        return "the rules ran out of address space (limit " + format_mib(limits.address_space) +
               ", --memory); the worker ended with " + signal_name(sig) + last;
    if (limits.cpu_seconds > 0 && (sig == SIGXCPU || (sig == SIGKILL && !limits.cpu_per_run && cpu_used >= limits.cpu_seconds)))
        return "the rules ran out of CPU time (limit " + std::to_string(static_cast<long>(std::ceil(limits.cpu_seconds))) +
               " s of CPU" + (limits.cpu_per_run ? " per run" : "") + ", --cpu)" + last;
    if (sig == SIGSYS)
        return "the rules' worker was stopped for a forbidden system call (seccomp)" + last;
    if (page.where_crashed.load() && !where.empty())
        return where + " the rules' worker process crashed (" + signal_name(sig) +
               ") in code compiled under --jit for the loop at this line (LuaJIT's compiler at fault: "
               "run without --jit); the command's other work is unaffected";
    return "the rules' worker process crashed (" + signal_name(sig) +
           "); the command's other work is unaffected" + last;
}

void write_output(const std::filesystem::path& path, std::string_view content, std::string_view tail = {}) {
    std::ofstream out(path, std::ios::binary);
    out << content << tail;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Forks, after flushing what this process has buffered (else the child would write it again).
// `fds`: the channel to the child, both ends closed if the fork fails.
pid_t fork_flushed(const int fds[2]) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        close(fds[0]);
        close(fds[1]);
        throw std::runtime_error(std::string("fork: ") + std::strerror(error));
    }
    return pid;
}

}  // namespace

bool in_worker() { return g_page != nullptr; }

void new_cpu_budget() { send(kNewCpuBudget, ""); }

int run(const Limits& limits, const std::function<int()>& body,
        const std::vector<std::filesystem::path>& outputs,
        const std::function<void(const std::string&, const std::string&)>& on_message) {
    if (in_worker()) return body();  // already isolated (a command run inside a worker)
    void* memory = mmap(nullptr, sizeof(Page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::runtime_error(std::string("mmap: ") + std::strerror(errno));
    Page* page = new (memory) Page{};
    struct Unmap {
        void* memory;
        ~Unmap() { munmap(memory, sizeof(Page)); }
    } unmap{memory};
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    const pid_t parent = getpid();
    const pid_t pid = fork_flushed(fds);
    if (pid == 0) {
        close(fds[0]);
        g_page = page;
        g_pipe = fds[1];
        worker_main(limits, parent, body);
    }
    close(fds[1]);

    // The parent: read messages, watch the armed deadlines, wait for the end.
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    FrameReader frames;
    if (limits.address_space) frames.max_frame = limits.address_space;
    bool killed_for_frame = false;
    std::string failure;  // an output the parent could not write
    clockid_t worker_clock;
    const bool have_clock = clock_getcpuclockid(pid, &worker_clock) == 0;
    const auto worker_cpu = [&] {
        timespec t{};
        if (!have_clock || clock_gettime(worker_clock, &t) != 0) return 1e9;  // unknown: do not wait
        return static_cast<double>(t.tv_sec) + t.tv_nsec / 1e9;
    };
    const auto handle = [&](const std::string& topic, const std::string& payload) {
        if (topic == kNewCpuBudget) {
            // The CPU time used so far (all threads) plus a run's budget, as the new soft limit.
            if (limits.cpu_per_run && limits.cpu_seconds > 0) {
                rlimit raised{static_cast<rlim_t>(std::ceil(worker_cpu() + limits.cpu_seconds)), RLIM_INFINITY};
                prlimit(pid, RLIMIT_CPU, &raised, nullptr);
            }
        } else if (topic == "file") {
            const auto nul = payload.find('\0');
            const std::filesystem::path path = payload.substr(0, nul);
            if (std::find(outputs.begin(), outputs.end(), path) == outputs.end()) {
                failure = "the worker asked to write " + path.string() + ", which is not an output of this command: refused";
                return;
            }
            try {
                write_output(path, nul == std::string::npos ? std::string_view() : std::string_view(payload).substr(nul + 1));
            } catch (const std::exception& e) {
                failure = e.what();
            }
        } else if (on_message) {
            on_message(topic, payload);
        }
    };
    // Until the worker has exited and the pipe is drained: every kPollMilliseconds, look at the
    // deadlines it armed and kill it once one has passed (at most one kill).
    std::int64_t seen_deadline[kSlots] = {};
    double cpu_at_deadline[kSlots] = {};
    bool pipe_open = true, exited = false;
    int status = 0, deadline_slot = -1;
    rusage usage{};
    char chunk[65536];
    while (!exited || pipe_open) {
        pollfd watched[2] = {{fds[0], static_cast<short>(pipe_open ? POLLIN : 0), 0},
                             {pidfd, static_cast<short>(exited ? 0 : POLLIN), 0}};
        ::poll(watched, pidfd >= 0 ? 2 : 1, exited ? -1 : kPollMilliseconds);
        if (pipe_open && (watched[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
            if (n > 0) frames.take(chunk, static_cast<std::size_t>(n), handle);
            else if (n == 0 || errno != EINTR) pipe_open = false;
            if (frames.refused && !killed_for_frame && !exited) {
                killed_for_frame = true;
                kill(pid, SIGKILL);
            }
        }
        if (exited) continue;
        if (pidfd < 0 || (watched[1].revents & POLLIN)) {
            if (wait4(pid, &status, WNOHANG, &usage) == pid) {
                exited = true;
                continue;
            }
        }
        if (deadline_slot < 0) {
            const std::int64_t now = now_ns();
            for (int s = 0; s < kSlots; ++s) {
                const std::int64_t d = page->slots[s].deadline_ns.load(std::memory_order_relaxed);
                if (d == 0 || now <= d) continue;
                if (seen_deadline[s] != d) {
                    seen_deadline[s] = d;
                    cpu_at_deadline[s] = worker_cpu();
                }
                if (page->slots[s].trusted.load() || worker_cpu() - cpu_at_deadline[s] >= kCpuPastDeadline ||
                    now - d > kMaxWaitNs) {
                    deadline_slot = s;
                    kill(pid, SIGKILL);
                    break;
                }
            }
        }
    }
    if (pidfd >= 0) close(pidfd);
    close(fds[0]);
    if (!failure.empty()) throw std::runtime_error(failure);
    if (WIFEXITED(status) && deadline_slot < 0 && !frames.refused) return WEXITSTATUS(status);
    const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    throw WorkerDied(death_message(limits, *page, status, deadline_slot, cpu, frames.refused));
}

void send(std::string_view topic, std::initializer_list<std::string_view> parts) {
    if (g_pipe >= 0) write_frame(g_pipe, topic, parts);  // false: the parent is gone, nobody to tell
}

// ---- the fork server ---------------------------------------------------------------------------
namespace {

// The fork server's life: read "call" frames, run each in a fresh worker, report; end when the
// socket closes (the owner is gone or done). It holds no thread, so its forks are safe.
[[noreturn]] void fork_server_main(int socket, pid_t owner, const Limits& limits,
                                   const std::function<int(const std::string&)>& body) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != owner) _exit(0);
    FrameReader frames;
    const auto handle = [&](const std::string& topic, const std::string& request) {
        if (topic != "call") return;
        const auto forward = [&](const std::string& t, const std::string& p) { write_frame(socket, t, p); };
        try {
            const int rc = run(limits, [&] { return body(request); }, {}, forward);
            write_frame(socket, "exit", std::to_string(rc));
        } catch (const WorkerDied& e) {
            write_frame(socket, "died", e.what());
        } catch (const std::exception& e) {
            write_frame(socket, "failed", e.what());
        }
    };
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(socket, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        frames.take(chunk, static_cast<std::size_t>(n), handle);
    }
    // _exit: the owner's static objects and atexit handlers belong to the owner.
    _exit(0);
}

}  // namespace

ForkServer::ForkServer(const Limits& limits, std::function<int(const std::string& request)> body) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
    const pid_t owner = getpid();
    const pid_t pid = fork_flushed(fds);
    if (pid == 0) {
        close(fds[0]);
        fork_server_main(fds[1], owner, limits, body);
    }
    close(fds[1]);
    socket_ = fds[0];
    pid_ = pid;
}

ForkServer::~ForkServer() {
    // Closing the socket ends an idle fork server; one waiting on a worker is killed (its
    // worker follows through PR_SET_PDEATHSIG).
    close(socket_);
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
}

int ForkServer::call(const std::string& request,
                     const std::function<void(const std::string&, const std::string&)>& on_message) {
    std::lock_guard lock(mutex_);
    const std::string gone = "umpire's fork server (the process that makes the rules' workers) has ended";
    if (!write_frame(socket_, "call", request)) throw std::runtime_error(gone);
    FrameReader frames;
    enum class End { none, exit, died, failed } end = End::none;
    std::string last;
    const auto handle = [&](const std::string& topic, const std::string& payload) {
        if (end != End::none) return;
        if (topic == "exit" || topic == "died" || topic == "failed") {
            end = topic == "exit" ? End::exit : topic == "died" ? End::died : End::failed;
            last = payload;
        } else if (on_message) {
            on_message(topic, payload);
        }
    };
    char chunk[65536];
    while (end == End::none) {
        const ssize_t n = ::read(socket_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error(gone);
        frames.take(chunk, static_cast<std::size_t>(n), handle);
    }
    if (end == End::died) throw WorkerDied(last);
    if (end == End::failed) throw std::runtime_error(last);
    return std::stoi(last);
}

void write_file(const std::filesystem::path& path, std::string_view content, std::string_view tail) {
    if (in_worker()) {
        send("file", {path.string(), std::string_view("\0", 1), content, tail});
    } else {
        write_output(path, content, tail);
    }
}

int claim_slot() {
    if (!g_page) return -1;
    for (int s = 0; s < kSlots; ++s) {
        int expected = 0;
        if (g_page->slots[s].claimed.compare_exchange_strong(expected, 1)) return s;
    }
    return -1;
}

void release_slot(int slot) {
    if (!g_page || slot < 0) return;
    g_page->slots[slot].deadline_ns.store(0);
    g_page->slots[slot].claimed.store(0);
}

void arm_slot(int slot, std::int64_t deadline_ns, double seconds, bool trusted) {
    if (!g_page || slot < 0) return;
    Slot& s = g_page->slots[slot];
    s.seconds_ms.store(static_cast<std::int64_t>(std::llround(seconds * 1000)));
    s.trusted.store(trusted ? 1 : 0);
    s.deadline_ns.store(deadline_ns);
}

void disarm_slot(int slot) {
    if (g_page && slot >= 0) g_page->slots[slot].deadline_ns.store(0);
}

// Written only when it changes for the calling thread: an odds worker's threads note the same
// chunk at every sample, and rewriting (or even reading) the shared text each time made its cache
// line move between their cores. Each thread compares with what it last wrote itself, so no thread
// reads the shared text, and a write is made under `where_writing`: two Monte Carlo threads writing
// at once tore the text (a data race). A thread that finds it taken skips its note; the text is
// "the last known position", and the other thread's is as good. The parent reads it only after the
// worker has died.
// A compiled loop's line, noted by its thread's signal every 10 ms while the loop runs, is not
// written over by other threads' positions (Monte Carlo threads calling their chunks) until it is
// kLoopNoteFresh old, i.e. until that loop has ended: otherwise the parent, killing the worker
// for the loop, would name another thread's place.
constexpr std::int64_t kLoopNoteFreshNs = 50'000'000;

void note_where(const char* where) {
    thread_local std::string last_noted;
    if (!g_page) return;
    const bool loop_noted = g_page->where_in_loop.load(std::memory_order_relaxed) != 0;
    if (last_noted == where && !loop_noted) return;
    if (loop_noted && now_ns() - g_page->where_in_loop_ns.load(std::memory_order_relaxed) < kLoopNoteFreshNs) return;
    if (g_page->where_writing.exchange(1, std::memory_order_acquire) != 0) return;
    std::snprintf(g_page->where, sizeof g_page->where, "%s", where);
    g_page->where_in_loop.store(0, std::memory_order_relaxed);
    g_page->where_writing.store(0, std::memory_order_release);
    last_noted = where;
}

// From a signal handler: no snprintf, no thread_local string. A note interrupted on its own
// thread holds `where_writing`, and then this one gives way. The next note_where writes even the
// text it last wrote, since `where_in_loop` says the page holds another.
void note_compiled_loop(const char* where) {
    if (!g_page || g_page->where_writing.exchange(1, std::memory_order_acquire) != 0) return;
    std::size_t i = 0;
    for (; i + 1 < sizeof g_page->where && where[i]; ++i) g_page->where[i] = where[i];
    g_page->where[i] = '\0';
    g_page->where_in_loop_ns.store(now_ns(), std::memory_order_relaxed);
    g_page->where_in_loop.store(1, std::memory_order_relaxed);
    g_page->where_writing.store(0, std::memory_order_release);
}

void note_out_of_memory() {
    if (g_page) g_page->out_of_memory.store(1);
}

int landlock_abi() {
    const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? static_cast<int>(abi) : 0;
}

bool files_confined() { return g_files_confined; }

bool close_files() {
    if (!g_close_files_after_load || g_files_closed) return g_files_closed;
    g_files_closed = forbid_all_files();
    return g_files_closed;
}

bool files_closed() { return g_files_closed; }

const std::vector<std::string>& denied_syscalls() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& d : kDenied) v.emplace_back(d.name);
        for (const char* more : {"open/openat for writing or creating", "openat2", "clone3",
                                 "clone of a process", "kill/tgkill of another process", "tkill",
                                 "prlimit64 setting a limit"})
            v.emplace_back(more);
        return v;
    }();
    return names;
}

}  // namespace umpire::isolation
