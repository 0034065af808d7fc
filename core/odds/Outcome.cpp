#include "core/odds/Outcome.hpp"

#include <charconv>
#include <cmath>

#include "core/Error.hpp"

namespace umpire::odds {

namespace {

int rank(const Scalar& v) { return static_cast<int>(v.index()); }

void append_scalar_key(std::string& out, const Scalar& value) {
    switch (value.index()) {
        case 0: out += "nil"; break;
        case 1: out += std::get<bool>(value) ? "true" : "false"; break;
        case 2: append_number_key(out, std::get<double>(value)); break;
        default: append_string_key(out, std::get<std::string>(value));
    }
}

}  // namespace

// Integers print without a decimal point (Lua's 7 and 7.0 are one outcome); other numbers print
// in the shortest form that reads back to the same double, so keys are exact and stable.
void append_number_key(std::string& out, double x) {
    if (std::isnan(x)) {
        out += "nan";
    } else if (std::isinf(x)) {
        out += x > 0 ? "inf" : "-inf";
    } else if (x == 0) {
        out += '0';  // folds -0 into 0
    } else {
        char buf[64];
        const auto result = std::fabs(x) < 9007199254740992.0 && x == std::trunc(x)
                                ? std::to_chars(buf, buf + sizeof buf, static_cast<long long>(x))
                                : std::to_chars(buf, buf + sizeof buf, x);
        out.append(buf, result.ptr);
    }
}

void append_string_key(std::string& out, std::string_view s) {
    out += '"';
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    out += '"';
}

std::string scalar_key(const Scalar& value) {
    std::string out;
    append_scalar_key(out, value);
    return out;
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

Outcome::Outcome(Scalar value) {
    std::string key = scalar_key(value);
    data_ = std::make_shared<const Data>(Data{std::move(value), std::move(key)});
}

Outcome::Outcome(Fields fields) {
    std::string key = "{";
    bool first = true;
    for (const auto& [name, value] : fields) {
        if (!first) key += ',';
        first = false;
        key += name;
        key += '=';
        append_scalar_key(key, value);
    }
    key += '}';
    data_ = std::make_shared<const Data>(Data{std::move(fields), std::move(key)});
}

const std::variant<Scalar, Fields>& Outcome::value() const {
    static const std::variant<Scalar, Fields> nil;
    return data_ ? data_->value : nil;
}

bool Outcome::is_table() const { return std::holds_alternative<Fields>(value()); }

const Scalar& Outcome::scalar() const {
    if (is_table()) throw RuleError("outcome " + display() + " is a table, not a single value");
    return std::get<Scalar>(value());
}

const Fields& Outcome::fields() const {
    if (!is_table()) throw RuleError("outcome " + display() + " is a single value, not a table");
    return std::get<Fields>(value());
}

Scalar Outcome::field(const std::string& name) const {
    if (!is_table()) return {};
    const auto& f = std::get<Fields>(value());
    const auto it = f.find(name);
    return it == f.end() ? Scalar{} : it->second;
}

const std::string& Outcome::key() const {
    static const std::string nil = "nil";
    return data_ ? data_->key : nil;
}

std::string Outcome::display() const {
    if (!is_table()) return scalar_display(std::get<Scalar>(value()));
    std::string out;
    for (const auto& [name, value] : std::get<Fields>(value())) {
        if (!out.empty()) out += ' ';
        out += name + '=' + scalar_display(value);
    }
    return out.empty() ? "{}" : out;
}

std::weak_ordering Outcome::operator<=>(const Outcome& other) const {
    if (is_table() != other.is_table()) return is_table() <=> other.is_table();
    if (!is_table()) return compare_scalars(std::get<Scalar>(value()), std::get<Scalar>(other.value()));
    // Tables: field by field in name order, as a dictionary compares words.
    const auto& a = std::get<Fields>(value());
    const auto& b = std::get<Fields>(other.value());
    auto i = a.begin();
    auto j = b.begin();
    for (; i != a.end() && j != b.end(); ++i, ++j) {
        if (const auto c = i->first.compare(j->first) <=> 0; c != 0) return c;
        if (const auto c = compare_scalars(i->second, j->second); c != 0) return c;
    }
    return (i != a.end()) <=> (j != b.end());
}

}  // namespace umpire::odds
