#include "core/odds/Outcome.hpp"

#include <charconv>
#include <cmath>

#include "core/Error.hpp"

namespace umpire::odds {

namespace {

// Integers print without a decimal point (Lua's 7 and 7.0 are one outcome); other numbers print
// in the shortest form that reads back to the same double, so keys are exact and stable.
std::string number_text(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    if (x == 0) return "0";  // folds -0 into 0
    if (std::fabs(x) < 9007199254740992.0 && x == std::trunc(x))
        return std::to_string(static_cast<long long>(x));
    char buf[64];
    const auto result = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, result.ptr);
}

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + '"';
}

int rank(const Scalar& v) { return static_cast<int>(v.index()); }

}  // namespace

std::string scalar_key(const Scalar& value) {
    switch (value.index()) {
        case 0: return "nil";
        case 1: return std::get<bool>(value) ? "true" : "false";
        case 2: return number_text(std::get<double>(value));
        default: return quoted(std::get<std::string>(value));
    }
}

std::string scalar_display(const Scalar& value) {
    if (const auto* s = std::get_if<std::string>(&value)) return *s;
    return scalar_key(value);
}

std::weak_ordering compare_scalars(const Scalar& a, const Scalar& b) {
    if (rank(a) != rank(b)) return rank(a) <=> rank(b);
    switch (a.index()) {
        case 0: return std::weak_ordering::equivalent;
        case 1: return std::get<bool>(a) <=> std::get<bool>(b);
        case 2: {
            // NaN would make the order partial; it sorts last among numbers, equal to itself.
            const double x = std::get<double>(a), y = std::get<double>(b);
            if (std::isnan(x) || std::isnan(y)) return std::isnan(x) <=> std::isnan(y);
            return x < y ? std::weak_ordering::less
                         : (y < x ? std::weak_ordering::greater : std::weak_ordering::equivalent);
        }
        default: return std::get<std::string>(a).compare(std::get<std::string>(b)) <=> 0;
    }
}

const Scalar& Outcome::scalar() const {
    if (is_table()) throw RuleError("outcome " + display() + " is a table, not a single value");
    return std::get<Scalar>(value_);
}

const Fields& Outcome::fields() const {
    if (!is_table()) throw RuleError("outcome " + display() + " is a single value, not a table");
    return std::get<Fields>(value_);
}

Scalar Outcome::field(const std::string& name) const {
    if (!is_table()) return {};
    const auto& f = std::get<Fields>(value_);
    const auto it = f.find(name);
    return it == f.end() ? Scalar{} : it->second;
}

std::string Outcome::key() const {
    if (!is_table()) return scalar_key(std::get<Scalar>(value_));
    std::string out = "{";
    bool first = true;
    for (const auto& [name, value] : std::get<Fields>(value_)) {
        if (!first) out += ',';
        first = false;
        out += name + '=' + scalar_key(value);
    }
    return out + '}';
}

std::string Outcome::display() const {
    if (!is_table()) return scalar_display(std::get<Scalar>(value_));
    std::string out;
    for (const auto& [name, value] : std::get<Fields>(value_)) {
        if (!out.empty()) out += ' ';
        out += name + '=' + scalar_display(value);
    }
    return out.empty() ? "{}" : out;
}

std::weak_ordering Outcome::operator<=>(const Outcome& other) const {
    if (is_table() != other.is_table()) return is_table() <=> other.is_table();
    if (!is_table()) return compare_scalars(std::get<Scalar>(value_), std::get<Scalar>(other.value_));
    // Tables: field by field in name order, as a dictionary compares words.
    const auto& a = std::get<Fields>(value_);
    const auto& b = std::get<Fields>(other.value_);
    auto i = a.begin();
    auto j = b.begin();
    for (; i != a.end() && j != b.end(); ++i, ++j) {
        if (const auto c = i->first.compare(j->first) <=> 0; c != 0) return c;
        if (const auto c = compare_scalars(i->second, j->second); c != 0) return c;
    }
    return (i != a.end()) <=> (j != b.end());
}

}  // namespace umpire::odds
