// The contract of every extern "C" fast path called through the LuaJIT FFI (wrap_DieSource.cpp,
// wrap_ModifierPipeline.cpp): it never throws (a C++ exception must not unwind through a compiled
// trace), it reports failure by returning 0, and it keeps the message for umpire_ffi_error(),
// which the Lua side raises with the caller's file and line.
#pragma once
#include <cstdint>
#include <exception>
#include <string>

#define UMPIRE_FFI extern "C" __attribute__((visibility("default")))

namespace umpire::ffi {

// The message of the last failed fast-path call on this thread.
std::string& last_error();

// Runs body() (returning a non-zero value on success); any exception becomes 0 + last_error().
template <class Body>
std::uint32_t guard(Body&& body) noexcept {
    try {
        return body();
    } catch (const std::exception& e) {
        last_error() = e.what();
    } catch (...) {
        // Nothing but C++ code runs inside a fast path, so this is a C++ exception of unknown type.
        last_error() = "unknown error in a fast path";
    }
    return 0;
}

}  // namespace umpire::ffi
