// duplicate_key_at (core/bus/JsonKeys.hpp) against the JSON library's own reading of the same
// text: its parser callback reports each key decoded, with the objects opening and closing, and
// the first key an object met before is the duplicate. Over random nested objects and lists whose
// keys are drawn from a small set, spelled plainly or with escapes (so that "a" and "\u0061" are
// one key, as are a raw and an escaped non-ASCII character or surrogate pair), and whose string
// values look like keys.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/bus/JsonKeys.hpp"

using umpire::bus::duplicate_key_at;
using json = nlohmann::json;

namespace {

// Park-Miller, as the other random tests.
struct Random {
    long long x;
    int pick(int n) {
        x = x * 16807 % 2147483647;
        return static_cast<int>(x % n);
    }
};

// Each key, in its spellings: the same key however spelled.
const std::vector<std::vector<std::string>> kKeys = {
    {"\"a\"", "\"\\u0061\""},
    {"\"b\"", "\"\\u0062\""},
    {"\"seq\"", "\"s\\u0065q\"", "\"se\\u0071\""},
    {"\"\xc3\xa9\"", "\"\\u00e9\"", "\"\\u00E9\""},
    {"\"\xf0\x9f\x98\x80\"", "\"\\ud83d\\ude00\""},
    {"\"x\\ny\"", "\"x\\u000ay\""},
    {"\"q\\\"\"", "\"q\\u0022\""},
};

std::string value(Random& r, int depth);

std::string object(Random& r, int depth) {
    std::string out = "{";
    const int n = r.pick(5);
    for (int i = 0; i < n; ++i) {
        if (i) out += r.pick(2) ? "," : " ,\n ";
        const auto& spellings = kKeys[r.pick(static_cast<int>(kKeys.size()))];
        out += spellings[r.pick(static_cast<int>(spellings.size()))] + (r.pick(2) ? ":" : " : ") + value(r, depth + 1);
    }
    return out + "}";
}

std::string value(Random& r, int depth) {
    const int kind = depth > 4 ? r.pick(3) : r.pick(6);
    switch (kind) {
        case 0: return std::to_string(r.pick(100));
        case 1: {
            const auto& spellings = kKeys[r.pick(static_cast<int>(kKeys.size()))];
            return spellings[r.pick(static_cast<int>(spellings.size()))];  // a string like a key
        }
        case 2: return "null";
        case 3:
        case 4: return object(r, depth);
        default: {
            std::string out = "[";
            const int n = r.pick(4);
            for (int i = 0; i < n; ++i) out += (i ? "," : "") + value(r, depth + 1);
            return out + "]";
        }
    }
}

// The first duplicate key as the library reads the text (nothing if none).
std::optional<std::string> library_duplicate(const std::string& text) {
    std::vector<std::set<std::string>> open;
    std::optional<std::string> found;
    json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::object_start) open.emplace_back();
        else if (event == json::parse_event_t::object_end) open.pop_back();
        else if (event == json::parse_event_t::key && !found && !open.back().insert(parsed.get<std::string>()).second)
            found = parsed.get<std::string>();
        return true;
    };
    json::parse(text, callback);
    return found;
}

}  // namespace

TEST_CASE("duplicate_key_at finds the key the JSON library reads twice in one object", "[journal][json]") {
    Random r{20260125};
    int with = 0, without = 0;
    for (int n = 0; n < 4000; ++n) {
        const std::string text = object(r, 0);
        const auto want = library_duplicate(text);
        const auto got = duplicate_key_at(text);
        INFO(text);
        REQUIRE(got.has_value() == want.has_value());
        if (!got) {
            ++without;
            continue;
        }
        ++with;
        CHECK(got->key == *want);
        // The offset is that of a key spelling's opening quote, which reads as the key.
        REQUIRE(got->at < text.size());
        CHECK(text[got->at] == '"');
        CHECK(json::parse(text.substr(got->at, text.find_first_of(":", got->at + 1) - got->at)).get<std::string>() == got->key);
    }
    // Both outcomes are met often (so that neither half of the check is empty).
    CHECK(with > 800);
    CHECK(without > 800);
}

TEST_CASE("line_and_column counts lines and bytes from 1", "[journal][json]") {
    CHECK(umpire::bus::line_and_column("ab\ncd", 0) == std::pair<std::size_t, std::size_t>{1, 1});
    CHECK(umpire::bus::line_and_column("ab\ncd", 4) == std::pair<std::size_t, std::size_t>{2, 2});
}
