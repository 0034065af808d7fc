// umpire serve SCRIPT: a live local page beside the editor (app/ServePage, ServeSession,
// ServeServer): the script's odds (one chart per field, beside the house rule's under --compare),
// one game of it as the rule log with every citation linked, and the scenario's map. Saving the
// script or a file of a ruleset updates the page by itself; a broken edit shows its file:line and
// keeps the last good results, marked stale. Listens on 127.0.0.1 only; the scripts run in the
// same sandbox as on the command line.
#include <algorithm>
#include <iostream>

#include "app/ServePage.hpp"
#include "app/ServeServer.hpp"
#include "app/ServeSession.hpp"
#include "cli/Common.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"

namespace umpire::cli {
namespace fs = std::filesystem;

int cmd_serve(const Common& common, const ServeInputs& in) {
    if (int rc = refuse_output_flags(common, "serve", false)) return rc;
    if (in.port < 0 || in.port > 65535) {
        std::cerr << "umpire serve: --port must be 0..65535 (0: any free port)\n";
        return kUsage;
    }
    return guarded(common, [&] {
        if (!fs::is_regular_file(in.script)) throw Error("no script file '" + in.script + "'");
        serve::PageRequest request;
        request.host = host_options(common);
        request.rulesets = split_rulesets(common).load;
        request.compare = in.compare;
        request.script = in.script;
        request.scenario = in.scenario;
        request.set = common.set;
        request.odds.budget = in.budget;
        request.odds.monte_carlo_only = in.monte_carlo;
        request.odds.monte_carlo.samples = in.samples;
        request.odds.monte_carlo.seed = common.seed;

        // What to watch: the script, and the folder of every ruleset loaded or compared (with
        // their extends chains), as `watch` does; the same folders answer /rules/<section>.
        const LuaHost paths(request.host);
        std::vector<fs::path> trees;
        auto names = request.rulesets;
        if (!in.compare.empty()) names.push_back(in.compare);
        for (const auto& name : names)
            for (const auto& m : ruleset::chain(ruleset::find(name, ruleset::search_path(paths)), ruleset::search_path(paths)))
                if (std::find(trees.begin(), trees.end(), m.dir) == trees.end()) trees.push_back(m.dir);
        std::vector<fs::path> files = {in.script};
        if (!in.scenario.empty() && fs::is_regular_file(in.scenario)) files.push_back(in.scenario);
        for (const auto& t : in.rules_texts)
            if (!fs::is_regular_file(t)) throw Error("no rules text file '" + t + "'");

        serve::Session session([request] { return serve::compute_page(request); }, files, trees);
        serve::ServerOptions options;
        options.ruleset_dirs = trees;
        options.rules_texts.assign(in.rules_texts.begin(), in.rules_texts.end());
        serve::Server server(session, options);
        const int port = server.bind(in.port);
        std::cout << "umpire serve: open http://127.0.0.1:" << port << "/ (Ctrl-C to stop)" << std::endl;
        session.start();
        server.run();
        return kOk;
    });
}

}  // namespace umpire::cli
