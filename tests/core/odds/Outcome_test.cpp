#include <catch2/catch.hpp>

#include "core/odds/Outcome.hpp"

using namespace umpire::odds;

TEST_CASE("Outcome keys tell numbers, strings and booleans apart", "[odds][outcome]") {
    CHECK(Outcome(7).key() == "7");
    CHECK(Outcome(7.0).key() == "7");
    CHECK(Outcome(2.5).key() == "2.5");
    CHECK(Outcome("7").key() == "\"7\"");
    CHECK(Outcome(true).key() == "true");
    CHECK(Outcome().key() == "nil");
    CHECK(Outcome("say \"hi\"").key() == "\"say \\\"hi\\\"\"");
    CHECK(Outcome("7").display() == "7");
}

TEST_CASE("Table outcomes list fields by name whatever the insertion order", "[odds][outcome]") {
    Fields a;
    a["shots"] = 3.0;
    a["kia"] = true;
    Fields b;
    b["kia"] = true;
    b["shots"] = 3.0;
    CHECK(Outcome(a).key() == "{kia=true,shots=3}");
    CHECK(Outcome(a).key() == Outcome(b).key());
    CHECK(Outcome(a) == Outcome(b));
    CHECK(Outcome(a).display() == "kia=true shots=3");
    CHECK(std::get<double>(Outcome(a).field("shots")) == 3.0);
    CHECK(Outcome(a).field("missing").index() == 0);
}

TEST_CASE("Outcomes order numbers numerically, then strings", "[odds][outcome]") {
    CHECK(Outcome(2) < Outcome(10));
    CHECK(Outcome(10) < Outcome("1KIA"));
    CHECK(Outcome("1KIA") < Outcome("2KIA"));
    CHECK(Outcome() < Outcome(false));
    CHECK(Outcome(false) < Outcome(true));
    CHECK(Outcome(true) < Outcome(-5));
    CHECK(Outcome("z") < Outcome(Fields{}));
}
