// An event in flight on the EventBus: its name, a payload handlers may change, whether it was
// cancelled, and a record of which handler (by owner) changed or cancelled it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace umpire::bus {

struct Event {
    // One recorded change: which owner's handler did it, to what, and the values around it.
    struct Change {
        std::string owner;     // owner of the handler that made the change
        std::string what;      // payload path ("drm", "/target/hex"), or "cancel"
        nlohmann::json before; // null for cancel, or when the path did not exist
        nlohmann::json after;
        bool operator==(const Change&) const = default;
    };

    std::string name;
    // The data rules read and change. Handlers may write it directly, but only changes made
    // through set() and cancel() are recorded (and journaled) with their owner.
    nlohmann::json payload = nlohmann::json::object();
    // Opaque slot for the host language. The Lua bindings put a holder of a Lua registry
    // reference here (its deleter unrefs), so a Lua table travels through C++ handlers and the
    // journal without conversion. Core never looks inside.
    std::shared_ptr<void> host;
    bool cancelled = false;
    std::string cancelled_by;  // owner of the handler that cancelled it
    std::vector<Change> changes;
    // Nesting depth: 0 for an event raised from outside any handler, 1 for one raised by a
    // handler of a depth-0 event, ...
    int depth = 0;
    // Owner of the handler now running; the bus sets it before each call so set() and
    // cancel() can say who did it. Empty outside dispatch.
    std::string current_owner;

    // Cancels the event: handlers after this one are skipped unless they subscribed with
    // sees_cancelled. The raiser sees cancelled == true and decides what "cancelled" means.
    void cancel();
    // Writes payload[path] (a plain key, or a JSON pointer when path starts with '/') and
    // records {current_owner, path, old, new}.
    void set(const std::string& path, nlohmann::json value);
    // Reads payload[path] (same path rules); null when absent.
    nlohmann::json get(const std::string& path) const;
};

// JSON form of what the journal keeps of an event: name, payload, cancelled, cancelled_by,
// changes, depth (the host slot is not serialised: the bindings convert what they want kept
// into the payload).
void to_json(nlohmann::json& j, const Event& e);

}  // namespace umpire::bus
