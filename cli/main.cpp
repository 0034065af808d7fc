// The `umpire` command: parses the command line and hands over to cli/cmd_*.cpp.
// Exit codes: 0 success, 1 a rule/script error, 2 bad usage.
#include <iostream>

#include "cli/Common.hpp"

using namespace umpire::cli;

int main(int argc, char** argv) {
    CLI::App app{"umpire: a scriptable rules engine for tabletop wargames.\n"
                 "Example: umpire run --ruleset asl scripts/mg_fire.lua"};
    app.require_subcommand(1);
    Common common;

    RunInputs run_inputs;
    std::string script, expr, journal;
    std::vector<std::string> test_rulesets;

    auto* run = app.add_subcommand("run", "Run a Lua script (or -e CODE) against the loaded rulesets.\n"
                                          "Example: umpire run --ruleset asl -e \"print(umpire.data.ift[12])\"");
    run->add_option("SCRIPT", run_inputs.script, "Lua script file");
    run->add_option("-e,--execute", run_inputs.code, "Lua code to run instead of a file");
    run->add_option("--state", run_inputs.state_in, "Load the game state from this JSON file first");
    run->add_option("--save-state", run_inputs.state_out, "Save the game state to this JSON file afterwards");
    run->add_option("--journal", run_inputs.journal_out,
                    "Save the journal (every roll, modifier and citation) for `umpire replay`");
    add_common(run, common);

    auto* roll = app.add_subcommand("roll", "Roll a dice expression.\nExample: umpire roll 2d6+1 --seed 42");
    roll->add_option("EXPR", expr, "Dice expression: 2d6, D6+1, d%, 4d6kh3, ...")->required();
    add_common(roll, common);

    OddsInputs odds_inputs;
    auto* odds = app.add_subcommand(
        "odds",
        "Exact odds of a dice expression, or of every outcome a rule script returns: each die it\n"
        "rolls becomes a branch and the script is re-run along every path (pools asked with\n"
        "umpire.dice.count cost n+1 branches). Past --budget paths it samples instead (Monte Carlo\n"
        "on every core, 95% intervals) and says so. A script returning a table of fields gets the\n"
        "joint distribution and each field's marginal.\n"
        "Examples:\n"
        "  umpire odds 2d6+1\n"
        "  umpire odds --ruleset asl scripts/asl/odds_mmg_fire_group.lua --svg mmg.svg\n"
        "  umpire odds --ruleset bolt-action scripts/bolt-action/compare_mg42.lua --compare bolt-action-mg42");
    odds->add_option("EXPR_OR_SCRIPT", odds_inputs.target, "Dice expression or Lua script")->required();
    odds->add_option("--compare", odds_inputs.compare,
                     "Run the script again with this ruleset instead (a house rule that extends the "
                     "original) and print both and the difference");
    odds->add_option("--svg", odds_inputs.svg, "Write a bar chart of the distribution to this SVG file");
    odds->add_option("--budget", odds_inputs.budget, "Exact paths allowed before switching to Monte Carlo");
    odds->add_flag("--monte-carlo", odds_inputs.monte_carlo, "Sample instead of enumerating");
    odds->add_option("--samples", odds_inputs.samples, "Monte Carlo samples (default 1000000)");
    odds->add_option("--precision", odds_inputs.precision,
                     "Monte Carlo: sample until every outcome's 95% half-width is at most this many "
                     "percentage points (e.g. 0.1)");
    odds->add_option("--threads", odds_inputs.threads, "Monte Carlo worker threads (default: every core)");
    add_common(odds, common);

    auto* watch = app.add_subcommand("watch", "Run a script, and again every time it or a ruleset changes.\n"
                                              "Example: umpire watch --ruleset my_house_rule scripts/try.lua");
    watch->add_option("SCRIPT", script, "Lua script file")->required();
    add_common(watch, common);

    auto* test = app.add_subcommand("test", "Run the spec tests (tests/*.lua) of rulesets; all of them if none named.\n"
                                            "Example: umpire test asl   (prints 'N passed, N failed'; exit 1 on a failure)");
    test->add_option("RULESET", test_rulesets, "Ruleset names or folders");
    add_common(test, common);

    auto* replay = app.add_subcommand("replay", "Replay a saved journal and check it comes out the same.\n"
                                                "Example: umpire replay game.journal.json");
    replay->add_option("JOURNAL", journal, "Journal file")->required();
    add_common(replay, common);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);  // prints help, or the usage error
        return rc == 0 ? kOk : kUsage;
    }

    if (*run) {
        if (run_inputs.script.empty() == run_inputs.code.empty()) {
            std::cerr << "umpire run: give a SCRIPT or -e CODE (exactly one)\n" << run->help();
            return kUsage;
        }
        return cmd_run(common, run_inputs);
    }
    if (*roll) return cmd_roll(common, expr);
    if (*odds) return cmd_odds(common, odds_inputs);
    if (*watch) return cmd_watch(common, script);
    if (*test) return cmd_test(common, test_rulesets);
    if (*replay) return cmd_replay(common, journal);
    return kUsage;
}
