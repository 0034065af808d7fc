#include "core/bus/EventBus.hpp"

#include <algorithm>

#include "core/Error.hpp"
#include "core/bus/Journal.hpp"

namespace umpire::bus {

namespace {

// Call order: higher priority first, then lower owner rank, then earlier subscription.
template <class Sub>
bool runs_before(const Sub& a, const Sub& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (a.owner_rank != b.owner_rank) return a.owner_rank < b.owner_rank;
    return a.id < b.id;
}

}  // namespace

EventBus::EventBus() = default;
EventBus::~EventBus() = default;

std::uint64_t EventBus::rank_of(const std::string& owner) {
    auto [it, inserted] = owner_rank_.try_emplace(owner, owner_rank_.size());
    return it->second;
}

namespace {
// What one subscription holds on the heap besides its names: the record and its shared_ptr
// control block, the handler's captured state, a by_id_ node and a slot in its event's list, and
// the event's lists_ node (counted per subscription: an upper bound). The names are counted twice
// (the record's, and the list's key).
template <class Subscription>
std::size_t heap_bytes(const Subscription& s) {
    return sizeof(Subscription) + 256 + 2 * s.event.capacity() + s.owner.capacity();
}
}  // namespace

std::shared_ptr<EventBus::List>& EventBus::writable_list(const std::string& event) {
    auto& list = lists_[event];
    if (!list) list = std::make_shared<List>();
    else if (list.use_count() > 1) list = std::make_shared<List>(*list);  // a dispatch holds this one
    return list;
}

void EventBus::insert(std::shared_ptr<Subscription> sub) {
    bytes_ += heap_bytes(*sub);
    auto& list = writable_list(sub->event);
    auto pos = std::upper_bound(list->begin(), list->end(), sub,
                                [](const auto& a, const auto& b) { return runs_before(*a, *b); });
    list->insert(pos, sub);
    by_id_.emplace(sub->id, std::move(sub));
}

EventBus::SubscriptionId EventBus::subscribe(std::string event, int priority, Handler handler,
                                             std::string owner, bool sees_cancelled) {
    if (event.empty()) throw RuleError("subscribe: the event name is empty");
    if (!handler) throw RuleError("subscribe to '" + event + "': the handler is empty");
    auto sub = std::make_shared<Subscription>(Subscription{
        next_id_++, std::move(event), priority, rank_of(owner), std::move(owner), sees_cancelled,
        std::move(handler)});
    SubscriptionId id = sub->id;
    insert(std::move(sub));
    return id;
}

void EventBus::remove_from_lists(const std::vector<std::shared_ptr<Subscription>>& subs) {
    // Each affected list is filtered once, whatever the number removed from it.
    std::vector<std::string> events;
    for (const auto& s : subs) {
        s->active = false;
        if (by_id_.erase(s->id)) bytes_ -= heap_bytes(*s);
        events.push_back(s->event);
    }
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    for (const auto& e : events) {
        if (!lists_.count(e)) continue;
        auto& list = writable_list(e);
        list->erase(std::remove_if(list->begin(), list->end(), [](const auto& s) { return !s->active; }), list->end());
        if (list->empty()) lists_.erase(e);
    }
}

bool EventBus::unsubscribe(SubscriptionId id) {
    auto it = by_id_.find(id);
    if (it == by_id_.end()) return false;
    remove_from_lists({it->second});
    return true;
}

std::size_t EventBus::unsubscribe_owner(const std::string& owner) {
    std::vector<std::shared_ptr<Subscription>> subs;
    for (const auto& [id, s] : by_id_)
        if (s->owner == owner) subs.push_back(s);
    remove_from_lists(subs);
    return subs.size();
}

std::vector<EventBus::SubscriptionId> EventBus::replace_owner(
    const std::string& owner, std::vector<Registration> registrations) {
    for (const auto& r : registrations) {
        if (r.event.empty()) throw RuleError("replace_owner(" + owner + "): an event name is empty");
        if (!r.handler)
            throw RuleError("replace_owner(" + owner + "): the handler for '" + r.event +
                            "' is empty");
    }
    unsubscribe_owner(owner);
    std::vector<SubscriptionId> ids;
    ids.reserve(registrations.size());
    for (auto& r : registrations)
        ids.push_back(subscribe(std::move(r.event), r.priority, std::move(r.handler), owner,
                                r.sees_cancelled));
    return ids;
}

std::vector<EventBus::SubscriptionInfo> EventBus::subscriptions(std::string_view event) const {
    std::vector<SubscriptionInfo> out;
    auto it = lists_.find(event);
    if (it == lists_.end()) return out;
    for (const auto& s : *it->second)
        out.push_back({s->id, s->event, s->priority, s->owner, s->sees_cancelled});
    return out;
}

std::size_t EventBus::subscription_count(const std::string& owner) const {
    return static_cast<std::size_t>(std::count_if(
        by_id_.begin(), by_id_.end(), [&](const auto& p) { return p.second->owner == owner; }));
}

void EventBus::set_depth_limit(int limit) {
    if (limit < 1) throw RuleError("event depth limit must be at least 1");
    depth_limit_ = limit;
}

void EventBus::set_queue_limit(std::size_t limit) { queue_limit_ = limit; }

Event EventBus::raise(std::string name, nlohmann::json payload, std::shared_ptr<void> host) {
    Event e;
    e.name = std::move(name);
    if (!payload.is_null()) e.payload = std::move(payload);
    e.host = std::move(host);
    dispatch(e);
    return e;
}

void EventBus::throw_too_deep(const std::string& name) const {
    // Show the start and the end of the chain: a loop is visible in its last few names.
    std::string chain;
    std::size_t n = chain_.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (n > 10 && i == 3) {
            chain += " → …";
            i = n - 6;
        }
        chain += (i ? " → " : "") + *chain_[i];
    }
    chain += " → " + name;
    throw RuleError("event recursion limit (" + std::to_string(depth_limit_) +
                    ") exceeded raising '" + name + "': " + chain);
}

void EventBus::dispatch(Event& e) {
    if (e.name.empty()) throw RuleError("raise: the event name is empty");
    if (depth() >= depth_limit_) throw_too_deep(e.name);
    if (!e.payload.is_object() && !e.payload.is_null())
        throw RuleError("raise '" + e.name + "': the payload must be an object");

    // Restores the chain (and the journal's nesting) however the handlers leave.
    struct Frame {
        EventBus& bus;
        bool nested_journal;
        ~Frame() {
            bus.chain_.pop_back();
            if (nested_journal && bus.journal_) bus.journal_->pop_depth();
            if (bus.chain_.empty() && !bus.draining_) {
                // An outermost dispatch that failed takes its queued events with it.
                if (std::uncaught_exceptions() > 0) bus.queue_.clear();
            }
        }
    };

    e.depth = depth();
    std::size_t journal_index = 0;
    if (journal_) {
        journal_index = journal_->event(e);
        journal_->push_depth();
    }
    chain_.push_back(&e.name);
    {
        Frame frame{*this, journal_ != nullptr};
        auto it = lists_.find(e.name);
        if (it != lists_.end()) {
            std::shared_ptr<const List> snapshot = it->second;
            for (const auto& sub : *snapshot) {
                if (!sub->active) continue;  // unsubscribed while this event was in flight
                if (e.cancelled && !sub->sees_cancelled) continue;
                e.current_owner = sub->owner;
                auto keep_alive = sub;  // a handler may unsubscribe itself while running
                keep_alive->handler(e);
            }
        }
        e.current_owner.clear();
    }
    if (journal_) journal_->update_event(journal_index, e);
    if (chain_.empty() && !draining_) drain_queue();
}

void EventBus::post(std::string name, nlohmann::json payload, std::shared_ptr<void> host) {
    if (chain_.empty() && !draining_) {
        raise(std::move(name), std::move(payload), std::move(host));
        return;
    }
    Event e;
    e.name = std::move(name);
    if (!payload.is_null()) e.payload = std::move(payload);
    e.host = std::move(host);
    queue_.push_back(std::move(e));
}

void EventBus::drain_queue() {
    struct Draining {
        EventBus& bus;
        ~Draining() {
            bus.draining_ = false;
            if (std::uncaught_exceptions() > 0) bus.queue_.clear();
        }
    } guard{*this};
    draining_ = true;
    std::size_t delivered = 0;
    while (!queue_.empty()) {
        if (++delivered > queue_limit_) {
            std::string next = queue_.front().name;
            queue_.clear();
            throw RuleError("event queue limit (" + std::to_string(queue_limit_) +
                            ") exceeded: posted events keep posting more (next: '" + next + "')");
        }
        Event e = std::move(queue_.front());
        queue_.pop_front();
        dispatch(e);
    }
}

}  // namespace umpire::bus
