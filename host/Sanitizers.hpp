#pragma once
// UMPIRE_ASAN is defined when this translation unit is built with AddressSanitizer: gcc says so
// with __SANITIZE_ADDRESS__, clang through __has_feature. The host turns its ASan-only code on
// with it (the allocator's poisoning, no RLIMIT_AS in a worker), and the tests pick the checks
// that only hold, or only make sense, under ASan.
#if defined(__SANITIZE_ADDRESS__)
#define UMPIRE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UMPIRE_ASAN 1
#endif
#endif
