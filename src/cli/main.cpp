#include "cli.h"

int main(int argc, char** argv) { return qualrank::cli::run(argc, argv); }
