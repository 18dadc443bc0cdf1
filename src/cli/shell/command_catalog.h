// Every command and subcommand with its options, made from the command table (commands.cpp) by running each
// handler in describe mode (Context::describe): the handler stops in parse_options, before it reads, parses
// or writes anything. The manual pages (man_page.cpp) and the shell completion (complete.cpp) read it, so
// they can never disagree with the options that work.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "../cli.h"

namespace qualrank::cli {

struct CommandDoc {
  std::string name;                        // "report", "taxonomy show"
  std::string summary;                     // its one-line help
  std::optional<CommandOptions> options;   // nullopt: the command only dispatches (taxonomy, participants)
  std::vector<CommandDoc> subcommands;     // subcommands_of(name), each described
};

// Every command of commands(), in its order, with its subcommands.
std::vector<CommandDoc> command_catalog();

// One command's options, or its subcommand's (`words` = {"show"} for taxonomy show): nullopt for a command
// that is not in the table, or that only dispatches.
std::optional<CommandOptions> describe_command(const std::string& command, const std::vector<std::string>& words = {});

// An option's value as the help writes it (VALUE for --format, "" for a switch), and its default ("" when none).
bool takes_value(const po::option_description& o);
std::string default_text(const po::option_description& o);
// The option's short flag ("-o"), "" when it has none.
std::string short_flag(const po::option_description& o);

}  // namespace qualrank::cli
