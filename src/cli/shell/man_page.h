// Manual pages in roff (man(7)) made from the command catalog: qualrank(1), with a section per command, and
// qualrank-COMMAND(1) per command (as git's). No date in them: the same binary writes the same bytes.
#pragma once
#include <string>
#include <vector>

#include "command_catalog.h"

namespace qualrank::cli {

// qualrank(1): synopsis, global options, every command with its usage, options and subcommands, exit status.
std::string man_page_main(const std::vector<CommandDoc>& catalog);
// qualrank-NAME(1) for one command of the catalog.
std::string man_page_command(const CommandDoc& command);
// `text` as roff text: backslashes, hyphens (as \-, so that copied options work) and non-ASCII characters
// (as \[uXXXX]) escaped, a leading '.' or '\'' guarded.
std::string roff_escape(const std::string& text);

}  // namespace qualrank::cli
