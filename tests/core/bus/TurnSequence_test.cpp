#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/bus/EventBus.hpp"
#include "core/bus/Journal.hpp"
#include "core/bus/TurnSequence.hpp"

using namespace umpire;
using namespace umpire::bus;
using Calls = std::vector<std::string>;

namespace {

TurnSequence::Description asl(std::int64_t last_turn = 0) {
    TurnSequence::Description d;
    d.mode = TurnSequence::Mode::alternating;
    d.players = {"German", "American"};
    for (auto [name, abbr] : std::vector<std::pair<const char*, const char*>>{
             {"Rally Phase", "RPh"}, {"Prep Fire Phase", "PFPh"}, {"Movement Phase", "MPh"},
             {"Defensive Fire Phase", "DFPh"}, {"Advancing Fire Phase", "AFPh"},
             {"Rout Phase", "RtPh"}, {"Advance Phase", "APh"}, {"Close Combat Phase", "CCPh"}})
        d.phases.push_back({name, abbr, false});
    d.last_turn = last_turn;
    return d;
}

TurnSequence::Description bolt_action() {
    TurnSequence::Description d;
    d.mode = TurnSequence::Mode::order_dice;
    d.players = {"British", "German"};
    d.phases = {{"Orders Phase", "Orders", true}, {"Turn End Phase", "End", false}};
    d.dice = {{"British", 2}, {"German", 1}};
    d.last_turn = 6;
    return d;
}

// Records every turn-sequence event as "event:turn:player:phase".
void record_all(EventBus& bus, Calls& calls) {
    for (const char* name : {"turn_start", "turn_end", "player_turn_start", "player_turn_end",
                             "phase_start", "phase_end", "activation", "activation_end",
                             "game_end"})
        bus.subscribe(name, 0, [&calls](Event& e) {
            calls.push_back(e.name + ":" + e.payload["turn"].dump() + ":" +
                            e.payload["player"].get<std::string>() + ":" +
                            e.payload["phase"].get<std::string>());
        }, "recorder");
}

}  // namespace

TEST_CASE("ASL: phases in order, then the other player's turn, then the next turn", "[bus][turns]") {
    EventBus bus;
    Calls calls;
    record_all(bus, calls);
    TurnSequence seq(asl());
    CHECK_FALSE(seq.started());
    CHECK(seq.turn() == 0);

    seq.advance(bus);
    CHECK(calls == Calls{"turn_start:1:German:RPh", "player_turn_start:1:German:RPh",
                         "phase_start:1:German:RPh"});
    CHECK(seq.phase().abbreviation == "RPh");
    CHECK(seq.player() == "German");

    std::vector<std::string> phases;
    for (int i = 0; i < 7; ++i) {
        seq.advance(bus);
        phases.push_back(seq.phase().abbreviation);
    }
    CHECK(phases == Calls{"PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh"});
    CHECK(seq.player() == "German");

    calls.clear();
    seq.advance(bus);  // German CCPh → American RPh
    CHECK(calls == Calls{"phase_end:1:German:CCPh", "player_turn_end:1:German:CCPh",
                         "player_turn_start:1:American:RPh", "phase_start:1:American:RPh"});
    CHECK(seq.turn() == 1);
    CHECK(seq.player_index() == 1);

    for (int i = 0; i < 7; ++i) seq.advance(bus);
    calls.clear();
    seq.advance(bus);  // American CCPh → turn 2 German RPh
    CHECK(calls == Calls{"phase_end:1:American:CCPh", "player_turn_end:1:American:CCPh",
                         "turn_end:1:American:CCPh", "turn_start:2:German:RPh",
                         "player_turn_start:2:German:RPh", "phase_start:2:German:RPh"});
    CHECK(seq.turn() == 2);
    CHECK(seq.player() == "German");
    CHECK(seq.phase_index() == 0);
}

TEST_CASE("the game ends after last_turn", "[bus][turns]") {
    EventBus bus;
    Calls calls;
    record_all(bus, calls);
    TurnSequence::Description d = asl(1);
    d.phases.resize(2);
    TurnSequence seq(d);
    for (int i = 0; i < 4; ++i) seq.advance(bus);  // start, PFPh, American RPh, PFPh
    calls.clear();
    seq.advance(bus);
    CHECK(calls == Calls{"phase_end:1:American:PFPh", "player_turn_end:1:American:PFPh",
                         "turn_end:1:American:PFPh", "game_end:1:American:PFPh"});
    CHECK(seq.finished());
    CHECK_THROWS_AS(seq.advance(bus), RuleError);
}

TEST_CASE("Bolt Action: order dice drawn until the bag is empty, then turn end", "[bus][turns]") {
    EventBus bus;
    Calls calls;
    record_all(bus, calls);
    TurnSequence seq(bolt_action());
    // Always draw the last die in the bag: bag is British, British, German.
    seq.set_drawer([](std::size_t n) { return n - 1; });
    seq.advance(bus);
    CHECK(calls == Calls{"turn_start:1::Orders", "phase_start:1::Orders"});
    CHECK(seq.bag() == Calls{"British", "British", "German"});
    calls.clear();
    seq.advance(bus);
    CHECK(calls == Calls{"activation:1:German:Orders"});
    CHECK(seq.player() == "German");
    CHECK(seq.activation() == 1);
    seq.advance(bus);
    seq.advance(bus);
    CHECK(seq.player() == "British");
    CHECK(seq.bag().empty());
    calls.clear();
    seq.advance(bus);  // bag empty: the orders phase ends
    CHECK(calls == Calls{"activation_end:1:British:Orders", "phase_end:1:British:Orders",
                         "phase_start:1::End"});
    CHECK(seq.player().empty());

    seq.set_dice("British", 1);  // lost a unit
    calls.clear();
    seq.advance(bus);
    CHECK(calls == Calls{"phase_end:1::End", "turn_end:1::End", "turn_start:2::Orders",
                         "phase_start:2::Orders"});
    CHECK(seq.bag() == Calls{"British", "German"});
    CHECK(seq.remove_die("German"));
    CHECK_FALSE(seq.remove_die("German"));
    CHECK_THROWS_AS(seq.remove_die("Italian"), RuleError);
    seq.advance(bus);
    CHECK(seq.player() == "British");
    calls.clear();
    seq.advance(bus);
    CHECK(calls == Calls{"activation_end:2:British:Orders", "phase_end:2:British:Orders",
                         "phase_start:2::End"});
}

TEST_CASE("the drawer must exist and stay in range", "[bus][turns]") {
    EventBus bus;
    TurnSequence seq(bolt_action());
    seq.advance(bus);
    CHECK_THROWS_AS(seq.advance(bus), RuleError);
    seq.set_drawer([](std::size_t n) { return n; });
    CHECK_THROWS_AS(seq.advance(bus), RuleError);
}

TEST_CASE("bad descriptions are refused with a reason", "[bus][turns]") {
    auto d = asl();
    d.phases[1].abbreviation = "RPh";
    CHECK_THROWS_WITH(TurnSequence(d), Catch::Contains("'RPh' is used twice"));
    d = asl();
    d.players.clear();
    CHECK_THROWS_AS(TurnSequence(d), RuleError);
    d = asl();
    d.phases[0].draw = true;
    CHECK_THROWS_WITH(TurnSequence(d), Catch::Contains("order_dice"));
    auto b = bolt_action();
    b.phases[0].draw = false;
    CHECK_THROWS_AS(TurnSequence(b), RuleError);
    b = bolt_action();
    b.dice["Italian"] = 3;
    CHECK_THROWS_AS(TurnSequence(b), RuleError);
    b = bolt_action();
    b.last_turn = -1;
    CHECK_THROWS_AS(TurnSequence(b), RuleError);
}

TEST_CASE("a turn sequence saved mid-game resumes identically", "[bus][turns]") {
    EventBus bus;
    TurnSequence seq(bolt_action());
    seq.set_drawer([](std::size_t) { return 0; });
    for (int i = 0; i < 3; ++i) seq.advance(bus);  // start, draw British, draw British
    nlohmann::json saved = seq.to_json();
    TurnSequence copy = TurnSequence::from_json(nlohmann::json::parse(saved.dump()));
    CHECK(copy.to_json() == saved);
    copy.set_drawer([](std::size_t) { return 0; });

    Calls a, b;
    EventBus bus_a, bus_b;
    record_all(bus_a, a);
    record_all(bus_b, b);
    for (int i = 0; i < 6; ++i) {
        seq.advance(bus_a);
        copy.advance(bus_b);
    }
    CHECK(a == b);
    CHECK(seq.to_json() == copy.to_json());

    saved["state"]["phase_index"] = 9;
    CHECK_THROWS_AS(TurnSequence::from_json(saved), ParseError);
    CHECK_THROWS_AS(TurnSequence::from_json(nlohmann::json{{"description", 1}}), ParseError);
}

TEST_CASE("advance stamps the journal context", "[bus][turns]") {
    EventBus bus;
    Journal journal;
    bus.attach_journal(&journal);
    TurnSequence seq(asl());
    bus.subscribe("phase_start", 0, [&](Event& e) {
        if (e.payload["phase"] == "PFPh") journal.note("prep fire begins");
    }, "m");
    seq.advance(bus);
    seq.advance(bus);
    CHECK(journal.context() == JournalEntry::Context{1, "German", "PFPh"});
    const auto& last = journal.entries().back();
    CHECK(last.text == "prep fire begins");
    CHECK(last.context.phase == "PFPh");
    CHECK(last.depth == 1);
    // phase_end of RPh was journaled in the RPh context
    bool found = false;
    for (const auto& e : journal.entries())
        if (e.text == "phase_end") {
            CHECK(e.context.phase == "RPh");
            found = true;
        }
    CHECK(found);
}
