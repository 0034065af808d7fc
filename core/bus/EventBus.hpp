// The event bus: rules subscribe to named events with a priority; raising an event calls them.
//
// Semantics (the Lua bindings expose exactly these; keep docs/lua-api.md in step):
//
// * ORDER. Handlers run in DESCENDING priority (priority 100 before priority 0 before -5).
//   Ties run in registration order, with one refinement for hot reload: ties are ordered first
//   by the owner's rank (the order in which owners first subscribed, ever), then by order of
//   subscription within that owner. So a module that is reloaded keeps its place among equal-
//   priority handlers of other modules, and a replay after a reload calls handlers in the same
//   order as a fresh start does. For a single owner this is plain subscription order.
//
// * CANCEL. event.cancel() skips every later handler, except those that subscribed with
//   sees_cancelled = true (for rules that must react to a cancelled action, e.g. to log it or
//   to apply an "EXC:"). The raiser gets the event back with cancelled set and decides.
//
// * RAISE is nested (synchronous): a handler that raises an event runs that event's handlers
//   to completion before its own next statement, and gets the modified event back. Nesting is
//   limited to depth_limit() levels (default 64); going deeper throws RuleError naming the chain
//   of events, which is how an A-raises-B-raises-A loop is reported.
//   POST is queued: the event is delivered after the outermost raise's handlers have all
//   finished (FIFO, before that outermost raise returns), or at once if nothing is being
//   dispatched. At most queue_limit() posted events are delivered per outermost raise (default
//   100000), so a post loop is a RuleError, not a hang.
//
// * CHANGES DURING DISPATCH. The handler list of an event is a snapshot taken when it is
//   raised: a handler subscribed while the event is in flight does not see that event (it does
//   see events raised afterwards, including nested ones); a handler unsubscribed while it is in
//   flight is not called again, even by that event. A handler may unsubscribe itself: it stays
//   alive until it returns.
//
// * ERRORS. An exception from a handler propagates out of raise() to the raiser; the bus stays
//   usable (depth unwound) and events still queued by that dispatch are discarded.
//
// * JOURNAL. With a journal attached, every dispatched event is journaled as an "event" entry
//   before its handlers run (entries they write are nested under it) and the entry is updated
//   afterwards with the final payload, the cancel and the recorded changes.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/bus/Event.hpp"

namespace umpire::bus {

class Journal;

class EventBus {
public:
    using Handler = std::function<void(Event&)>;
    using SubscriptionId = std::uint64_t;  // never 0, never reused

    // One subscription for replace_owner().
    struct Registration {
        std::string event;
        int priority = 0;
        Handler handler;
        bool sees_cancelled = false;
    };

    // What subscriptions() reports, in call order.
    struct SubscriptionInfo {
        SubscriptionId id;
        std::string event;
        int priority;
        std::string owner;
        bool sees_cancelled;
    };

    EventBus();
    ~EventBus();
    EventBus(const EventBus&) = delete;
    EventBus& operator=(const EventBus&) = delete;

    // Subscribes handler to event. owner names what registered it (a module path such as
    // "asl/rules/machine_guns.lua") so hot reload can remove or replace it as a whole.
    // RuleError if event is empty or handler is empty.
    SubscriptionId subscribe(std::string event, int priority, Handler handler, std::string owner,
                             bool sees_cancelled = false);
    // Removes one subscription. Returns false if the id is unknown (already removed).
    bool unsubscribe(SubscriptionId id);
    // Removes every subscription of owner; returns how many.
    std::size_t unsubscribe_owner(const std::string& owner);
    // Hot reload in one step: checks every registration (RuleError before anything changes
    // if one is invalid), then removes all of owner's subscriptions and adds these, in order.
    // Calling it again with the same registrations leaves exactly one copy of each.
    std::vector<SubscriptionId> replace_owner(const std::string& owner,
                                              std::vector<Registration> registrations);

    // The subscriptions of event in the order they will be called.
    std::vector<SubscriptionInfo> subscriptions(std::string_view event) const;
    // Total number of live subscriptions; those of one owner.
    std::size_t subscription_count() const { return by_id_.size(); }
    // An estimate of the C++ heap the subscriptions hold (each one's record, handler, names and
    // its share of the indexes), so a host can count it against its memory cap.
    std::size_t bytes() const { return bytes_; }
    std::size_t subscription_count(const std::string& owner) const;

    // Raises an event now (nested if called from a handler) and returns it as the handlers
    // left it. payload must be a JSON object or null (null becomes {}).
    Event raise(std::string name, nlohmann::json payload = nlohmann::json::object(),
                std::shared_ptr<void> host = nullptr);
    // Same, on an Event the caller already holds (avoids a copy; the bindings use this).
    void dispatch(Event& event);
    // Queues an event for delivery after the outermost dispatch (see POST above).
    void post(std::string name, nlohmann::json payload = nlohmann::json::object(),
              std::shared_ptr<void> host = nullptr);

    // Nesting depth of the dispatch running now (0 when idle).
    int depth() const { return static_cast<int>(chain_.size()); }
    int depth_limit() const { return depth_limit_; }
    void set_depth_limit(int limit);  // RuleError if limit < 1
    std::size_t queue_limit() const { return queue_limit_; }
    void set_queue_limit(std::size_t limit);

    // Journals every dispatched event into journal (nullptr detaches). The journal must
    // outlive the bus or be detached first.
    void attach_journal(Journal* journal) { journal_ = journal; }
    Journal* journal() const { return journal_; }

private:
    struct Subscription {
        SubscriptionId id;
        std::string event;
        int priority;
        std::uint64_t owner_rank;
        std::string owner;
        bool sees_cancelled;
        Handler handler;
        bool active = true;
    };
    using List = std::vector<std::shared_ptr<Subscription>>;

    // Transparent hashing so raise("name") looks up without building a std::string.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    std::uint64_t rank_of(const std::string& owner);
    // The event's list, ready to change: the list itself, or a copy of it put in its place if a
    // dispatch is iterating it (holds another reference). Copying only then keeps subscribing n
    // handlers to one event linear in n, not quadratic (issue 16: a ruleset's subscriptions).
    std::shared_ptr<List>& writable_list(const std::string& event);
    void insert(std::shared_ptr<Subscription> sub);
    void remove_from_lists(const std::vector<std::shared_ptr<Subscription>>& subs);
    void drain_queue();
    [[noreturn]] void throw_too_deep(const std::string& name) const;

    // Copy-on-write: dispatch holds a shared_ptr to the list it iterates, so changing
    // subscriptions during dispatch replaces the list (writable_list) without disturbing the
    // iteration.
    std::unordered_map<std::string, std::shared_ptr<List>, NameHash, std::equal_to<>> lists_;
    std::unordered_map<SubscriptionId, std::shared_ptr<Subscription>> by_id_;
    std::size_t bytes_ = 0;
    std::unordered_map<std::string, std::uint64_t> owner_rank_;
    SubscriptionId next_id_ = 1;

    std::vector<const std::string*> chain_;  // names of the events being dispatched, outermost first
    std::deque<Event> queue_;
    bool draining_ = false;
    int depth_limit_ = 64;
    std::size_t queue_limit_ = 100000;
    Journal* journal_ = nullptr;
};

}  // namespace umpire::bus
