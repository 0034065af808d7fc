// umpire serve SCRIPT: a live local page beside the editor (app/ServePage, ServeSession,
// ServeServer): the script's odds (one chart per field, beside the house rule's under --compare),
// one game of it as the rule log with every citation linked, and the scenario's map. Saving the
// script or a file of a ruleset updates the page by itself; a broken edit shows its file:line and
// keeps the last good results, marked stale. Listens on 127.0.0.1 only; the scripts run in the
// same sandbox as on the command line, and each page in a worker process with the same kernel
// limits (host/Isolation.hpp) unless --no-isolate or --trusted.
#include <algorithm>
#include <iostream>
#include <memory>
#include <new>

#include "app/ServePage.hpp"
#include "app/ServeServer.hpp"
#include "app/ServeSession.hpp"
#include "bindings/LuaError.hpp"
#include "cli/Common.hpp"
#include "host/FileSnapshot.hpp"
#include "host/Isolation.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"

namespace umpire::cli {
namespace fs = std::filesystem;

namespace {

// A page or an error as JSON text, any byte that is not UTF-8 shown as U+FFFD: rule code's texts
// reach the page (an error's message, printed lines), and a strict dump threw on them, so
// `error("bad \255 byte")` came out as "the page's worker process ended without a page".
std::string page_text(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// What each worker of the fork server runs: one whole page, sent back as JSON ("page"), or the
// error with its file:line ("error"), as serve::Session expects of a computation.
int page_in_worker(const serve::PageRequest& request, std::size_t memory_mib) {
    try {
        file_snapshot::limit(request.host.memory_limit);  // what the page keeps: each host carries it all
        isolation::send("page", page_text(serve::compute_page(request)));
        return kOk;
    } catch (const std::bad_alloc&) {
        // Under RLIMIT_AS a failed allocation is the limit, as `guarded` words it for odds and run.
        isolation::send("error", nlohmann::json{{"message", "the rules ran out of address space (limit " +
                                                                std::to_string(memory_mib) + " MiB, --memory)"},
                                                {"file", nullptr}, {"line", nullptr}}.dump());  // ASCII
    } catch (const std::exception& e) {
        isolation::send("error", page_text(serve::error_json(e)));
    }
    return kScriptError;
}

// The session's computation through the fork server: a fresh worker per page. A worker that dies
// (killed at --timeout, a crash, --memory, --cpu) throws WorkerDied, whose message names the
// limit; the session shows it and keeps the last good page, and the next save gets a new worker.
serve::Session::Compute isolated_compute(isolation::ForkServer& workers) {
    return [&workers] {
        nlohmann::json page, error;
        workers.call("page", [&](const std::string& topic, const std::string& payload) {
            (topic == "page" ? page : error) = nlohmann::json::parse(payload);
        });
        if (!error.is_null())
            throw ScriptError(error.value("message", std::string("the page's computation failed")),
                              error["file"].is_string() ? error["file"].get<std::string>() : std::string(),
                              error["line"].is_number() ? error["line"].get<int>() : 0);
        if (page.is_null()) throw Error("the page's worker process ended without a page");
        return page;
    };
}

}  // namespace

int cmd_serve(const Common& common, const ServeInputs& in) {
    if (int rc = refuse_output_flags(common, "serve", false)) return rc;
    if (in.port < 0 || in.port > 65535) {
        std::cerr << "umpire serve: --port must be 0..65535 (0: any free port)\n";
        return kUsage;
    }
    return guarded(common, [&] {
        std::error_code ec;  // (a name too long for a path is no file either)
        if (!fs::is_regular_file(in.script, ec)) throw Error("no script file '" + in.script + "'");
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
        // The page's Monte Carlo runs on every core, its hosts sharing the memory budget.
        const ThreadedCap threaded = monte_carlo_cap(common, 0);
        request.odds.monte_carlo.threads = threaded.threads;
        request.host.memory_limit = threaded.cap;

        // The fork server first, while this process has no thread yet: everything below (the
        // LuaHost's watchdog, the file watcher, the web server, the session) makes threads, and
        // a fork after that is what hung under ASan (host/Isolation.hpp, ForkServer).
        // Each page's worker reads what the page needs and keeps it, then opens no file while
        // rule code runs (serve::compute_page; docs/sandbox.md, "No file opened after loading").
        std::unique_ptr<isolation::ForkServer> workers;
        if (isolates(common)) {
            isolation::Limits limits = isolation_limits(common, {in.script, in.compare, in.scenario});
            limits.close_files_after_load = limits.keep_files_for_reload = true;
            workers = std::make_unique<isolation::ForkServer>(
                limits, [request, memory = common.memory_mib](const std::string&) { return page_in_worker(request, memory); });
        }

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
        if (!in.scenario.empty() && fs::is_regular_file(in.scenario, ec)) files.push_back(in.scenario);
        for (const auto& t : in.rules_texts)
            if (!fs::is_regular_file(t, ec)) throw Error("no rules text file '" + t + "'");

        serve::Session session(workers ? isolated_compute(*workers)
                                       : serve::Session::Compute([request] { return serve::compute_page(request); }),
                               files, trees);
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
