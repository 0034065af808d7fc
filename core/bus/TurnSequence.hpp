// The turn sequence of a ruleset, declared as data, and where the game is in it.
//
// Two shapes cover the games we model:
//
// * Mode::alternating (ASL). Each game turn has one player turn per player, in the order the
//   players are listed; in each player turn every phase runs once, the player whose turn it is
//   being the ATTACKER and the others DEFENDER. Example: players {"German", "American"},
//   phases RPh PFPh MPh DFPh AFPh RtPh APh CCPh: turn 1 German RPh … CCPh, turn 1 American
//   RPh … CCPh, turn 2 German RPh …
//
// * Mode::order_dice (Bolt Action). A game turn runs the phases once each, in order. A phase
//   marked draw = true is the order-dice phase: on entering it the bag is filled with each
//   player's dice; each advance() then draws one die (through the drawer, i.e. the game's RNG)
//   and the die's owner activates; when the bag is empty the next advance() ends the phase.
//   Other phases ("Turn End") have no current player.
//
// advance() moves one step and raises, through the bus, in this order:
//   before the first step:  turn_start, player_turn_start (alternating), phase_start
//   within a draw phase:    activation_end (if a die was drawn before), activation
//   leaving a phase:        [activation_end], phase_end, then
//     next phase:           phase_start
//     next player turn:     player_turn_end, player_turn_start, phase_start
//     next game turn:       [player_turn_end], turn_end, turn_start, [player_turn_start],
//                           phase_start
//     after the last turn:  [player_turn_end], turn_end, game_end (later advance() is an error)
// Every payload is {"turn","player","phase" (abbreviation),"phase_name","phase_index"}, plus
// "activation" and "remaining" (dice left in the bag) for activation events. *_end events
// carry the position being left, *_start events the position entered. The sequence has moved
// before the *_start events are raised, so a handler reading the sequence sees the new position.
// The events are notifications: cancelling one stops later handlers, not the advance.
// If the bus has a journal, its context is set to the new position before the *_start events.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/bus/JournalEntry.hpp"

namespace umpire::bus {

class EventBus;

class TurnSequence {
public:
    enum class Mode { alternating, order_dice };

    struct Phase {
        std::string name;          // "Movement Phase"
        std::string abbreviation;  // "MPh": what logs and events use; unique in a sequence
        bool draw = false;         // the order-dice phase (order_dice mode only)
        bool operator==(const Phase&) const = default;
    };

    // The plain description the bindings fill from ruleset.yaml.
    struct Description {
        Mode mode = Mode::alternating;
        std::vector<std::string> players;  // turn order (alternating) / dice colours (order_dice)
        std::vector<Phase> phases;
        std::int64_t first_turn = 1;
        std::int64_t last_turn = 0;           // 0: open-ended
        std::map<std::string, int> dice;      // order_dice: dice per player at game start
        bool operator==(const Description&) const = default;
    };

    // Picks which die to draw: given the bag size n > 0, returns an index in [0, n). The
    // bindings pass one that uses the game's generator, so draws are seeded and replayable.
    using Drawer = std::function<std::size_t(std::size_t n)>;

    // Checks the description: at least one phase, unique non-empty abbreviations, at least one
    // player, draw phases only (and at least one) in order_dice mode, dice only for listed
    // players and never negative, last_turn 0 or ≥ first_turn. RuleError naming the problem.
    explicit TurnSequence(Description description);

    const Description& description() const { return description_; }

    // Moves one step (see the order above). RuleError after game_end, or when a die must be
    // drawn and there is no drawer or it returns an index out of range.
    void advance(EventBus& bus);

    void set_drawer(Drawer drawer) { drawer_ = std::move(drawer); }

    bool started() const { return started_; }
    bool finished() const { return finished_; }
    std::int64_t turn() const { return turn_; }             // 0 before the first advance()
    std::size_t phase_index() const { return phase_index_; }
    const Phase& phase() const { return description_.phases[phase_index_]; }
    // The active player: the ATTACKER (alternating), the owner of the drawn die during a draw
    // phase, "" otherwise and before the game starts.
    const std::string& player() const { return player_; }
    // Alternating: index of the player whose player turn it is.
    std::size_t player_index() const { return player_index_; }
    // Dice drawn in the current draw phase so far.
    int activation() const { return activation_; }
    // The dice left in the bag, in bag order (deterministic: filled player by player).
    const std::vector<std::string>& bag() const { return bag_; }

    // Order dice. set_dice sets how many dice player puts in the bag when the next draw phase
    // starts (units lost, reinforcements); remove_die takes one of player's dice out of the
    // bag now (a unit destroyed before it activated). RuleError for an unknown player.
    void set_dice(const std::string& player, int count);
    int dice(const std::string& player) const;
    bool remove_die(const std::string& player);

    // turn/player/phase for the journal.
    JournalEntry::Context context() const;
    // The payload the events carry (see above).
    nlohmann::json position() const;

    // {"description":{...},"state":{...}}: everything needed to resume, except the drawer.
    nlohmann::json to_json() const;
    // RuleError / ParseError if the description is invalid or the state does not fit it.
    static TurnSequence from_json(const nlohmann::json& j);

private:
    void raise(EventBus& bus, const char* event, nlohmann::json payload);
    void sync_journal(EventBus& bus) const;
    void enter_phase(EventBus& bus);
    void refresh_player();

    Description description_;
    Drawer drawer_;
    bool started_ = false;
    bool finished_ = false;
    std::int64_t turn_ = 0;
    std::size_t phase_index_ = 0;
    std::size_t player_index_ = 0;
    std::string player_;
    int activation_ = 0;
    std::vector<std::string> bag_;
    std::map<std::string, int> dice_;
};

const char* mode_name(TurnSequence::Mode mode);

}  // namespace umpire::bus
