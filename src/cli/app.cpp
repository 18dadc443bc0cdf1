// Global option parsing and dispatch. Input errors arrive as diagnostics (printed together, exit 1);
// usage errors exit 2; anything else unexpected is a bug and reported as an internal error (exit 3).
#include <iostream>
#include <sstream>

#include "cli.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

void print_help(std::ostream& out) {
  out << "qualrank " QUALRANK_VERSION " - interview transcripts to coded segments, rankings and a versioned taxonomy\n\n"
         "usage: qualrank [-C DIR] [--quiet] [--verbose] COMMAND [OPTIONS]\n\n"
         "global options:\n"
         "  -C, --workspace DIR   use the workspace in DIR (default: the current folder)\n"
         "  -q, --quiet           no progress output\n"
         "  -v, --verbose         print each step's timing\n"
         "  --version             print the version\n"
         "  -h, --help            this help\n\n"
         "commands:\n";
  for (const auto& c : commands()) {
    std::string name = c.name;
    name.resize(std::max<std::size_t>(name.size() + 2, 19), ' ');
    out << "  " << name << c.summary << '\n';
  }
  out << "\n'qualrank COMMAND --help' describes a command's options.\n";
}

const Command* find_command(const std::string& name) {
  for (const auto& c : commands())
    if (name == c.name) return &c;
  return nullptr;
}

std::string suggestion(const std::string& name) {
  std::string best;
  std::size_t best_d = 3;
  for (const auto& c : commands()) {
    auto d = text::edit_distance(name, c.name);
    if (d < best_d) {
      best_d = d;
      best = c.name;
    }
  }
  return best;
}

}  // namespace

bool parse_options(Context& ctx, const std::string& name, const std::string& usage, po::options_description& desc,
                   const std::vector<std::string>& args, po::variables_map& vm, int& exit_code,
                   const po::positional_options_description* positional) {
  desc.add_options()("help,h", "print this help");
  try {
    auto parser = po::command_line_parser(args).options(desc);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      *ctx.out << "usage: qualrank " << name << ' ' << usage << "\n\n" << desc << '\n';
      exit_code = 0;
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    *ctx.err << "qualrank " << name << ": error: " << e.what() << "\n(see 'qualrank " << name << " --help')\n";
    exit_code = 2;
    return false;
  }
  return true;
}

bool check_choice(Context& ctx, const std::string& command, const char* what, const std::string& value,
                  std::initializer_list<const char*> choices) {
  for (const char* c : choices)
    if (value == c) return true;
  *ctx.err << "qualrank " << command << ": error: unknown " << what << " '" << value << "' (";
  std::size_t i = 0;
  for (const char* c : choices) {
    if (i) *ctx.err << (i + 1 == choices.size() ? " or " : ", ");
    *ctx.err << c;
    ++i;
  }
  *ctx.err << ")\n";
  return false;
}

bool parse_where(Context& ctx, const std::string& command, const po::variables_map& vm,
                 std::vector<std::pair<std::string, std::string>>& out) {
  if (!vm.count("where")) return true;
  for (const auto& w : vm["where"].as<std::vector<std::string>>()) {
    auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0) {
      *ctx.err << "qualrank " << command << ": error: --where takes attribute=value, not '" << w << "'\n";
      return false;
    }
    out.emplace_back(w.substr(0, eq), w.substr(eq + 1));
  }
  return true;
}

std::filesystem::path given_path(const Context& ctx, const std::string& given) {
  std::filesystem::path p(given);
  return p.is_relative() ? ctx.workspace / p : p;
}

std::optional<std::filesystem::path> default_output(Context& ctx, const std::string& command,
                                                    const std::string& default_relative) {
  if (auto p = files::resolve_inside(ctx.workspace, default_relative)) return p;
  *ctx.err << "qualrank " << command << ": error: the default output " << default_relative
           << " leads outside the workspace (through a symlink); give -o to write there on purpose\n";
  return std::nullopt;
}

std::optional<std::filesystem::path> output_path(Context& ctx, const std::string& command,
                                                 const po::variables_map& vm, const char* option) {
  const auto& v = vm[option];
  if (v.empty()) return std::nullopt;
  if (v.defaulted()) return default_output(ctx, command, v.as<std::string>());
  return given_path(ctx, v.as<std::string>());
}

int report_diagnostics(Context& ctx, const Diagnostics& diags) {
  diags.print(*ctx.err);
  return diags.has_errors() ? 1 : 0;
}

int run(int argc, char** argv) {
  Context ctx;
  ctx.out = &std::cout;
  ctx.err = &std::cerr;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-C" || a == "--workspace") {
      if (i + 1 >= argc) {
        std::cerr << "qualrank: error: " << a << " needs a folder\n";
        return 2;
      }
      ctx.workspace = argv[++i];
    } else if (a.rfind("--workspace=", 0) == 0) {
      ctx.workspace = a.substr(12);
    } else if (a == "-q" || a == "--quiet") {
      ctx.quiet = true;
    } else if (a == "-v" || a == "--verbose") {
      ctx.verbose = true;
    } else if (a == "--version") {
      std::cout << "qualrank " QUALRANK_VERSION "\n";
      return 0;
    } else if (a == "-h" || a == "--help") {
      print_help(std::cout);
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "qualrank: error: unknown global option '" << a << "' (see 'qualrank help')\n";
      return 2;
    } else {
      break;
    }
  }
  if (i >= argc) {
    print_help(std::cerr);
    return 2;
  }
  std::string name = argv[i];
  std::vector<std::string> args(argv + i + 1, argv + argc);
  if (name == "help") {
    if (!args.empty()) {
      if (const Command* c = find_command(args[0])) {
        std::vector<std::string> help{"--help"};
        return c->handler(ctx, help);
      }
    }
    print_help(std::cout);
    return 0;
  }
  const Command* cmd = find_command(name);
  if (!cmd) {
    std::cerr << "qualrank: error: unknown command '" << name << "'";
    auto s = suggestion(name);
    if (!s.empty()) std::cerr << " (did you mean '" << s << "'?)";
    std::cerr << "\n(see 'qualrank help')\n";
    return 2;
  }
  // A write of several files killed during its renames (files::StagedFiles) is finished before anything reads.
  std::vector<std::string> unfinished;
  if (int n = files::finish_staged(ctx.workspace, &unfinished); n > 0 && !ctx.quiet)
    std::cerr << "qualrank: finished an interrupted write: " << n << (n == 1 ? " file" : " files") << " renamed into place\n";
  for (const auto& p : unfinished) std::cerr << "qualrank: warning: " << p << '\n';
  try {
    return cmd->handler(ctx, args);
  } catch (const InputError& e) {
    e.diagnostics.print(std::cerr);
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "qualrank " << name << ": internal error: " << e.what() << '\n';
    return 3;
  }
}

}  // namespace qualrank::cli
