#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/bus/EventBus.hpp"
#include "core/bus/Journal.hpp"

using namespace umpire;
using namespace umpire::bus;
using Calls = std::vector<std::string>;

namespace {
EventBus::Handler log_to(Calls& calls, std::string tag) {
    return [&calls, tag](Event&) { calls.push_back(tag); };
}
}  // namespace

TEST_CASE("higher priority runs first, ties run in subscription order", "[bus][events]") {
    EventBus bus;
    Calls calls;
    bus.subscribe("fire", 0, log_to(calls, "a0"), "m");
    bus.subscribe("fire", 10, log_to(calls, "b10"), "m");
    bus.subscribe("fire", -5, log_to(calls, "c-5"), "m");
    bus.subscribe("fire", 10, log_to(calls, "d10"), "m");
    bus.subscribe("fire", 0, log_to(calls, "e0"), "m");
    bus.subscribe("other", 100, log_to(calls, "other"), "m");
    bus.raise("fire");
    CHECK(calls == Calls{"b10", "d10", "a0", "e0", "c-5"});
    auto subs = bus.subscriptions("fire");
    REQUIRE(subs.size() == 5);
    CHECK(subs[0].priority == 10);
    CHECK(subs[4].priority == -5);
}

TEST_CASE("no subscriber: raise returns the event untouched", "[bus][events]") {
    EventBus bus;
    Event e = bus.raise("nobody", {{"x", 1}});
    CHECK(e.name == "nobody");
    CHECK(e.payload == nlohmann::json{{"x", 1}});
    CHECK_FALSE(e.cancelled);
    CHECK_THROWS_AS(bus.raise(""), RuleError);
    CHECK_THROWS_AS(bus.subscribe("x", 0, nullptr, "m"), RuleError);
}

TEST_CASE("cancel skips later handlers unless they opt in", "[bus][events]") {
    EventBus bus;
    Calls calls;
    bus.subscribe("move", 10, log_to(calls, "first"), "m");
    bus.subscribe("move", 5, [&](Event& e) { calls.push_back("canceller"); e.cancel(); }, "snipers");
    bus.subscribe("move", 1, log_to(calls, "skipped"), "m");
    bus.subscribe("move", 0, log_to(calls, "watcher"), "log", /*sees_cancelled=*/true);
    bus.subscribe("move", -1, log_to(calls, "skipped too"), "m");
    Event e = bus.raise("move");
    CHECK(calls == Calls{"first", "canceller", "watcher"});
    CHECK(e.cancelled);
    CHECK(e.cancelled_by == "snipers");
    REQUIRE(e.changes.size() == 1);
    CHECK(e.changes[0].what == "cancel");
}

TEST_CASE("a modification is seen by later handlers and recorded with its owner", "[bus][events]") {
    EventBus bus;
    std::vector<nlohmann::json> seen;
    bus.subscribe("ift_drm", 10, [](Event& e) { e.set("drm", e.get("drm").get<int>() - 1); },
                  "ffnam.lua");
    bus.subscribe("ift_drm", 5, [](Event& e) { e.set("/tem/value", 3); }, "terrain.lua");
    bus.subscribe("ift_drm", 0, [&](Event& e) { seen.push_back(e.payload); }, "log");
    Event e = bus.raise("ift_drm", {{"drm", 0}});
    REQUIRE(seen.size() == 1);
    CHECK(seen[0]["drm"] == -1);
    CHECK(seen[0]["tem"]["value"] == 3);
    REQUIRE(e.changes.size() == 2);
    CHECK(e.changes[0].owner == "ffnam.lua");
    CHECK(e.changes[0].what == "drm");
    CHECK(e.changes[0].before == 0);
    CHECK(e.changes[0].after == -1);
    CHECK(e.changes[1].owner == "terrain.lua");
    CHECK(e.changes[1].before.is_null());
    CHECK(e.current_owner.empty());
}

TEST_CASE("a payload path that cannot be written is a RuleError", "[bus][events]") {
    Event e;
    e.name = "x";
    e.payload = {{"s", "text"}};
    CHECK_THROWS_AS(e.set("/s/0", 1), umpire::RuleError);
    CHECK_THROWS_AS(e.set("/a~9", 1), umpire::RuleError);  // "~9" is not a pointer escape
    CHECK(e.changes.empty());
    CHECK(e.payload == nlohmann::json{{"s", "text"}});
    e.set("/list", nlohmann::json::array());
    e.set("/list/0", 7);
    CHECK(e.get("/list/0") == 7);
    CHECK(e.get("/missing/deep").is_null());
}

TEST_CASE("the host slot travels untouched", "[bus][events]") {
    EventBus bus;
    auto lua_ref = std::make_shared<int>(42);
    void* seen = nullptr;
    bus.subscribe("x", 0, [&](Event& e) { seen = e.host.get(); }, "m");
    Event e = bus.raise("x", nullptr, lua_ref);
    CHECK(seen == lua_ref.get());
    CHECK(e.host == lua_ref);
    CHECK(e.payload.is_object());
}

TEST_CASE("raise from a handler is nested, post is queued", "[bus][events]") {
    EventBus bus;
    Calls calls;
    bus.subscribe("attack", 1, [&](Event& e) {
        calls.push_back("attack:1 depth " + std::to_string(e.depth));
        Event inner = bus.raise("morale_check", {{"mod", 0}});
        calls.push_back("attack:1 sees mod " + inner.payload["mod"].dump());
        bus.post("residual");
        calls.push_back("attack:1 after post");
    }, "m");
    bus.subscribe("attack", 0, log_to(calls, "attack:0"), "m");
    bus.subscribe("morale_check", 0, [&](Event& e) {
        calls.push_back("morale depth " + std::to_string(e.depth));
        e.set("mod", 2);
    }, "m");
    bus.subscribe("residual", 0, [&](Event& e) {
        calls.push_back("residual depth " + std::to_string(e.depth));
    }, "m");
    bus.raise("attack");
    CHECK(calls == Calls{"attack:1 depth 0", "morale depth 1", "attack:1 sees mod 2",
                         "attack:1 after post", "attack:0", "residual depth 0"});
    CHECK(bus.depth() == 0);

    // Posting while idle delivers at once.
    calls.clear();
    bus.post("residual");
    CHECK(calls == Calls{"residual depth 0"});
}

TEST_CASE("runaway recursion is a RuleError naming the chain, the bus recovers", "[bus][events]") {
    EventBus bus;
    bus.set_depth_limit(8);
    bus.subscribe("a", 0, [&](Event&) { bus.raise("b"); }, "m");
    bus.subscribe("b", 0, [&](Event&) { bus.raise("a"); }, "m");
    try {
        bus.raise("a");
        FAIL("expected a RuleError");
    } catch (const RuleError& e) {
        std::string what = e.what();
        CHECK(what.find("recursion limit (8)") != std::string::npos);
        CHECK(what.find("a → b → a → b") != std::string::npos);
    }
    CHECK(bus.depth() == 0);
    Calls calls;
    bus.subscribe("c", 0, log_to(calls, "c"), "m");
    bus.raise("c");
    CHECK(calls == Calls{"c"});
    CHECK_THROWS_AS(bus.set_depth_limit(0), RuleError);
}

TEST_CASE("a post loop hits the queue limit", "[bus][events]") {
    EventBus bus;
    bus.set_queue_limit(50);
    int n = 0;
    bus.subscribe("tick", 0, [&](Event&) { ++n; bus.post("tick"); }, "m");
    CHECK_THROWS_AS(bus.raise("tick"), RuleError);
    CHECK(n == 51);  // the raised one plus 50 delivered from the queue
    // Nothing left over: the next raise delivers only its own chain.
    bus.unsubscribe_owner("m");
    Calls calls;
    bus.subscribe("tick", 0, log_to(calls, "t"), "n");
    bus.raise("tick");
    CHECK(calls == Calls{"t"});
}

TEST_CASE("a throwing handler propagates and discards queued events", "[bus][events]") {
    EventBus bus;
    Calls calls;
    bus.subscribe("x", 1, [&](Event&) { bus.post("later"); }, "m");
    bus.subscribe("x", 0, [](Event&) { throw RuleError("boom"); }, "m");
    bus.subscribe("later", 0, log_to(calls, "later"), "m");
    CHECK_THROWS_AS(bus.raise("x"), RuleError);
    CHECK(calls.empty());
    bus.raise("y");
    CHECK(calls.empty());
}

TEST_CASE("unsubscribe and unsubscribe_owner remove exactly what they name", "[bus][events]") {
    EventBus bus;
    Calls calls;
    auto id = bus.subscribe("fire", 0, log_to(calls, "a1"), "a.lua");
    bus.subscribe("fire", 0, log_to(calls, "b1"), "b.lua");
    bus.subscribe("fire", 0, log_to(calls, "a2"), "a.lua");
    bus.subscribe("move", 0, log_to(calls, "a-move"), "a.lua");
    bus.subscribe("move", 0, log_to(calls, "b-move"), "b.lua");
    CHECK(bus.unsubscribe(id));
    CHECK_FALSE(bus.unsubscribe(id));
    bus.raise("fire");
    CHECK(calls == Calls{"a2", "b1"});  // ties: a.lua subscribed first, so its handlers lead
    calls.clear();
    CHECK(bus.unsubscribe_owner("a.lua") == 2);
    CHECK(bus.unsubscribe_owner("a.lua") == 0);
    bus.raise("fire");
    bus.raise("move");
    CHECK(calls == Calls{"b1", "b-move"});
    CHECK(bus.subscription_count() == 2);
    CHECK(bus.subscription_count("b.lua") == 2);
}

TEST_CASE("reloading a module does not double its handlers and keeps its place", "[bus][events]") {
    EventBus bus;
    Calls calls;
    auto load_a = [&] {
        return std::vector<EventBus::Registration>{{"fire", 0, log_to(calls, "a"), false},
                                                   {"fire", 5, log_to(calls, "a5"), false}};
    };
    bus.replace_owner("a.lua", load_a());
    bus.subscribe("fire", 0, log_to(calls, "b"), "b.lua");
    bus.raise("fire");
    CHECK(calls == Calls{"a5", "a", "b"});

    for (int reload = 0; reload < 3; ++reload) bus.replace_owner("a.lua", load_a());
    calls.clear();
    bus.raise("fire");
    CHECK(calls == Calls{"a5", "a", "b"});  // once each, a still before b
    CHECK(bus.subscription_count("a.lua") == 2);

    // The manual path (unsubscribe_owner then subscribe) keeps the place too.
    bus.unsubscribe_owner("a.lua");
    bus.subscribe("fire", 0, log_to(calls, "a"), "a.lua");
    calls.clear();
    bus.raise("fire");
    CHECK(calls == Calls{"a", "b"});

    // A bad registration changes nothing.
    std::vector<EventBus::Registration> bad{{"fire", 0, log_to(calls, "new"), false},
                                            {"fire", 0, nullptr, false}};
    CHECK_THROWS_AS(bus.replace_owner("a.lua", std::move(bad)), RuleError);
    calls.clear();
    bus.raise("fire");
    CHECK(calls == Calls{"a", "b"});
}

TEST_CASE("equal priorities group by owner in first-subscription order", "[bus][events]") {
    EventBus bus;
    Calls calls;
    bus.subscribe("x", 0, log_to(calls, "a1"), "a.lua");
    bus.subscribe("x", 0, log_to(calls, "b1"), "b.lua");
    bus.subscribe("x", 0, log_to(calls, "a2"), "a.lua");
    bus.subscribe("x", 1, log_to(calls, "b-high"), "b.lua");
    bus.raise("x");
    CHECK(calls == Calls{"b-high", "a1", "a2", "b1"});
}

TEST_CASE("subscription changes during dispatch affect later events only", "[bus][events]") {
    EventBus bus;
    Calls calls;
    EventBus::SubscriptionId victim = 0;
    bus.subscribe("x", 10, [&](Event&) {
        calls.push_back("first");
        bus.unsubscribe(victim);
        bus.subscribe("x", 0, log_to(calls, "added"), "m");
    }, "m");
    victim = bus.subscribe("x", 5, log_to(calls, "victim"), "m");
    bus.raise("x");
    CHECK(calls == Calls{"first"});
    calls.clear();
    bus.unsubscribe_owner("m");
    // A handler that unsubscribes itself finishes its run safely.
    EventBus::SubscriptionId self = 0;
    std::string captured = "still alive";
    self = bus.subscribe("y", 0, [&, captured](Event&) {
        bus.unsubscribe(self);
        calls.push_back(captured);
    }, "m");
    bus.raise("y");
    bus.raise("y");
    CHECK(calls == Calls{"still alive"});
}

// The lists are changed in place when no dispatch holds them (so subscribing n handlers is linear),
// and copied when one does: here an event raised again from its own handler, whose inner dispatch
// subscribes and unsubscribes, must leave the outer dispatch's iteration as it began.
TEST_CASE("a list changed inside a nested dispatch of the same event leaves the outer one intact", "[bus][events]") {
    EventBus bus;
    Calls calls;
    int depth = 0;
    EventBus::SubscriptionId second = 0;
    bus.subscribe("x", 10, [&](Event&) {
        calls.push_back("first@" + std::to_string(depth));
        if (depth++ == 0) {
            bus.raise("x");
            bus.unsubscribe(second);
            bus.subscribe("x", 7, log_to(calls, "late"), "m");
        } else {
            bus.subscribe("x", 8, log_to(calls, "inner-added"), "m");
        }
    }, "m");
    second = bus.subscribe("x", 5, log_to(calls, "second"), "m");
    bus.raise("x");
    // The inner dispatch saw first and second; the outer one still runs its own list's second
    // (unsubscribed by then, so skipped) and nothing added after it began.
    CHECK(calls == Calls{"first@0", "first@1", "second"});
    calls.clear();
    depth = 1;
    bus.raise("x");
    CHECK(calls == Calls{"first@1", "inner-added", "late"});
    // Many subscriptions to one event, then every third removed one by one: the rest run in the
    // order the rule gives (higher priority first, then the order subscribed), computed here.
    std::vector<EventBus::SubscriptionId> ids;
    for (int i = 0; i < 2000; ++i) ids.push_back(bus.subscribe("y", i % 7, log_to(calls, std::to_string(i)), "n"));
    std::vector<int> kept;
    for (int i = 0; i < 2000; ++i) {
        if (i % 3 == 0) CHECK(bus.unsubscribe(ids[static_cast<std::size_t>(i)]));
        else kept.push_back(i);
    }
    std::stable_sort(kept.begin(), kept.end(), [](int a, int b) { return a % 7 > b % 7; });
    Calls expected;
    for (int i : kept) expected.push_back(std::to_string(i));
    calls.clear();
    bus.raise("y");
    CHECK(calls == expected);
}

TEST_CASE("an attached journal records events with their outcome, nested", "[bus][events]") {
    EventBus bus;
    Journal journal;
    bus.attach_journal(&journal);
    bus.subscribe("attack", 0, [&](Event& e) {
        journal.cite("A7.1", "attack resolved");
        bus.raise("break", {{"unit", "467"}});
        e.set("hit", true);
    }, "ift.lua");
    bus.subscribe("break", 0, [](Event& e) { e.cancel(); }, "rally.lua");
    bus.raise("attack");
    REQUIRE(journal.size() == 3);
    CHECK(journal.entries()[0].kind == JournalEntry::Kind::event);
    CHECK(journal.entries()[0].depth == 0);
    CHECK(journal.entries()[0].data["payload"]["hit"] == true);
    CHECK(journal.entries()[1].kind == JournalEntry::Kind::cite);
    CHECK(journal.entries()[1].depth == 1);
    CHECK(journal.entries()[2].depth == 1);
    CHECK(journal.entries()[2].data["cancelled_by"] == "rally.lua");
    CHECK(journal.depth() == 0);
    CHECK(journal.explain() ==
          "» attack; ift.lua set hit null → true\n"
          "  [A7.1] attack resolved\n"
          "  » break (cancelled by rally.lua)\n");
}
