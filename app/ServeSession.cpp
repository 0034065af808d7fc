#include "app/ServeSession.hpp"

#include <charconv>
#include <regex>

#include "bindings/LuaError.hpp"
#include "core/LinearRegex.hpp"
#include "host/LuaHost.hpp"

namespace umpire::serve {
namespace fs = std::filesystem;

Session::Session(Compute compute, const std::vector<fs::path>& files, const std::vector<fs::path>& trees)
    : compute_(std::move(compute)) {
    for (const auto& f : files) watcher_.watch_file(f);
    for (const auto& t : trees) watcher_.watch_tree(t);
}

Session::~Session() { stop(); }

void Session::start() {
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void Session::stop() {
    stop_ = true;
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Session::publish(const std::function<void()>& change) {
    {
        std::lock_guard lock(mutex_);
        change();
        ++version_;
    }
    changed_.notify_all();
}

void Session::run() {
    recompute({});
    while (!stop_) {
        // A short timeout, so stop() is seen promptly; Watcher::wait lets an editor's burst of
        // writes settle, so one save is one computation.
        const auto changed = watcher_.wait(std::chrono::milliseconds(200));
        if (!changed.empty() && !stop_) recompute(changed);
    }
}

void Session::recompute(const std::vector<fs::path>& changed) {
    nlohmann::json names = nlohmann::json::array();
    for (const auto& p : changed) names.push_back(LuaHost::display_path(p));
    publish([&] {
        status_ = "computing";
        stale_ = !page_.is_null() && !changed.empty();
        changed_files_ = names;
    });
    const auto started = std::chrono::steady_clock::now();
    nlohmann::json page, error;
    try {
        page = compute_();
    } catch (const std::exception& e) {
        error = error_json(e);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    publish([&] {
        seconds_ = seconds;
        if (error.is_null()) {
            page_ = std::move(page);
            status_ = "ok";
            stale_ = false;
            error_ = nullptr;
        } else {
            status_ = "error";
            stale_ = !page_.is_null();
            error_ = std::move(error);
        }
    });
}

nlohmann::json Session::document() const {
    std::lock_guard lock(mutex_);
    return {{"version", version_}, {"status", status_}, {"stale", stale_}, {"error", error_},
            {"page", page_}, {"seconds", seconds_}, {"changed", changed_files_}};
}

nlohmann::json Session::page() const {
    std::lock_guard lock(mutex_);
    return page_;
}

std::uint64_t Session::version() const {
    std::lock_guard lock(mutex_);
    return version_;
}

std::uint64_t Session::wait_for_version(std::uint64_t seen, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return version_ != seen || stop_; });
    return version_;
}

nlohmann::json error_json(const std::exception& e) {
    nlohmann::json out = {{"message", e.what()}, {"file", nullptr}, {"line", nullptr}};
    if (const auto* script = dynamic_cast<const ScriptError*>(&e); script && !script->file.empty()) {
        out["file"] = script->file;
        if (script->line > 0) out["line"] = script->line;
        return out;
    }
    static const std::regex where(R"(([^\s:'"()]+\.(?:lua|yaml|yml|json)):(\d+))", kLinearRegex);
    std::smatch m;
    const std::string message = e.what();
    // A line past int is left out (rule code raises any text it likes; std::stoi threw on it).
    int line = 0;
    if (std::regex_search(message, m, where)) {
        out["file"] = m[1].str();
        const std::string digits = m[2].str();
        if (std::from_chars(digits.data(), digits.data() + digits.size(), line).ec == std::errc()) out["line"] = line;
    }
    return out;
}

}  // namespace umpire::serve
