// libFuzzer harness of the dice expression parser: any bytes either parse (and then the
// expression's distribution is computed when it is small) or throw umpire::ParseError; anything
// else -- another exception, a crash, an ASan report -- is a finding. Built with
// -DUMPIRE_LIBFUZZER=ON (clang); ctest runs it for a bounded time on tests/libfuzzer/corpus/dice.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const umpire::dice::DiceExpression expr(text);
        // Only tiny inputs get a distribution ("9d99"): the fuzzer is after parser bugs, and a
        // "99d999" is slow by design (seconds per input), not a finding.
        if (size <= 4) (void)expr.distribution();
    } catch (const umpire::ParseError&) {
    } catch (const umpire::RuleError&) {  // valid syntax, refused request (e.g. too many dice)
    }
    return 0;
}
