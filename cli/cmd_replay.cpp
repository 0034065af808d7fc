// umpire replay JOURNAL: runs a recorded game again (same engine, rulesets, seed, script and
// starting state) and checks the new journal is the same, byte for byte; if not, says where the
// two first differ.
#include <iostream>

#include "bindings/GameLog.hpp"
#include "app/Replay.hpp"
#include "cli/Common.hpp"
#include "host/RegularFile.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace umpire::cli {
namespace fs = std::filesystem;

namespace {

// The journal's text. A journal is untrusted input, and its path may name anything: a FIFO would
// block the read for ever, /dev/zero fill the address space, a folder read as empty. So it must
// be a regular file (symlinks followed), opened without blocking and checked on the descriptor
// read: the host's one bounded read of a regular file (host/RegularFile.hpp), with this command's
// messages. Its bound follows the one memory cap (issue 16): parsed, a journal takes about nine
// times its size (a 50 MB journal made a 435 MB tree, outside the 256 MiB cap), so it may hold a
// tenth of the cap: 25.6 MiB at the default --memory, about 100 000 entries of a game.
std::string read_journal(const std::string& file, std::size_t cap) {
    const std::size_t max_bytes = cap / 10;
    const auto refuse = [&](const std::string& why) { return Error(file + ": " + why); };
    auto got = regular_file::read(file, max_bytes);
    using Status = regular_file::Read::Status;
    const auto mib = [](std::size_t bytes) {
        const std::size_t tenths = (bytes * 10 + (std::size_t{1} << 19)) >> 20;  // rounded
        return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") + " MiB";
    };
    switch (got.status) {
        case Status::read: return std::move(got.bytes);
        case Status::not_regular:
            throw refuse(std::string("a journal is a JSON file, and this is ") + regular_file::kind_of(got.st));
        case Status::too_big:  // by its size, or grown past it while read
            throw refuse("more than " + mib(max_bytes) + "; a journal may hold at most " + mib(max_bytes) +
                         ", a tenth of the memory cap (" + mib(cap) +
                         ", an eighth of --memory), since its parsed tree takes about ten times its size");
        case Status::cannot_open:
        case Status::read_error:
        case Status::elsewhere:  // (nothing checked: not met)
            break;
    }
    throw refuse(std::string("cannot read the journal: ") + std::strerror(got.error));
}

// Checks what the header's inputs hold before any of it is used: each field this version knows,
// with its type (a field read with the wrong type was a bare JSON library error naming no file;
// an unknown field was ignored, so a typo or a newer format replayed as something else), and the
// recorded starting state parsed as a journal is (nesting bounded: a deep one crashed the
// conversion into Lua). Error without the file's name, which the caller adds.
void check_inputs(const nlohmann::json& inputs) {
    const auto list_of_text = [&](const char* key) {
        if (!inputs.contains(key)) return;
        const auto& list = inputs.at(key);
        if (!list.is_array()) throw Error(std::string("inputs.") + key + " must be a list of strings, not a " + list.type_name());
        for (const auto& item : list)
            if (!item.is_string())
                throw Error(std::string("inputs.") + key + " holds a " + item.type_name() + ", not a string");
    };
    for (auto it = inputs.begin(); it != inputs.end(); ++it) {
        const std::string& key = it.key();
        if (key == "args" || key == "rulesets") {
            list_of_text(key.c_str());
            // (each recorded arg is what --set was given: a malformed one is the journal's fault,
            // and the message says so, rather than blame a --set this command was never given)
            if (key == "args") {
                for (const auto& item : it.value()) {
                    const std::string problem = set_problem(item.get<std::string>());
                    if (!problem.empty()) throw Error("inputs.args holds " + item.dump() + ": " + problem);
                }
            }
        } else if (key == "code" || key == "script") {
            if (!it.value().is_string()) throw Error("inputs." + key + " must be a string, not a " + it.value().type_name());
            // Precompiled bytecode (what string.dump makes: ESC first) is never run; the sandbox's
            // text-only load refused it, but with an error naming neither the journal nor why.
            if (key == "code" && it.value().get_ref<const std::string&>().rfind('\x1b', 0) == 0)
                throw Error("inputs.code is precompiled Lua bytecode (its first byte is ESC, 0x1B): a journal records "
                            "the script's source text, and bytecode is never run");
        } else if (key == "state") {
            if (it.value().is_null()) continue;
            if (!it.value().is_string()) throw Error("inputs.state must be the game state as JSON text, not a " + std::string(it.value().type_name()));
            try {
                if (!bus::Journal::parse_untrusted(it.value().get<std::string>(), "inputs.state").is_object())
                    throw Error("inputs.state: the game state must be a JSON object");
            } catch (const ParseError& e) {
                throw Error(e.what());
            }
        } else {
            throw Error("unknown field inputs." + nlohmann::json(key).dump() + " (inputs has args, code, rulesets, script, state)");
        }
    }
}

}  // namespace

int cmd_replay(const Common& common, const std::string& journal_file) {
    // A journal is untrusted input: isolated even with --trusted (its code runs sandboxed).
    Common untrusted = common;
    untrusted.trusted = false;
    return isolated(untrusted, [&] {
        const bus::Journal recorded = [&] {
            try {
                return bus::Journal::load(read_journal(journal_file, memory_cap(common)));
            } catch (const ParseError& e) {
                throw Error(journal_file + ": " + e.what());  // name the file
            }
        }();
        const auto& header = recorded.header();
        const auto& inputs = header.inputs;
        try {
            check_inputs(inputs);
        } catch (const Error& e) {
            throw Error(journal_file + ": " + e.what());
        }
        for (auto it = header.rulesets.begin(); it != header.rulesets.end(); ++it)
            if (!ruleset::valid_name(it.key()))  // shown as JSON: a name may hold a NUL or escapes
                throw Error(journal_file + ": header.rulesets names " + nlohmann::json(it.key()).dump() +
                            ", which is not a ruleset name (letters, digits, '_', '-' and '.')");
        if (!inputs.contains("code"))
            throw Error(journal_file + ": the journal header has no recorded script (was it made by `umpire run --journal`?)");
        Common replay_common = common;
        replay_common.seed = header.seed;
        replay_common.json = false;
        replay_common.explain = false;
        replay_common.trusted = false;  // a journal is untrusted input: its code runs sandboxed
        replay_common.set.clear();  // the recorded umpire.args, not this command's
        for (const auto& a : inputs.value("args", nlohmann::json::array()))
            if (a.is_string()) replay_common.set.push_back(a.get<std::string>());
        std::vector<std::string> ignored;
        HostOptions options = host_options(replay_common);
        options.print = [&ignored](const std::string& line) { ignored.push_back(line); };
        // The journal names the rulesets it was recorded with; it never chooses files. Each is
        // looked up by name on this command's search path (its own --ruleset flags and the
        // shipped rulesets): a recorded folder "rulesets/asl" is the ruleset "asl". Entries that
        // were search folders when recorded (no ruleset hash in the header) are skipped.
        LuaHost host(options);
        std::vector<std::string> dirs, names;
        for (const auto& entry : inputs.value("rulesets", nlohmann::json::array())) {
            const fs::path recorded_path = fs::path(entry.get<std::string>()).lexically_normal();
            std::string name = recorded_path.filename().string();
            if (name.empty()) name = recorded_path.parent_path().filename().string();  // "rulesets/asl/"
            if (!header.rulesets.contains(name)) continue;
            // Named twice, loaded once (100 000 copies of one name took minutes to load).
            if (std::find(names.begin(), names.end(), name) != names.end()) continue;
            names.push_back(name);
            const fs::path dir = [&] {
                try {
                    return ruleset::find_by_name(name, ruleset::search_path(host));
                } catch (const ScriptError& e) {
                    throw Error(journal_file + ": " + e.what());
                }
            }();
            std::cerr << "umpire: replay loads ruleset '" << name << "' from " << LuaHost::display_path(dir) << "\n";
            dirs.push_back(dir.string());
        }
        replay::play(host, header.seed, dirs, inputs);
        const auto& replayed = host.extension<GameLog>().journal;
        const auto divergence = replay::compare(recorded, replayed);
        if (common.json) {
            nlohmann::json doc = {{"command", "replay"},
                                  {"identical", !divergence},
                                  {"entries", replayed.size()}};
            if (divergence)
                doc["divergence"] = {{"index", divergence->index}, {"path", divergence->path},
                                     {"expected", divergence->expected},
                                     {"actual", divergence->actual},
                                     {"message", divergence->message}};
            std::cout << doc.dump(2) << "\n";
        } else if (divergence) {
            std::cout << "replay diverged: " << divergence->message << "\n";
        } else {
            std::cout << "replay identical: " << replayed.size() << " journal entries, hash "
                      << replayed.hash_hex() << "\n";
        }
        return divergence ? kScriptError : kOk;
    }, {}, {journal_file}, FileAccess::none);
}

}  // namespace umpire::cli
