// umpire odds EXPR|SCRIPT: the exact odds of a dice expression, or of every outcome a rule script
// returns (every die it rolls is a branch; Monte Carlo on all cores past the budget), optionally
// compared with the same script under a house rule (--compare), as a table, JSON or an SVG chart.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/OddsRunner.hpp"
#include "cli/Common.hpp"
#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/odds/Report.hpp"
#include "host/FileSnapshot.hpp"
#include "ruleset/Load.hpp"

namespace umpire::cli {
namespace {

// A progress bar on stderr, only when stderr is a terminal (CI logs stay clean). `what` is
// "sampling" or "exact" (then the fraction is the probability of the paths visited so far).
std::function<void(const char*, double)> progress_bar() {
    if (!::isatty(STDERR_FILENO)) return nullptr;
    return [](const char* what, double fraction) {
        const int width = 40, filled = static_cast<int>(fraction * width + 0.5);
        std::fprintf(stderr, "\r  %-8s [%s%s] %3d%%", what, std::string(filled, '#').c_str(),
                     std::string(width - filled, ' ').c_str(), static_cast<int>(fraction * 100 + 0.5));
        if (fraction >= 1.0) std::fprintf(stderr, "\r%60s\r", "");
        std::fflush(stderr);
    };
}

void write_svg(const std::string& file, const std::string& svg) {
    try {
        isolation::write_file(file, svg);  // through the parent when isolated
    } catch (const std::exception&) {
        throw Error("cannot write the chart to " + file);
    }
}

// A plain run's side is named after what it ran under: its rulesets, or "" for none.
std::string plain_label(const Common& common) {
    std::string label;
    for (const auto& r : common.rulesets) label += (label.empty() ? "" : ", ") + r;
    return label;
}

// A --compare side is named by its ruleset's folder name ("rulesets/asl-house-mg/" -> asl-house-mg).
std::string ruleset_label(const std::string& ruleset) {
    std::filesystem::path p = std::filesystem::path(ruleset).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    return p.filename().empty() ? ruleset : p.filename().string();
}

}  // namespace

int cmd_odds(const Common& common, const OddsInputs& in) {
    std::error_code too_long;  // a 5000-letter expression: not a file name (it threw, and the process aborted)
    const bool is_script =
        !in.code.empty() || std::filesystem::is_regular_file(in.target, too_long) || in.target.ends_with(".lua");
    // A bad expression is bad usage (exit 2), as in `umpire roll`.
    if (!is_script) {
        try {
            dice::DiceExpression check(in.target);
        } catch (const ParseError& e) {
            std::cerr << "umpire odds: " << e.what() << "\n(the dice language: docs/dice.md)\n";
            return kUsage;
        }
    }
    // A Monte Carlo run's hosts (one per thread) share the memory budget (monte_carlo_cap).
    ThreadedCap threaded;
    try {
        threaded = monte_carlo_cap(common, in.threads);
    } catch (const Error& e) {
        std::cerr << "umpire odds: " << e.what() << "\n";
        return kUsage;
    }
    std::vector<std::filesystem::path> outputs;
    if (!in.svg.empty()) outputs.emplace_back(in.svg);
    return isolated(common, [&] {
        // What the run holds outside its hosts (the engine's merged counts and results, the
        // report) is charged against a cap of a host's size that outlives them (MemoryBudget.hpp).
        odds::MemoryBudget memory(memory_cap(common));
        odds::Result result;
        std::optional<odds::Result> other;
        std::string script_label;  // where the run's errors are, as the runner names the script
        if (!is_script) {
            if (!in.compare.empty())
                throw Error("--compare needs a rule script: a dice expression has no ruleset to compare");
            if (!in.given.empty())
                throw Error("--given needs a rule script that returns a table of fields: a dice expression has none");
            result = odds_runner::of_expression(in.target,
                                                common.json ? odds_runner::kJsonBytesPerTotal : odds_runner::kTextBytesPerTotal,
                                                memory_cap(common));
        } else {
            odds_runner::Request request;
            request.host = host_options(common);
            request.host.memory_limit = threaded.cap;  // every host of the run: the exact one may fall back
            request.host.fold = !in.no_fold;
            request.rulesets = split_rulesets(common).load;
            request.script = in.target;
            request.code = in.code;
            script_label = odds_runner::script_label(request);
            request.odds.budget = in.budget;
            request.odds.monte_carlo_only = in.monte_carlo;
            request.odds.monte_carlo.samples = in.samples;
            request.odds.monte_carlo.seed = common.seed;
            request.odds.monte_carlo.threads = threaded.threads;
            request.odds.monte_carlo.target_half_width = in.precision / 100.0;
            const auto bar = progress_bar();
            if (bar) request.odds.monte_carlo.progress = [bar](double f) { bar("sampling", f); };
            request.odds.monte_carlo.bounds.progress = bar;
            request.odds.monte_carlo.bounds.memory = &memory;
            if (common.timeout_given && common.timeout > 0) {
                request.odds.monte_carlo.bounds.seconds = common.timeout;
                request.odds.monte_carlo.bounds.deadline =
                    std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                           std::chrono::duration<double>(common.timeout));
            }
            // The worker opens no file once the first side has loaded (FileAccess::none_reloading below):
            // the --compare side's files are read now, and its load finds them in memory.
            // What the worker keeps for those loads stops at the cap, read ahead before any host or not.
            file_snapshot::limit(request.host.memory_limit);
            if (!in.compare.empty()) ruleset::read_ahead({in.compare}, ruleset::search_path(request.host.search_path));
            result = odds_runner::run_script(request);
            if (!in.compare.empty()) {
                request.rulesets = {in.compare};
                other = odds_runner::run_script(request);
            }
        }
        if (!in.given.empty()) {  // (without conditions given() would copy the result whole)
            result = odds_runner::given(result, in.given, &memory, script_label);
            if (other) other = odds_runner::given(*other, in.given, &memory, script_label);
        }
        std::string title = (in.code.empty() ? in.target : "-e " + in.code) + (other ? " vs " + in.compare : "");
        for (const auto& s : common.set) title += " --set " + s;
        for (std::size_t i = 0; i < in.given.size(); ++i) title += (i ? " and " : " given ") + in.given[i];
        // Charged before the report is built, for as long as it and its text are held. (An
        // expression's report was bounded before its distribution was computed, of_expression.)
        odds::MemoryHold report_memory(&memory);
        if (is_script) {
            std::vector<const odds::Result*> kept{&result};
            if (other) kept.push_back(&*other);
            odds_runner::charge_report(report_memory, kept, common.json, in.svg.empty() ? in.fold_below / 100.0 : 0,
                                       script_label);
        }
        std::vector<odds::ReportSide> sides;
        sides.push_back({other ? "original" : plain_label(common), std::move(result)});
        if (other) sides.push_back({ruleset_label(in.compare), std::move(*other)});
        const odds::Report report = odds::build_report(title, std::move(sides));
        // Only the formats asked for are built: `umpire odds 10d10` prints text and builds no SVG.
        odds::TextOptions text;
        text.digits = in.digits;
        text.fold_below = in.fold_below / 100.0;
        if (!in.svg.empty()) write_svg(in.svg, odds::to_svg(report, text));
        if (common.json) std::cout << odds::to_json(report).dump(2) << "\n";
        else std::cout << odds::format_text(report, text);
        return kOk;
    }, outputs, {in.target, in.compare}, FileAccess::none_reloading);
}

}  // namespace umpire::cli
