// `umpire serve`'s live state: the page's data, computed again whenever a watched file changes
// (the script, every file of the rulesets' folders), as `umpire watch` re-runs.
//
// The reload is transactional at the level of the whole page: a new document replaces the shown
// one only if it computed whole. A broken edit (a Lua syntax error, bad YAML, an error raised on
// some dice path) keeps the last good document, now marked stale, beside the error with its
// file:line; the last good game's journal stays served (and replayable) until a good run
// replaces it. Each change of what is shown bumps a version number, which the server's event
// stream announces, so the page fetches the document again without a reload.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/Watcher.hpp"

namespace umpire::serve {

class Session {
public:
    // compute: one whole page document (serve::compute_page bound to a request); it may throw.
    // files: watched one by one (the script); trees: whole folders (each ruleset's folder).
    using Compute = std::function<nlohmann::json()>;
    Session(Compute compute, const std::vector<std::filesystem::path>& files,
            const std::vector<std::filesystem::path>& trees);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Starts computing in the background: now, then after every change.
    void start();
    void stop();

    // What the page reads:
    //   {"version", "status": "computing"|"ok"|"error", "stale": the page predates the files,
    //    "error": {"message", "file", "line"} or null, "page": the last good document or null,
    //    "seconds": how long it took, "changed": the files whose change started this computation}
    nlohmann::json document() const;
    // The last good page (null before the first good computation).
    nlohmann::json page() const;
    std::uint64_t version() const;
    // Blocks until the version is no longer `seen`, or the timeout, or stop(); returns it.
    std::uint64_t wait_for_version(std::uint64_t seen, std::chrono::milliseconds timeout) const;
    bool stopped() const { return stop_; }

private:
    void run();
    void recompute(const std::vector<std::filesystem::path>& changed);
    void publish(const std::function<void()>& change);

    Compute compute_;
    Watcher watcher_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::uint64_t version_ = 0;
    std::string status_ = "computing";
    bool stale_ = false;
    nlohmann::json error_;
    nlohmann::json page_;
    nlohmann::json changed_files_ = nlohmann::json::array();
    double seconds_ = 0;
};

// The error of a failed computation as the page shows it: the message, and the file and line it
// names (from a ScriptError, or the first "file.lua:12" / "file.yaml:3:4" in the message).
nlohmann::json error_json(const std::exception& e);

}  // namespace umpire::serve
