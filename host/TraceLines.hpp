#pragma once

// Which line a compiled loop is at, read from a signal handler.
//
// The line named is where the interrupted trace starts: the innermost hot loop the thread was
// in. A runaway loop that calls a function with a short loop of its own is most often caught in
// that inner loop, so the message says where the thread was, and that the loop that does not end
// may enclose it.
//
// Under --jit a runaway loop compiled into a trace never returns to the interpreter, so the count
// hook set at the deadline never runs and the worker is killed by its parent, naming only the
// chunk the host called. The machine code itself says where it is, though: the deadline's signal
// interrupts the thread inside the trace, and its program counter lies in that trace's code. So
// each host with the JIT on in the sandbox keeps a map from its traces' machine-code ranges to
// the line each trace starts at (the loop's header for a loop trace, the exit's line for a side
// trace). LuaJIT reports each trace it compiles through jit.attach's "trace" event; a small Lua
// handler, holding the real jit.util, passes the range and "file:line" here. The table is a fixed
// array of slots, each guarded by a sequence number, so the signal handler reads it without a
// lock and without allocating (see TraceLines.cpp).
//
// Only the sandbox with the JIT on needs this: interpreted code is stopped by the hook with its
// line, and --trusted has no deadline signal (its watchdog ends the process).

struct lua_State;

namespace umpire::trace_lines {

/// Starts recording the traces of `L`'s state. Call once per state, before the sandbox replaces
/// the standard libraries (the handler keeps the real jit and jit.util). False if this LuaJIT has
/// no jit.util (nothing is recorded).
bool attach(lua_State* L);

/// Forgets every range of `L`'s state (its machine code is freed with it): call before lua_close,
/// for a state whose attach() returned true.
void forget(lua_State* L);

/// Async-signal-safe. Copies "file:line:" of the trace whose machine code holds `address` into
/// `out` (NUL-terminated, cut to `size`) and returns true; false if no recorded trace holds it
/// (interpreted code, or a C function such as a pattern match).
bool find(const void* address, char* out, unsigned size);

/// Which trace of `L`'s state (the lua_State given to attach) the calling thread is in, when it
/// runs a C function that trace called: a memory error raised while a compiled loop grows a table
/// comes through LuaJIT's C helpers, called from the trace's machine code with a plain call, and
/// the Lua stack's frames say nothing of where the trace is. The C stack does: the return address
/// into the trace lies on it, between this function's frame and `stack_top` (the frame address of
/// a function below the Lua call, LuaHost::call's). Copies "file:line:" of the newest such trace
/// into `out` and returns true; false if none (interpreted code: its frames name the line).
/// Not for a signal handler: it is cheap enough only for an error path.
bool find_caller(lua_State* L, const void* stack_top, char* out, unsigned size);

/// Async-signal-safe: whether any state records its traces (so a signal may look).
bool any();

/// Async-signal-safe: the program counter a signal interrupted, from its handler's ucontext (null
/// on a machine this does not know).
const void* program_counter(const void* ucontext);

/// The frame address of the outer LuaHost::call running on this thread (null once it returned),
/// for find_crashed: the top of the stack words it searches.
void note_call_frame(const void* frame);

/// Async-signal-safe, for the handler of a crash (SIGSEGV, SIGBUS, ...; isolation's worker): copies
/// "file:line:" of the trace the crashed thread was running into `out` and returns true: the trace
/// whose machine code holds the interrupted program counter, or else (a crash in a C helper the
/// trace called: LuaJIT's table, string and error functions) the newest trace whose return address
/// lies on the stack between the interrupted stack pointer and the outer call's frame
/// (note_call_frame). False when no state records its traces, or neither finds one.
bool find_crashed(const void* ucontext, char* out, unsigned size);

}  // namespace umpire::trace_lines
