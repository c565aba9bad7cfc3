// The memory budget of fetch for kept bodies (lib/fetch/body_budget.hpp): shares,
// borrowing, waiting starts, release, and the spill file of --warc.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "fetch/body_budget.hpp"
#include "fetch/fetch_output.hpp"
#include "temp_dir.hpp"

using namespace frontier;

TEST_CASE("budget: shares and capacity", "[budget-mem]") {
    BodyBudget a(32 << 20, 32);
    CHECK(a.share() == 1 << 20);
    CHECK(a.capacity() == 32 << 20);
    BodyBudget b(1 << 20, 32);  // 32 KiB each would be too little: 256 KiB, the pool follows
    CHECK(b.share() == BodyBudget::kMinShare);
    CHECK(b.capacity() == 32 * BodyBudget::kMinShare);
    BodyBudget c(100 << 20, 0);
    CHECK(c.share() == 100 << 20);
}

TEST_CASE("budget: a share is kept whatever others hold; borrowing takes what is left", "[budget-mem]") {
    BodyBudget budget(4 << 20, 4);  // 1 MiB each
    const uint64_t mib = 1 << 20;
    BodyCharge big, small;
    REQUIRE(budget.try_start(big, mib));
    REQUIRE(budget.try_start(small, mib));
    // The big one keeps its share, then borrows what neither it nor the
    // small one's reservation needs: 4 - 2 = 2 MiB more.
    CHECK(budget.grant(big, mib) == mib);
    CHECK(budget.grant(big, 3 * mib) == 2 * mib);
    CHECK(budget.grant(big, 1) == 0);
    CHECK(budget.held() == 3 * mib);
    // The small one's share is still there, byte for byte.
    CHECK(budget.grant(small, mib / 2) == mib / 2);
    CHECK(budget.grant(small, mib / 2) == mib / 2);
    CHECK(budget.grant(small, 1) == 0);  // beyond its share: nothing left
    // A third transfer cannot be guaranteed its share: it waits.
    int wakes = 0;
    budget.set_waker([&] { ++wakes; });
    BodyCharge third;
    CHECK_FALSE(budget.try_start(third, mib));
    // The transfers end; their results hold their bytes until written.
    budget.finish(big);
    budget.finish(small);
    CHECK(budget.held() == 4 * mib);
    CHECK_FALSE(budget.try_start(third, mib));
    small.release();  // written
    CHECK(wakes == 1);
    CHECK(budget.held() == 3 * mib);
    REQUIRE(budget.try_start(third, mib));
    CHECK(budget.grant(third, 2 * mib) == mib);  // its share; nothing to borrow
    BodyCharge moved = std::move(big);           // a result moves with its charge
    CHECK(moved.held() == 3 * mib);
    CHECK(big.held() == 0);
    moved.release();
    CHECK(budget.held() == mib);
    budget.set_waker(nullptr);
}

TEST_CASE("budget: a share larger than the pool never waits for ever", "[budget-mem]") {
    BodyBudget budget(1 << 20, 1);
    BodyCharge a, b;
    REQUIRE(budget.try_start(a, 8 << 20));  // nothing held: it starts
    CHECK(budget.grant(a, 8 << 20) == uint64_t{8} << 20);
    CHECK_FALSE(budget.try_start(b, 1));
    CHECK(budget.try_start(b, 0));  // keeping nothing never waits
    a.release();
    CHECK(budget.try_start(b, 1));
    CHECK(budget.peak() == uint64_t{8} << 20);
}

TEST_CASE("budget: bytes granted but not kept go back", "[budget-mem]") {
    BodyBudget budget(4 << 20, 4);
    const uint64_t mib = 1 << 20;
    BodyCharge a, b;
    REQUIRE(budget.try_start(a, mib));
    CHECK(budget.grant(a, 2 * mib) == 2 * mib);  // 1 MiB within its share, 1 MiB borrowed
    a.unkeep(mib + 10);                          // the borrowed MiB and 10 bytes of the share
    CHECK(a.held() == mib - 10);
    CHECK(budget.held() == mib - 10);
    REQUIRE(budget.try_start(b, mib));
    CHECK(budget.grant(b, 3 * mib) == 3 * mib);  // its share and all that is not a's
    CHECK(budget.grant(a, 10) == 10);            // a's share is intact
}

TEST_CASE("spill: an unlinked file in TMPDIR", "[budget-mem]") {
    TempDir dir;
    const char* old = std::getenv("TMPDIR");
    std::string saved = old ? old : "";
    setenv("TMPDIR", dir.path.c_str(), 1);
    auto spill = BodySpill::create();
    if (old)
        setenv("TMPDIR", saved.c_str(), 1);
    else
        unsetenv("TMPDIR");
    REQUIRE(spill->error().empty());
    spill->append("hello ", 6);
    spill->append("world", 5);
    CHECK(spill->size() == 11);
    char buf[16] = {};
    CHECK(pread(spill->fd(), buf, sizeof buf, 0) == 11);
    CHECK(std::string(buf) == "hello world");
    CHECK(std::filesystem::is_empty(dir.path));  // no name left behind

    setenv("TMPDIR", (dir.path + "/missing").c_str(), 1);
    auto bad = BodySpill::create();
    if (old)
        setenv("TMPDIR", saved.c_str(), 1);
    else
        unsetenv("TMPDIR");
    CHECK(bad->error().find("cannot create a temporary file in " + dir.path + "/missing") == 0);
    bad->append("x", 1);  // a no-op
    CHECK(bad->size() == 0);
}

TEST_CASE("a body cut inside a character is read without it", "[budget-mem]") {
    const std::string text = "<a href=/caf\xC3\xA9>x</a><a href=/\xE2\x82\xAC\xF0\x9F\x98\x80>";  // é, €, 😀
    for (size_t n = 0; n <= text.size(); ++n) {
        std::string_view cut = whole_utf8_prefix(std::string_view(text).substr(0, n));
        INFO(n);
        CHECK(text.compare(0, cut.size(), cut) == 0);
        CHECK(n - cut.size() <= 3);
        // What is left ends on a whole character: pure ASCII or a complete sequence.
        size_t i = cut.size();
        while (i > 0 && (static_cast<unsigned char>(cut[i - 1]) & 0xC0) == 0x80) --i;
        if (i > 0 && static_cast<unsigned char>(cut[i - 1]) >= 0xC0) {
            auto lead = static_cast<unsigned char>(cut[i - 1]);
            size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
            CHECK(cut.size() - (i - 1) == length);
        }
    }
    CHECK(whole_utf8_prefix("abc") == "abc");
    CHECK(whole_utf8_prefix("\x80\x80\x80\x80") == "\x80\x80\x80\x80");  // not UTF-8 at all: left alone
}
