#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <unistd.h>

#include "store/store.hpp"

using namespace frontier;

TEST_CASE("effective budgets: field by field, the most specific override wins", "[store][budget]") {
    char dir[] = "/tmp/frontier-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    std::string path = std::string(dir) + "/f.db";
    {
        Store store(path, Store::Mode::create);
        store.set_setting("budget.replenish", "3000");
        store.set_budget_override({"domain", "example.org", std::nullopt, 500});
        store.set_budget_override({"queue", "x.example.org:8080", 10, std::nullopt});
        store.set_budget_override({"domain", "shop.example.org", 20, std::nullopt});
        store.set_domain_setting("example.org", "budget.replenish", "7");
        store.set_domain_setting("other.net", "budget.total", "9");
        CHECK(store.effective_budget("a.example.org").total == 500);
        CHECK(store.effective_budget("a.example.org").replenish == 7);        // domain setting merged
        CHECK(store.effective_budget("a.shop.example.org").replenish == 20);  // most specific domain
        CHECK(store.effective_budget("a.shop.example.org").total == 500);     // ... then its parent's total
        CHECK(store.effective_budget("x.example.org:8080").replenish == 10);  // queue override
        CHECK(store.effective_budget("x.example.org:8080").total == 500);
        CHECK(store.effective_budget("y.example.org:8080").total == 500);     // port stripped for domains
        CHECK(store.effective_budget("other.net").total == 9);
        CHECK(store.effective_budget("unrelated.com").replenish == 3000);
        CHECK(store.effective_budget("unrelated.com").total == -1);
    }
    std::string cmd = std::string("rm -rf ") + dir;
    REQUIRE(std::system(cmd.c_str()) == 0);
}
