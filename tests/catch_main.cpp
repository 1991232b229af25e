// Catch2's main, compiled once for all of the project's own test executables.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
