// `qualrank man [COMMAND] [-o DIR]`: the manual pages made from the command table (man_page.h). Without -o it
// prints one page (qualrank(1), or qualrank-COMMAND(1)) for `man -l -`; with -o it writes every page into DIR
// (the build does, for make install and the Debian package).
#include <iostream>

#include "man_page.h"
#include "qualrank/util/files.h"

namespace qualrank::cli {

int cmd_man(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("man options");
  desc.add_options()
      ("command", po::value<std::string>(), "print this command's page, qualrank-COMMAND(1) (default: qualrank(1))")
      ("output,o", po::value<std::string>(), "write every page into this folder instead (created if missing)");
  po::positional_options_description pos;
  pos.add("command", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "man", "[COMMAND] [-o DIR]", desc, args, vm, rc, &pos)) return rc;
  const auto catalog = command_catalog();
  if (vm.count("output")) {
    if (vm.count("command")) {
      *ctx.err << "qualrank man: error: -o writes every page; name no command with it\n";
      return 2;
    }
    const std::filesystem::path dir = given_path(ctx, vm["output"].as<std::string>());
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::string error;
    if (ec) error = dir.string() + ": " + ec.message();
    if (error.empty()) files::write_atomic(dir / "qualrank.1", man_page_main(catalog), &error);
    for (const auto& c : catalog)
      if (error.empty()) files::write_atomic(dir / ("qualrank-" + c.name + ".1"), man_page_command(c), &error);
    if (!error.empty()) {
      *ctx.err << "qualrank man: error: " << error << '\n';
      return 1;
    }
    return 0;
  }
  if (!vm.count("command")) {
    *ctx.out << man_page_main(catalog);
    return 0;
  }
  const auto& name = vm["command"].as<std::string>();
  for (const auto& c : catalog)
    if (c.name == name) {
      *ctx.out << man_page_command(c);
      return 0;
    }
  *ctx.err << "qualrank man: error: unknown command '" << name << "' (see 'qualrank help')\n";
  return 2;
}

}  // namespace qualrank::cli
