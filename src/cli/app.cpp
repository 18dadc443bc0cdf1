// Global option parsing and dispatch. Input errors arrive as diagnostics (printed together, exit 1);
// usage errors exit 2; anything else unexpected is a bug and reported as an internal error (exit 3).
#include <pwd.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>
#include <string_view>
#include <typeinfo>

#include "cli.h"
#include "qualrank/util/edit_distance.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

void print_help(std::ostream& out) {
  out << "qualrank " QUALRANK_VERSION " - interview transcripts to coded segments, rankings and a versioned taxonomy\n\n"
         "usage: qualrank [-C DIR] [--quiet] [--verbose] COMMAND [OPTIONS]\n\n"
         "global options:\n";
  for (const auto& g : global_options()) {
    std::string flags = g.flags;
    flags.resize(std::max<std::size_t>(flags.size() + 1, 22), ' ');
    out << "  " << flags << g.help << '\n';
  }
  out << "\ncommands:\n";
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

// True when a command's words ask for its help: --help or -h among them, before a "--" (after which every word
// is an argument). No option takes "-h" as its value: Boost reads it as the help switch wherever it stands.
bool help_asked(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

}  // namespace

const std::vector<GlobalOption>& global_options() {
  static const std::vector<GlobalOption> table = {
      {"-C, --workspace DIR", "use the workspace in DIR (default: the current folder)"},
      {"-q, --quiet", "no progress output"},
      {"-v, --verbose", "print each step's timing"},
      {"--version", "print the version"},
      {"-h, --help", "this help"},
  };
  return table;
}

std::filesystem::path find_workspace_upward(const std::filesystem::path& here) {
  std::error_code ec;
  for (auto p = here; !p.empty(); p = p.parent_path()) {
    if (std::filesystem::is_directory(p / "codebooks", ec)) return p;
    if (p == p.parent_path()) break;
  }
  return {};
}

namespace {

// A message's text with control characters (a NUL, an escape) shown as \xNN, so input bytes never reach the
// terminal raw.
std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// The long option of `desc` nearest to `written` ("--transcript" -> "--transcripts"): within edit distance 2,
// or the only option `written` is a prefix of; "" when none or several are as near.
std::string nearest_option(const po::options_description& desc, const std::string& written) {
  std::string w = written;
  while (!w.empty() && w.front() == '-') w.erase(0, 1);
  if (auto eq = w.find('='); eq != std::string::npos) w.erase(eq);
  std::string best;
  std::size_t best_d = 3;
  bool tie = false;
  for (const auto& o : desc.options()) {
    const std::string& name = o->long_name();
    if (name.empty()) continue;
    std::size_t d = text::edit_distance_at_most(w, name, 2);
    if (name.rfind(w, 0) == 0 || w.rfind(name, 0) == 0) d = std::min<std::size_t>(d, 1);
    if (d < best_d) {
      best = name, best_d = d, tie = false;
    } else if (d == best_d && name != best) {
      tie = true;
    }
  }
  return best.empty() || tie ? "" : "--" + best;
}

}  // namespace

bool parse_options(Context& ctx, const std::string& name, const std::string& usage, po::options_description& desc,
                   const std::vector<std::string>& args, po::variables_map& vm, int& exit_code,
                   const po::positional_options_description* positional) {
  desc.add_options()("help,h", "print this help");
  if (ctx.describe) {
    ctx.describe->name = name;
    ctx.describe->usage = usage;
    ctx.describe->options = desc.options();
    if (positional) {
      // An unlimited last option fills every position from its first on: listed once.
      const unsigned total = positional->max_total_count();
      const bool repeats = total == std::numeric_limits<unsigned>::max();
      auto& names = ctx.describe->positional;
      for (unsigned k = 0; k < (repeats ? 16u : total); ++k) names.push_back(positional->name_for_position(k));
      while (repeats && names.size() > 1 && names[names.size() - 2] == names.back()) names.pop_back();
      ctx.describe->positional_repeats = repeats;
    }
    exit_code = 0;
    return false;
  }
  auto usage_error = [&](const std::string& what) {
    *ctx.err << "qualrank " << name << ": error: " << printable(what) << "\n(see 'qualrank " << name << " --help')\n";
    exit_code = 2;
    return false;
  };
  // Global options belong before the command (as in git -C); after it they are a usage error that says so.
  for (std::size_t k = 0; !ctx.help && k < args.size(); ++k) {
    const std::string& a = args[k];
    if ((a == "-C" || a == "--workspace" || a.rfind("--workspace=", 0) == 0) && !desc.find_nothrow(a == "-C" ? "C" : "workspace", false)) {
      std::string dir = a.rfind("--workspace=", 0) == 0 ? a.substr(12) : k + 1 < args.size() ? args[k + 1] : "DIR";
      return usage_error("'" + (a == "-C" ? std::string("-C") : std::string("--workspace")) +
                         "' is a global option: put it before the command: qualrank -C " + dir + " " + name + " ...");
    }
  }
  try {
    // No abbreviations: an option is written in full, so a typo never runs as another option.
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    // Help asked for (Context::help): only the usage, whatever else the words say; no workspace was looked for.
    static const std::vector<std::string> help_only{"--help"};
    auto parser = po::command_line_parser(ctx.help ? help_only : args).options(desc).style(style);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      *ctx.out << "usage: qualrank " << name << ' ' << usage << "\n\n" << desc << '\n';
      exit_code = 0;
      return false;
    }
    po::notify(vm);
    // Boost reads "-1" into an unsigned option as 18446744073709551615: a negative number is refused here,
    // named as written.
    for (const auto& [option, value] : vm) {
      const auto& type = value.value().type();
      if (value.defaulted() || (type != typeid(unsigned long) && type != typeid(unsigned long long) && type != typeid(unsigned)))
        continue;
      for (std::size_t k = 0; k < args.size(); ++k) {
        std::string written;
        if (args[k] == "--" + option && k + 1 < args.size()) written = args[k + 1];
        else if (args[k].rfind("--" + option + "=", 0) == 0) written = args[k].substr(option.size() + 3);
        if (!written.empty() && text::trim(written).front() == '-')
          return usage_error("--" + option + " takes a whole number from 0 up, not '" + written + "'");
      }
    }
  } catch (const po::unknown_option& e) {
    std::string near = nearest_option(desc, e.get_option_name());
    return usage_error("unknown option '" + e.get_option_name() + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?"));
  } catch (const po::error& e) {
    return usage_error(e.what());
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

std::optional<std::filesystem::path> input_path(const Context& ctx, const std::string& given, std::string* why) {
  namespace fs = std::filesystem;
  const fs::path p(given);
  if (!p.is_relative()) return p;
  std::error_code ec;
  const fs::path from_workspace = ctx.workspace / p;
  const fs::path cwd = fs::current_path(ec);
  const fs::path from_here = ec ? fs::path() : cwd / p;
  const bool in_ws = fs::exists(from_workspace, ec), here = !from_here.empty() && fs::exists(from_here, ec);
  if (in_ws && here && !fs::equivalent(from_workspace, from_here, ec)) {
    if (why)
      *why = "both " + from_workspace.lexically_normal().string() + " (from the workspace) and " +
             from_here.lexically_normal().string() + " (from the current folder) exist; give the one meant with its full path";
    return std::nullopt;
  }
  if (!in_ws && here) return from_here;
  if (!in_ws && why)
    *why = "no such file: looked in the workspace (" + from_workspace.lexically_normal().string() + ")" +
           (from_here.empty() || fs::equivalent(ctx.workspace, cwd, ec) ? std::string()
                                                                     : " and in the current folder (" + from_here.lexically_normal().string() + ")");
  return from_workspace;
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

bool lock_held(Context& ctx, const std::string& command, const files::WorkspaceLock& lock) {
  if (lock.locked()) return true;
  *ctx.err << "qualrank " << command << ": error: " << lock.why() << '\n';
  return false;
}

std::string user_name() {
  for (const char* var : {"QUALRANK_AUTHOR", "USER", "LOGNAME"})
    if (const char* v = std::getenv(var); v && *v) return v;
  if (const passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_name && *pw->pw_name) return pw->pw_name;
  return "";
}

std::vector<SubcommandHelp> subcommand_help(const std::vector<Command>& table) {
  std::vector<SubcommandHelp> out;
  for (const auto& s : table) out.push_back({s.name, s.summary});
  return out;
}

int dispatch_subcommand(Context& ctx, const std::string& command, const std::vector<Command>& table,
                        const std::vector<std::string>& args, const std::string& footer) {
  auto usage = [&](std::ostream& out) {
    std::size_t width = 0;
    for (const auto& s : table) width = std::max(width, std::string_view(s.name).size());
    out << "usage: qualrank " << command << " SUBCOMMAND [OPTIONS]\n\nsubcommands:\n";
    for (const auto& s : table) {
      std::string name = s.name;
      name.resize(width + 3, ' ');
      out << "  " << name << s.summary << '\n';
    }
    out << '\n' << footer << '\n';
  };
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    usage(args.empty() ? *ctx.err : *ctx.out);
    return args.empty() ? 2 : 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& s : table)
    if (args[0] == s.name) return s.handler(ctx, rest);
  std::vector<std::string> names;
  for (const auto& s : table) names.emplace_back(s.name);
  *ctx.err << "qualrank " << command << ": error: unknown subcommand '" << args[0] << "'";
  if (auto best = text::closest(args[0], names); !best.empty()) *ctx.err << "; did you mean '" << best << "'?";
  *ctx.err << '\n';
  usage(*ctx.err);
  return 2;
}

namespace {

// A routine warning: one the workspace's study files give every command that loads them (a node without a
// definition, a transcript's unknown attribute, ...), which `validate` lists in full. Warnings about what the
// command was given or writes (an import file, a keywords list, the corpus) are its own work, and a warning
// that must stand out (a stale input, an open unit or decision, a listed name's near miss) is never routine.
bool routine_warning(const Diagnostic& d) {
  if (d.severity != Severity::warning) return false;
  for (const char* mark : {"stale", "still open", "without its accents", "not counted", "not in sample"})
    if (d.message.find(mark) != std::string::npos) return false;
  const std::string file = d.where.file.str();
  for (const char* dir : {"codebooks/", "guidelines/", "transcripts/"})
    if (file.rfind(dir, 0) == 0) return true;
  return file == "findings.yaml";
}

}  // namespace

int report_diagnostics(Context& ctx, const Diagnostics& diags) {
  // `validate` and `status` list everything. Any other command shows every error and every warning about its own
  // work, and of the routine warnings the first five, then how many more (--quiet: none of them).
  constexpr std::size_t kRoutineShown = 5;
  if (ctx.command == "validate" || ctx.command == "status" || ctx.verbose) {
    diags.print(*ctx.err);
    return diags.has_errors() ? 1 : 0;
  }
  std::size_t routine = 0, hidden = 0;
  diags.print(*ctx.err, [&](const Diagnostic& d) {
    if (!routine_warning(d) || (!ctx.quiet && ++routine <= kRoutineShown)) return true;
    ++hidden;
    return false;
  });
  if (hidden > 0 && !ctx.quiet)
    *ctx.err << "qualrank: note: " << hidden << " more warning" << (hidden == 1 ? "" : "s")
             << " about the workspace not shown: 'qualrank validate' lists them all\n";
  return diags.has_errors() ? 1 : 0;
}

int run(int argc, char** argv) {
  Context ctx;
  ctx.out = &std::cout;
  ctx.err = &std::cerr;
  // The completion scripts' hidden helper: before anything else, so that it never touches the workspace.
  if (argc >= 2 && std::string_view(argv[1]) == "__complete")
    return complete_words(std::cout, std::vector<std::string>(argv + 2, argv + argc));
  bool workspace_given = false;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-C" || a == "--workspace") {
      if (i + 1 >= argc) {
        std::cerr << "qualrank: error: " << a << " needs a folder\n";
        return 2;
      }
      ctx.workspace = argv[++i];
      workspace_given = true;
    } else if (a.rfind("--workspace=", 0) == 0) {
      ctx.workspace = a.substr(12);
      workspace_given = true;
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
  // `qualrank help CMD [SUBCOMMAND]` is `qualrank CMD [SUBCOMMAND] --help`.
  if (name == "help") {
    if (args.empty() || !find_command(args[0])) {
      print_help(std::cout);
      return 0;
    }
    name = args[0];
    args.erase(args.begin());
    args.push_back("--help");
  }
  const Command* cmd = find_command(name);
  if (!cmd) {
    std::cerr << "qualrank: error: unknown command '" << name << "'";
    auto s = suggestion(name);
    if (!s.empty()) std::cerr << " (did you mean '" << s << "'?)";
    std::cerr << "\n(see 'qualrank help')\n";
    return 2;
  }
  // The workspace: -C DIR, else the nearest folder from here upward that has a codebooks/ folder (as git finds
  // its repository), so a command run in transcripts/ works on its workspace. `init` and `import` may make a
  // new workspace here, `agreement --labels` reads label tables anywhere, and `package verify DIR` checks a
  // package wherever it is.
  // `man` and `completion` describe the program, not a workspace: they read and finish nothing there. Nor does
  // any command or subcommand asked for its help (--help, -h): it prints its usage wherever it is run, with or
  // without -C, and looks for no workspace (parse_options stops at the usage, Context::help).
  if (name == "man" || name == "completion") return cmd->handler(ctx, args);
  if (help_asked(args)) {
    ctx.help = true;
    ctx.command = name;
    try {
      return cmd->handler(ctx, args);
    } catch (const std::exception& e) {
      std::cerr << "qualrank " << name << ": internal error: " << e.what() << '\n';
      return 3;
    }
  }
  const bool anywhere = name == "package" && !args.empty() && args[0] == "verify";
  if (!workspace_given && name != "init" && name != "import" && name != "agreement" && !anywhere) {
    std::error_code ec;
    std::filesystem::path here = std::filesystem::current_path(ec);
    std::filesystem::path found = find_workspace_upward(here);
    if (found.empty()) {
      std::cerr << "qualrank " << name << ": error: not a qualrank workspace (no codebooks/ folder here or in any folder above); "
                   "run it inside a workspace, give -C DIR, or start one with 'qualrank init'\n";
      return 2;
    }
    if (found != here) ctx.workspace = found;
  }
  // Absolute from here on: the library takes a path that is not absolute as relative to the workspace, and a
  // file listed under a relative workspace ("../transcripts/X.md", "ws/transcripts/X.md") would be taken as
  // relative twice. Its symlink check then looked at a path that does not exist: a transcript linked outside
  // the workspace was read under -C ws, and the workspace refused under -C ..
  {
    std::error_code ec;
    if (auto abs = std::filesystem::absolute(ctx.workspace, ec); !ec) ctx.workspace = abs;
  }
  if (auto why = files::source_date_epoch_problem(); !why.empty()) {
    std::cerr << "qualrank " << name << ": error: " << why << "\n";
    return 2;
  }
  // A write of several files killed during its renames (files::StagedFiles) is finished before anything reads.
  std::vector<std::string> unfinished;
  if (int n = files::finish_staged(ctx.workspace, &unfinished); n > 0 && !ctx.quiet)
    std::cerr << "qualrank: finished an interrupted write: " << n << (n == 1 ? " file" : " files") << " renamed into place\n";
  for (const auto& p : unfinished) std::cerr << "qualrank: warning: " << p << '\n';
  ctx.command = name;
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
