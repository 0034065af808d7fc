// What a journal needs so `umpire replay` can run the same game again: the engine version, a
// hash of every ruleset file loaded, the seed and the inputs (script or code, rulesets, state).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/bus/Journal.hpp"

namespace umpire {
class LuaHost;

namespace replay {

// FNV-1a 64 over every file of a ruleset folder (relative path and bytes, in sorted path order),
// as 16 hex digits: any edit to data, rules or tests changes it. In a worker that keeps the files
// it read (host/FileSnapshot.hpp) each folder is hashed once and the hash kept, as its files are.
std::string ruleset_hash(const std::filesystem::path& dir);

// Fills the journal header of host's game: engine version, the hash of each loaded ruleset
// (by folder name), the seed, and `inputs` as given.
void stamp_header(LuaHost& host, std::uint64_t seed, nlohmann::json inputs);

// One game from its inputs, the way `umpire run` records it and `umpire replay` plays it again
// (one function, so the two cannot drift apart): loads `rulesets` (names or folders), sets the
// starting state from inputs["state"] (a JSON text; absent or null: the state the rulesets
// leave), stamps the journal header with the inputs (the actual starting state filled in), and
// runs inputs["code"], named after inputs["script"] (or "(command line)" for -e code).
// The journal is host's; errors are ScriptError with file:line as from any run. Returns what the
// code returned, as a JSON array: nil is null, a table of plain data an array or an object, a
// function or userdata its type's name. JSON has no infinities and no NaN (a JSON writer puts
// null), so a number that is not finite is the string "Infinity", "-Infinity" or "NaN", the
// spellings JavaScript's Number() and Python's float() read back (and protobuf's JSON mapping
// writes). With `printed`, also the values as `umpire run` prints them, tab-separated, as a REPL
// would: strings as they are, numbers as Lua's tostring spells them (inf, -inf, nan), other
// values as their JSON.
nlohmann::json play(LuaHost& host, std::uint64_t seed, const std::vector<std::string>& rulesets,
                    nlohmann::json inputs, std::string* printed = nullptr);

// Compares a replayed journal with the recorded one. The header's ruleset hashes are compared
// first: a ruleset edited since the recording is reported as such, because every later entry
// may then differ for that reason alone.
std::optional<bus::Journal::Divergence> compare(const bus::Journal& recorded,
                                                const bus::Journal& replayed);

}  // namespace replay
}  // namespace umpire
