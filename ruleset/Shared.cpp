#include "ruleset/Shared.hpp"

#include <cstdlib>
#include <string>
#include <system_error>

namespace umpire::ruleset {
namespace fs = std::filesystem;

namespace {

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

// The layout found at `dir`, or an empty Shared.
Shared layout_at(const fs::path& dir) {
    Shared s;
    if (is_file(dir / "share/umpire/schemas/ruleset.schema.json")) {
        s.root = dir / "share/umpire";
        s.stubs = s.root / "stubs";
    } else if (is_file(dir / "schemas/ruleset.schema.json") && fs::is_directory(dir / "rulesets")) {
        s.root = dir;
        s.stubs = s.root / "docs/stubs";
    } else if (is_file(dir / "schemas/ruleset.schema.json")) {  // UMPIRE_HOME=<prefix>/share/umpire
        s.root = dir;
        s.stubs = s.root / "stubs";
    } else {
        return s;
    }
    s.rulesets = s.root / "rulesets";
    s.schemas = s.root / "schemas";
    return s;
}

Shared find_shared() {
    if (const char* home = std::getenv("UMPIRE_HOME"); home && *home)
        return layout_at(clean_dir(home));
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    fs::path dir = exe.parent_path();
    // Three levels: <prefix>/bin, <checkout>/build/cli, <checkout>/build/tests; no further, so an
    // unrelated checkout or share/ higher up is never picked by accident.
    for (int up = 0; up <= 3 && !dir.empty(); ++up, dir = dir.parent_path()) {
        Shared s = layout_at(dir);
        if (!s.root.empty()) return s;
        if (dir == dir.root_path()) break;
    }
    return {};
}

}  // namespace

const Shared& shared() {
    static const Shared s = find_shared();
    return s;
}

std::vector<fs::path> env_path() {
    std::vector<fs::path> out;
    const char* value = std::getenv("UMPIRE_PATH");
    if (!value) return out;
    const std::string text(value);
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(':', start), text.size());
        if (end > start) out.push_back(clean_dir(text.substr(start, end - start)));
        start = end + 1;
    }
    return out;
}

fs::path clean_dir(const fs::path& dir) {
    std::error_code ec;
    fs::path p = fs::absolute(dir, ec).lexically_normal();
    if (p.filename().empty() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
    return p;
}

}  // namespace umpire::ruleset
