#include "ruleset/Scenarios.hpp"

#include <sys/stat.h>

#include <map>
#include <memory>
#include <new>
#include <string>

#include "host/FileSnapshot.hpp"
#include "host/LuaHost.hpp"
#include "ruleset/LoadCache.hpp"
#include "ruleset/Ruleset.hpp"
#include "ruleset/YamlConvert.hpp"

namespace umpire::ruleset {
namespace fs = std::filesystem;

namespace {

constexpr const char* kBookMeta = "umpire.scenario_book";

bool valid_scenario_name(const std::string& name) {
    return !name.empty() &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == std::string::npos;
}

// What one load found: each scenario by name (the leaf's when layers share a name), and where it
// looked, for the "no scenario" message. The userdata behind umpire.data.scenario owns it; its
// __gc gives the charge back when the load generation is dropped.
struct Book {
    struct Scenario {
        std::shared_ptr<const yaml::Document> document;
        std::string refused;  // why the file cannot be used (a symlink out of its ruleset)
    };
    std::map<std::string, Scenario> by_name;
    std::string looked;  // " <layer>/scenarios" for each layer, leaf first
    Game* game = nullptr;
    std::size_t charged = 0;
};

int book_gc(lua_State* L) {
    auto* book = static_cast<Book*>(luaL_checkudata(L, 1, kBookMeta));
    if (book->game && book->charged) book->game->release_memory(book->charged);
    book->~Book();
    return 0;
}

void read_layer(LuaHost& host, Book& book, const fs::path& layer) {
    // Each file is shown as the folder's display path and its own name: display_path resolves
    // the whole path with a system call per component, which for a dozen scenarios was a tenth
    // of a reload. (A scenario that is a symlink is shown by its own name, not its target's.)
    const std::string folder = LuaHost::display_path(layer / "scenarios");
    book.looked.append(" ").append(folder);
    for (const auto& [file, inside_ruleset, stamp] : scenario_files(layer)) {
        const std::string name = file.stem().string();
        if (book.by_name.count(name)) continue;  // a child's scenario hides its parent's
        Book::Scenario& scenario = book.by_name[name];
        if (!inside_ruleset) {
            scenario.refused = "umpire.data.scenario: " + LuaHost::display_path(file) +
                               " resolves outside its ruleset folder (a symlink?)";
            continue;
        }
        const std::string display = folder + "/" + file.filename().string();
        scenario.document = host.extension<LoadCache>().data(file, display, host.state(), stamp);
        const std::size_t bytes = scenario.document->heap_bytes;
        if (!host.charge_memory(bytes))
            throw ScriptError(display + ":1:1: memory limit: keeping this scenario takes ~" + std::to_string(bytes >> 20) +
                                  " MiB of C++ memory, which would pass the Lua memory cap (kept scenarios count against it)",
                              display, 1);
        book.charged += bytes;
    }
}

/// @lua umpire.data.scenario(name)
/// ---The table of scenarios/<name>.yaml of the active ruleset (a child's scenario hides its
/// ---parent's of the same name). Every scenario is read and checked when the rulesets load
/// ---(errors name file:line:col then); each call returns a fresh table of its own.
/// ---@param name string scenario name (letters, digits, _ and - only)
/// ---@return table scenario
int l_scenario(lua_State* L) {
    return lua::lua_guard(L, [&] {
        const std::string name = luaL_checkstring(L, 1);
        lua::StackCheck check(L, 1);
        if (!valid_scenario_name(name)) throw Error("umpire.data.scenario: bad scenario name '" + name + "'");
        const auto* book = static_cast<const Book*>(lua_touserdata(L, lua_upvalueindex(1)));
        const auto found = book->by_name.find(name);
        if (found == book->by_name.end())
            throw Error("umpire.data.scenario: no scenario '" + name + "' (looked in" + book->looked + ")");
        if (!found->second.refused.empty()) throw Error(found->second.refused);
        yaml::push(L, *found->second.document);
        return check.result(1);
    });
}

}  // namespace

// The folders are resolved once per call, and each file is lstat'ed once: a file that is no
// symlink resolves to the resolved folder and its name, so it is inside the ruleset exactly when
// the folder is (the argument of ruleset/Ruleset.cpp's Resolver). A symlink is resolved whole.
// fs::canonical of every scenario walked its whole path, a system call per component, which
// for a dozen scenarios was a sixth of a reload of asl.
std::vector<ScenarioFile> scenario_files(const fs::path& layer) {
    const fs::path folder = layer / "scenarios";
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return {};
    const bool folder_inside = inside(layer, folder);
    std::vector<ScenarioFile> files;
    // Listed through the file snapshot, so that a later load of the same ruleset in a worker whose
    // files are closed lists it from memory.
    for (const auto& file_name : file_snapshot::list(folder)) {
        fs::path file = folder / file_name;
        if (file.extension() != ".yaml" || !valid_scenario_name(file.stem().string())) continue;
        struct stat st {};
        if (::lstat(file.c_str(), &st) != 0) continue;
        ScenarioFile found{std::move(file), false, std::nullopt};
        if (S_ISREG(st.st_mode)) {
            found.inside = folder_inside;
            found.stamp = stamp_from(st);
        } else if (S_ISLNK(st.st_mode) && fs::is_regular_file(found.path, ec)) {
            found.inside = inside(layer, found.path);
        } else {
            continue;  // not a regular file
        }
        files.push_back(std::move(found));
    }
    return files;
}

void push_scenario_function(LuaHost& host, const std::vector<fs::path>& layers) {
    lua_State* L = host.state();
    auto* book = new (lua_newuserdata(L, sizeof(Book))) Book();
    if (luaL_newmetatable(L, kBookMeta)) {
        lua_pushcfunction(L, book_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    book->game = &host;
    for (auto layer = layers.rbegin(); layer != layers.rend(); ++layer) read_layer(host, *book, *layer);
    lua_pushcclosure(L, l_scenario, 1);
}

}  // namespace umpire::ruleset
