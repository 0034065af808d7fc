#include <catch2/catch.hpp>

#include "host/LuaHost.hpp"

TEST_CASE("host runs a script", "[host]") {
    umpire::LuaHost host;
    REQUIRE_NOTHROW(host.run_string("local x = 1 + 1 assert(x == 2)"));
}
