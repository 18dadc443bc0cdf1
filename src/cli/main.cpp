#include "cli.h"
#include "qualrank/util/bury.h"

int main(int argc, char** argv) {
  qualrank::enable_burial();  // the process exits after the command: big structures are not freed block by block
  return qualrank::cli::run(argc, argv);
}
