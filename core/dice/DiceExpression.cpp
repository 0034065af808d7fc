#include "core/dice/DiceExpression.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

#include "core/Error.hpp"
#include "core/dice/Distribution.hpp"

namespace umpire::dice {

namespace {

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
            DiceExpression::Term term = parse_term(sign);
            // Range bookkeeping: each term adds [sign*least, sign*most]; the limit keeps every
            // total and distribution outcome far inside 64 bits.
            std::int64_t least, most;
            if (term.is_constant) {
                least = most = term.constant;
            } else {
                const std::int64_t kept = term.keep == DiceExpression::Term::Keep::all ? term.count : term.keep_count;
                least = kept;
                most = kept * term.die.sides();
            }
            if (sign > 0) { lo += least; hi += most; } else { lo -= most; hi -= least; }
            if (std::max(-lo, hi) > DiceExpression::max_constant)
                fail(term.position, "expression range too large (totals beyond 10^15)");
            terms.push_back(term);
            skip_space();
            if (at_end()) break;
            const char c = text_[pos_];
            if (c != '+' && c != '-') fail(pos_, "expected '+', '-' or the end of the expression");
            sign = c == '+' ? 1 : -1;
            ++pos_;
            skip_space();
            if (at_end()) fail(pos_, std::string("expected a dice term or a number after '") + c + "'");
        }
        return terms;
    }

private:
    DiceExpression::Term parse_term(int sign) {
        DiceExpression::Term term;
        term.sign = sign;
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
        if (!at_end() && text_[pos_] == '%') {
            term.die = Die::percent();
            ++pos_;
        } else if (!at_end() && is_digit(text_[pos_])) {
            const std::size_t at = pos_;
            const std::uint64_t sides = parse_number();
            if (sides == 0) fail(at, "a die needs at least 1 side");
            if (sides > DiceExpression::max_sides)
                fail(at, "too many sides (at most " + std::to_string(DiceExpression::max_sides) + ")");
            term.die = sides == 2 ? Die::d2() : sides == 3 ? Die::d3() : Die::d(static_cast<std::uint32_t>(sides));
        } else {
            fail(pos_, "expected the number of sides after 'd'");
        }
        if (!at_end() && lower(text_[pos_]) == 'k') {
            ++pos_;
            const char which = at_end() ? '\0' : lower(text_[pos_]);
            if (which != 'h' && which != 'l') fail(pos_, "expected 'h' (keep highest) or 'l' (keep lowest) after 'k'");
            ++pos_;
            if (at_end() || !is_digit(text_[pos_])) fail(pos_, "expected how many dice to keep");
            const std::size_t at = pos_;
            const std::uint64_t keep = parse_number();
            if (keep == 0) fail(at, "keep at least 1 die");
            if (keep > count)
                fail(at, "cannot keep " + (keep > DiceExpression::max_dice ? std::string("more") : std::to_string(keep)) +
                             " of " + std::to_string(count) + " dice");
            term.keep = which == 'h' ? DiceExpression::Term::Keep::highest : DiceExpression::Term::Keep::lowest;
            term.keep_count = static_cast<std::uint32_t>(keep);
        }
        return term;
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

// Keep-highest/lowest marks the k best faces kept; among equal faces the earlier-rolled die is
// kept, so the journal is deterministic.
RollResult DiceExpression::roll(DieSource& source) const {
    RollResult result;
    for (std::size_t t = 0; t < terms_.size(); ++t) {
        const Term& term = terms_[t];
        std::int64_t sum = 0;
        if (term.is_constant) {
            sum = term.constant;
        } else {
            const std::vector<std::uint32_t> raw = source.pool(term.count, term.die.rolled_sides());
            const std::size_t first = result.faces.size();
            for (std::uint32_t r : raw) result.faces.push_back({term.die.read(r), r, t, true});
            if (term.keep != Term::Keep::all) {
                std::vector<std::size_t> order(raw.size());
                std::iota(order.begin(), order.end(), first);
                const bool highest = term.keep == Term::Keep::highest;
                std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                    return highest ? result.faces[a].value > result.faces[b].value
                                   : result.faces[a].value < result.faces[b].value;
                });
                for (std::size_t i = term.keep_count; i < order.size(); ++i) result.faces[order[i]].kept = false;
            }
            for (std::size_t i = first; i < result.faces.size(); ++i)
                if (result.faces[i].kept) sum += result.faces[i].value;
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
        else if (term.keep == Term::Keep::highest)
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
        out += term.die.to_string();
        if (term.keep != Term::Keep::all)
            out += (term.keep == Term::Keep::highest ? "kh" : "kl") + std::to_string(term.keep_count);
    }
    return out;
}

}  // namespace umpire::dice
