// umpire sweep SCRIPT --grid AXIS=VALUES...: the exact odds of a script at every cell of a grid of
// parameters (umpire.args), as JSON Lines, CSV and an SVG heat map; --shard I/N runs a stable
// subset for a job runner, and `umpire sweep merge` joins the shards' JSON Lines byte for byte.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "app/Sweep.hpp"
#include "cli/Common.hpp"
#include "core/Error.hpp"

namespace umpire::cli {
namespace {

void write_file(const std::string& file, const std::string& text, const char* what) {
    std::ofstream out(file, std::ios::binary);
    out << text;
    if (!out) throw Error(std::string("cannot write the ") + what + " to " + file);
}

// Writes what was asked; with no output file, the JSON Lines go to stdout.
void write_outputs(const SweepInputs& in, const std::vector<nlohmann::json>& lines) {
    if (!in.jsonl.empty()) write_file(in.jsonl, sweep::to_jsonl(lines), "JSON Lines");
    if (!in.csv.empty()) write_file(in.csv, sweep::to_csv(lines), "CSV");
    if (!in.svg.empty()) write_file(in.svg, odds::to_svg(sweep::heat_map(lines, {in.heat, in.x, in.y})), "heat map");
    if (in.jsonl.empty() && in.csv.empty() && in.svg.empty()) std::cout << sweep::to_jsonl(lines);
}

// Checks the flags that need each other; "" if fine.
std::string usage_problem(const SweepInputs& in) {
    if (!in.svg.empty() && (in.heat.empty() || in.x.empty() || in.y.empty()))
        return "--svg draws a heat map: give --heat WHAT, --x AXIS and --y AXIS";
    if (in.svg.empty() && !in.heat.empty()) return "--heat needs --svg FILE";
    return "";
}

}  // namespace

int cmd_sweep(const Common& common, const SweepInputs& in) {
    // A sweep writes JSON Lines itself; --json and --explain would be silently ignored.
    if (const int rc = refuse_output_flags(common, "sweep", false); rc != kOk) return rc;
    if (const std::string problem = usage_problem(in); !problem.empty()) {
        std::cerr << "umpire sweep: " << problem << "\n";
        return kUsage;
    }
    sweep::Request request;
    try {
        for (const auto& g : in.grid) request.grid.axes.push_back(sweep::parse_axis(g));
        (void)request.grid.size();  // a grid of too many cells is bad usage too
        if (!in.shard.empty()) request.shard = sweep::parse_shard(in.shard);
    } catch (const ParseError& e) {
        std::cerr << "umpire sweep: " << e.what() << "\n";
        return kUsage;
    }
    // --x and --y must name axes of the grid: known before any cell runs, so bad usage.
    for (const auto& [flag, name] : {std::pair{"--x", in.x}, std::pair{"--y", in.y}}) {
        if (name.empty()) continue;
        bool found = false;
        for (const auto& a : request.grid.axes) found = found || a.name == name;
        if (!found) {
            std::cerr << "umpire sweep: " << flag << " " << name << ": no such axis in the grid ("
                      << request.grid.text() << ")\n";
            return kUsage;
        }
    }
    return guarded(common, [&] {
        request.odds.host = host_options(common);
        request.odds.rulesets = split_rulesets(common).load;
        request.odds.script = in.script;
        request.odds.odds.budget = in.budget;
        if (::isatty(STDERR_FILENO))
            request.progress = [](std::size_t done, std::size_t total) {
                std::fprintf(stderr, "\r  sweep %zu/%zu cells", done, total);
                if (done == total) std::fprintf(stderr, "\r%40s\r", "");
                std::fflush(stderr);
            };
        write_outputs(in, sweep::run(request));
        return kOk;
    });
}

int cmd_sweep_merge(const Common& common, const SweepInputs& in) {
    if (const std::string problem = usage_problem(in); !problem.empty()) {
        std::cerr << "umpire sweep merge: " << problem << "\n";
        return kUsage;
    }
    return guarded(common, [&] {
        std::vector<nlohmann::json> lines;
        for (const auto& file : in.merge) {
            auto more = sweep::read_lines(file);
            lines.insert(lines.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
        }
        write_outputs(in, sweep::merge(std::move(lines)));
        return kOk;
    });
}

}  // namespace umpire::cli
