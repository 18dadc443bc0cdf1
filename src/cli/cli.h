// The CLI layer: a table of subcommands, each a thin handler that parses its options (Boost.Program_options),
// calls the library and prints. Global options (-C DIR, --quiet, --verbose) come before the subcommand.
#pragma once
#include <boost/program_options.hpp>

#include <filesystem>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/util/diagnostics.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli {

namespace po = boost::program_options;

// What parse_options saw of a command when asked to describe it (Context::describe): the command's name as
// written ("report", "taxonomy show"), its usage text, its options (--help included) and the options that
// take positional words, in order. The man pages and the shell completion are made from it.
struct CommandOptions {
  std::string name;
  std::string usage;
  std::vector<boost::shared_ptr<po::option_description>> options;
  std::vector<std::string> positional;  // the option each positional word fills, first word first
  bool positional_repeats = false;      // the last of `positional` takes every further word
};

struct Context {
  std::filesystem::path workspace = ".";
  bool quiet = false;
  bool verbose = false;
  std::string command;  // the command run ("validate", "corpus", ...): how report_diagnostics shows warnings
  std::ostream* out;
  std::ostream* err;
  // When set, parse_options records the command's options here and returns false with exit code 0: the
  // handler stops before reading anything (command_catalog.cpp describes every command this way).
  CommandOptions* describe = nullptr;
  // Set by run() when the command's words ask for help (--help or -h, before any "--"): parse_options prints
  // the usage and returns false with exit code 0, whatever else was written. No workspace was looked for, so
  // `qualrank CMD --help` works anywhere.
  bool help = false;
};

using Handler = int (*)(Context&, const std::vector<std::string>& args);

struct Command {
  const char* name;
  const char* summary;
  Handler handler;
};

// The subcommand table, in the order `qualrank help` lists it.
const std::vector<Command>& commands();

// A command's own subcommands (taxonomy show, code add, package verify, ...): name and one-line help, in the
// order its usage lists them; empty for a command without.
struct SubcommandHelp {
  const char* name;
  const char* summary;
};
std::vector<SubcommandHelp> subcommands_of(const std::string& command);
// The names and summaries of a subcommand table (for subcommands_of).
std::vector<SubcommandHelp> subcommand_help(const std::vector<Command>& table);

// True when `lock` (the workspace's write lock, just taken) is held; else prints "qualrank COMMAND: error: WHY"
// (its lock file is a symbolic link or not a file) and the command exits 1 having written nothing.
bool lock_held(Context& ctx, const std::string& command, const files::WorkspaceLock& lock);

// Who is working, for what a command records (an edit's author, a decision's decider) when no option names
// them: $QUALRANK_AUTHOR, else $USER, else $LOGNAME, else the name of the account running qualrank; "" when
// none of them gives a name.
std::string user_name();

// A command that dispatches on its first word through a table of subcommands (taxonomy, corpus): runs the
// one args[0] names with the words after it. `--help`, `-h` or `help` prints the usage (the table, then
// `footer`) and exits 0; no word prints it to stderr and exits 2; an unknown word is a usage error (exit 2)
// with "did you mean", then the usage.
int dispatch_subcommand(Context& ctx, const std::string& command, const std::vector<Command>& table,
                        const std::vector<std::string>& args, const std::string& footer);

// The global options (before the command), as `qualrank help` lists them: the flags as written ("-C,
// --workspace DIR") and their help.
struct GlobalOption {
  const char* flags;
  const char* help;
};
const std::vector<GlobalOption>& global_options();

// The folder of the workspace a command run in `here` works on: the nearest folder from `here` upward that
// has a codebooks/ folder (as git finds its repository); empty when there is none.
std::filesystem::path find_workspace_upward(const std::filesystem::path& here);

// Entry point: parses global options, dispatches, prints diagnostics; returns the exit code.
int run(int argc, char** argv);

// Parses a subcommand's options. Handles --help (prints usage to ctx.out and returns false with
// exit_code 0); on a bad option prints "qualrank NAME: error: ..." and returns false with exit_code 2.
bool parse_options(Context& ctx, const std::string& name, const std::string& usage, po::options_description& desc,
                   const std::vector<std::string>& args, po::variables_map& vm, int& exit_code,
                   const po::positional_options_description* positional = nullptr);

// True when `value` is one of `choices`; otherwise prints "qualrank COMMAND: error: unknown WHAT 'value'
// (a, b or c)" to ctx.err and returns false (the caller exits 2).
bool check_choice(Context& ctx, const std::string& command, const char* what, const std::string& value,
                  std::initializer_list<const char*> choices);

// Reads the repeatable `--where ATTRIBUTE=VALUE` option of `vm` into `out`. On a value without '=' (or
// with nothing before it) prints "qualrank COMMAND: error: --where takes attribute=value, not '...'" and
// returns false (the caller exits 2).
bool parse_where(Context& ctx, const std::string& command, const po::variables_map& vm,
                 std::vector<std::pair<std::string, std::string>>& out);

// A transcript named on the command line: a path inside the workspace, or a name in transcripts/ ("U01.md",
// "U01"); returned workspace-relative, or as given when nothing matches (the caller reports it).
std::string find_transcript(const std::filesystem::path& root, const std::string& given);

// Where an output goes. A path given on the command line (-o, --labels, --table) is the user's choice, the same
// for every command: relative paths are taken from the workspace, and it may lead anywhere (an absolute path,
// "..", a symlink). A default location (the option not given: reports/, reports/codebook.xlsx,
// transcripts/ID.md) must stay inside the workspace once symlinks are resolved (files::resolve_inside);
// otherwise "qualrank COMMAND: error: the default output DEFAULT leads outside the workspace (through a
// symlink); give -o to write there on purpose" is printed and nullopt returned (the caller exits 1).
std::filesystem::path given_path(const Context& ctx, const std::string& given);
// Where an input file given on the command line is read from: corpus screen/label --from-csv, rank --table,
// agreement --labels and --periods, corpus import FILE, corpus retrieve --keywords, package --names, codebook
// --import-table (outputs, package --key among them, take given_path). An absolute path as given. A relative one from the
// workspace (as outputs), or from the current folder when only there is such a file (so a file named from a
// subfolder, as the shell completes it, is found). When both folders hold a different file of that name,
// `*why` says so and nullopt is returned; when neither does, the workspace's path is returned and `*why` (when
// the caller reads it and fails) names both places looked in.
std::optional<std::filesystem::path> input_path(const Context& ctx, const std::string& given, std::string* why);
std::optional<std::filesystem::path> default_output(Context& ctx, const std::string& command,
                                                    const std::string& default_relative);
// `option`'s path: given_path when the user gave it, default_output of its default value otherwise.
std::optional<std::filesystem::path> output_path(Context& ctx, const std::string& command,
                                                 const po::variables_map& vm, const char* option);

// Prints diagnostics to ctx.err; returns 1 if any is an error, else 0.
int report_diagnostics(Context& ctx, const Diagnostics& diags);

// Handlers (one file each: cmd_<name>.cpp).
int cmd_init(Context&, const std::vector<std::string>&);
int cmd_participants(Context&, const std::vector<std::string>&);
int cmd_validate(Context&, const std::vector<std::string>&);
int cmd_status(Context&, const std::vector<std::string>&);
int cmd_code(Context&, const std::vector<std::string>&);
int cmd_code_edit(Context&, const std::string& action, const std::vector<std::string>&);  // code add | remove
int cmd_suggest(Context&, const std::vector<std::string>&);
int cmd_annotate(Context&, const std::vector<std::string>&);  // src/tui/annotate_main.cpp
int cmd_guide(Context&, const std::vector<std::string>&);
int cmd_new_transcript(Context&, const std::vector<std::string>&);
int cmd_report(Context&, const std::vector<std::string>&);
int cmd_codebook(Context&, const std::vector<std::string>&);
int cmd_rank(Context&, const std::vector<std::string>&);
int cmd_saturation(Context&, const std::vector<std::string>&);
int cmd_taxonomy(Context&, const std::vector<std::string>&);
int cmd_agreement(Context&, const std::vector<std::string>&);
int cmd_reconcile(Context&, const std::vector<std::string>&);
int cmd_export(Context&, const std::vector<std::string>&);
int cmd_import(Context&, const std::vector<std::string>&);
int cmd_import_transcript(Context&, const std::vector<std::string>&);
int cmd_query(Context&, const std::vector<std::string>&);
int cmd_package(Context&, const std::vector<std::string>&);
int cmd_man(Context&, const std::vector<std::string>&);         // cmd_man.cpp
int cmd_completion(Context&, const std::vector<std::string>&);  // cmd_completion.cpp

// `qualrank __complete WORD...` (hidden, called by the completion scripts): the candidates for the last of
// `words`, the words after `qualrank` on the line, one per line as VALUE or VALUE<TAB>DESCRIPTION, then a
// line ":0" (nothing more), ":1" (the shell completes file names) or ":2" (folder names). Never fails: any
// problem prints nothing and returns 0. complete.cpp.
int complete_words(std::ostream& out, const std::vector<std::string>& words);
int cmd_corpus(Context&, const std::vector<std::string>&);           // dispatch and `corpus import`
std::vector<SubcommandHelp> corpus_subcommands();                    // its table, for subcommands_of
int cmd_corpus_keywords(Context&, const std::vector<std::string>&);  // cmd_corpus_retrieve.cpp
int cmd_corpus_retrieve(Context&, const std::vector<std::string>&);
int cmd_corpus_screen(Context&, const std::vector<std::string>&);
int cmd_corpus_sample(Context&, const std::vector<std::string>&);
int cmd_corpus_label(Context&, const std::vector<std::string>&);      // cmd_corpus_label.cpp
int cmd_corpus_labels(Context&, const std::vector<std::string>&);     // `corpus labels export`
int cmd_corpus_reconcile(Context&, const std::vector<std::string>&);  // cmd_corpus_reconcile.cpp
int cmd_corpus_table(Context&, const std::vector<std::string>&);      // cmd_corpus_table.cpp
// The terminal labeller of `corpus label` without --doc (src/tui/label/label_main.cpp).
int cmd_corpus_labeller(Context& ctx, const std::string& coder, const std::string& sample);
// The labeller's keys, one line each, from its action table (for `corpus label --help`).
std::vector<std::string> corpus_labeller_keys();

}  // namespace qualrank::cli
