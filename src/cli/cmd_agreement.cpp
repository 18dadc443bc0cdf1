// PLACEHOLDER: replaced by the feature's implementation.
#include <iostream>

#include "cli.h"

namespace qualrank::cli {

int cmd_agreement(Context& ctx, const std::vector<std::string>&) {
  *ctx.err << "qualrank: error: this command is not implemented yet\n";
  return 2;
}

}  // namespace qualrank::cli
