#include "core/bus/Event.hpp"

#include "core/Error.hpp"

namespace umpire::bus {

namespace {
nlohmann::json::json_pointer pointer_of(const std::string& path) {
    try {
        return nlohmann::json::json_pointer(path);
    } catch (const nlohmann::json::exception&) {
        throw RuleError("event payload path '" + path + "' is not a valid JSON pointer");
    }
}
}  // namespace

void Event::cancel() {
    if (cancelled) return;  // the first canceller is the one that counts
    cancelled = true;
    cancelled_by = current_owner;
    changes.push_back({current_owner, "cancel", nullptr, true});
}

void Event::set(const std::string& path, nlohmann::json value) {
    if (path.empty()) {
        changes.push_back({current_owner, path, payload, value});
        payload = std::move(value);
        return;
    }
    // A plain key is used as is (it may contain '/' or '~' only through the pointer form).
    if (path[0] != '/') {
        if (!payload.is_object()) payload = nlohmann::json::object();
        auto it = payload.find(path);
        nlohmann::json before = it == payload.end() ? nlohmann::json() : *it;
        changes.push_back({current_owner, path, std::move(before), value});
        payload[path] = std::move(value);
        return;
    }
    auto ptr = pointer_of(path);
    nlohmann::json before = payload.contains(ptr) ? payload.at(ptr) : nlohmann::json();
    // Write first, record after: a path that cannot be written (an array index into a string)
    // leaves neither a change record nor a half-written payload.
    try {
        payload[ptr] = value;
    } catch (const nlohmann::json::exception&) {
        throw RuleError("event '" + name + "': cannot write payload path '" + path + "'");
    }
    changes.push_back({current_owner, path, std::move(before), std::move(value)});
}

nlohmann::json Event::get(const std::string& path) const {
    if (path.empty()) return payload;
    if (path[0] != '/') {
        if (!payload.is_object()) return nullptr;
        auto it = payload.find(path);
        return it == payload.end() ? nlohmann::json() : *it;
    }
    auto ptr = pointer_of(path);
    return payload.contains(ptr) ? payload.at(ptr) : nlohmann::json();
}

void to_json(nlohmann::json& j, const Event& e) {
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& c : e.changes)
        changes.push_back({{"owner", c.owner}, {"what", c.what}, {"before", c.before},
                           {"after", c.after}});
    j = nlohmann::json{{"name", e.name},           {"payload", e.payload},
                       {"cancelled", e.cancelled}, {"cancelled_by", e.cancelled_by},
                       {"changes", std::move(changes)}, {"depth", e.depth}};
}

}  // namespace umpire::bus
