// The `umpire` command: parses the command line and hands over to cli/cmd_*.cpp.
// Exit codes: 0 success, 1 a rule/script error, 2 bad usage.
#include <iostream>

#include "cli/Common.hpp"

using namespace umpire::cli;

int main(int argc, char** argv) {
    CLI::App app{"umpire: a scriptable rules engine for tabletop wargames.\n"
                 "Example: umpire odds --ruleset asl scripts/asl/odds_mmg_fire_group.lua"};
    app.require_subcommand(1);
    // The version of the engine, as the journal header records it (engine_version), so a bug
    // report and a saved game can be matched.
    app.set_version_flag("--version", "umpire " UMPIRE_VERSION, "Print the version and exit");
    Common common;

    RunInputs run_inputs;
    std::string script, expr, journal;
    std::vector<std::string> test_rulesets;

    auto* run = app.add_subcommand("run", "Run a Lua script (or -e CODE) against the loaded rulesets.\n"
                                          "What it returns is printed: strings as they are, numbers as Lua prints them\n"
                                          "(inf, -inf, nan too), tables as JSON. Under --json it is the \"returned\" array,\n"
                                          "where a number that is not finite is the string \"Infinity\", \"-Infinity\" or \"NaN\".\n"
                                          "Example: umpire run --ruleset asl -e \"print(umpire.data.ift[12])\"");
    run->add_option("SCRIPT", run_inputs.script, "Lua script file");
    run->add_option("-e,--execute", run_inputs.code, "Lua code to run instead of a file");
    run->add_option("--state", run_inputs.state_in, "Load the game state from this JSON file first");
    run->add_option("--save-state", run_inputs.state_out, "Save the game state to this JSON file afterwards");
    run->add_option("--journal", run_inputs.journal_out,
                    "Save the journal (every roll, modifier and citation) for `umpire replay`");
    add_set_option(run, common);
    add_common(run, common);

    auto* roll = app.add_subcommand("roll", "Roll a dice expression.\nExample: umpire roll 2d6+1 --seed 42");
    roll->add_option("EXPR", expr,
                     "Dice expression (grammar: docs/dice.md): 2d6+1, d%, 4d6kh3, 4d6dl1, d6! (explodes,\n"
                     "depth 10; d6!{3} for 3), d6r1 (re-roll until), d6ro1 (once), 10d6>=5 (successes),\n"
                     "d[1,1,2,3,5,8], 4dF, d6*2. d66 is the wargamers' D66: two d6 as tens and units\n"
                     "(11..66); a plain 1..66 die is d[1..66]. D2 and D3 are read off a d6.\n"
                     "A bad expression exits 2 with a caret under the offending character.")
        ->required();
    add_common(roll, common);

    OddsInputs odds_inputs;
    auto* odds = app.add_subcommand(
        "odds",
        "Exact odds of a dice expression, or of every outcome a rule script returns: each die it\n"
        "rolls becomes a branch and the script is re-run along every path (pools asked with\n"
        "umpire.dice.count cost n+1 branches). Past --budget paths it samples instead (Monte Carlo\n"
        "on every core, 95% intervals) and says so. A script returning a table of fields gets the\n"
        "joint distribution and each field's marginal; --given asks the odds given a condition.\n"
        "Examples:\n"
        "  umpire odds 2d6+1\n"
        "  umpire odds --ruleset asl scripts/asl/odds_mmg_fire_group.lua --svg mmg.svg\n"
        "  umpire odds --ruleset asl scripts/asl/odds_mmg_fire_group.lua --given ift=1KIA\n"
        "  umpire odds --ruleset bolt-action scripts/bolt-action/compare_mg42.lua --compare bolt-action-mg42\n"
        "  umpire odds -e 'return umpire.dice.count(umpire.args.n, 6, 5)' --set n=10   (a quick question)\n"
        "Report (text, --json, --svg): docs/odds-report.md. Exit 2 for bad usage (a bad expression or\n"
        "--set), 1 for a rule or script error.");
    odds->add_option("EXPR_OR_SCRIPT", odds_inputs.target,
                     "Dice expression (as for roll; grammar: docs/dice.md; d66 = tens and units) or Lua script");
    odds->add_option("-e,--execute", odds_inputs.code,
                     "Lua code to run as the odds script instead of a file (it returns the outcome)");
    add_set_option(odds, common);
    odds->add_option("--compare", odds_inputs.compare,
                     "Run the script again with this ruleset instead (a house rule that extends the "
                     "original) and print both and the difference");
    odds->add_option("--svg", odds_inputs.svg, "Write a bar chart of the distribution to this SVG file");
    odds->add_option("--budget", odds_inputs.budget, "Exact paths allowed before switching to Monte Carlo");
    odds->add_flag("--monte-carlo", odds_inputs.monte_carlo, "Sample instead of enumerating");
    odds->add_flag("--no-fold", odds_inputs.no_fold,
                   "Run umpire.odds.chain path by path instead of folding its states (slow: a check "
                   "that folding changes no fraction)");
    odds->add_option("--samples", odds_inputs.samples, "Monte Carlo samples (default 1000000)");
    odds->add_option("--precision", odds_inputs.precision,
                     "Monte Carlo: sample until every outcome's 95% half-width is at most this many "
                     "percentage points (e.g. 0.1)");
    odds->add_option("--threads", odds_inputs.threads, "Monte Carlo worker threads (default: every core)");
    odds->add_option("--given", odds_inputs.given,
                     "Only the outcomes meeting this condition on a returned field, renormalized: "
                     "FIELD=VALUE, FIELD~=VALUE, or FIELD<=N (also <, >, >=). Repeat it: all must "
                     "hold. E.g. --given ift=1KIA shows malfunction given a KIA")
        ->take_all()
        ->allow_extra_args(false);
    odds->add_option("--digits", odds_inputs.digits,
                     "Show every probability in the text as a decimal with N significant digits (the\n"
                     "JSON stays exact). Default: a fraction if it is short, else 6 digits")
        ->check(CLI::Range(1, 40));
    odds->add_option("--fold", odds_inputs.fold_below,
                     "Text and SVG: fold the outcomes below this many percent on every side into one\n"
                     "row (default 0.01; 0 shows every row; --json always lists every outcome)")
        ->check(CLI::Range(0.0, 100.0));
    add_common(odds, common);

    SweepInputs sweep_inputs;
    auto* sweep = app.add_subcommand(
        "sweep",
        "Where does a house rule change the odds? Runs an odds script at every cell of a grid of\n"
        "parameters, exactly (the engine of `umpire odds`); the script reads each cell's values in\n"
        "umpire.args. An axis is NAME=A..B (integers; A..B:STEP) or NAME=V1,V2,...; the axis\n"
        "`ruleset` loads its value as the cell's ruleset. Cells are numbered with the last --grid\n"
        "fastest. Writes JSON Lines (one line per cell: its args and its `odds --json` report), CSV\n"
        "(cell, axes, table, figure, outcome, exact, value) and an SVG heat map of one figure: --heat\n"
        "FIELD=VALUE (P of a field's value; FIELD 'outcome' for a scalar outcome), at_least:FIELD=N,\n"
        "or mean:FIELD; with two rulesets, a map of each and of their difference.\n"
        "--shard I/N runs the cells whose index % N == I-1 (GNU parallel, a Slurm array), and\n"
        "`umpire sweep merge SHARD.jsonl...` joins them into output byte-identical to one run.\n"
        "docs/sweep.md. Exit 2 for bad usage (a bad --grid, --shard or --set), 1 for a script error.\n"
        "Examples:\n"
        "  umpire sweep --ruleset asl scripts/asl/sweep_mmg.lua --grid range=1..12 --grid cover=0,1,2 \\\n"
        "      --grid ruleset=asl,asl-house-mg --csv mmg.csv --svg mmg.svg --heat kill=true --x range --y cover\n"
        "  parallel umpire sweep ... --shard {}/4 --jsonl shard{}.jsonl ::: 1 2 3 4\n"
        "  umpire sweep merge shard*.jsonl --jsonl all.jsonl --csv all.csv");
    sweep->require_subcommand(0, 1);
    sweep->add_option("SCRIPT", sweep_inputs.script, "The odds script (it reads umpire.args)");
    sweep->add_option("--grid", sweep_inputs.grid, "An axis: NAME=A..B[:STEP] or NAME=V1,V2,... Repeatable")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    sweep->add_option("--shard", sweep_inputs.shard, "Run only shard I of N: the cells whose index % N == I-1");
    sweep->add_option("--budget", sweep_inputs.budget, "Exact paths allowed per cell (a cell past it is an error)");
    auto add_sweep_outputs = [&](CLI::App* cmd) {
        cmd->add_option("--jsonl", sweep_inputs.jsonl, "Write the JSON Lines here (default: stdout, if no other output)");
        cmd->add_option("--csv", sweep_inputs.csv, "Write the CSV here");
        cmd->add_option("--svg", sweep_inputs.svg, "Write the heat map here (with --heat, --x, --y)");
        cmd->add_option("--heat", sweep_inputs.heat, "The figure of the heat map: FIELD=VALUE, at_least:FIELD=N or mean:FIELD");
        cmd->add_option("--x", sweep_inputs.x, "The heat map's horizontal axis");
        cmd->add_option("--y", sweep_inputs.y, "The heat map's vertical axis");
    };
    add_sweep_outputs(sweep);
    add_set_option(sweep, common);
    add_common(sweep, common);
    auto* sweep_merge = sweep->add_subcommand(
        "merge", "Join the JSON Lines of every shard of one sweep (each cell once) into the outputs of the\n"
                 "unsharded run, byte for byte.\n"
                 "Example: umpire sweep merge shard1.jsonl shard2.jsonl --jsonl all.jsonl --csv all.csv");
    sweep_merge->add_option("FILES", sweep_inputs.merge, "The shards' JSON Lines files")->required();
    add_sweep_outputs(sweep_merge);

    auto* watch = app.add_subcommand("watch", "Run a script, and again every time it or a ruleset changes.\n"
                                              "Example: umpire watch --ruleset my_house_rule scripts/try.lua");
    watch->add_option("SCRIPT", script, "Lua script file")->required();
    add_set_option(watch, common);
    add_common(watch, common);

    auto* test = app.add_subcommand("test", "Run the spec tests (tests/*.lua) of rulesets; all of them if none named.\n"
                                            "Example: umpire test asl   (prints 'N passed, N failed'; exit 1 on a failure)");
    test->add_option("RULESET", test_rulesets, "Ruleset names or folders");
    add_common(test, common);

    std::vector<std::string> check_rulesets;
    bool check_verbose = false;
    auto* check = app.add_subcommand(
        "check", "Check a ruleset before publishing it: manifest, data and scenarios against their JSON\n"
                 "Schemas (schemas/), loading in the sandbox with every validate(data), and its spec tests.\n"
                 "Every problem says file:line:col; exit 1 on any.\n"
                 "Example: umpire check asl   (or: umpire check --ruleset path/to/my_rule)");
    check->add_option("RULESET", check_rulesets, "Ruleset names or folders (all on the search path if none)");
    check->add_flag("-v,--verbose", check_verbose, "Also print every spec test");
    add_common(check, common);

    NewInputs new_inputs;
    auto* make = app.add_subcommand(
        "new", "Start a new game system, or a house rule over any ruleset on the search path. Everything\n"
               "written passes `umpire check` and `umpire test` as made; change it from there.\n"
               "  ruleset:    manifest, data with its JSON Schema, a rules module, spec tests with\n"
               "              fixed dice, an odds script, a README\n"
               "  house-rule: a ruleset that extends another, overriding data and rules (never copying)\n"
               "Examples:\n"
               "  umpire new ruleset grimdark --dir ~/games\n"
               "  umpire new house-rule my-mg --extends asl --dir ~/games\n"
               "  umpire new house-rule grimdark-rerolls --extends grimdark --ruleset ~/games --dir ~/games");
    make->add_option("KIND", new_inputs.kind, "What to make: ruleset or house-rule")->required();
    make->add_option("NAME", new_inputs.name, "The new ruleset's name (and folder name)")->required();
    make->add_option("--extends", new_inputs.extends,
                     "house-rule: the parent ruleset (any name on the search path, or a folder)");
    make->add_option("--dir", new_inputs.dir, "Folder to write NAME/ into (default: rulesets)");
    make->add_option("--ruleset", common.rulesets,
                     "A folder of rulesets to look the parent up in (also UMPIRE_PATH). Repeatable.")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

    DrawInputs draw_inputs;
    auto* draw = app.add_subcommand(
        "draw", "Draw a scenario as SVG: an ASL hex map (terrain, walls/hedges, counters, ASL names) or a\n"
                "tabletop (model bases, fixed-weapon arcs, HE templates placed by the kernel with the\n"
                "models they hit). SCENARIO is a file, or a name in scenarios/ of a --ruleset. The\n"
                "ruleset labels what it computes (asl: Residual FP per lane hex, MP per vehicle step).\n"
                "Examples:\n"
                "  umpire draw --ruleset asl a9_222 --fire-lane --svg a9_222.svg\n"
                "  umpire draw --ruleset asl d2_33_pzkpfw --path --svg d2_33.svg");
    draw->add_option("SCENARIO", draw_inputs.scenario, "Scenario file or name")->required();
    draw->add_option("--svg", draw_inputs.svg, "Output file (default: stdout)");
    draw->add_flag("--fire-lane", draw_inputs.fire_lane, "Hex map: each declared Fire Lane (A9.22), each hex with its Residual FP");
    draw->add_flag("--alt-grain", draw_inputs.alt_grain, "Hex map: both sides of each alternate hex grain lane (A9.221)");
    draw->add_flag("--covered-arc", draw_inputs.covered_arc, "Hex map: each vehicle's covered arc (VCA)");
    draw->add_flag("--facing", draw_inputs.facing, "Hex map: each vehicle's facing vertex");
    draw->add_flag("--path", draw_inputs.path, "Hex map: the scenario's moves (MF), and each vehicle's path played by the rules (MP per step and hex)");
    add_common(draw, common);

    ServeInputs serve_inputs;
    auto* serve = app.add_subcommand(
        "serve",
        "A live page beside your editor: the script's odds (one chart per field, mean and at-least\n"
        "columns; beside the house rule's with --compare), one game of it played with --seed as the\n"
        "rule log (beside the house rule's game, same seed, with --compare; every citation links to\n"
        "its section: the lines of the rules that cite it, and its paragraph from --rules-text), and\n"
        "the scenario's map (hover a hex for its name and terrain). Save the script or any file of a\n"
        "ruleset and the page updates by itself; a broken edit shows its file:line and keeps the last\n"
        "good results, marked stale.\n"
        "Listens on 127.0.0.1 only, read-only; scripts run in the same sandbox as `odds` and `run`, each\n"
        "page in a fresh worker process with the same limits (--timeout, --memory, --cpu, the filter;\n"
        "--no-isolate): a page whose rules pass a limit shows the error naming it, and the server goes on.\n"
        "Examples:\n"
        "  umpire serve --ruleset asl scripts/tour/a9_222_first_fire_odds.lua\n"
        "      then open http://127.0.0.1:8765/ and edit rulesets/asl/data/sw_mg.yaml\n"
        "  umpire serve --ruleset asl scripts/asl/compare_house_mg.lua --compare asl-house-mg --port 0");
    serve->add_option("SCRIPT", serve_inputs.script, "Lua rule script (as for odds: it returns the outcome)")->required();
    serve->add_option("--compare", serve_inputs.compare,
                      "Also the odds under this ruleset (a house rule), charted beside the original");
    serve->add_option("--port", serve_inputs.port, "Port on 127.0.0.1 (default 8765; 0: any free port, printed)");
    serve->add_option("--scenario", serve_inputs.scenario,
                      "Scenario to draw (file or name; default: the one the script loads with "
                      "umpire.data.scenario)");
    serve->add_option("--rules-text", serve_inputs.rules_texts,
                      "Your own copy of a rules text (plain text; none ships with umpire); a citation's "
                      "page (/rules/A9.22) shows its section: from the line starting \"9.22 \" to the "
                      "next numbered one. Repeatable")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    serve->add_option("--budget", serve_inputs.budget, "Exact paths allowed before switching to Monte Carlo");
    serve->add_flag("--monte-carlo", serve_inputs.monte_carlo, "Sample instead of enumerating");
    serve->add_option("--samples", serve_inputs.samples, "Monte Carlo samples (default 1000000)");
    add_set_option(serve, common);
    add_common(serve, common);

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
    if (*odds) {
        if (odds_inputs.target.empty() == odds_inputs.code.empty()) {
            std::cerr << "umpire odds: give an EXPR_OR_SCRIPT or -e CODE (exactly one)\n" << odds->help();
            return kUsage;
        }
        return cmd_odds(common, odds_inputs);
    }
    if (*sweep_merge) return cmd_sweep_merge(common, sweep_inputs);
    if (*sweep) {
        if (sweep_inputs.script.empty() || sweep_inputs.grid.empty()) {
            std::cerr << "umpire sweep: give a SCRIPT and at least one --grid AXIS=VALUES\n" << sweep->help();
            return kUsage;
        }
        return cmd_sweep(common, sweep_inputs);
    }
    if (*watch) return cmd_watch(common, script);
    if (*test) return cmd_test(common, test_rulesets);
    if (*replay) return cmd_replay(common, journal);
    if (*check) return cmd_check(common, check_rulesets, check_verbose);
    if (*make) return cmd_new(common, new_inputs);
    if (*draw) return cmd_draw(common, draw_inputs);
    if (*serve) return cmd_serve(common, serve_inputs);
    return kUsage;
}
