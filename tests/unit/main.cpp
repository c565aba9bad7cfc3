// The one Catch2 runner for all unit tests (tests/unit/test_*.cpp).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
