// `umpire serve`'s app half: the page's data (odds against a count of every face, the game's
// citations, the map), the live session's transactional update (a failed computation keeps the
// last good page, stale, with the error's file:line), and which requests the server refuses.
#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <thread>

#include "app/ServePage.hpp"
#include "app/ServeServer.hpp"
#include "app/ServeSession.hpp"
#include "bindings/LuaError.hpp"
#include "tests/support/helpers.hpp"

namespace {
namespace fs = std::filesystem;
using umpire::serve::refusal;
}  // namespace

TEST_CASE("serve: only GET/HEAD from the page's own host and origin are served", "[serve]") {
    const std::string own = "http://127.0.0.1:8765", local = "http://localhost:8765";
    CHECK(refusal("GET", "127.0.0.1:8765", nullptr, 8765).status == 0);
    CHECK(refusal("HEAD", "localhost:8765", nullptr, 8765).status == 0);
    CHECK(refusal("GET", "127.0.0.1:8765", &own, 8765).status == 0);
    CHECK(refusal("GET", "localhost:8765", &local, 8765).status == 0);
    for (const char* method : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"})
        CHECK(refusal(method, "127.0.0.1:8765", nullptr, 8765).status == 405);
    // DNS rebinding: a foreign name resolving to 127.0.0.1 sends its own Host.
    CHECK(refusal("GET", "evil.example:8765", nullptr, 8765).status == 403);
    CHECK(refusal("GET", "127.0.0.1", nullptr, 8765).status == 403);
    CHECK(refusal("GET", "127.0.0.1:8766", nullptr, 8765).status == 403);
    CHECK(refusal("GET", "", nullptr, 8765).status == 403);
    for (const std::string origin : {"http://evil.example", "null", "https://127.0.0.1:8765", "http://127.0.0.1:8766", ""})
        CHECK(refusal("GET", "127.0.0.1:8765", &origin, 8765).status == 403);
    const std::string foreign = "http://evil.example";
    CHECK_THAT(refusal("GET", "127.0.0.1:8765", &foreign, 8765).reason, Catch::Contains("may not read"));
    CHECK_THAT(refusal("GET", "127.0.0.1:8765", nullptr, 9).reason, Catch::Contains("not this server"));
}

TEST_CASE("serve: the page's odds are the script's exact distribution, and its game cites", "[serve]") {
    const fs::path dir = test_helpers::scratch_root() / "serve-page";
    fs::create_directories(dir);
    test_helpers::write(dir / "two_dice.lua",
                        "local a = umpire.dice.roll('d6')\nlocal b = umpire.dice.roll('d4')\n"
                        "umpire.cite('T1.1', 'rolled ' .. a .. ' and ' .. b)\n"
                        "return {total = a + b, high = a + b >= 7}\n");
    umpire::serve::PageRequest request;
    request.script = dir / "two_dice.lua";
    request.host.seed = 7;
    const auto page = umpire::serve::compute_page(request);

    // A count of every face pair, from the dice the script names.
    std::map<int, int> ways;
    int high = 0;
    for (int a = 1; a <= 6; ++a)
        for (int b = 1; b <= 4; ++b) ++ways[a + b], high += a + b >= 7;
    int sum = 0;
    for (const auto& [total, n] : ways) sum += total * n;
    const auto& total = page["odds"]["fields"]["total"];
    REQUIRE(total["outcomes"].size() == ways.size());
    for (const auto& o : total["outcomes"]) {
        const int value = o["outcome"].get<int>();
        int at_least = 0;
        for (const auto& [t, n] : ways) at_least += t >= value ? n : 0;
        CHECK(o["sides"][0]["probability"].get<double>() == Approx(ways[value] / 24.0));
        CHECK(o["sides"][0]["at_least"].get<double>() == Approx(at_least / 24.0));
    }
    CHECK(total["moments"][0]["mean"].get<double>() == Approx(sum / 24.0));
    for (const auto& o : page["odds"]["fields"]["high"]["outcomes"])
        CHECK(o["sides"][0]["probability"].get<double>() == Approx((o["outcome"].get<bool>() ? high : 24 - high) / 24.0));

    // The game: one played with the seed, its citation listed, its lines as --explain words them.
    CHECK(page["seed"] == 7);
    CHECK(page["game"]["citations"] == nlohmann::json::array({"T1.1"}));
    const auto& entries = page["game"]["journal"]["entries"];
    REQUIRE(page["game"]["lines"].size() == entries.size());
    const auto returned = page["game"]["returned"][0];
    int rolled = 0;
    for (const auto& e : entries)
        if (e["kind"] == "roll") rolled += e["data"]["total"].get<int>();
    CHECK(returned["total"] == rolled);
    CHECK(page["map"].is_null());  // the script names no scenario
}

TEST_CASE("serve: the scenario a script names, a section's text, and the lines that cite it", "[serve]") {
    using umpire::serve::scenario_named_in;
    CHECK(scenario_named_in("local sc = umpire.data.scenario(\"a9_222\")\n") == "a9_222");
    CHECK(scenario_named_in("umpire.data.scenario 'd2_33-x'") == "d2_33-x");
    CHECK_FALSE(scenario_named_in("return umpire.dice.roll('2d6')").has_value());

    const std::string text = "9.2 MULTIPLE ROF: first line\nsecond line\n9.21 NEXT: other\n9.22 FIRE LANE: lane\nend\n";
    CHECK(umpire::serve::section_text(text, "A9.2") == "9.2 MULTIPLE ROF: first line\nsecond line");
    CHECK(umpire::serve::section_text(text, "9.22") == "9.22 FIRE LANE: lane\nend");
    CHECK(umpire::serve::section_text(text, "A9.7").empty());

    const fs::path dir = test_helpers::scratch_root() / "serve-cites";
    fs::create_directories(dir / "rules");
    test_helpers::write(dir / "rules" / "a.lua", "local x = 1\numpire.cite(\"A9.2\", 'rof')\n-- A9.21 is not A9.2\n");
    const auto lines = umpire::serve::citing_lines("A9.2", {dir});
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["line"] == 2);
    CHECK(lines[0]["text"] == "umpire.cite(\"A9.2\", 'rof')");

    // A symlink out of the ruleset folder, as a module or as the rules folder itself, shows nothing
    // of the file outside (it was read by its path: an outside file's lines on the page).
    const fs::path outside = test_helpers::scratch_root() / "serve-cites-outside";
    fs::create_directories(outside / "rules");
    test_helpers::write(outside / "secret.lua", "token = 'A9.2' -- outside\n");
    test_helpers::write(outside / "rules" / "other.lua", "umpire.cite('A9.2', 'elsewhere')\n");
    fs::create_symlink(outside / "secret.lua", dir / "rules" / "link.lua");
    CHECK(umpire::serve::citing_lines("A9.2", {dir}).size() == 1);
    const fs::path linked = test_helpers::scratch_root() / "serve-cites-linked";
    fs::create_directories(linked);
    fs::create_directory_symlink(outside / "rules", linked / "rules");
    CHECK(umpire::serve::citing_lines("A9.2", {linked}).empty());
    // a symlink inside the folder is followed
    fs::create_directories(dir / "rules" / "sub");
    test_helpers::write(dir / "sub.lua", "umpire.cite('A9.2', 'inside')\n");
    fs::create_symlink(dir / "sub.lua", dir / "rules" / "sub" / "in.lua");
    CHECK(umpire::serve::citing_lines("A9.2", {dir}).size() == 2);
}

TEST_CASE("serve: a failed computation keeps the last good page, stale, with file:line", "[serve]") {
    const fs::path dir = test_helpers::scratch_root() / "serve-session";
    fs::create_directories(dir);
    const fs::path file = dir / "rule.lua";
    test_helpers::write(file, "good 1");
    // The computation reads the file: "good N" gives a page {"n": N}; anything else fails the
    // way a broken module does.
    umpire::serve::Session session(
        [file] {
            const std::string text = umpire::LuaHost::read_file(file);
            if (text.rfind("good ", 0) != 0) throw umpire::ScriptError("rule.lua:3: unexpected symbol", "rule.lua", 3);
            return nlohmann::json{{"n", std::stoi(text.substr(5))}};
        },
        {file}, {});
    auto wait_for = [&](const std::string& status, int n) {
        for (int i = 0; i < 200; ++i) {
            const auto doc = session.document();
            if (doc["status"] == status && doc["page"].value("n", 0) == n) return doc;
            session.wait_for_version(doc["version"].get<std::uint64_t>(), std::chrono::milliseconds(50));
        }
        FAIL("no '" << status << "' document with n = " << n << ": " << session.document().dump());
        return nlohmann::json();
    };
    session.start();
    auto doc = wait_for("ok", 1);
    CHECK_FALSE(doc["stale"].get<bool>());
    CHECK(doc["error"].is_null());

    test_helpers::write(file, "broken");
    doc = wait_for("error", 1);
    CHECK(doc["stale"].get<bool>());
    CHECK(doc["error"]["file"] == "rule.lua");
    CHECK(doc["error"]["line"] == 3);
    CHECK(session.page()["n"] == 1);

    test_helpers::write(file, "good 2");
    doc = wait_for("ok", 2);
    CHECK_FALSE(doc["stale"].get<bool>());
    CHECK(doc["error"].is_null());
    session.stop();
}

TEST_CASE("serve: an error's file and line are read from its message when not given", "[serve]") {
    const auto e = umpire::serve::error_json(std::runtime_error("ruleset 'x': rulesets/x/data/t.yaml:4:7: bad"));
    CHECK(e["file"] == "rulesets/x/data/t.yaml");
    CHECK(e["line"] == 4);
    CHECK(umpire::serve::error_json(std::runtime_error("no place")).at("file").is_null());
}

TEST_CASE("serve: odds past the memory cap are the page's error, naming the limit, and the session goes on",
          "[serve][memory]") {
    // The page's odds charge what they hold outside the hosts (the exact result's copies, the
    // report) against a budget of the host's cap (app/ServePage.cpp, odds_of), as `umpire odds`
    // does. Six d6 written out after a 100-byte pad: 46656 outcomes that never repeat, whose JSON
    // report would take ~190 MiB, past a cap of 24 MiB (which their tally in the host fits).
    constexpr std::size_t kCap = std::size_t{24} << 20;
    const fs::path dir = test_helpers::scratch_root() / "serve-memory";
    fs::create_directories(dir);
    const fs::path file = dir / "rule.lua";
    const std::string small = "return umpire.dice.roll('d6') + umpire.dice.roll('d6')\n";
    const std::string many = "local s = ('p'):rep(100)\nfor i = 1, 6 do s = s .. umpire.dice.roll('d6') end\nreturn s\n";
    test_helpers::write(file, many);
    umpire::serve::PageRequest request;
    request.script = file;
    request.host.memory_limit = kCap;
    try {
        (void)umpire::serve::compute_page(request);
        FAIL("odds past the cap made a page");
    } catch (const umpire::ScriptError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("rule.lua: memory limit: the report of 46656 distinct outcomes as JSON") != std::string::npos);
        CHECK(what.find("which would pass the memory cap of " + std::to_string(kCap >> 20) + " MiB") !=
              std::string::npos);
    }

    // In the live session: the page made before stays, stale, with the error; the next good
    // edit makes a page again.
    test_helpers::write(file, small);
    umpire::serve::Session session([request] { return umpire::serve::compute_page(request); }, {file}, {});
    // By a deadline, not a count of wake-ups: a document changes several times during one
    // computation, and under AddressSanitizer the 46,656 paths take tens of seconds.
    auto wait_for = [&](const std::string& status, std::size_t outcomes) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
        while (std::chrono::steady_clock::now() < deadline) {
            const auto doc = session.document();
            if (doc["status"] == status && !doc["page"].is_null() &&
                doc["page"]["odds"]["outcomes"].size() == outcomes)
                return doc;
            session.wait_for_version(doc["version"].get<std::uint64_t>(), std::chrono::milliseconds(50));
        }
        FAIL("no '" << status << "' document: " << session.document().dump().substr(0, 2000));
        return nlohmann::json();
    };
    session.start();
    wait_for("ok", 11);
    test_helpers::write(file, many);
    auto doc = wait_for("error", 11);
    CHECK(doc["stale"].get<bool>());
    CHECK_THAT(doc["error"]["message"].get<std::string>(), Catch::Contains("memory limit"));
    test_helpers::write(file, small + "-- edited\n");
    doc = wait_for("ok", 11);
    CHECK(doc["error"].is_null());
    session.stop();
}
