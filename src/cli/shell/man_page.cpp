// qualrank(1) and qualrank-COMMAND(1) from the command catalog (command_catalog.h). The options come from each
// handler's own options_description, the usage from its parse_options call, so a page lists exactly the
// options that work, with the help `--help` prints.
#include "man_page.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace qualrank::cli {

namespace {

// One UTF-8 character starting at s[i] as its code point; advances i. A malformed byte stands for itself.
unsigned next_code_point(const std::string& s, std::size_t& i) {
  const auto b = static_cast<unsigned char>(s[i]);
  int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
  unsigned cp = extra == 3 ? b & 0x07 : extra == 2 ? b & 0x0F : extra == 1 ? b & 0x1F : b;
  if (i + extra >= s.size() + (extra ? 0 : 1)) extra = 0, cp = b;
  for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += 1 + extra;
  return cp;
}

// The metavariable of `--name` as the usage writes it ("--at VERSION", "--format md|json", "-o FILE"), else
// the option's name in capitals.
std::string metavar(const po::option_description& o, const std::string& usage) {
  for (const std::string& flag : {"--" + o.long_name(), short_flag(o)}) {
    if (flag.size() < 2) continue;
    for (auto at = usage.find(flag + ' '); at != std::string::npos; at = usage.find(flag + ' ', at + 1)) {
      if (at > 0 && (std::isalnum(static_cast<unsigned char>(usage[at - 1])) || usage[at - 1] == '-')) continue;
      std::size_t b = at + flag.size() + 1, e = b;
      int depth = 0;  // "ID[,ID]": brackets inside the value are its own
      for (; e < usage.size() && usage[e] != ' ' && usage[e] != ')' && usage[e] != '\n'; ++e) {
        if (usage[e] == '[') ++depth;
        else if (usage[e] == ']' && depth-- == 0) break;
      }
      std::string v = usage.substr(b, e - b);
      if (!v.empty() && v[0] != '-' && v[0] != '[' && v[0] != '(' && v[0] != '"' &&
          std::any_of(v.begin(), v.end(), [](unsigned char ch) { return std::isalpha(ch); }))
        return v;
    }
  }
  std::string v = o.long_name();
  for (char& c : v) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return v;
}

// The usage text split into its synopsis lines and the prose after its first blank line.
void split_usage(const std::string& usage, std::vector<std::string>& synopsis, std::string& prose) {
  std::istringstream in(usage);
  std::string line;
  bool in_prose = false;
  while (std::getline(in, line)) {
    if (in_prose) {
      prose += (prose.empty() ? "" : "\n") + line;
    } else if (line.empty()) {
      in_prose = true;
    } else {
      synopsis.push_back(line);
    }
  }
}

// Writes the synopsis lines of `usage`; returns its prose (the caller places it).
std::string synopsis_lines(std::ostream& out, const std::string& name, const std::string& usage) {
  std::vector<std::string> lines;
  std::string prose;
  split_usage(usage, lines, prose);
  out << ".nf\n";
  for (std::size_t k = 0; k < lines.size(); ++k) {
    // Further forms are written "       qualrank code add ..."; other lines continue the one above.
    const auto& line = lines[k];
    const auto first = line.find_first_not_of(' ');
    if (k == 0) out << "\\fBqualrank " << roff_escape(name) << "\\fR " << roff_escape(line) << '\n';
    else if (first != std::string::npos && line.compare(first, 9, "qualrank ") == 0)
      out << "\\fBqualrank\\fR " << roff_escape(line.substr(first + 9)) << '\n';
    else out << roff_escape(line) << '\n';
  }
  out << ".fi\n";
  return prose;
}

void paragraph(std::ostream& out, const std::string& prose) {
  if (!prose.empty()) out << ".PP\n" << roff_escape(prose) << '\n';
}

void option_list(std::ostream& out, const CommandOptions& o) {
  for (const auto& opt : o.options) {
    out << ".TP\n";
    std::string flag = short_flag(*opt);
    if (!flag.empty()) out << "\\fB" << roff_escape(flag) << "\\fR, ";
    out << "\\fB" << roff_escape("--" + opt->long_name()) << "\\fR";
    if (takes_value(*opt)) out << " \\fI" << roff_escape(metavar(*opt, o.usage)) << "\\fR";
    out << '\n' << roff_escape(opt->description());
    if (auto d = default_text(*opt); !d.empty()) out << " (default: " << roff_escape(d) << ')';
    for (std::size_t k = 0; k < o.positional.size(); ++k)
      if (o.positional[k] == opt->long_name()) {
        out << (o.positional_repeats && k + 1 == o.positional.size() ? "; also the words after the options"
                                                                     : "; also given without the option name");
        break;
      }
    out << '\n';
  }
}

// A command's usage, description and options: sections of its own page, or (in qualrank(1), where the
// command is a subsection) paragraphs, its subcommands an indented list.
void command_body(std::ostream& out, const CommandDoc& c, bool own_page) {
  std::string prose;
  if (own_page) {
    out << ".SH SYNOPSIS\n";
    if (c.options) prose = synopsis_lines(out, c.options->name, c.options->usage);
    else out << ".nf\n\\fBqualrank " << roff_escape(c.name) << "\\fR \\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR]\n.fi\n";
    std::string sentence = c.summary + ".";
    sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
    out << ".SH DESCRIPTION\n" << roff_escape(sentence) << '\n';
    paragraph(out, prose);
  } else {
    out << roff_escape(c.summary) << '\n';
    if (c.options) {
      out << ".PP\n";
      paragraph(out, synopsis_lines(out, c.options->name, c.options->usage));
    }
  }
  if (c.options) {
    if (own_page) out << ".SH OPTIONS\n";
    else out << ".PP\nOptions:\n";
    option_list(out, *c.options);
  }
  if (!c.subcommands.empty()) {
    if (own_page) out << ".SH SUBCOMMANDS\n";
    for (const auto& s : c.subcommands) {
      if (own_page) out << ".SS \"" << roff_escape("qualrank " + s.name) << "\"\n";
      else out << ".TP\n\\fBqualrank " << roff_escape(s.name) << "\\fR\n";
      out << roff_escape(s.summary) << '\n';
      if (!s.options) continue;
      if (!own_page) out << ".RS\n";
      else out << ".PP\n";
      paragraph(out, synopsis_lines(out, s.options->name, s.options->usage));
      option_list(out, *s.options);
      if (!own_page) out << ".RE\n";
    }
  }
}

void exit_status(std::ostream& out) {
  out << ".SH EXIT STATUS\n"
         ".TP\n.B 0\nsuccess\n"
         ".TP\n.B 1\ninput errors, each printed as FILE:LINE:COL: error: MESSAGE (all of them, then the command "
         "stops; nothing is written)\n"
         ".TP\n.B 2\nusage errors: an unknown command or option, a missing or malformed value, no workspace\n"
         ".TP\n.B 3\nan internal error (a bug in qualrank)\n";
}

std::string page_name(const std::string& command) {
  std::string s = "qualrank-" + command;
  for (char& c : s) c = c == ' ' ? '-' : c;
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

void title(std::ostream& out, const std::string& page) {
  out << ".\\\" Made by 'qualrank man' from its command table; do not edit.\n"
      << ".TH " << roff_escape(upper(page)) << " 1 \"\" \"qualrank " QUALRANK_VERSION "\" \"qualrank manual\"\n"
      << ".nh\n.ad l\n";  // options and file names are not hyphenated
}

}  // namespace

std::string roff_escape(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (static_cast<unsigned char>(c) >= 0x80) {
      unsigned cp = next_code_point(text, i);
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\[u%04X]", cp);
      out += buf;
      continue;
    }
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
    ++i;
  }
  return out;
}

std::string man_page_main(const std::vector<CommandDoc>& catalog) {
  std::ostringstream out;
  title(out, "qualrank");
  out << ".SH NAME\nqualrank \\- interview transcripts to coded segments, rankings and a versioned taxonomy\n"
         ".SH SYNOPSIS\n.nf\n\\fBqualrank\\fR [\\fB\\-C\\fR \\fIDIR\\fR] [\\fB\\-\\-quiet\\fR] [\\fB\\-\\-verbose\\fR] "
         "\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.fi\n"
         ".SH DESCRIPTION\nA command works on the workspace that \\fB\\-C\\fR names, else on the nearest folder "
         "from the current one upward that has a codebooks/ folder. \\fBqualrank help\\fR lists the commands, "
         "\\fBqualrank\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR and \\fBqualrank\\-\\fR\\fICOMMAND\\fR(1) describe "
         "one.\n"
         ".SH GLOBAL OPTIONS\nGlobal options come before the command.\n";
  for (const auto& g : global_options()) {
    out << ".TP\n";
    std::istringstream words(g.flags);
    std::string w;
    bool first = true;
    while (words >> w) {
      if (!first) out << ' ';
      first = false;
      bool comma = w.back() == ',';
      if (comma) w.pop_back();
      out << (w[0] == '-' ? "\\fB" : "\\fI") << roff_escape(w) << "\\fR" << (comma ? "," : "");
    }
    out << '\n' << roff_escape(g.help) << '\n';
  }
  out << ".SH COMMANDS\n";
  for (const auto& c : catalog) {
    out << ".SS \"qualrank " << roff_escape(c.name) << "\"\n";
    command_body(out, c, false);
  }
  exit_status(out);
  out << ".SH SEE ALSO\n";
  for (std::size_t k = 0; k < catalog.size(); ++k)
    out << ".BR " << roff_escape(page_name(catalog[k].name)) << " (1)" << (k + 1 < catalog.size() ? ",\n" : "\n");
  return out.str();
}

std::string man_page_command(const CommandDoc& command) {
  std::ostringstream out;
  const std::string page = page_name(command.name);
  title(out, page);
  out << ".SH NAME\n" << roff_escape(page) << " \\- " << roff_escape(command.summary) << '\n';
  command_body(out, command, true);
  exit_status(out);
  out << ".SH SEE ALSO\n.BR qualrank (1)\n";
  return out.str();
}

}  // namespace qualrank::cli
