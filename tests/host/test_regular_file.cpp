// host/RegularFile.hpp: the one bounded read of a regular file, through one descriptor, that the
// loader and replay's journal use. Each outcome, on a file made for it.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "host/RegularFile.hpp"
#include "tests/support/helpers.hpp"

namespace fs = std::filesystem;
using umpire::regular_file::Read;

TEST_CASE("regular_file::read reads a regular file and tells each refusal apart", "[files]") {
    const fs::path dir = test_helpers::scratch_root() / "regular-file";
    fs::create_directories(dir);
    const fs::path file = dir / "a.txt";
    test_helpers::write(file, "twelve bytes");
    const std::string real = fs::canonical(file).native();

    auto got = umpire::regular_file::read(file, 12, real);
    CHECK(got.status == Read::Status::read);
    CHECK(got.bytes == "twelve bytes");
    CHECK(got.st.st_size == 12);

    CHECK(umpire::regular_file::read(file, 11).status == Read::Status::too_big);

    got = umpire::regular_file::read(dir / "missing.txt", 100);
    CHECK(got.status == Read::Status::cannot_open);
    CHECK(got.error == ENOENT);

    got = umpire::regular_file::read(dir, 100);
    CHECK(got.status == Read::Status::not_regular);
    CHECK(std::string(umpire::regular_file::kind_of(got.st)) == "a folder");

    const fs::path fifo = dir / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    got = umpire::regular_file::read(fifo, 100);  // (opened without blocking: no writer needed)
    CHECK(got.status == Read::Status::not_regular);
    CHECK(std::string(umpire::regular_file::kind_of(got.st)) == "a FIFO");

    // A symlink to the file leads to the file checked; checked against another path, it does not.
    const fs::path link = dir / "link.txt";
    fs::create_symlink(file, link);
    CHECK(umpire::regular_file::read(link, 100, real).status == Read::Status::read);
    got = umpire::regular_file::read(link, 100, (dir / "other.txt").native());
    CHECK(got.status == Read::Status::elsewhere);
    CHECK(got.leads_to == real);
    CHECK(got.bytes.empty());  // not read
}

// A file whose size says nothing of its length (/proc's say 0) is still read to its end, and
// still stopped at the cap as it is read: the cap counts what is read, not what fstat said.
TEST_CASE("regular_file::read counts the cap as it reads", "[files]") {
    auto got = umpire::regular_file::read("/proc/self/status", 1 << 20);
    REQUIRE(got.st.st_size == 0);
    CHECK(got.status == Read::Status::read);
    CHECK(got.bytes.find("Name:") == 0);
    CHECK(umpire::regular_file::read("/proc/self/status", 10).status == Read::Status::too_big);
}
