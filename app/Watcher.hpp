// Waits for files to change (inotify). Directories are watched, not files, because editors save
// by writing a new file and renaming it over the old one, which a watch on the file would lose.
#pragma once
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace umpire {

class Watcher {
public:
    Watcher();
    ~Watcher();
    Watcher(const Watcher&) = delete;
    Watcher& operator=(const Watcher&) = delete;

    // Watches dir and every directory below it.
    void watch_tree(const std::filesystem::path& dir);
    // Watches one file (through its directory; other files there are ignored).
    void watch_file(const std::filesystem::path& file);

    // Blocks until something watched changes (or timeout), then waits `settle` more for the
    // rest of an editor's burst of writes. Returns the changed paths ({} on timeout).
    std::vector<std::filesystem::path> wait(std::chrono::milliseconds timeout,
                                            std::chrono::milliseconds settle = std::chrono::milliseconds(150));

private:
    void add(const std::filesystem::path& dir, bool whole_dir);
    int fd_ = -1;
    struct Watch {
        std::filesystem::path dir;
        bool whole_dir = false;
        std::vector<std::string> files;  // when !whole_dir
    };
    std::map<int, Watch> watches_;
};

}  // namespace umpire
