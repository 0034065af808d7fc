// umpire run SCRIPT | -e CODE
#include "cli/Common.hpp"

namespace umpire::cli {

int cmd_run(const Common& common, const std::string& script, const std::string& code,
            const std::string& state_in, const std::string& state_out) {
    if (int rc = refuse_unwired_output(common, "run")) return rc;
    return guarded(common, [&] {
        LuaHost host(host_options(common));
        const auto rulesets = split_rulesets(common);
        if (!rulesets.load.empty()) host.load_rulesets(rulesets.load);
        if (!state_in.empty()) host.load_state(state_in);
        if (!code.empty()) host.run_string(code);
        else host.run_file(script);
        if (!state_out.empty()) host.save_state(state_out);
        return kOk;
    });
}

}  // namespace umpire::cli
