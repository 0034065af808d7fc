#include "core/bus/TurnSequence.hpp"

#include <algorithm>
#include <set>

#include "core/Error.hpp"
#include "core/bus/EventBus.hpp"
#include "core/bus/Journal.hpp"

namespace umpire::bus {

namespace {

using json = nlohmann::json;

void validate(const TurnSequence::Description& d) {
    auto fail = [](const std::string& problem) { throw RuleError("turn sequence: " + problem); };
    if (d.phases.empty()) fail("no phases");
    if (d.players.empty()) fail("no players");
    std::set<std::string> seen;
    int draws = 0;
    for (const auto& p : d.phases) {
        if (p.abbreviation.empty()) fail("phase '" + p.name + "' has no abbreviation");
        if (!seen.insert(p.abbreviation).second)
            fail("phase abbreviation '" + p.abbreviation + "' is used twice");
        draws += p.draw;
    }
    if (d.mode == TurnSequence::Mode::alternating && draws > 0)
        fail("draw phases need mode order_dice");
    if (d.mode == TurnSequence::Mode::order_dice && draws == 0)
        fail("mode order_dice needs a phase with draw: true");
    std::set<std::string> players;
    for (const auto& p : d.players) {
        if (p.empty()) fail("a player has no name");
        if (!players.insert(p).second) fail("player '" + p + "' is listed twice");
    }
    for (const auto& [player, n] : d.dice) {
        if (!players.count(player)) fail("dice for unknown player '" + player + "'");
        if (n < 0) fail("negative dice count for '" + player + "'");
    }
    if (d.last_turn != 0 && d.last_turn < d.first_turn)
        fail("last_turn " + std::to_string(d.last_turn) + " is before first_turn " +
             std::to_string(d.first_turn));
}

}  // namespace

const char* mode_name(TurnSequence::Mode mode) {
    return mode == TurnSequence::Mode::alternating ? "alternating" : "order_dice";
}

TurnSequence::TurnSequence(Description description) : description_(std::move(description)) {
    validate(description_);
    for (const auto& p : description_.players) {
        auto it = description_.dice.find(p);
        dice_[p] = it == description_.dice.end() ? 0 : it->second;
    }
}

void TurnSequence::set_dice(const std::string& player, int count) {
    auto it = dice_.find(player);
    if (it == dice_.end()) throw RuleError("set_dice: unknown player '" + player + "'");
    if (count < 0) throw RuleError("set_dice: negative count for '" + player + "'");
    it->second = count;
}

int TurnSequence::dice(const std::string& player) const {
    auto it = dice_.find(player);
    if (it == dice_.end()) throw RuleError("dice: unknown player '" + player + "'");
    return it->second;
}

bool TurnSequence::remove_die(const std::string& player) {
    if (!dice_.count(player)) throw RuleError("remove_die: unknown player '" + player + "'");
    auto it = std::find(bag_.begin(), bag_.end(), player);
    if (it == bag_.end()) return false;
    bag_.erase(it);
    return true;
}

JournalEntry::Context TurnSequence::context() const {
    return {turn_, player_, started_ ? phase().abbreviation : std::string()};
}

json TurnSequence::position() const {
    json j{{"turn", turn_},
           {"player", player_},
           {"phase", started_ ? phase().abbreviation : ""},
           {"phase_name", started_ ? phase().name : ""},
           {"phase_index", phase_index_}};
    return j;
}

void TurnSequence::refresh_player() {
    if (description_.mode == Mode::alternating)
        player_ = description_.players[player_index_];
    else
        player_.clear();  // set again by the next draw
}

void TurnSequence::sync_journal(EventBus& bus) const {
    if (Journal* j = bus.journal()) j->set_context(context());
}

void TurnSequence::raise(EventBus& bus, const char* event, json payload) {
    bus.raise(event, std::move(payload));
}

void TurnSequence::enter_phase(EventBus& bus) {
    activation_ = 0;
    bag_.clear();
    if (phase().draw)
        for (const auto& p : description_.players) bag_.insert(bag_.end(), dice_[p], p);
    refresh_player();
    sync_journal(bus);
    raise(bus, "phase_start", position());
}

void TurnSequence::advance(EventBus& bus) {
    if (finished_)
        throw RuleError("turn sequence: the game ended after turn " + std::to_string(turn_));
    const bool alternating = description_.mode == Mode::alternating;

    if (!started_) {
        started_ = true;
        turn_ = description_.first_turn;
        phase_index_ = 0;
        player_index_ = 0;
        refresh_player();
        sync_journal(bus);
        raise(bus, "turn_start", position());
        if (alternating) raise(bus, "player_turn_start", position());
        enter_phase(bus);
        return;
    }

    // Order dice: a draw phase takes one step per die in the bag.
    if (phase().draw) {
        if (activation_ > 0) {
            json p = position();
            p["activation"] = activation_;
            p["remaining"] = bag_.size();
            raise(bus, "activation_end", std::move(p));
        }
        if (!bag_.empty()) {
            if (!drawer_) throw RuleError("turn sequence: drawing an order die needs a drawer");
            std::size_t n = bag_.size();
            std::size_t i = drawer_(n);
            if (i >= n)
                throw RuleError("turn sequence: the drawer returned " + std::to_string(i) +
                                " for a bag of " + std::to_string(n));
            player_ = bag_[i];
            bag_.erase(bag_.begin() + static_cast<std::ptrdiff_t>(i));
            ++activation_;
            sync_journal(bus);
            json p = position();
            p["activation"] = activation_;
            p["remaining"] = bag_.size();
            raise(bus, "activation", std::move(p));
            return;
        }
    }

    raise(bus, "phase_end", position());
    if (phase_index_ + 1 < description_.phases.size()) {
        ++phase_index_;
        enter_phase(bus);
        return;
    }

    if (alternating) {
        raise(bus, "player_turn_end", position());
        if (player_index_ + 1 < description_.players.size()) {
            ++player_index_;
            phase_index_ = 0;
            refresh_player();
            sync_journal(bus);
            raise(bus, "player_turn_start", position());
            enter_phase(bus);
            return;
        }
    }
    raise(bus, "turn_end", position());
    if (description_.last_turn != 0 && turn_ >= description_.last_turn) {
        finished_ = true;
        raise(bus, "game_end", position());
        return;
    }
    ++turn_;
    phase_index_ = 0;
    player_index_ = 0;
    refresh_player();
    sync_journal(bus);
    raise(bus, "turn_start", position());
    if (alternating) raise(bus, "player_turn_start", position());
    enter_phase(bus);
}

json TurnSequence::to_json() const {
    json phases = json::array();
    for (const auto& p : description_.phases)
        phases.push_back({{"name", p.name}, {"abbreviation", p.abbreviation}, {"draw", p.draw}});
    json description{{"mode", mode_name(description_.mode)},
                     {"players", description_.players},
                     {"phases", std::move(phases)},
                     {"first_turn", description_.first_turn},
                     {"last_turn", description_.last_turn},
                     {"dice", description_.dice}};
    json state{{"started", started_},     {"finished", finished_},
               {"turn", turn_},           {"phase_index", phase_index_},
               {"player_index", player_index_}, {"player", player_},
               {"activation", activation_}, {"bag", bag_},
               {"dice", dice_}};
    return {{"description", std::move(description)}, {"state", std::move(state)}};
}

TurnSequence TurnSequence::from_json(const json& j) {
    auto bad = [&](const std::string& problem) {
        return ParseError("turn sequence", j.dump(), 0, problem);
    };
    if (!j.is_object() || !j.contains("description") || !j.contains("state"))
        throw bad("expected {\"description\":…, \"state\":…}");
    try {
        const json& d = j.at("description");
        Description desc;
        std::string mode = d.at("mode").get<std::string>();
        if (mode == "alternating")
            desc.mode = Mode::alternating;
        else if (mode == "order_dice")
            desc.mode = Mode::order_dice;
        else
            throw bad("unknown mode '" + mode + "'");
        desc.players = d.at("players").get<std::vector<std::string>>();
        for (const auto& p : d.at("phases"))
            desc.phases.push_back({p.at("name").get<std::string>(),
                                   p.at("abbreviation").get<std::string>(),
                                   p.value("draw", false)});
        desc.first_turn = d.value("first_turn", std::int64_t{1});
        desc.last_turn = d.value("last_turn", std::int64_t{0});
        desc.dice = d.value("dice", std::map<std::string, int>{});
        TurnSequence seq(std::move(desc));

        const json& s = j.at("state");
        seq.started_ = s.at("started").get<bool>();
        seq.finished_ = s.at("finished").get<bool>();
        seq.turn_ = s.at("turn").get<std::int64_t>();
        seq.phase_index_ = s.at("phase_index").get<std::size_t>();
        seq.player_index_ = s.at("player_index").get<std::size_t>();
        seq.player_ = s.at("player").get<std::string>();
        seq.activation_ = s.at("activation").get<int>();
        seq.bag_ = s.at("bag").get<std::vector<std::string>>();
        for (const auto& [player, n] : s.at("dice").get<std::map<std::string, int>>())
            seq.set_dice(player, n);
        if (seq.phase_index_ >= seq.description_.phases.size())
            throw bad("phase_index out of range");
        if (seq.player_index_ >= seq.description_.players.size())
            throw bad("player_index out of range");
        for (const auto& p : seq.bag_)
            if (!seq.dice_.count(p)) throw bad("bag holds a die of unknown player '" + p + "'");
        if (!seq.player_.empty() && !seq.dice_.count(seq.player_))
            throw bad("unknown current player '" + seq.player_ + "'");
        return seq;
    } catch (const json::exception& e) {
        throw bad(e.what());
    }
}

}  // namespace umpire::bus
