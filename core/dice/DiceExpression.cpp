#include "core/dice/DiceExpression.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

#include "core/Error.hpp"
#include "core/dice/Distribution.hpp"

namespace umpire::dice {

namespace {

// Wide enough for any product of the limits, so range bookkeeping cannot wrap.
__extension__ typedef __int128 Wide;

bool passes(const DiceExpression::Term& term, std::int64_t v) {
    using Test = DiceExpression::Term::Test;
    switch (term.test) {
        case Test::at_least: return v >= term.target;
        case Test::at_most: return v <= term.target;
        case Test::above: return v > term.target;
        case Test::below: return v < term.target;
        case Test::none: break;
    }
    return true;
}

// A hand-written recursive-descent scanner: the grammar is tiny, and doing it by hand lets every
// error name the exact character and say what was expected there.
class Parser {
public:
    explicit Parser(const std::string& text) : text_(text) {}

    std::vector<DiceExpression::Term> parse(std::int64_t& lo, std::int64_t& hi) {
        std::vector<DiceExpression::Term> terms;
        skip_space();
        if (at_end()) fail(pos_, text_.empty() ? "empty dice expression" : "expected a dice term like '2d6' or a number");
        int sign = 1;
        for (;;) {
            DiceExpression::Term term = parse_product(sign);
            // Range bookkeeping: each term adds [sign*least, sign*most]; the limit keeps every
            // total and distribution outcome far inside 64 bits (Wide so a product cannot wrap).
            Wide least, most;
            if (term.is_constant) {
                least = most = term.constant;
            } else {
                const Wide die_lo = term.die_min, die_hi = term.die_max;
                const Wide kept = term.keep == DiceExpression::Term::Keep::all ? term.count : term.keep_count;
                if (term.test != DiceExpression::Term::Test::none) {
                    // The tests are monotone and die_min, die_max can both be rolled, so every
                    // die can pass iff the worse extreme passes, and some die iff the better does.
                    const bool up = term.test == DiceExpression::Term::Test::at_least ||
                                    term.test == DiceExpression::Term::Test::above;
                    const bool all = passes(term, up ? term.die_min : term.die_max);
                    const bool any = passes(term, up ? term.die_max : term.die_min);
                    least = all ? term.count : 0;
                    most = any ? term.count : 0;
                }
                else { least = kept * die_lo; most = kept * die_hi; }
                least *= term.multiplier;
                most *= term.multiplier;
            }
            Wide l = lo, h = hi;
            if (sign > 0) { l += least; h += most; } else { l -= most; h -= least; }
            if (std::max(-l, h) > DiceExpression::max_constant)
                fail(term.position, "expression range too large (totals beyond 10^15)");
            lo = static_cast<std::int64_t>(l);
            hi = static_cast<std::int64_t>(h);
            terms.push_back(term);
            skip_space();
            if (at_end()) break;
            const char c = text_[pos_];
            if (c != '+' && c != '-') fail(pos_, "expected '+', '-', '*' or the end of the expression");
            sign = c == '+' ? 1 : -1;
            ++pos_;
            skip_space();
            if (at_end()) fail(pos_, std::string("expected a dice term or a number after '") + c + "'");
        }
        return terms;
    }

private:
    using Term = DiceExpression::Term;

    // Factors joined by '*': constants multiply into one number, at most one factor may be dice
    // (the product of two dice terms has no use in the rules we know and no cheap distribution).
    Term parse_product(int sign) {
        const std::size_t start = pos_;
        Term dice;
        bool have_dice = false;
        Wide factor = 1;
        for (;;) {
            Term f = parse_factor();
            if (f.is_constant) {
                factor *= f.constant;
                if (factor > DiceExpression::max_constant) fail(f.position, "number too large (at most 10^15)");
            } else {
                if (have_dice) fail(f.position, "only one dice term per product: multiply dice by a number");
                have_dice = true;
                dice = f;
            }
            skip_space();
            if (at_end() || text_[pos_] != '*') break;
            ++pos_;
            skip_space();
            if (at_end()) fail(pos_, "expected a number or a dice term after '*'");
        }
        Term term = have_dice ? dice : Term{};
        if (have_dice) {
            term.multiplier = static_cast<std::int64_t>(factor);
            if (term.multiplier != 1) term.plain = false;
        } else {
            term.is_constant = true;
            term.constant = static_cast<std::int64_t>(factor);
        }
        term.sign = sign;
        term.position = start;
        return term;
    }

    Term parse_factor() {
        Term term;
        term.position = pos_;
        const char c = text_[pos_];
        std::uint64_t count = 1;
        if (is_digit(c)) {
            count = parse_number();
            if (!at_end() && lower(text_[pos_]) == 'd') {
                if (count == 0) fail(term.position, "a pool needs at least 1 die");
                if (count > DiceExpression::max_dice)
                    fail(term.position, "too many dice (at most " + std::to_string(DiceExpression::max_dice) + ")");
            } else {
                if (count > static_cast<std::uint64_t>(DiceExpression::max_constant))
                    fail(term.position, "number too large (at most 10^15)");
                term.is_constant = true;
                term.constant = static_cast<std::int64_t>(count);
                return term;
            }
        } else if (lower(c) != 'd') {
            fail(pos_, "expected a dice term like '2d6' or a number");
        }
        ++pos_;  // the 'd'
        term.count = static_cast<std::uint32_t>(count);
        parse_die(term);
        parse_reroll(term);
        parse_explode(term);
        const auto [lo, hi] = die_range(term);
        term.die_min = static_cast<std::int64_t>(lo);
        term.die_max = static_cast<std::int64_t>(hi);
        if (!term.d66) {
            if (!term.reroll_on.empty()) term.spec = term.spec.reroll(term.reroll_on, term.reroll_once);
            if (!term.explode_on.empty()) term.spec = term.spec.explode(term.explode_on, term.explode_depth);
        }
        parse_select(term);
        return term;
    }

    void parse_die(Term& term) {
        if (!at_end() && text_[pos_] == '%') {
            term.die = Die::percent();
            term.spec = DieSpec::sides(100);
            term.die_text = "d%";
            ++pos_;
        } else if (!at_end() && lower(text_[pos_]) == 'f') {
            term.plain = false;
            term.spec = DieSpec::fudge();
            term.die_text = "dF";
            ++pos_;
        } else if (!at_end() && text_[pos_] == '[') {
            term.plain = false;
            term.spec = DieSpec::faces(parse_faces());
            term.die_text = term.spec.to_string();
        } else if (!at_end() && is_digit(text_[pos_])) {
            const std::size_t at = pos_;
            const std::uint64_t sides = parse_number();
            if (sides == 0) fail(at, "a die needs at least 1 side");
            if (sides > DiceExpression::max_sides)
                fail(at, "too many sides (at most " + std::to_string(DiceExpression::max_sides) + ")");
            term.die = sides == 2 ? Die::d2() : sides == 3 ? Die::d3() : Die::d(static_cast<std::uint32_t>(sides));
            term.die_text = "d" + std::to_string(sides);
            // D2/D3 as custom faces read off a d6, so re-rolls and explosions see the read value.
            if (sides == 2) term.spec = DieSpec::faces({1, 1, 1, 2, 2, 2});
            else if (sides == 3) term.spec = DieSpec::faces({1, 1, 2, 2, 3, 3});
            else if (sides == 66) {
                std::vector<std::int64_t> faces;
                for (int t = 1; t <= 6; ++t)
                    for (int u = 1; u <= 6; ++u) faces.push_back(10 * t + u);
                term.spec = DieSpec::faces(faces);
                term.d66 = true;
                term.plain = false;
            } else term.spec = DieSpec::sides(static_cast<std::uint32_t>(sides));
        } else {
            fail(pos_, "expected the number of sides after 'd'");
        }
    }

    // '[' item (',' item)* ']' with item := int | int '..' int.
    std::vector<std::int64_t> parse_faces() {
        ++pos_;  // '['
        std::vector<std::int64_t> faces;
        for (;;) {
            skip_space();
            const std::size_t item_at = pos_;
            const std::int64_t first = parse_int("a face value");
            std::int64_t last = first;
            if (text_.compare(pos_, 2, "..") == 0) {
                pos_ += 2;
                const std::size_t at = pos_;
                last = parse_int("the last face of the range");
                if (last < first) fail(at, "a range of faces goes up: " + std::to_string(first) + ".." + std::to_string(last));
            }
            if (static_cast<std::uint64_t>(last - first) + faces.size() >= DiceExpression::max_faces)
                fail(item_at, "too many faces (at most " + std::to_string(DiceExpression::max_faces) + ")");
            for (std::int64_t v = first; v <= last; ++v) faces.push_back(v);
            skip_space();
            if (at_end()) fail(pos_, "expected ',' or ']'");
            if (text_[pos_] == ']') { ++pos_; return faces; }
            if (text_[pos_] != ',') fail(pos_, "expected ',' or ']'");
            ++pos_;
        }
    }

    std::int64_t parse_int(const char* what) {
        const std::size_t at = pos_;
        bool negative = false;
        if (!at_end() && (text_[pos_] == '-' || text_[pos_] == '+')) negative = text_[pos_++] == '-';
        if (at_end() || !is_digit(text_[pos_])) fail(pos_, std::string("expected ") + what);
        const std::uint64_t v = parse_number();
        if (v > static_cast<std::uint64_t>(DiceExpression::max_face))
            fail(at, "face value too large (at most " + std::to_string(DiceExpression::max_face) + ")");
        return negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
    }

    // A comparison, if one starts here: "<", "<=", ">", ">=", "=" ("" when none).
    std::string parse_cmp(bool allow_equal) {
        if (at_end()) return "";
        const char c = text_[pos_];
        if (c == '<' || c == '>') {
            ++pos_;
            if (!at_end() && text_[pos_] == '=') { ++pos_; return std::string(1, c) + "="; }
            return std::string(1, c);
        }
        if (c == '=' && allow_equal) { ++pos_; return "="; }
        return "";
    }

    static bool compare(const std::string& cmp, std::int64_t v, std::int64_t n) {
        if (cmp == "<") return v < n;
        if (cmp == "<=") return v <= n;
        if (cmp == ">") return v > n;
        if (cmp == ">=") return v >= n;
        return v == n;
    }

    void parse_reroll(Term& term) {
        if (at_end() || lower(text_[pos_]) != 'r') return;
        const std::size_t at = pos_;
        if (term.d66) fail(at, "d66 cannot be re-rolled or exploded (write d[11..16,21..26,...] for that)");
        ++pos_;
        term.reroll_once = !at_end() && lower(text_[pos_]) == 'o';
        if (term.reroll_once) ++pos_;
        const std::string cmp = parse_cmp(true);
        const std::int64_t n = parse_int("which faces to re-roll, e.g. 'r1' or 'r<3'");
        const std::vector<std::int64_t> faces = plain_faces(term);
        for (const std::int64_t v : faces)
            if (compare(cmp, v, n)) term.reroll_on.insert(v);
        if (term.reroll_on.empty()) fail(at, "no face of " + term.die_text + " is re-rolled by this");
        if (!term.reroll_once && term.reroll_on.size() == faces.size())
            fail(at, "re-rolling every face until it shows another never ends (use 'ro' to re-roll once)");
        term.plain = false;
        term.die_text += (term.reroll_once ? "ro" : "r") + (cmp == "=" ? "" : cmp) + std::to_string(n);
    }

    void parse_explode(Term& term) {
        if (at_end() || text_[pos_] != '!') return;
        const std::size_t at = pos_;
        if (term.d66) fail(at, "d66 cannot be re-rolled or exploded (write d[11..16,21..26,...] for that)");
        ++pos_;
        std::string cmp = parse_cmp(false);
        if (cmp == "<" || cmp == "<=") fail(pos_ - cmp.size(), "a die explodes on its high faces: '!', '!>N' or '!>=N'");
        std::int64_t n = 0;
        const std::vector<std::int64_t> faces = plain_faces(term);
        if (cmp.empty()) n = *std::max_element(faces.begin(), faces.end());
        else n = parse_int("the face to explode on, e.g. '!>=5'");
        for (const std::int64_t v : faces)
            if (compare(cmp.empty() ? "=" : cmp, v, n)) term.explode_on.insert(v);
        if (term.explode_on.empty()) fail(at, "no face of " + term.die_text + " explodes on this");
        term.explode_depth = DiceExpression::default_depth;
        if (!at_end() && text_[pos_] == '{') {
            ++pos_;
            const std::size_t d_at = pos_;
            if (at_end() || !is_digit(text_[pos_])) fail(pos_, "expected the explosion depth, e.g. '{3}'");
            const std::uint64_t depth = parse_number();
            if (depth == 0 || depth > DiceExpression::max_depth)
                fail(d_at, "explosion depth from 1 to " + std::to_string(DiceExpression::max_depth));
            if (at_end() || text_[pos_] != '}') fail(pos_, "expected '}' after the explosion depth");
            ++pos_;
            term.explode_depth = static_cast<std::uint32_t>(depth);
        }
        term.plain = false;
        term.die_text += "!" + (cmp.empty() ? std::string() : cmp + std::to_string(n)) + "{" +
                         std::to_string(term.explode_depth) + "}";
    }

    void parse_select(Term& term) {
        if (at_end()) return;
        const char c = lower(text_[pos_]);
        if (c == 'k' || (c == 'd' && pos_ + 1 < text_.size() &&
                         (lower(text_[pos_ + 1]) == 'h' || lower(text_[pos_ + 1]) == 'l'))) {
            const bool drop = c == 'd';
            ++pos_;
            const char which = at_end() ? '\0' : lower(text_[pos_]);
            if (which != 'h' && which != 'l')
                fail(pos_, "expected 'h' (keep highest) or 'l' (keep lowest) after 'k'");
            ++pos_;
            if (at_end() || !is_digit(text_[pos_])) fail(pos_, drop ? "expected how many dice to drop" : "expected how many dice to keep");
            const std::size_t at = pos_;
            const std::uint64_t n = parse_number();
            if (drop) {
                if (n == 0) fail(at, "drop at least 1 die");
                if (n >= term.count)
                    fail(at, "cannot drop " + (n > DiceExpression::max_dice ? std::string("more") : std::to_string(n)) +
                                 " of " + std::to_string(term.count) + " dice (at least one must stay)");
                // Dropping the highest n keeps the lowest count - n, and the other way round.
                term.keep = which == 'h' ? Term::Keep::lowest : Term::Keep::highest;
                term.keep_count = term.count - static_cast<std::uint32_t>(n);
                term.drop = true;
                term.plain = false;
            } else {
                if (n == 0) fail(at, "keep at least 1 die");
                if (n > term.count)
                    fail(at, "cannot keep " + (n > DiceExpression::max_dice ? std::string("more") : std::to_string(n)) +
                                 " of " + std::to_string(term.count) + " dice");
                term.keep = which == 'h' ? Term::Keep::highest : Term::Keep::lowest;
                term.keep_count = static_cast<std::uint32_t>(n);
            }
            return;
        }
        if (c == '<' || c == '>') {
            const std::string cmp = parse_cmp(false);
            const std::size_t at = pos_;
            const std::int64_t n = parse_int("the target of the success count, e.g. '>=5'");
            (void)at;
            term.test = cmp == ">=" ? Term::Test::at_least : cmp == "<=" ? Term::Test::at_most
                      : cmp == ">" ? Term::Test::above : Term::Test::below;
            term.target = n;
            term.plain = false;
        }
    }

    // The results one die can show before explosions: its faces, less those re-rolled until gone.
    // Called before the re-roll and explosion are applied to term.spec.
    std::vector<std::int64_t> plain_faces(const Term& term) const {
        std::vector<std::int64_t> out;
        for (const std::int64_t v : DieSpec(term.spec).distribution().outcomes())
            if (term.reroll_once || !term.reroll_on.count(v)) out.push_back(v);
        return out;
    }

    // The least and most one die can give. The possible results before explosions are P; a die
    // that explodes j times (j <= depth) adds j exploding results and ends on any result of P if
    // j == depth, else on a non-exploding one. The bounds are taken over j.
    std::pair<Wide, Wide> die_range(const Term& term) const {
        // A plain dN (or D2/D3, d%) is 1..N without building its million faces.
        if (term.reroll_on.empty() && term.explode_on.empty() && !term.d66 && term.die_text.size() > 1 &&
            (is_digit(term.die_text[1]) || term.die_text[1] == '%'))
            return {1, term.die.sides()};
        const std::vector<std::int64_t> p = plain_faces(term);
        if (term.explode_on.empty()) return {*std::min_element(p.begin(), p.end()), *std::max_element(p.begin(), p.end())};
        std::vector<std::int64_t> e, rest;
        for (const auto v : p) (term.explode_on.count(v) ? e : rest).push_back(v);
        const Wide e_lo = *std::min_element(e.begin(), e.end()), e_hi = *std::max_element(e.begin(), e.end());
        Wide lo = 0, hi = 0;
        bool first = true;
        for (std::uint32_t j = 0; j <= term.explode_depth; ++j) {
            const std::vector<std::int64_t>& end = j == term.explode_depth ? p : rest;
            if (end.empty()) continue;
            const Wide l = j * e_lo + *std::min_element(end.begin(), end.end());
            const Wide h = j * e_hi + *std::max_element(end.begin(), end.end());
            if (first || l < lo) lo = l;
            if (first || h > hi) hi = h;
            first = false;
        }
        return {lo, hi};
    }

    // Digits to a value, saturating just above every limit so that a 30-digit number is reported
    // as too large rather than wrapped around.
    std::uint64_t parse_number() {
        constexpr std::uint64_t cap = std::uint64_t{1} << 62;
        std::uint64_t v = 0;
        while (!at_end() && is_digit(text_[pos_])) {
            v = std::min(cap, v * 10 + static_cast<std::uint64_t>(text_[pos_] - '0'));
            ++pos_;
        }
        return v;
    }

    void skip_space() {
        while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    }
    bool at_end() const { return pos_ >= text_.size(); }
    static bool is_digit(char c) { return c >= '0' && c <= '9'; }
    static char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }
    [[noreturn]] void fail(std::size_t at, const std::string& problem) const {
        throw ParseError("dice expression", text_, at, problem);
    }

    const std::string& text_;
    std::size_t pos_ = 0;
};

}  // namespace

DiceExpression::DiceExpression(const std::string& text) { terms_ = Parser(text).parse(min_, max_); }

namespace {

// Passes dice through to the real source and remembers the raw faces, so a face read off a custom
// die still shows which face of the physical die came up.
class RecordingSource final : public DieSource {
public:
    explicit RecordingSource(DieSource& inner) : inner_(inner) {}
    std::uint32_t die(std::uint32_t sides) override {
        raws.push_back(inner_.die(sides));
        return raws.back();
    }
    std::vector<std::uint32_t> raws;

private:
    DieSource& inner_;
};

// One die of a non-plain term: its result, with every physical die appended to `faces`. The
// faces a re-roll replaced are marked not kept: the face sequence is replayed with the term's
// re-roll rule (each run of re-rolled faces ends on the face that stands, which may explode).
std::int64_t roll_one(const DiceExpression::Term& term, std::size_t t, DieSource& source,
                      std::vector<RollResult::Face>& faces) {
    if (term.d66) {
        const std::uint32_t tens = source.die(6), units = source.die(6);
        faces.push_back({tens, tens, t, true});
        faces.push_back({units, units, t, true});
        return 10 * tens + units;
    }
    RecordingSource rec(source);
    std::vector<std::int64_t> rolled;
    const std::int64_t result = term.spec.roll(rec, &rolled);
    const std::size_t first = faces.size();
    for (std::size_t i = 0; i < rolled.size(); ++i) faces.push_back({rolled[i], rec.raws[i], t, true});
    for (std::size_t i = 0; i < rolled.size();) {
        std::size_t j = i;
        if (term.reroll_once) {
            if (term.reroll_on.count(rolled[j]) && j + 1 < rolled.size()) faces[first + j++].kept = false;
        } else {
            while (term.reroll_on.count(rolled[j]) && j + 1 < rolled.size()) faces[first + j++].kept = false;
        }
        i = j + 1;
    }
    return result;
}

}  // namespace

// Keep-highest/lowest marks the k best dice kept; among equal results the earlier-rolled die is
// kept, so the journal is deterministic. Plain terms roll their pool in one source.pool() call;
// the other forms roll die by die through their DieSpec, so every re-roll and explosion is a face.
RollResult DiceExpression::roll(DieSource& source) const {
    RollResult result;
    for (std::size_t t = 0; t < terms_.size(); ++t) {
        const Term& term = terms_[t];
        std::int64_t sum = 0;
        if (term.is_constant) {
            sum = term.constant;
        } else {
            // Each die: its result and the range of its faces in result.faces.
            std::vector<std::int64_t> values;
            std::vector<std::pair<std::size_t, std::size_t>> spans;
            if (term.plain) {
                const std::vector<std::uint32_t> raw = source.pool(term.count, term.die.rolled_sides());
                for (std::uint32_t r : raw) {
                    spans.push_back({result.faces.size(), result.faces.size() + 1});
                    result.faces.push_back({term.die.read(r), r, t, true});
                    values.push_back(term.die.read(r));
                }
            } else {
                for (std::uint32_t i = 0; i < term.count; ++i) {
                    const std::size_t from = result.faces.size();
                    values.push_back(roll_one(term, t, source, result.faces));
                    spans.push_back({from, result.faces.size()});
                }
            }
            std::vector<bool> kept(values.size(), true);
            if (term.keep != Term::Keep::all) {
                std::vector<std::size_t> order(values.size());
                std::iota(order.begin(), order.end(), std::size_t{0});
                const bool highest = term.keep == Term::Keep::highest;
                std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                    return highest ? values[a] > values[b] : values[a] < values[b];
                });
                for (std::size_t i = term.keep_count; i < order.size(); ++i) {
                    kept[order[i]] = false;
                    for (std::size_t f = spans[order[i]].first; f < spans[order[i]].second; ++f)
                        result.faces[f].kept = false;
                }
            }
            for (std::size_t i = 0; i < values.size(); ++i) {
                if (!kept[i]) continue;
                if (term.test != Term::Test::none) sum += passes(term, values[i]) ? 1 : 0;
                else sum += values[i];
            }
            sum *= term.multiplier;
        }
        result.term_totals.push_back(term.sign * sum);
        result.total += term.sign * sum;
    }
    return result;
}

Distribution DiceExpression::distribution() const {
    Distribution total = Distribution::constant(0);
    for (const Term& term : terms_) {
        Distribution d;
        if (term.is_constant)
            d = Distribution::constant(term.constant);
        else if (!term.plain) {
            if (term.test != Term::Test::none)
                d = count_distribution(term.count, term.spec, [&](std::int64_t v) { return passes(term, v); });
            else if (term.keep != Term::Keep::all)
                d = keep_distribution(term.count, term.spec, term.keep_count, term.keep == Term::Keep::highest);
            else
                d = sum_distribution(term.count, term.spec);
            if (term.multiplier != 1) d = d.scale(term.multiplier);
        } else if (term.keep == Term::Keep::highest)
            d = Distribution::keep_highest(term.count, term.die.sides(), term.keep_count);
        else if (term.keep == Term::Keep::lowest)
            d = Distribution::keep_lowest(term.count, term.die.sides(), term.keep_count);
        else
            d = Distribution::sum_of_dice(term.count, term.die.sides());
        total = term.sign > 0 ? total.plus(d) : total.minus(d);
    }
    return total;
}

std::string DiceExpression::to_string() const {
    std::string out;
    for (std::size_t t = 0; t < terms_.size(); ++t) {
        const Term& term = terms_[t];
        if (t > 0) out += term.sign > 0 ? '+' : '-';
        if (term.is_constant) {
            out += std::to_string(term.constant);
            continue;
        }
        if (term.count != 1) out += std::to_string(term.count);
        out += term.die_text;
        if (term.keep != Term::Keep::all) {
            if (term.drop)
                out += (term.keep == Term::Keep::highest ? "dl" : "dh") + std::to_string(term.count - term.keep_count);
            else
                out += (term.keep == Term::Keep::highest ? "kh" : "kl") + std::to_string(term.keep_count);
        }
        switch (term.test) {
            case Term::Test::at_least: out += ">=" + std::to_string(term.target); break;
            case Term::Test::at_most: out += "<=" + std::to_string(term.target); break;
            case Term::Test::above: out += ">" + std::to_string(term.target); break;
            case Term::Test::below: out += "<" + std::to_string(term.target); break;
            case Term::Test::none: break;
        }
        if (term.multiplier != 1) out += "*" + std::to_string(term.multiplier);
    }
    return out;
}

}  // namespace umpire::dice
