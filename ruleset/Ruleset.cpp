#include "ruleset/Ruleset.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "bindings/DataMarks.hpp"
#include "host/DataGuard.hpp"
#include "host/FileSnapshot.hpp"
#include "host/LuaHost.hpp"
#include "host/ModuleGuard.hpp"
#include "host/Sandbox.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/LoadCache.hpp"
#include "ruleset/Scenarios.hpp"
#include "ruleset/Shared.hpp"
#include "ruleset/YamlLoader.hpp"

namespace umpire::ruleset {
namespace fs = std::filesystem;

// Both are canonical (no ".", "..", doubled or trailing separators), so "inside" is "starts with
// root and a '/'".
bool inside_real(const std::string& root, const std::string& real) {
    if (root.empty() || real.size() <= root.size()) return false;
    if (root == "/") return real[0] == '/';
    return real.compare(0, root.size(), root) == 0 && real[root.size()] == '/';
}

std::string display_of(const std::string& real, const std::string& cwd) {
    if (real == cwd) return ".";
    if (cwd == "/") return real.substr(1);
    if (inside_real(cwd, real)) return real.substr(cwd.size() + 1);
    return real;
}

bool inside(const fs::path& dir, const fs::path& file) {
    std::error_code ec;
    const fs::path root = fs::canonical(dir, ec);
    if (ec) return false;
    const fs::path real = fs::canonical(file, ec);
    return !ec && inside_real(root.native(), real.native());
}

bool valid_name(const std::string& name) {
    return !name.empty() && name != "." && name != ".." &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
               std::string::npos;
}

// " rulesets ~/my-rules": the search path as messages list it, each folder after a space. (Appended
// piece by piece: `where += " " + text` makes GCC 12 warn of a memcpy overlap that cannot happen,
// its -Wrestrict false positive on operator+ of a literal and a temporary string.)
std::string listed(const std::vector<fs::path>& search_path) {
    std::string where;
    for (const auto& dir : search_path) where.append(" ").append(LuaHost::display_path(dir));
    return where;
}

// Does `dir` hold a ruleset.yaml? A name given on the command line may be too long for a path: then
// it holds none (fs::is_regular_file without an error code threw, and the message was the library's).
bool has_manifest(const fs::path& dir) {
    std::error_code ec;
    return fs::is_regular_file(dir / "ruleset.yaml", ec);
}

fs::path find_by_name(const std::string& name, const std::vector<fs::path>& search_path) {
    const std::string where = listed(search_path);
    if (!valid_name(name))
        throw ScriptError("'" + name + "' is not a ruleset name (letters, digits, '_', '-' and '.'; a "
                          "name is looked up on the search path:" + where + ")");
    for (const auto& dir : search_path)
        if (has_manifest(dir / name)) return fs::absolute(dir / name).lexically_normal();
    throw ScriptError("ruleset '" + name + "' not found on the search path:" + where);
}

bool entry_climbs(const std::string& entry) {
    for (std::size_t start = 0; start <= entry.size();) {
        std::size_t end = entry.find('/', start);
        if (end == std::string::npos) end = entry.size();
        if (end - start == 2 && entry.compare(start, 2, "..") == 0) return true;
        start = end + 1;
    }
    return false;
}

bool entry_has_extension(const std::string& entry) {
    const std::size_t slash = entry.rfind('/');
    const std::string_view name = slash == std::string::npos ? std::string_view(entry) : std::string_view(entry).substr(slash + 1);
    if (name == "." || name == "..") return false;
    const std::size_t dot = name.rfind('.');
    return dot != std::string_view::npos && dot != 0;
}

namespace {

[[noreturn]] void fail(const std::string& display, const YAML::Mark& m, const std::string& what) {
    throw ScriptError(display + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) +
                          ": " + what,
                      display, m.line + 1);
}

std::string scalar(const YAML::Node& node, const std::string& display, const char* field) {
    if (!node.IsScalar()) fail(display, node.Mark(), std::string("'") + field + "' must be a single value");
    return node.Scalar();
}

// What a manifest's tree says, read from it once per parse (the load cache keeps it with the tree):
// walking the tree through yaml-cpp's nodes at every reload cost a fifth of the manifest's read.
// Its checks raise as they did; a list whose shape is wrong keeps its error, raised where the
// list is read (after the files of the lists before it were resolved), so a manifest with more
// than one problem reports the same one first.
struct ManifestFields {
    std::string name, version, extends;
    std::string turn_sequence_yaml;  // as written (YAML::Dump), "" when absent
    struct Entries {
        bool present = false;  // the key is in the manifest
        std::vector<std::string> names;
        // Each name as a file: with the list's extension when it has none, "" when it is refused as
        // written (absolute, or climbing out with '..'; refused when its file is looked for).
        std::vector<std::string> files;
        YAML::Mark mark;  // of the list, for the errors of its entries
        std::vector<YAML::Mark> marks;  // of each entry (the list's for a single name)
        std::optional<std::pair<YAML::Mark, std::string>> error;  // of the list's shape
        void raise_if_failed(const std::string& display) const {
            if (error) fail(display, error->first, error->second);
        }
    };
    Entries data, modules, tests;

    // The spec files this parse named, as the last load that resolved them found them, and what
    // that depended on (SpecFiles, below); kept with the parse, so an edit of the manifest drops it.
    // Mutable: the fields are shared read-only with the cached tree, and this is a memo of the
    // loads that read them, filled and read by those loads only (one host's thread).
    struct SpecFiles {
        std::string dir, real_dir;  // the ruleset folder as spelled (Manifest::dir), and resolved
        // Each folder the look-ups went through or could have (the folder as spelled), with its
        // lstat stamp taken before them; none where the folder was missing.
        std::vector<std::pair<std::string, std::optional<FileStamp>>> folders;
        std::vector<std::string> tests;  // Manifest::tests
        std::vector<std::string> tests_real;  // Manifest::tests_real
    };
    mutable std::optional<SpecFiles> spec_files;
};

// A list of names; a single name is accepted as a one-item list. `ext`: the extension of a name
// written without one.
ManifestFields::Entries entries_of(const YAML::Node& root, const char* field, const char* ext) {
    ManifestFields::Entries out;
    const YAML::Node node = root[field];
    if (!node) return out;
    out.present = true;
    out.mark = node.Mark();
    const auto add_files = [&] {
        for (const auto& entry : out.names)
            out.files.push_back(entry.empty() || entry[0] == '/' || entry_climbs(entry) ? std::string()
                                : entry_has_extension(entry)                        ? entry
                                                                                    : entry + ext);
        return out;
    };
    if (node.IsNull()) return out;
    if (node.IsScalar()) {
        out.names.push_back(node.Scalar());
        out.marks.push_back(node.Mark());
        return add_files();
    }
    if (!node.IsSequence()) {
        out.error = std::pair{node.Mark(), std::string("'") + field + "' must be a list"};
        return out;
    }
    for (const auto& item : node) {
        if (!item.IsScalar()) {
            out.error = std::pair{item.Mark(), std::string("'") + field + "' must be a single value"};
            out.names.clear();
            return out;
        }
        out.names.push_back(item.Scalar());
        out.marks.push_back(item.Mark());
    }
    return add_files();
}

ManifestFields fields_of(const YAML::Node& root, const std::string& display) {
    if (!root.IsMap()) fail(display, root.Mark(), "a ruleset manifest must be a map (name: ..., data: [...], ...)");
    static const std::set<std::string> kKnown = {"name", "version", "extends", "turn_sequence",
                                                 "data", "modules", "tests", "description"};
    for (const auto& entry : root) {
        const std::string key = entry.first.Scalar();
        if (!kKnown.count(key))
            fail(display, entry.first.Mark(), "unknown key '" + key + "' (a manifest has: name, version, "
                                              "extends, turn_sequence, data, modules, tests, description)");
    }
    ManifestFields f;
    if (!root["name"]) fail(display, root.Mark(), "the manifest needs a 'name'");
    f.name = scalar(root["name"], display, "name");
    if (root["version"]) f.version = scalar(root["version"], display, "version");
    if (root["extends"]) {
        f.extends = scalar(root["extends"], display, "extends");
        if (!valid_name(f.extends))
            fail(display, root["extends"].Mark(), "'extends: " + f.extends + "' must name a ruleset (found on "
                                                  "the search path or beside this one), never a path");
    }
    // The turn sequence's shape belongs to the ruleset (ASL: players + phases; Bolt Action: the
    // order-dice steps), so it is passed to Lua as written: umpire.ruleset.turn_sequence.
    if (const auto turns = root["turn_sequence"]) f.turn_sequence_yaml = YAML::Dump(turns);
    f.data = entries_of(root, "data", ".yaml");
    f.modules = entries_of(root, "modules", ".lua");
    f.tests = entries_of(root, "tests", ".lua");
    return f;
}

// Where the files of one manifest resolve, symlinks followed, with each folder resolved once: the
// files a manifest names share a few folders (data/, rules/, tests/), and fs::canonical of every
// file walked the whole path again, about ten system calls a file on each reload.
//
// Why this is the same check: canonical(folder/name) is canonical(folder)/name whenever `name` is
// not itself a symlink (nor "." or "..", which a regular file's name never is), and lstat tells
// that with one call. A file that is a symlink is resolved whole by fs::canonical, as before. The
// folders are resolved on every read of the manifest, so a folder or a file swapped for a symlink
// after a load is seen by the next load; a swap during one load could already slip between the
// check and the read before this memo, and still can.
//
// A folder that is no symlink is checked by opening it (O_PATH, O_NOFOLLOW: the open fails on a
// symlink or anything but a folder, as the lstat it replaces told), and the files in it are
// lstat'ed relative to that descriptor (fstatat): the kernel walks one name instead of the whole
// path for each of the manifest's files, about 1 µs less a file (most of a reload's system time),
// and the file checked is the one in the very folder that was checked.
class Resolver {
public:
    // dir resolves to real_dir (resolved by the caller in this load).
    Resolver(const std::string& dir, const std::string& real_dir) {
        if (!real_dir.empty()) folders_.emplace(dir, Folder{real_dir, -1});
    }
    ~Resolver() {
        for (const auto& [spelled, folder] : folders_)
            if (folder.fd >= 0) ::close(folder.fd);
    }
    Resolver(const Resolver&) = delete;
    Resolver& operator=(const Resolver&) = delete;

    // None when file is not a regular file (symlinks followed); else canonical(file), empty when
    // that does not resolve. Strings, not fs::path: a path splits itself into parts at every
    // construction and join, which cost more than the system calls here. `stamp` (if given) is
    // set to the file's stamp when it is no symlink.
    std::optional<std::string> regular_file(const std::string& file, std::optional<FileStamp>* stamp = nullptr) {
        // A file is lstat'ed: that one call tells whether it is there, whether it is a regular
        // file, and its stamp, where listing its folder first cost five more calls a folder. A
        // file in a folder listed already (a folder in which a file was missing, for the next
        // names looked for first in it: manifest entries written without their data/ or rules/;
        // the tests folder of a manifest without `tests:`, whose every file is looked up) is
        // answered from the listing with no call when it is missing, or a regular file whose stamp
        // is not wanted. Anything else is lstat'ed. (The few spec files a manifest names are
        // lstat'ed too: listing their folder for them cost more calls, and a string a name.)
        // (Views into `file`, not substrings: a string made for each look-up cost more than the
        // look-up.)
        const std::size_t slash = file.rfind('/');
        const bool in_folder = slash != std::string::npos && slash > 0;
        const std::string_view whole(file);
        const std::string_view folder = in_folder ? whole.substr(0, slash) : std::string_view();
        const std::string_view name = slash == std::string::npos ? whole : whole.substr(slash + 1);
        if (in_folder) {
            if (const auto* names = listed(folder)) {
                const auto entry = names->find(name);
                if (entry == names->end()) return std::nullopt;
                if (entry->second == DT_REG && !stamp) {
                    const std::string& real = real_folder(folder).real;
                    return real.empty() ? real : join(real, name);
                }
            }
        }
        // In a folder opened already (real_folder), the name is looked up in that folder.
        const Folder* opened = in_folder ? &real_folder(folder) : nullptr;
        struct stat st {};
        // The name is the tail of `file`, so its C string is file's own (no copy made for it).
        const bool found = opened && opened->fd >= 0
                               ? ::fstatat(opened->fd, file.c_str() + slash + 1, &st, AT_SYMLINK_NOFOLLOW) == 0
                               : ::lstat(file.c_str(), &st) == 0;
        if (!found) {
            if (in_folder) listing(folder);
            return std::nullopt;
        }
        if (S_ISREG(st.st_mode)) {
            if (stamp) *stamp = stamp_from(st);
            if (slash == std::string::npos) return canonical(file);
            const std::string& real = opened ? opened->real : real_folder(whole.substr(0, 1)).real;
            return real.empty() ? real : join(real, name);
        }
        std::error_code ec;
        if (!S_ISLNK(st.st_mode) || !fs::is_regular_file(file, ec)) return std::nullopt;
        return canonical(file);
    }

    // Lists `folder` now, for the look-ups of all its files that follow.
    void list_folder(const std::string& folder) { listing(folder); }

    static std::string join(std::string_view folder, std::string_view name) {
        std::string out;
        out.reserve(folder.size() + 1 + name.size());
        out.append(folder);
        if (!folder.empty() && folder.back() != '/') out.push_back('/');
        out.append(name);
        return out;
    }

private:
    using Listing = std::map<std::string, unsigned char, std::less<>>;
    // A folder's resolved path ("" if it did not resolve) and, when it was checked by opening it,
    // the descriptor (else -1).
    struct Folder {
        std::string real;
        int fd = -1;
    };
    static std::string canonical(const std::string& file) {
        std::error_code ec;
        fs::path resolved = fs::canonical(file, ec);
        return ec ? std::string() : resolved.native();
    }
    // A folder that is no symlink, inside a folder resolved already, is its parent's resolved
    // path and its own name (one open instead of a walk of the whole path), and stays open for
    // the look-ups of its files.
    const Folder& real_folder(std::string_view folder) {
        if (const auto found = folders_.find(folder); found != folders_.end()) return found->second;
        const std::string spelled(folder);
        const std::size_t slash = folder.rfind('/');
        const std::string_view name = slash == std::string_view::npos ? std::string_view() : folder.substr(slash + 1);
        const auto parent = slash == std::string_view::npos || slash == 0 ? folders_.end() : folders_.find(folder.substr(0, slash));
        Folder resolved;
        if (parent != folders_.end() && !parent->second.real.empty() && !name.empty() && name != "." && name != ".." &&
            (resolved.fd = ::open(spelled.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0)
            resolved.real = join(parent->second.real, name);
        else
            resolved.real = canonical(spelled);
        return folders_.emplace(spelled, std::move(resolved)).first->second;
    }
    // The listing of folder if it was made already in this read of the manifest, else null.
    const Listing* listed(std::string_view folder) const {
        const auto it = listings_.find(folder);
        return it != listings_.end() && it->second ? &*it->second : nullptr;
    }
    // The names in folder and their d_type (DT_UNKNOWN where the file system gives none), read
    // once per manifest read; null if the folder cannot be listed.
    const Listing* listing(std::string_view folder) {
        auto it = listings_.find(folder);
        if (it == listings_.end()) {
            const std::string spelled(folder);
            it = listings_.emplace(spelled, std::nullopt).first;
            if (DIR* d = ::opendir(spelled.c_str())) {
                Listing names;
                while (const dirent* e = ::readdir(d)) names.emplace(e->d_name, e->d_type);
                ::closedir(d);
                it->second = std::move(names);
            }
        }
        return it->second ? &*it->second : nullptr;
    }
    std::map<std::string, Folder, std::less<>> folders_;
    std::map<std::string, std::optional<Listing>, std::less<>> listings_;
};

// "machine_guns" / "machine_guns.lua" / "rules/machine_guns.lua" all name rules/machine_guns.lua.
// A manifest comes from a stranger, so a file it names must be inside its folder: an absolute
// path or a ".." is refused as written, and the file found is checked again after following
// symlinks (a link in rules/ to ~/.config/... resolves outside and is refused).
// Returns the file, and appends what the check found to `resolved`.
// `p` is the entry as a file (ManifestFields::Entries::files: "" if refused as written).
std::string resolve_file(const fs::path& dir, const std::string& real_dir, Resolver& resolver, const std::string& entry,
                         const std::string& p, const char* subdir, const std::string& display, const YAML::Mark& mark,
                         std::vector<Manifest::Resolved>* resolved = nullptr) {
    if (p.empty())
        fail(display, mark, "'" + entry + "': a manifest names files inside its ruleset folder "
                                          "(no absolute paths, no '..')");
    for (int place = 0; place < 2; ++place) {
        // dir/<entry>, then dir/<subdir>/<entry> (made only when the first is not there)
        std::string candidate = place == 0 ? Resolver::join(dir.native(), p)
                                           : Resolver::join(Resolver::join(dir.native(), subdir), p);
        std::optional<FileStamp> stamp;
        auto real = resolver.regular_file(candidate, resolved ? &stamp : nullptr);
        if (!real) continue;
        if (!inside_real(real_dir, *real))
            fail(display, mark, "'" + entry + "' resolves outside the ruleset folder (to " +
                                    LuaHost::display_path(*real) + ", through a symlink)");
        if (resolved) resolved->push_back({std::move(*real), stamp});  // moved: no copy of either string
        return candidate;
    }
    fail(display, mark, "file not found: " + entry + " (looked in " +
                            LuaHost::display_path(dir) + " and " +
                            LuaHost::display_path(dir / subdir) + ")");
}

// The files of a manifest's `data` or `modules` list (`field`, whose files are looked for in the
// folder `subdir` too), resolved and checked by resolve_file, appended to
// `files` and `resolved`. An entry naming a file an earlier one named (`[m, m]`, `m` and
// `rules/m.lua`, `[d, ./d]`) was loaded once without a word: the second entry is a slip (a
// copy-paste, or a file meant to be another), refused at its place. `what` names an entry.
void resolve_entries(const Manifest& m, Resolver& resolver, const ManifestFields::Entries& entries, const char* field,
                     const char* subdir, const char* what, const std::string& display, std::vector<std::string>& files,
                     std::vector<Manifest::Resolved>& resolved) {
    entries.raise_if_failed(display);
    for (std::size_t i = 0; i < entries.names.size(); ++i) {
        files.push_back(resolve_file(m.dir, m.real_dir, resolver, entries.names[i], entries.files[i], subdir, display,
                                     entries.mark, &resolved));
        for (std::size_t j = 0; j < i; ++j)
            if (resolved[j].real == resolved[i].real)
                fail(display, entries.marks[i],
                     std::string(what) + " '" + entries.names[i] + "' is listed twice in '" + field + "' (entries " +
                         std::to_string(j + 1) + " and " + std::to_string(i + 1) + " name the same file)");
    }
}

// The spec files of a manifest (Manifest::tests), resolved and checked as every file it names:
// inside the ruleset folder, symlinks followed. `plain` is cleared when one of them is not simply
// the ruleset folder's resolved path and its spelling below the folder (a symlink on the way, a
// "." in the entry): a resolution that depends on more than the names in the folders it went through.
// `reals` gets the canonical path of each (Manifest::tests_real).
std::vector<std::string> resolve_spec_files(const Manifest& m, const ManifestFields& fields, Resolver& resolver,
                                            const std::string& display, bool& plain, std::vector<std::string>& reals) {
    std::vector<std::string> tests;
    const std::string& dir = m.dir.native();
    const auto check_plain = [&](const std::string& file, const std::string& real) {
        if (file.size() <= dir.size() || real != Resolver::join(m.real_dir, std::string_view(file).substr(dir.size() + 1)))
            plain = false;
    };
    if (fields.tests.present) {
        std::vector<Manifest::Resolved> resolved;
        for (std::size_t i = 0; i < fields.tests.names.size(); ++i) {
            tests.push_back(resolve_file(m.dir, m.real_dir, resolver, fields.tests.names[i], fields.tests.files[i], "tests",
                                         display, fields.tests.mark, &resolved));
            check_plain(tests.back(), resolved.back().real);
            reals.push_back(std::move(resolved.back().real));
        }
    } else if (fs::is_directory(m.dir / "tests")) {
        // Listed through the file snapshot: a worker whose files are closed loads the ruleset
        // again from memory (host/FileSnapshot.hpp).
        resolver.list_folder((m.dir / "tests").native());
        for (const auto& name : file_snapshot::list(m.dir / "tests")) {
            const fs::path test = m.dir / "tests" / name;
            if (test.extension() == ".lua") {
                const auto real = resolver.regular_file(test.native());
                std::error_code not_found;  // a dangling link: empty, so refused
                const std::string real_path = real ? *real : fs::canonical(test, not_found).native();
                if (!inside_real(m.real_dir, real_path))
                    throw ScriptError(LuaHost::display_path(test) + ": resolves outside the ruleset folder "
                                      "(a symlink?); spec files must be inside it", LuaHost::display_path(test));
                check_plain(test.native(), real_path);
                tests.push_back(test.native());
                reals.push_back(real_path);
            }
        }
        // (sorted by the spelled path, each with its own canonical path)
        std::vector<std::size_t> order(tests.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return tests[a] < tests[b]; });
        std::vector<std::string> sorted, sorted_reals;
        for (const std::size_t i : order) {
            sorted.push_back(std::move(tests[i]));
            sorted_reals.push_back(std::move(reals[i]));
        }
        tests = std::move(sorted);
        reals = std::move(sorted_reals);
    }
    return tests;
}

// Takes the stamp (lstat) of every folder the spec files' look-ups go through or could: the
// ruleset folder and, for each entry, every folder between it and the entry's file, in both
// places an entry is looked for (dir/<entry>, dir/tests/<entry>); with no `tests:`, the tests
// folder. False when one of them is there but is no folder (a symlink: what it leads to is not
// stamped here), or is too new for its stamp to be trusted (FileStamp.hpp).
bool stamp_spec_folders(const std::string& dir, const ManifestFields& fields, std::int64_t started,
                        std::chrono::nanoseconds margin, ManifestFields::SpecFiles& out) {
    std::vector<std::string> folders{dir};
    const auto add_folders_of = [&](const std::string& rel) {  // rel: a file below dir
        for (std::size_t slash = rel.find('/'); slash != std::string::npos; slash = rel.find('/', slash + 1)) {
            std::string folder = Resolver::join(dir, std::string_view(rel).substr(0, slash));
            if (std::find(folders.begin(), folders.end(), folder) == folders.end()) folders.push_back(std::move(folder));
        }
    };
    if (fields.tests.present) {
        for (const auto& file : fields.tests.files) {
            add_folders_of(file);
            add_folders_of(Resolver::join("tests", file));
        }
    } else {
        add_folders_of("tests/");
    }
    for (auto& folder : folders) {
        struct stat st {};
        std::optional<FileStamp> stamp;
        if (::lstat(folder.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) return false;
            stamp = stamp_from(st);
            if (!settled(*stamp, started, margin)) return false;
        }
        out.folders.emplace_back(std::move(folder), stamp);
    }
    return true;
}

// Has every folder the stamp it had (taken by stamp_spec_folders, when it was settled)?
bool folders_unchanged(const std::vector<std::pair<std::string, std::optional<FileStamp>>>& folders) {
    for (const auto& [folder, stamp] : folders) {
        struct stat st {};
        const bool there = ::lstat(folder.c_str(), &st) == 0;
        if (there != stamp.has_value() || (there && stamp_from(st) != *stamp)) return false;
    }
    return true;
}

// Manifest::tests for a read of a manifest. A load never reads a spec file, but it checks them as
// every file a manifest names (a spec file that is missing or leads out of the ruleset folder fails
// the load), and for asl's 28 that was an lstat each and a tenth of a reload's time with nothing
// changed. So a load of a host (with its cache; not in a worker that keeps its files, whose reads
// come from memory) keeps the spec files with the parse of the manifest that named them, and takes
// them from there when nothing their resolution depended on changed: the ruleset folder resolves
// to the same place, and every folder the look-ups went through has the stamp it had then, which
// was settled. Why that is the same answer: a folder's mtime and ctime change whenever a name in it
// is added, removed or renamed, and a file or folder swapped for a symlink, or removed, is such a
// change in the folder that holds it (LoadCache::folder_names stands on the same argument); what a
// name is cannot change without one. Kept only when no spec file went through a symlink (the place
// a symlink leads to is in no stamped folder) and every folder was there as a folder or missing.
// Sets m.tests and m.tests_real.
void spec_files(Manifest& m, const ManifestFields& fields, Resolver& resolver, const std::string& display,
                LoadCache* cache) {
    if (fields.tests.present) fields.tests.raise_if_failed(display);
    const bool keep = cache && !file_snapshot::enabled() && !m.real_dir.empty();
    ManifestFields::SpecFiles now;
    bool trusted = false;
    if (keep) {
        const auto& kept = fields.spec_files;
        if (kept && kept->dir == m.dir.native() && kept->real_dir == m.real_dir && folders_unchanged(kept->folders)) {
            m.tests = kept->tests;
            m.tests_real = kept->tests_real;
            return;
        }
        now.dir = m.dir.native();
        now.real_dir = m.real_dir;
        trusted = stamp_spec_folders(m.dir.native(), fields, now_ns(), cache->settle_margin, now);
    }
    fields.spec_files.reset();
    if (cache) cache->count_spec_resolution();
    bool plain = true;
    now.tests = resolve_spec_files(m, fields, resolver, display, plain, now.tests_real);
    if (keep && trusted && plain) {
        fields.spec_files = std::move(now);
        m.tests = fields.spec_files->tests;
        m.tests_real = fields.spec_files->tests_real;
        return;
    }
    m.tests = std::move(now.tests);
    m.tests_real = std::move(now.tests_real);
}

}  // namespace

Manifest read_manifest(const fs::path& dir, LoadCache* cache) {
    Manifest m;
    m.dir = clean_dir(dir);
    std::error_code ec;
    m.real_dir = fs::canonical(m.dir, ec).native();  // empty if it cannot be resolved: nothing is inside
    const std::string& real_dir = m.real_dir;
    Resolver resolver(m.dir.native(), real_dir);
    const fs::path file = dir / "ruleset.yaml";
    // LuaHost::display_path(file), from the resolved path when there is one; its stamp from the
    // same lstat, for the load cache.
    std::optional<FileStamp> stamp;
    const auto real_file = resolver.regular_file(Resolver::join(m.dir.native(), "ruleset.yaml"), &stamp);
    // The manifest is held to what it holds its files to: a ruleset.yaml that is a symlink out of
    // the folder was read, and its entries then resolved against this folder.
    if (real_file && !real_file->empty() && !inside_real(real_dir, *real_file)) {
        const std::string spelled = LuaHost::display_path(m.dir) + "/ruleset.yaml";  // (display_path(file) resolves it)
        throw ScriptError(spelled + ":1:1: the manifest resolves outside the ruleset folder (to " +
                              LuaHost::display_path(*real_file) + ", through a symlink)",
                          spelled, 1);
    }
    const std::string display = real_file && !real_file->empty()
        ? display_of(*real_file, fs::current_path(ec).native()) : LuaHost::display_path(file);
    m.display = display;
    const auto parse = [&](const std::string& text) {
        try {
            YAML::Node tree = yaml::parse_tree(text, display);  // bounded: a manifest is untrusted too
            yaml::refuse_repeated_keys(tree, display);
            return tree;
        } catch (const YAML::Exception& e) {
            fail(display, e.mark, e.msg);
        }
    };
    // const: yaml-cpp's non-const operator[] adds the key it looks up, and a cached tree is read
    // by every later load.
    // Read through one descriptor checked to lead where the check above found the file (the
    // manifest was read by its path before, so a FIFO or a symlink out swapped in after the check
    // was read as the manifest).
    const std::string checked = real_file ? *real_file : std::string();
    const YAML::Node root = cache ? cache->manifest(file, display, parse, stamp, checked)
                                  : parse(read_source(file, yaml::kMaxFileBytes, [&](const fs::path& f) {
                                        return yaml::read_data_file(f, display);
                                    }, checked, display).first);
    // What the tree says is worked out once per parse of it (kept with the cached tree); the files
    // it names are resolved and checked below at every read.
    std::shared_ptr<const ManifestFields> kept;
    if (cache) {
        auto& slot = cache->manifest_fields(file);
        if (!slot) slot = std::make_shared<const ManifestFields>(fields_of(root, display));
        kept = std::static_pointer_cast<const ManifestFields>(slot);
    } else {
        kept = std::make_shared<const ManifestFields>(fields_of(root, display));
    }
    const ManifestFields& fields = *kept;
    m.name = fields.name;
    m.version = fields.version;
    m.extends = fields.extends;
    m.turn_sequence_yaml = fields.turn_sequence_yaml;
    if (fields.data.present)
        resolve_entries(m, resolver, fields.data, "data", "data", "data file", display, m.data, m.data_resolved);
    if (fields.modules.present)
        resolve_entries(m, resolver, fields.modules, "modules", "rules", "module", display, m.modules, m.modules_resolved);
    spec_files(m, fields, resolver, display, cache);
    return m;
}

fs::path find(const std::string& name_or_dir, const std::vector<fs::path>& search_path) {
    const fs::path as_path(name_or_dir);
    if (has_manifest(as_path)) return clean_dir(as_path);
    for (const auto& dir : search_path)
        if (has_manifest(dir / name_or_dir))
            return clean_dir(dir / name_or_dir);
    const std::string where = listed(search_path);
    const std::string hint = shared().root.empty()
        ? "; no shipped rulesets were found beside this binary: set UMPIRE_HOME to the folder that "
          "holds rulesets/ and schemas/, or UMPIRE_PATH to your rulesets folders"
        : "";
    throw ScriptError("ruleset '" + name_or_dir + "' not found (no ruleset.yaml there, nor in:" +
                      where + ")" + hint);
}

std::vector<fs::path> all(const std::vector<fs::path>& search_path) {
    std::vector<fs::path> out;
    std::set<std::string> names;
    for (const auto& dir : search_path) {
        if (fs::is_regular_file(dir / "ruleset.yaml")) {
            if (names.insert(clean_dir(dir).filename().string()).second) out.push_back(clean_dir(dir));
            continue;
        }
        if (!fs::is_directory(dir)) continue;
        std::vector<fs::path> found;
        for (const auto& e : fs::directory_iterator(dir))
            if (fs::is_regular_file(e.path() / "ruleset.yaml")) found.push_back(e.path());
        std::sort(found.begin(), found.end());
        for (const auto& p : found)
            if (names.insert(p.filename().string()).second) out.push_back(clean_dir(p));
    }
    return out;
}

constexpr std::size_t kMaxExtendsDepth = 32;

std::vector<Manifest> chain(const fs::path& dir, const std::vector<fs::path>& search_path, LoadCache* cache) {
    std::vector<Manifest> out;
    std::set<fs::path> seen;
    fs::path current = dir;
    // The parent is looked up beside the child first, then along the search path.
    for (;;) {
        Manifest m = read_manifest(current, cache);
        if (!seen.insert(m.dir).second)
            throw ScriptError(LuaHost::display_path(m.dir / "ruleset.yaml") + ": 'extends' makes a cycle (" +
                              m.name + " extends itself through its parents)");
        const std::string parent = m.extends;
        const fs::path here = m.dir;
        out.push_back(std::move(m));
        if (parent.empty()) break;
        // A bound on the depth: each level is looked up among its folder's rulesets, and a chain
        // of 10 000 rulesets took 10 s to load (18 s under odds), outside the script's time limit.
        // A house rule over a house rule over a game is three levels.
        if (out.size() >= kMaxExtendsDepth)
            throw ScriptError(LuaHost::display_path(out.front().dir / "ruleset.yaml") + ": 'extends' goes more than " +
                              std::to_string(kMaxExtendsDepth) + " rulesets deep (" + out.front().name + " -> " +
                              out[1].name + " -> ... -> " + out.back().name + " -> " + parent +
                              "): a chain that long is refused");
        std::vector<fs::path> path{here.parent_path()};
        path.insert(path.end(), search_path.begin(), search_path.end());
        current = find_by_name(parent, path);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

namespace {

// path(file).stem() worked out on the text: path::stem splits the whole path into parts, which for
// every data file and module of every reload cost more than the comparisons.
std::string name_of(const std::string& file) {
    const std::size_t slash = file.rfind('/');
    const std::string_view name = slash == std::string::npos ? std::string_view(file) : std::string_view(file).substr(slash + 1);
    const std::size_t dot = name.rfind('.');
    if (name == ".." || dot == std::string_view::npos || dot == 0) return std::string(name);
    return std::string(name.substr(0, dot));
}

// One data file of a load: its path, display name and checked YAML (the load cache's; the same
// document object as long as the file's bytes and display name are unchanged).
struct DataSource {
    std::string file;  // as the manifest's read spelled it (Manifest::data)
    std::string display;
    std::shared_ptr<const yaml::Document> document;
    bool operator==(const DataSource&) const = default;
};

// Pushes the data file's values as fresh tables into umpire.data (the table at `data`).
void load_data(LuaHost& host, int data, const DataSource& source) {
    lua_State* L = host.state();
    lua::StackCheck check(L, 0);
    yaml::push(L, *source.document);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        throw ScriptError(source.display + ":1:1: a data file must hold a map or a list", source.display, 1);
    }
    const std::string name = name_of(source.file);
    // umpire.data.scenario is the host's function that reads scenarios/; it was set over a data
    // file of that name, whose values were lost without a word (session 37).
    if (name == "scenario") {
        lua_pop(L, 1);
        throw ScriptError(source.display + ":1:1: a data file cannot be named 'scenario': umpire.data.scenario is "
                          "the function that reads scenarios/ (rename the file)", source.display, 1);
    }
    lua_getfield(L, data, name.c_str());
    if (lua_istable(L, -1) && !marks::is_sequence(L, -1) && !marks::is_sequence(L, -2)) {
        marks::deep_merge(L, -1, -2);  // a child's file of the same name layers over the parent's
        lua_pop(L, 2);
    } else {
        lua_pop(L, 1);
        lua_setfield(L, data, name.c_str());
    }
}

// Reuse of the data tables across reloads. umpire.data is built from the data files alone (their
// values, merged layer over layer in load order; umpire.data.scenario aside), then sealed
// read-only (host/DataGuard.hpp). Each umpire.data[name] is made from the data files called
// `name` alone, in load order. So where those files are the committed load's, in the same order,
// with the same display names and the same parsed documents (the load cache hands out a new
// document whenever a file's bytes change), this load would build a table equal to the committed
// umpire.data[name], key for key and mark for mark: it takes the committed one instead. When every
// data file is the committed load's, the whole committed umpire.data is taken, with its seal
// (nothing pushed, nothing sealed). When some changed, a new root holds the kept tables beside
// fresh ones for the names whose files changed (pushed in the order a cold load pushes them, so
// the root gets its keys in the same order), and its seal copies the kept tables' records from
// the committed seal instead of walking them again (DataGuard::seal's `reuse`). That skips pushing
// and sealing what did not change, which was most of a reload after an edit of one data file.
//
// Why that is safe: the tables are read-only to every generation (new keys refused by their
// metatable, any other write found against the seal's copy and put back after the run that made
// it), so sharing them between the old generation and the new one shares nothing writable. They
// are taken only from the committed generation's umpire.data while it is still sealed. This
// load's module bodies and validate() run on them under the same check as on fresh tables: the
// one verify after the rule code (below) compares every kept table with the committed seal's
// records. A write made before this load and not put back yet would be found by that verify too,
// and blamed on this load; so when a load that kept tables finds a change, ruleset::load puts the
// committed data back and loads again with fresh tables only (`retry_fresh`), which blames the
// rule code only if it writes again. That is why the kept tables need no verify before the rule
// code (it was a third of a reload's instructions): every run ends with DataGuard::check, so a
// write not yet put back is a host bug, and costs one more load, not a wrong result or message.
// If the load fails, the old generation keeps its tables: umpire.data.scenario is put back here,
// and ruleset::load puts back any write the failed load made (DataGuard::restore_quietly).
// umpire.data.scenario is made by every load (the scenario files have their own stamps) and
// replaced in a kept root (DataGuard::replace_value).
struct ReusableData {
    explicit ReusableData(Game&) {}
    std::vector<DataSource> sources;  // of the tables kept in the registry at kRoot
    static constexpr const char* kRoot = "umpire.reusable_data";
    // The committed scenario function, while a load that kept the tables runs (for a failure).
    static constexpr const char* kScenario = "umpire.reusable_data_scenario";
};

// Pushes the committed generation's umpire.data if it is the table remembered with the committed
// sources and still sealed; pushes nothing and returns false otherwise.
bool push_committed_data(LuaHost& host) {
    if (host.extension<ReusableData>().sources.empty()) return false;
    lua_State* L = host.state();
    const int top = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, ReusableData::kRoot);
    host.push_env();
    lua_getfield(L, -1, "umpire");
    bool committed = false;
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "data");
        committed = lua_istable(L, -1) && lua_rawequal(L, -1, top + 1);
    }
    lua_settop(L, top + 1);
    if (committed && host.extension<DataGuard>().sealed(L, -1)) return true;
    lua_settop(L, top);
    return false;
}

// Fills the fresh root at `data` from `sources`: umpire.data[name] is the committed root's (at
// `committed`, 0 for none) when that name's files are those of `before`, the committed sources,
// else pushed from the files. Names in order of first appearance, as a cold load adds them.
// Returns how many names were kept.
std::size_t fill_data(LuaHost& host, int data, int committed, const std::vector<DataSource>& sources,
                      const std::vector<DataSource>& before) {
    lua_State* L = host.state();
    std::vector<std::string> names;
    names.reserve(sources.size());
    for (const auto& source : sources) names.push_back(name_of(source.file));
    std::vector<std::string> names_before;
    names_before.reserve(before.size());
    for (const auto& source : before) names_before.push_back(name_of(source.file));
    const auto group = [](const std::vector<DataSource>& all, const std::vector<std::string>& all_names,
                          const std::string& name) {
        std::vector<const DataSource*> out;
        for (std::size_t i = 0; i < all.size(); ++i)
            if (all_names[i] == name) out.push_back(&all[i]);
        return out;
    };
    std::size_t kept = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]) !=
            names.begin() + static_cast<std::ptrdiff_t>(i))
            continue;  // a later file of a name seen: pushed with the first
        const auto now = group(sources, names, names[i]);
        if (committed) {
            const auto then = group(before, names_before, names[i]);
            const bool same = now.size() == then.size() &&
                              std::equal(now.begin(), now.end(), then.begin(),
                                         [](const DataSource* a, const DataSource* b) { return *a == *b; });
            if (same) {
                lua_getfield(L, committed, names[i].c_str());
                if (lua_istable(L, -1)) {
                    lua_setfield(L, data, names[i].c_str());
                    ++kept;
                    continue;
                }
                lua_pop(L, 1);
            }
        }
        for (const DataSource* source : now) load_data(host, data, *source);
    }
    return kept;
}

// Remembers the table at `data` as the one built from `sources`.
void remember_data(LuaHost& host, int data, std::vector<DataSource> sources) {
    lua_State* L = host.state();
    lua_pushvalue(L, data);
    lua_setfield(L, LUA_REGISTRYINDEX, ReusableData::kRoot);
    host.extension<ReusableData>().sources = std::move(sources);
}

// Runs one module: its chunk gets (name, parent module or nil) as `...` and must return a table.
// Leaves nothing on the stack; appends the module table to `layers` (for validate()).
void load_module(LuaHost& host, int env, int rules, int bases, int layers, const std::string& file,
                 const std::string& display, const Manifest::Resolved& checked) {
    lua_State* L = host.state();
    lua::StackCheck check(L, 0);
    const std::string name = name_of(file);
    host.extension<LoadCache>().push_chunk(host, file, display, env, checked.stamp, checked.real);
    lua_pushstring(L, name.c_str());
    lua_getfield(L, rules, name.c_str());
    const bool has_parent = lua_istable(L, -1);
    // umpire.base(name) answers the parent while this module loads.
    lua_pushstring(L, name.c_str());
    lua_pushvalue(L, -2);
    lua_rawset(L, bases);
    host.call(2, 1);
    if (!lua_istable(L, -1)) {
        const std::string got = luaL_typename(L, -1);
        lua_pop(L, 1);
        throw ScriptError(display + ": a rules module must return a table (got " + got + ")", display);
    }
    if (has_parent) {
        if (lua_getmetatable(L, -1)) {
            lua_pop(L, 1);  // the child set its own metatable: its choice
        } else {
            // Fall back to the parent for everything the child does not redefine: extend, never copy.
            lua_newtable(L);
            lua_getfield(L, rules, name.c_str());
            lua_setfield(L, -2, "__index");
            lua_setmetatable(L, -2);
        }
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, layers, static_cast<int>(lua_objlen(L, layers)) + 1);
    lua_setfield(L, rules, name.c_str());
}

// Calls validate(data) of every module layer that defines one itself; returns whether any did.
bool validate(LuaHost& host, int layers, int data) {
    lua_State* L = host.state();
    lua::StackCheck check(L, 0);
    bool called = false;
    const int n = static_cast<int>(lua_objlen(L, layers));
    for (int i = 1; i <= n; ++i) {
        lua_rawgeti(L, layers, i);
        lua_pushliteral(L, "validate");
        lua_rawget(L, -2);
        if (lua_isfunction(L, -1)) {
            lua_pushvalue(L, data);
            host.call(1, 0);
            called = true;
        } else {
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return called;
}

void set_info(LuaHost& host, int umpire, const Manifest& m) {
    lua_State* L = host.state();
    lua_newtable(L);
    lua_pushstring(L, m.name.c_str());
    lua_setfield(L, -2, "name");
    lua_pushstring(L, m.version.c_str());
    lua_setfield(L, -2, "version");
    if (m.turn_sequence_yaml.empty()) lua_newtable(L);
    else yaml::push(L, *host.extension<LoadCache>().text(m.turn_sequence_yaml, m.display + " (turn_sequence)"));
    lua_setfield(L, -2, "turn_sequence");
    sandbox::push_writable(L, umpire);  // `umpire` is a read-only view to rule code
    lua_insert(L, -2);
    lua_setfield(L, -2, "ruleset");
    lua_pop(L, 1);
}

}  // namespace

void load_into(LuaHost& host, int env, const std::vector<fs::path>& dirs, bool* retry_fresh) {
    lua_State* L = host.state();
    if (env < 0) env = lua_gettop(L) + env + 1;
    lua::StackCheck check(L, 0);
    const auto search = search_path(host);
    std::error_code ec;
    const std::string cwd = fs::current_path(ec).native();
    std::vector<Manifest> layers_in_order;
    for (const auto& dir : dirs) {
        for (auto& m : chain(dir, search, &host.extension<LoadCache>())) {
            const bool dup = std::any_of(layers_in_order.begin(), layers_in_order.end(),
                                         [&](const Manifest& x) { return x.dir == m.dir; });
            if (!dup) layers_in_order.push_back(std::move(m));
        }
    }
    const int top = lua_gettop(L);
    lua_getfield(L, env, "umpire");
    const int umpire = lua_gettop(L);
    lua_getfield(L, umpire, "data");
    const int data = lua_gettop(L);
    lua_getfield(L, umpire, "rules");
    const int rules = lua_gettop(L);
    lua_getfield(L, umpire, "base");
    lua_getupvalue(L, -1, 1);  // the bases table behind umpire.base
    const int bases = lua_gettop(L);
    lua_newtable(L);
    const int layers = lua_gettop(L);
    auto& guard = host.extension<DataGuard>();
    std::vector<DataSource> sources;
    bool kept = false;     // this load took the committed umpire.data whole (ReusableData)
    bool reused = false;   // ... or some of its tables
    try {
        // Data of every layer before any rule code runs, so modules see the merged result.
        auto& cache = host.extension<LoadCache>();
        for (const auto& m : layers_in_order)
            for (std::size_t i = 0; i < m.data.size(); ++i) {
                std::string display = display_of(m.data_resolved[i].real, cwd);
                auto document = cache.data(m.data[i], display, L, m.data_resolved[i].stamp, m.data_resolved[i].real);
                sources.push_back({m.data[i], std::move(display), std::move(document)});
            }
        const auto& committed = host.extension<ReusableData>().sources;
        const int root = retry_fresh && push_committed_data(host) ? lua_gettop(L) : 0;
        if (root && sources == committed) {
            push_scenario_function(host, layers_in_order, cwd);
            // The committed scenario function is kept aside, for a failure to put back.
            lua_pushliteral(L, "scenario");
            lua_rawget(L, root);
            lua_setfield(L, LUA_REGISTRYINDEX, ReusableData::kScenario);
            kept = guard.replace_value(L, root, "scenario", -1);
            lua_pop(L, 1);  // the new scenario function (in the root if kept)
            if (kept) {
                lua_replace(L, data);
                sandbox::push_writable(L, umpire);
                lua_pushvalue(L, data);
                lua_setfield(L, -2, "data");
                lua_pop(L, 1);
            }
            // (not kept: never, a sealed root holds its scenario function; then as below)
        }
        if (!kept) {
            reused = fill_data(host, data, root, sources, committed) > 0;
            push_scenario_function(host, layers_in_order, cwd);
            lua_setfield(L, data, "scenario");
            // umpire.data is read-only from here on, module bodies and validate included
            // (host/DataGuard.hpp): a ruleset cannot change another's data, even while loading.
            guard.seal(L, data, reused ? root : 0);
            if (root) lua_remove(L, root);
        }
        reused = reused || kept;
        lua_newtable(L);  // name -> the module table umpire.rules holds for it, as the loader left it
        const int loaded = lua_gettop(L);
        int last_layer_sealed_from = 0;  // the guard's position of the last ruleset's first module
        for (const auto& m : layers_in_order) {
            // Each ruleset's modules get globals of their own (the allow-list and the one
            // `umpire`): in one env, a global one ruleset's module set was read, and could be
            // set, by another's (session 36). A house rule reaches its parent through
            // umpire.rules and umpire.base, never through globals.
            sandbox::push_env(L);
            lua_pushvalue(L, umpire);
            lua_setfield(L, -2, "umpire");
            const int own = lua_gettop(L);
            for (std::size_t i = 0; i < m.modules.size(); ++i)
                load_module(host, own, rules, bases, layers, m.modules[i], display_of(m.modules_resolved[i].real, cwd),
                            m.modules_resolved[i]);
            lua_pop(L, 1);
            // Fixed from here on: a later ruleset's module body (or validate) that changes one
            // is found at the end of the load (host/ModuleGuard.hpp).
            last_layer_sealed_from = module_guard::sealed(L, rules) + 1;
            for (const auto& file : m.modules) {
                const std::string name = name_of(file);
                // (raw: no metamethod a module body set on umpire.rules runs between the seals)
                lua_pushlstring(L, name.data(), name.size());
                lua_rawget(L, rules);
                module_guard::seal(L, rules, -1, "umpire.rules." + name);
                lua_setfield(L, loaded, name.c_str());
            }
        }
        const bool validated = validate(host, layers, data);
        // umpire.rules must hold the modules the loader put there, no more and no other; the
        // check finds that, and any change to a module after its ruleset loaded. The last
        // ruleset's modules were sealed after the last module body ran: only a validate() could
        // have changed them since, so without one they are not walked (most of the check's cost
        // in a load of one ruleset; every run's check walks them all).
        module_guard::seal(L, rules, rules, "umpire.rules", loaded);
        lua_pop(L, 1);
        if (const std::string tampered = module_guard::check(L, rules, validated ? 0 : last_layer_sealed_from);
            !tampered.empty())
            throw ScriptError("loading the rules changed " + tampered + " (" + module_guard::kWhy + ")");
        if (const std::string view = sandbox::clear_views(L); !view.empty())
            throw ScriptError("loading the rules changed " + view + " (" + sandbox::kViewsWhy + ")");
        // The one verify of a load (ReusableData says why the kept tables need none before).
        const std::string changed = guard.verify(L, data);
        if (!changed.empty() && reused) *retry_fresh = true;
        if (!changed.empty())
            throw ScriptError("loading the rules changed " + changed +
                              " (umpire.data is read-only: copy it first, and change the copy)");
        if (!layers_in_order.empty()) set_info(host, umpire, layers_in_order.back());
        lua_pushnil(L);
        lua_setfield(L, LUA_REGISTRYINDEX, ReusableData::kScenario);
        if (!kept) remember_data(host, data, std::move(sources));
    } catch (...) {
        if (kept) {
            // The committed generation's scenario function again (writes this load made to the
            // kept tables are put back by ruleset::load).
            lua_settop(L, top);
            lua_getfield(L, LUA_REGISTRYINDEX, ReusableData::kRoot);
            lua_getfield(L, LUA_REGISTRYINDEX, ReusableData::kScenario);
            guard.replace_value(L, -2, "scenario", -1);
        }
        lua_settop(L, top);
        throw;
    }
    lua_settop(L, top);
}

}  // namespace umpire::ruleset
