// The unit tests' entry point: Catch2's own session, under v2 and v3 alike (tests/unit/catch.h).
#ifndef QUALRANK_CATCH2_V3
#define CATCH_CONFIG_RUNNER
#endif
#include "catch.h"

int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
