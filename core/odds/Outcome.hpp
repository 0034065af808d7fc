// What a rule script returns under the odds engine: nothing (nil), a boolean, a number, a string,
// or a table of named fields whose values are themselves nil/boolean/number/string.
//
// Outcomes are grouped by key(): a deterministic text that tells 7 from "7" and true from "true",
// and lists table fields by name, so the same table gives the same key whatever order a Lua
// script built it in (pairs order must never change a result). display() is the human form.
// Ordering (operator<) is the order outcomes are listed in: nil, booleans (false first), numbers
// numerically, strings, then tables field by field.
//
// An Outcome never changes once made, so copies share one value and its key, worked out once
// when it is made: the odds engine copies and keys an outcome on every path or sample.
#pragma once
#include <compare>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

namespace umpire::odds {

// A single value. Numbers are doubles because that is what a Lua number is.
using Scalar = std::variant<std::monostate, bool, double, std::string>;

// A table outcome: field name -> value, kept sorted by name.
using Fields = std::map<std::string, Scalar>;

// Key text of one scalar: nil, true, false, 7, 2.5, "quoted \"string\"".
std::string scalar_key(const Scalar& value);
// The same texts appended to `out`, one per kind of value: what a caller that holds the values
// elsewhere (a Lua table) uses to write a key without building the Outcome first.
void append_number_key(std::string& out, double x);
void append_string_key(std::string& out, std::string_view s);
// Display text of one scalar: strings unquoted.
std::string scalar_display(const Scalar& value);
// Nil < booleans < numbers < strings; numbers numerically.
std::weak_ordering compare_scalars(const Scalar& a, const Scalar& b);

class Outcome {
public:
    Outcome() = default;  // nil
    Outcome(bool value) : Outcome(Scalar{value}) {}
    Outcome(double value) : Outcome(Scalar{value}) {}
    Outcome(int value) : Outcome(Scalar{static_cast<double>(value)}) {}
    Outcome(long value) : Outcome(Scalar{static_cast<double>(value)}) {}
    Outcome(long long value) : Outcome(Scalar{static_cast<double>(value)}) {}
    Outcome(unsigned value) : Outcome(Scalar{static_cast<double>(value)}) {}
    Outcome(unsigned long value) : Outcome(Scalar{static_cast<double>(value)}) {}
    Outcome(std::string value) : Outcome(Scalar{std::move(value)}) {}
    Outcome(const char* value) : Outcome(Scalar{std::string(value)}) {}
    Outcome(Scalar value);
    Outcome(Fields fields);

    bool is_table() const;
    // The scalar value; RuleError for a table.
    const Scalar& scalar() const;
    // The fields; RuleError for a scalar.
    const Fields& fields() const;
    // A field of a table outcome, or nil if absent (or if this is not a table).
    Scalar field(const std::string& name) const;

    // Canonical grouping key, e.g. 7, "hit", {kia=true,shots=3}.
    const std::string& key() const;
    // Human form, e.g. 7, hit, kia=true shots=3.
    std::string display() const;

    // The address of the shared value: one for every copy of this Outcome (null for nil), so a
    // tally can find a copy it has seen without comparing keys. Two outcomes with different keys
    // never share one while both live; hold a copy to keep an address from being reused.
    const void* identity() const { return data_.get(); }

    std::weak_ordering operator<=>(const Outcome& other) const;
    bool operator==(const Outcome& other) const { return (*this <=> other) == 0; }

private:
    struct Data {
        std::variant<Scalar, Fields> value;
        std::string key;
    };
    // Null for nil (the default), so a default-made Outcome allocates nothing.
    std::shared_ptr<const Data> data_;

    const std::variant<Scalar, Fields>& value() const;
};

}  // namespace umpire::odds
