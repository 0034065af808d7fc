#include "ruleset/Scenarios.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <map>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "host/FileSnapshot.hpp"
#include "host/LuaHost.hpp"
#include "ruleset/LoadCache.hpp"
#include "ruleset/Ruleset.hpp"
#include "ruleset/YamlConvert.hpp"

namespace umpire::ruleset {
namespace fs = std::filesystem;

namespace {

constexpr const char* kBookMeta = "umpire.scenario_book";
constexpr std::string_view kYaml = ".yaml";

// A kept scenario's parsed values and their charge against the memory cap. A reload takes the
// load cache's document again when the file did not change, so the books of several generations
// (the committed one and those waiting for the collector) hold the same document: it is charged
// once, by the first book that takes it, and given back when no book holds it any more. Charged
// again by every book, a host's charges grew by the scenarios' size at every reload until the
// collector freed the old books: ~190 kB a reload of asl, which pushed the host past the heap size
// at which the collector keeps its roomy pace (host/LuaHost.cpp, pace_collector) after some forty
// reloads, and every reload after that paid for the smaller steps.
struct KeptScenario {
    std::shared_ptr<const yaml::Document> document;
    Game* game = nullptr;
    std::size_t charged = 0;
    KeptScenario() = default;
    KeptScenario(const KeptScenario&) = delete;
    KeptScenario& operator=(const KeptScenario&) = delete;
    ~KeptScenario() {
        if (game && charged) game->release_memory(charged);
    }
};

// The documents the books of one host keep, by address, each with its charge (the entry of a
// document no book holds any more has expired: its address may be reused by a new document, which
// then gets an entry of its own).
struct KeptScenarios {
    explicit KeptScenarios(Game&) {}
    std::map<const yaml::Document*, std::weak_ptr<const KeptScenario>> by_document;
};

// What one load found: each scenario by name (the leaf's when layers share a name), and where it
// looked, for the "no scenario" message. The userdata behind umpire.data.scenario owns it; its
// __gc drops its hold on each document, whose charge is given back with the last hold.
struct Book {
    struct Scenario {
        std::shared_ptr<const KeptScenario> kept;
        std::string refused;  // why the file cannot be used (a symlink out of its ruleset)
    };
    std::map<std::string, Scenario> by_name;
    std::string looked;  // " <layer>/scenarios" for each layer, leaf first
};

int book_gc(lua_State* L) {
    auto* book = static_cast<Book*>(luaL_checkudata(L, 1, kBookMeta));
    book->~Book();
    return 0;
}

// The hold on `document` for a book of `host`: the one other books of the host hold, or a new one
// charged against the host's memory cap (ScriptError naming `display` if it would pass the cap).
std::shared_ptr<const KeptScenario> hold(LuaHost& host, std::shared_ptr<const yaml::Document> document,
                                         const std::string& display) {
    auto& kept = host.extension<KeptScenarios>().by_document;
    if (const auto found = kept.find(document.get()); found != kept.end())
        if (auto held = found->second.lock()) return held;
    // Entries of documents no book holds are dropped here, as the documents change.
    std::erase_if(kept, [](const auto& e) { return e.second.expired(); });
    const std::size_t bytes = document->heap_bytes;
    if (!host.charge_memory(bytes))
        throw ScriptError(display + ":1:1: memory limit: keeping this scenario takes ~" + std::to_string(bytes >> 20) +
                              " MiB of C++ memory, which would pass the Lua memory cap (kept scenarios count against it)",
                          display, 1);
    auto held = std::make_shared<KeptScenario>();
    held->game = &host;
    held->charged = bytes;
    held->document = std::move(document);
    kept[held->document.get()] = held;
    return held;
}

void read_layer(LuaHost& host, Book& book, const Manifest& layer, const std::string& cwd) {
    // Each file is shown as the folder's display path and its own name (a scenario that is a
    // symlink is shown by its own name, not its target's).
    auto [folder, files] = scenario_folder(layer.dir, layer.real_dir, cwd, &host.extension<LoadCache>());
    book.looked.append(" ").append(folder);
    for (const auto& file : files) {
        const std::string_view file_name = file.name();
        const std::string name(file_name.substr(0, file_name.size() - kYaml.size()));
        if (book.by_name.count(name)) continue;  // a child's scenario hides its parent's
        Book::Scenario& scenario = book.by_name[name];
        if (!file.inside) {
            scenario.refused = "umpire.data.scenario: " + LuaHost::display_path(file.path) +
                               " resolves outside its ruleset folder (a symlink?)";
            continue;
        }
        const std::string display = folder + "/" + std::string(file_name);
        // (read through one descriptor checked to lead where scenario_folder found the file: it
        // was read by its path before, so a FIFO or a symlink out swapped in since was read)
        scenario.kept = hold(host, host.extension<LoadCache>().data(file.path, display, host.state(), file.stamp, file.real), display);
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
        yaml::push(L, *found->second.kept->document);
        return check.result(1);
    });
}

}  // namespace

bool valid_scenario_name(const std::string& name) {
    return !name.empty() &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == std::string::npos;
}

bool is_scenario_file(std::string_view file_name) {
    return file_name.size() > kYaml.size() && file_name.ends_with(kYaml) && file_name.front() != '.';
}

std::string bad_scenario_name(const std::string& display_file) {
    return display_file + ":1:1: not a scenario name (letters, digits, _ and - only), so umpire.data.scenario "
                          "could not name this file: rename it";
}

// Nothing is resolved again here: the ruleset folder was resolved when its manifest was read
// (real_layer), the scenarios folder is lstat'ed once and each file once. A folder or file that is
// no symlink resolves to its resolved parent and its name, so it is inside the ruleset exactly
// when its parent is (the argument of ruleset/Ruleset.cpp's Resolver); a symlink is resolved
// whole. fs::canonical of every scenario walked its whole path, a system call per component, and
// the folder's display path and inside check resolved the ruleset folder three times more: about
// twenty system calls a load of asl. The folder is checked by opening it (O_PATH, O_NOFOLLOW: the
// open fails on a symlink or anything but a folder, as an lstat would tell) and its files are
// lstat'ed relative to it, as ruleset/Ruleset.cpp's Resolver does (one name walked, not the path).
ScenarioFolder scenario_folder(const fs::path& layer, const std::string& real_layer, const std::string& cwd,
                               LoadCache* cache) {
    const fs::path folder = layer / "scenarios";
    ScenarioFolder out;
    struct stat st {};
    struct Descriptor {
        int fd;
        ~Descriptor() {
            if (fd >= 0) ::close(fd);
        }
    } opened{::open(folder.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
    const bool missing = opened.fd < 0 && errno == ENOENT;
    bool folder_inside = false;
    std::string real_folder;  // canonical(folder), "" if it did not resolve
    if (!real_layer.empty() && (opened.fd >= 0 || missing)) {
        // A folder that is no symlink, or a missing one (display_path shows it under its resolved
        // parent, as fs::weakly_canonical does).
        real_folder = (real_layer == "/" ? "" : real_layer) + "/scenarios";
        out.display = display_of(real_folder, cwd);
        if (missing) return out;
        folder_inside = true;
    } else {
        out.display = LuaHost::display_path(folder);
        std::error_code ec;
        if (!fs::is_directory(folder, ec)) return out;
        const fs::path real = fs::canonical(folder, ec);
        folder_inside = !ec && inside_real(real_layer, real.native());
        if (!ec) real_folder = real.native();
    }
    // Listed through the file snapshot, so that a later load of the same ruleset in a worker whose
    // files are closed lists it from memory; by a load of a host, only when the folder changed.
    std::vector<std::string> listed;
    const std::vector<std::string>& names =
        cache && opened.fd >= 0 ? cache->folder_names(folder.native(), opened.fd) : (listed = file_snapshot::list(folder));
    for (const auto& file_name : names) {
        // Read on the string: a path is split into parts at each construction.
        if (!is_scenario_file(file_name)) continue;
        // A scenario file whose name umpire.data.scenario cannot take ("first battle.yaml",
        // "a9.2.yaml") fails the load, naming it, rather than being skipped or warned about. Its
        // author put it there to be played: skipped, the first sign was a "no scenario" error at
        // the call, or nothing at all if no rule asks for it yet; a warning on stderr scrolls past
        // in `watch`, and an isolated worker's or `serve`'s stderr is not where anyone looks. A
        // misspelt data: entry fails the load in the same way. Hidden files are not scenarios
        // (is_scenario_file), so an editor's leftovers cannot stop a load.
        if (!valid_scenario_name(file_name.substr(0, file_name.size() - kYaml.size()))) {
            const std::string display = out.display + "/" + file_name;
            throw ScriptError(bad_scenario_name(display), display, 1);
        }
        std::string file = folder.native() + "/" + file_name;
        if ((opened.fd >= 0 ? ::fstatat(opened.fd, file_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) : ::lstat(file.c_str(), &st)) != 0)
            continue;
        ScenarioFile scenario{std::move(file), false, std::nullopt, {}};
        std::error_code ec;
        if (S_ISREG(st.st_mode)) {
            scenario.inside = folder_inside;
            scenario.stamp = stamp_from(st);
            if (!real_folder.empty()) scenario.real = real_folder + "/" + file_name;
        } else if (S_ISLNK(st.st_mode) && fs::is_regular_file(scenario.path, ec)) {
            const fs::path real = fs::canonical(scenario.path, ec);
            scenario.inside = !ec && inside_real(real_layer, real.native());
            if (!ec) scenario.real = real.native();
        } else {
            continue;  // not a regular file
        }
        out.files.push_back(std::move(scenario));
    }
    return out;
}

void push_scenario_function(LuaHost& host, const std::vector<Manifest>& layers, const std::string& cwd) {
    lua_State* L = host.state();
    auto* book = new (lua_newuserdata(L, sizeof(Book))) Book();
    if (luaL_newmetatable(L, kBookMeta)) {
        lua_pushcfunction(L, book_gc);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    for (auto layer = layers.rbegin(); layer != layers.rend(); ++layer) read_layer(host, *book, *layer, cwd);
    lua_pushcclosure(L, l_scenario, 1);
}

}  // namespace umpire::ruleset
