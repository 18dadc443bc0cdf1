// The command catalog: each handler of the command table asked to describe itself (Context::describe).
#include "command_catalog.h"

#include <sstream>

namespace qualrank::cli {

std::optional<CommandOptions> describe_command(const std::string& command, const std::vector<std::string>& words) {
  for (const auto& c : commands()) {
    if (command != c.name) continue;
    CommandOptions seen;
    std::ostringstream discard;
    Context ctx;
    ctx.out = &discard;
    ctx.err = &discard;
    ctx.describe = &seen;
    std::vector<std::string> args = words;
    args.push_back("--help");  // a handler that does not reach parse_options prints its usage, nothing else
    c.handler(ctx, args);
    if (seen.name.empty()) return std::nullopt;
    return seen;
  }
  return std::nullopt;
}

std::vector<CommandDoc> command_catalog() {
  std::vector<CommandDoc> out;
  for (const auto& c : commands()) {
    CommandDoc doc{c.name, c.summary, describe_command(c.name), {}};
    for (const auto& s : subcommands_of(c.name))
      doc.subcommands.push_back({doc.name + " " + s.name, s.summary, describe_command(c.name, {s.name}), {}});
    out.push_back(std::move(doc));
  }
  return out;
}

bool takes_value(const po::option_description& o) { return o.semantic()->max_tokens() > 0; }

std::string default_text(const po::option_description& o) {
  // Boost writes the parameter as "arg (=DEFAULT)"; the default is what it shows, as --help shows it.
  const std::string p = o.format_parameter();
  const auto at = p.find("(=");
  if (at == std::string::npos || p.back() != ')') return "";
  return p.substr(at + 2, p.size() - at - 3);
}

std::string short_flag(const po::option_description& o) {
  const std::string s = o.canonical_display_name(po::command_line_style::allow_dash_for_short);
  return s.size() == 2 && s[0] == '-' ? s : "";
}

}  // namespace qualrank::cli
