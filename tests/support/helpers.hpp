// Shared helpers of the bindings tests.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "host/LuaHost.hpp"

namespace test_helpers {

inline std::filesystem::path fixtures() {
    return std::filesystem::path(UMPIRE_SOURCE_DIR) / "tests/support/fixtures";
}

// A host whose print() lines are kept, and eval(expr) = what `print(expr)` prints.
struct TestHost {
    std::vector<std::string> lines;
    umpire::LuaHost host;

    explicit TestHost(umpire::HostOptions options = {}) : host(with_print(std::move(options), lines)) {}

    std::string eval(const std::string& expr) {
        lines.clear();
        host.run_string("print(" + expr + ")");
        return lines.empty() ? std::string() : lines.back();
    }

private:
    static umpire::HostOptions with_print(umpire::HostOptions o, std::vector<std::string>& lines) {
        o.print = [&lines](const std::string& line) { lines.push_back(line); };
        return o;
    }
};

// Every scratch file of a test process lives under one folder, removed when the process exits
// (a static's destructor), so the tests leave nothing behind in /tmp.
inline const std::filesystem::path& scratch_root() {
    struct Root {
        std::filesystem::path path =
            std::filesystem::temp_directory_path() / ("umpire-tests-" + std::to_string(::getpid()));
        Root() { std::filesystem::create_directories(path); }
        ~Root() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    };
    static Root root;
    return root.path;
}

// A scratch copy of the fixtures that a test may edit.
inline std::filesystem::path scratch_copy(const std::string& tag) {
    namespace fs = std::filesystem;
    const fs::path dir = scratch_root() / ("fixtures-" + tag);
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(fixtures(), dir, fs::copy_options::recursive);
    return dir;
}

inline void write(const std::filesystem::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
}

}  // namespace test_helpers
