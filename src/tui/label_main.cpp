#include "../cli/cli.h"
namespace qualrank::cli {
int cmd_corpus_labeller(Context& ctx, const std::string&, const std::string&) { *ctx.err << "not yet\n"; return 2; }
}
