#include "app/Watcher.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/Error.hpp"

namespace umpire {
namespace fs = std::filesystem;

Watcher::Watcher() : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    if (fd_ < 0) throw Error(std::string("cannot watch files: inotify: ") + std::strerror(errno));
}

Watcher::~Watcher() {
    if (fd_ >= 0) close(fd_);
}

void Watcher::add(const fs::path& dir, bool whole_dir) {
    // IN_MOVED_FROM too: a file renamed away (a module moved out of rules/) changes the rules as
    // a removal does, and went unseen until the next edit.
    const int wd = inotify_add_watch(fd_, dir.c_str(),
                                     IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY);
    if (wd < 0) throw Error("cannot watch " + dir.string() + ": " + std::strerror(errno));
    auto& w = watches_[wd];
    w.dir = dir;
    w.whole_dir = w.whole_dir || whole_dir;
}

void Watcher::watch_tree(const fs::path& dir) {
    add(dir, true);
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_directory()) add(e.path(), true);
}

void Watcher::watch_file(const fs::path& file) {
    const fs::path absolute = fs::absolute(file);
    const fs::path dir = absolute.parent_path();
    const int wd = inotify_add_watch(fd_, dir.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY);
    if (wd < 0) throw Error("cannot watch " + dir.string() + ": " + std::strerror(errno));
    auto& w = watches_[wd];
    w.dir = dir;
    w.files.push_back(absolute.filename().string());
}

std::vector<fs::path> Watcher::wait(std::chrono::milliseconds timeout, std::chrono::milliseconds settle) {
    std::vector<fs::path> changed;
    auto read_events = [&] {
        alignas(inotify_event) char buffer[8192];
        for (;;) {
            const ssize_t n = read(fd_, buffer, sizeof buffer);
            if (n <= 0) break;
            for (char* p = buffer; p < buffer + n;) {
                const auto* ev = reinterpret_cast<const inotify_event*>(p);
                p += sizeof(inotify_event) + ev->len;
                auto it = watches_.find(ev->wd);
                if (it == watches_.end()) continue;
                if (ev->mask & IN_IGNORED) {  // the folder is gone (removed, or replaced)
                    watches_.erase(it);
                    continue;
                }
                if (ev->len == 0) continue;
                const std::string name = ev->name;
                const Watch& w = it->second;
                const bool wanted = w.whole_dir ||
                                    std::find(w.files.begin(), w.files.end(), name) != w.files.end();
                if (!wanted) continue;
                const fs::path path = w.dir / name;
                // A folder made (or moved in) inside a watched tree is watched too: a folder
                // replaced (removed and made again, or a file turned back into a folder) was
                // watched no more, and later edits in it ran nothing. (std::map: adding keeps `w`.)
                if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO))) {
                    try {
                        watch_tree(path);
                    } catch (const std::exception&) {
                        // gone again already: its parent's next event says so
                    }
                }
                if (std::find(changed.begin(), changed.end(), path) == changed.end())
                    changed.push_back(path);
            }
        }
    };
    pollfd pfd{fd_, POLLIN, 0};
    if (poll(&pfd, 1, static_cast<int>(timeout.count())) <= 0) return changed;
    read_events();
    // Let the burst finish (write, rename, chmod...) so one save triggers one re-run.
    while (poll(&pfd, 1, static_cast<int>(settle.count())) > 0) read_events();
    return changed;
}

}  // namespace umpire
