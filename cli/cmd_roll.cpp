// umpire roll EXPR: one roll of a dice expression through umpire.dice.roll, with its faces.
#include <iostream>

#include "cli/Common.hpp"
#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"

namespace umpire::cli {

int cmd_roll(const Common& common, const std::string& expr) {
    if (expr.find("]==]") != std::string::npos) {
        std::cerr << "umpire roll: bad dice expression '" << expr << "'\n";
        return kUsage;
    }
    // A bad expression is bad usage (exit 2), told with the caret before any game is set up.
    try {
        dice::DiceExpression check(expr);
    } catch (const ParseError& e) {
        std::cerr << "umpire roll: " << e.what() << "\n(the dice language: docs/dice.md)\n";
        return kUsage;
    }
    return guarded(common, [&] {
        std::vector<std::string> captured;
        LuaHost host(host_options(common, &captured));
        // A long-bracket literal carries the expression into Lua unchanged.
        // Every die is shown, re-rolls, explosions and dropped dice included, when there is more
        // than the total to see.
        host.run_string("local total, faces, shown = umpire.dice.roll([==[" + expr + "]==])\n"
                        "print(shown:find(' ') and (total .. '  (' .. shown .. ')') or total)\n",
                        "=(roll)");
        return report_run(common, "roll", host, captured);
    });
}

}  // namespace umpire::cli
