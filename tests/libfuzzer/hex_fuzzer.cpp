// libFuzzer harness of the ASL hex-name parser: any bytes either parse -- and then format back
// to a name that parses to the same hex -- or throw umpire::ParseError. See dice_fuzzer.cpp.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/Error.hpp"
#include "core/hex/AslName.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto name = umpire::hex::parse_asl_name(text);
        if (!(umpire::hex::parse_asl_name(umpire::hex::to_string(name)) == name)) std::abort();
    } catch (const umpire::ParseError&) {
    }
    return 0;
}
