// umpire roll EXPR: one roll of a dice expression through umpire.dice.roll, with its faces.
#include <iostream>

#include "cli/Common.hpp"

namespace umpire::cli {

int cmd_roll(const Common& common, const std::string& expr) {
    if (expr.find("]==]") != std::string::npos) {
        std::cerr << "umpire roll: bad dice expression '" << expr << "'\n";
        return kUsage;
    }
    return guarded(common, [&] {
        std::vector<std::string> captured;
        LuaHost host(host_options(common, &captured));
        // A long-bracket literal carries the expression into Lua unchanged.
        host.run_string("local total, faces = umpire.dice.roll([==[" + expr + "]==])\n"
                        "local shown = {}\n"
                        "for i, f in ipairs(faces or {}) do shown[i] = tostring(f) end\n"
                        "print(#shown > 1 and (total .. '  (' .. table.concat(shown, ' ') .. ')') or total)\n",
                        "=(roll)");
        return report_run(common, "roll", host, captured);
    });
}

}  // namespace umpire::cli
