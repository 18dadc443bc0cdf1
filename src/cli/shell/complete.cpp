// `qualrank __complete WORD...`: what the completion scripts (cmd_completion.cpp) offer, for bash, zsh and fish
// alike. Commands, subcommands and options come from the command catalog (command_catalog.h); values from
// the workspace that -C names earlier on the line, else the one found upward from here: taxonomy node ids and
// names, transcripts, coders, guideline questions, roles, participants, taxonomy versions. A choice option's
// values (--format, --op) are read from its help ("json, csv or table"). Only what a candidate needs is read:
// the taxonomy and guideline, the transcripts' names and front matter, never a whole transcript.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "command_catalog.h"
#include "qualrank/model/history/history.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/files.h"

namespace qualrank::cli {

namespace {

namespace fs = std::filesystem;

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// The candidates: those starting with the word being completed, each once, in the order offered.
class Candidates {
 public:
  Candidates(std::ostream& out, std::string typed, std::string lead = "")
      : out_(out), typed_(std::move(typed)), lead_(std::move(lead)) {}
  void add(const std::string& value, const std::string& description = "") {
    if (value.empty() || !starts_with(value, typed_) || !seen_.insert(value).second) return;
    if (value.find_first_of("\t\n") != std::string::npos) return;
    out_ << lead_ << value;
    if (!description.empty()) out_ << '\t' << one_line(description);
    out_ << '\n';
  }

 private:
  static std::string one_line(std::string s) {
    std::replace_if(s.begin(), s.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    return s;
  }
  std::ostream& out_;
  std::string typed_, lead_;
  std::set<std::string> seen_;
};

enum class Kind { none, node, transcript, coder, question, role, participant, version, choice, files, folders };

// What the value of `option` names (the same option name means the same thing in every command).
Kind kind_of(const std::string& command, const po::option_description& option) {
  const std::string& o = option.long_name();
  if (o == "node" || o == "code" || o == "any-code" || o == "not-code" || o == "parent" || o == "from" || o == "into")
    return Kind::node;
  if (o == "transcript" || (command == "annotate" && o == "file")) return Kind::transcript;
  if (o == "coder") return Kind::coder;
  if (o == "question" || o == "section") return Kind::question;
  if (o == "role") return Kind::role;
  if (o == "participant" && command == "query") return Kind::participant;
  if (o == "at" || o == "versions") return Kind::version;
  if (o == "format" || o == "op" || o == "unit" || o == "partial" || o == "duplicates" || o == "shell") return Kind::choice;
  if (o == "dir") return Kind::folders;
  if (o == "map" && command == "participants import") return Kind::none;
  if (o == "output" || o == "labels" || o == "periods" || o == "table" || o == "names" || o == "key" || o == "map" ||
      o == "import-table" || o == "file")
    return Kind::files;
  return Kind::none;
}

// The choices an option's help lists first: "json, csv or table", "md or json (on stdout)" -> json, csv, table.
// Nothing unless the list has two or more single words.
std::vector<std::string> choices_in(const std::string& help) {
  std::string head = help.substr(0, help.find_first_of(":(;"));
  std::vector<std::string> out;
  std::string word;
  std::istringstream in(head);
  while (in >> word) {
    if (word == "or") continue;
    if (word.back() == ',') word.pop_back();
    if (word.empty() || !std::all_of(word.begin(), word.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; }))
      return {};
    out.push_back(word);
  }
  return out.size() >= 2 ? out : std::vector<std::string>{};
}

// A value of the front matter of the transcript at `path` (`KEY: VALUE` between its --- lines), "" when none;
// reads the first 8 KB only.
std::string front_matter_value(const fs::path& path, const std::string& key) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  if (!std::getline(in, line) || (line != "---" && line != "---\r")) return "";
  std::size_t read = 0;
  while (std::getline(in, line) && (read += line.size() + 1) < 8192) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "---") break;
    if (!starts_with(line, key + ":")) continue;
    std::string v = line.substr(key.size() + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    v.erase(v.find_last_not_of(" \t") + 1);
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
    return v;
  }
  return "";
}

// The workspace's values, each read when first asked for.
class WorkspaceValues {
 public:
  explicit WorkspaceValues(fs::path root) : root_(std::move(root)) {}

  void values(Kind kind, const std::string& option_help, Candidates& c) {
    switch (kind) {
      case Kind::node:
        if (auto* v = version())
          for (const auto& id : v->taxonomy.order()) {
            const TaxonomyNode* n = v->taxonomy.find(id);
            c.add(id, n ? n->name : "");
          }
        if (auto* v = version())
          for (const auto& id : v->taxonomy.order())
            if (const TaxonomyNode* n = v->taxonomy.find(id)) c.add(n->name, id);
        break;
      case Kind::transcript:
        for (const auto& p : transcripts()) c.add(p.filename().string());
        break;
      case Kind::coder:
        for (const auto& name : coders()) c.add(name);
        if (option_help.find("consensus") != std::string::npos) {
          c.add("consensus", "the reconciled coding");
          c.add("all", "every coder's codes");
        }
        break;
      case Kind::participant:
        for (const auto& p : transcripts()) c.add(front_matter_value(p, "participant"));
        break;
      case Kind::question:
        if (auto* ws = design()) {
          for (const auto& q : ws->guideline.questions) c.add(q.id, q.text);
          for (const auto& part : ws->guideline.parts) c.add(part.id, part.title);
        }
        break;
      case Kind::role:
        if (auto* ws = design())
          for (const auto& r : ws->guideline.roles) c.add(r);
        break;
      case Kind::version:
        if (auto* v = version()) {
          if (v->history && v->history->exists)
            for (const auto& h : v->history->versions) {
              c.add(std::to_string(h.number), h.name);
              c.add(h.name, "version " + std::to_string(h.number));
            }
          else
            c.add("1");
        }
        break;
      default:
        break;
    }
  }

 private:
  const Workspace* design() {
    if (!design_tried_) {
      design_tried_ = true;
      Diagnostics ignored;
      if (!root_.empty()) design_ = load_workspace_design(root_, ignored);
    }
    return design_ ? &*design_ : nullptr;
  }
  const TaxonomyVersion* version() {
    if (!version_tried_) {
      version_tried_ = true;
      Diagnostics ignored;
      if (auto* ws = design()) version_ = taxonomy_at(*ws, std::nullopt, ignored);
    }
    return version_.get();
  }
  std::vector<fs::path> transcripts() {
    return root_.empty() ? std::vector<fs::path>{} : files::list_files(root_ / "transcripts", ".md");
  }
  // The transcripts' own coders (front matter `coder:`, "coder" when absent) and second coders (named by
  // their <stem>.<coder>.codes files), sorted.
  std::set<std::string> coders() {
    std::set<std::string> out;
    for (const auto& p : transcripts()) {
      auto c = front_matter_value(p, "coder");
      out.insert(c.empty() ? "coder" : c);
    }
    if (!root_.empty())
      for (const auto& p : files::list_files(root_ / "transcripts", ".codes")) {
        auto name = p.filename().string();
        auto first = name.find('.'), last = name.rfind(".codes");
        if (first != std::string::npos && last > first + 1) out.insert(name.substr(first + 1, last - first - 1));
      }
    return out;
  }

  fs::path root_;
  bool design_tried_ = false, version_tried_ = false;
  std::optional<Workspace> design_;
  std::unique_ptr<TaxonomyVersion> version_;
};

const po::option_description* find_option(const CommandOptions& o, const std::string& written) {
  for (const auto& opt : o.options)
    if (written == "--" + opt->long_name() || (!short_flag(*opt).empty() && written == short_flag(*opt))) return opt.get();
  return nullptr;
}

void complete(std::ostream& out, std::vector<std::string> words) {
  if (words.empty()) words.push_back("");
  std::string cur = words.back();
  words.pop_back();
  if (!cur.empty() && (cur[0] == '"' || cur[0] == '\'')) cur.erase(0, 1);
  // Bash splits "--opt=value" at '=' into three words: joined again.
  std::string split_option;  // the option of a value bash cut off at '='
  if (cur == "=" && !words.empty() && starts_with(words.back(), "--")) {
    split_option = words.back(), cur.clear();
    words.pop_back();
  } else if (words.size() >= 2 && words.back() == "=" && starts_with(words[words.size() - 2], "--")) {
    split_option = words[words.size() - 2];
    words.resize(words.size() - 2);
  }
  std::vector<std::string> w;
  for (std::size_t k = 0; k < words.size(); ++k) {
    if (k + 1 < words.size() && words[k + 1] == "=" && starts_with(words[k], "--")) {
      w.push_back(words[k] + "=" + (k + 2 < words.size() ? words[k + 2] : ""));
      k += 2;
    } else {
      w.push_back(words[k]);
    }
  }

  // Global options, then the command.
  std::error_code ec;
  fs::path workspace;
  bool workspace_given = false;
  std::size_t i = 0;
  bool wants_folder = false;  // the word being completed is -C's folder
  while (i < w.size()) {
    if (w[i] == "-C" || w[i] == "--workspace") {
      if (i + 1 == w.size()) {
        wants_folder = true;
        break;
      }
      workspace = w[i + 1], workspace_given = true;
      i += 2;
    } else if (starts_with(w[i], "--workspace=")) {
      workspace = w[i].substr(12), workspace_given = true;
      ++i;
    } else if (w[i].empty() || w[i][0] != '-') {
      break;
    } else {
      ++i;
    }
  }
  if (wants_folder || (i == w.size() && (starts_with(cur, "--workspace=") || split_option == "--workspace"))) {
    out << ":2\n";
    return;
  }
  if (!workspace_given) {
    workspace = find_workspace_upward(fs::current_path(ec));
  } else if (const char* home = std::getenv("HOME"); home && starts_with(workspace.string(), "~/")) {
    workspace = fs::path(home) / workspace.string().substr(2);  // the line's words come unexpanded
  }
  // "-C .." read as the folder it names (the workspace's own checks take ".." for a way out of it).
  if (workspace_given) workspace = fs::weakly_canonical(fs::absolute(workspace, ec), ec);
  if (i == w.size() && split_option.empty()) {
    Candidates c(out, cur);
    if (!cur.empty() && cur[0] == '-') {
      for (const auto& g : global_options()) {
        std::istringstream flags(g.flags);
        std::string flag;
        while (flags >> flag)
          if (flag[0] == '-') c.add(flag.back() == ',' ? flag.substr(0, flag.size() - 1) : flag, g.help);
      }
    } else {
      for (const auto& cmd : commands()) c.add(cmd.name, cmd.summary);
      c.add("help", "list the commands, or describe one");
    }
    out << ":0\n";
    return;
  }
  if (i == w.size()) return;
  std::string command = w[i];
  std::vector<std::string> rest(w.begin() + static_cast<std::ptrdiff_t>(i) + 1, w.end());
  if (command == "help") {
    Candidates c(out, cur);
    if (rest.empty())
      for (const auto& cmd : commands()) c.add(cmd.name, cmd.summary);
    out << ":0\n";
    return;
  }
  if (std::none_of(commands().begin(), commands().end(), [&](const Command& c) { return command == c.name; })) return;
  const auto subs = subcommands_of(command);
  std::string full = command;
  std::vector<std::string> sub;
  if (!subs.empty()) {
    if (rest.empty() && split_option.empty() && (cur.empty() || cur[0] != '-')) {
      Candidates c(out, cur);
      for (const auto& s : subs) c.add(s.name, s.summary);
      out << ":0\n";
      return;
    }
    if (!rest.empty() && std::any_of(subs.begin(), subs.end(), [&](const SubcommandHelp& s) { return rest[0] == s.name; })) {
      sub.push_back(rest[0]);
      full += " " + rest[0];
      rest.erase(rest.begin());
    }
  }
  auto options = describe_command(command, sub);
  if (!options) return;

  // Which word is being completed: an option's value, an option, or a positional word.
  const po::option_description* value_of = nullptr;
  std::string lead;  // what is kept before the candidates: "--opt=" as zsh and fish pass it, "ID," in a list
  if (!split_option.empty()) {
    value_of = find_option(*options, split_option);
  } else if (starts_with(cur, "--") && cur.find('=') != std::string::npos) {
    const auto eq = cur.find('=');
    value_of = find_option(*options, cur.substr(0, eq));
    lead = cur.substr(0, eq + 1);
    cur.erase(0, eq + 1);
  } else if (!rest.empty()) {
    const auto* o = find_option(*options, rest.back());
    if (o && takes_value(*o)) value_of = o;
  }
  const po::option_description* positional = nullptr;
  if (!value_of && lead.empty() && split_option.empty() && (cur.empty() || cur[0] != '-')) {
    std::size_t n = 0;
    for (std::size_t k = 0; k < rest.size(); ++k) {
      if (rest[k].size() > 1 && rest[k][0] == '-') {
        const auto* o = find_option(*options, rest[k]);
        if (o && takes_value(*o) && rest[k].find('=') == std::string::npos) ++k;
        continue;
      }
      ++n;
    }
    if (n < options->positional.size()) positional = find_option(*options, "--" + options->positional[n]);
    else if (options->positional_repeats && !options->positional.empty())
      positional = find_option(*options, "--" + options->positional.back());
  }
  if (const po::option_description* target = value_of ? value_of : positional) {
    const Kind kind = kind_of(full, *target);
    if (kind == Kind::files || kind == Kind::folders) {
      out << (kind == Kind::files ? ":1\n" : ":2\n");
      return;
    }
    if (kind == Kind::node && cur.find(',') != std::string::npos) {  // ID,ID: the last one
      lead += cur.substr(0, cur.rfind(',') + 1);
      cur.erase(0, cur.rfind(',') + 1);
    }
    Candidates c(out, cur, lead);
    if (kind == Kind::choice) {
      for (const auto& v : choices_in(target->description())) c.add(v);
    } else {
      WorkspaceValues values(workspace);
      values.values(kind, target->description(), c);
    }
    out << ":0\n";
    return;
  }
  if (cur.empty() || cur[0] != '-') {
    out << ":0\n";
    return;
  }
  // The options not given yet (a repeatable one again).
  Candidates c(out, cur);
  for (const auto& opt : options->options) {
    const bool repeatable = opt->semantic()->is_composing() || opt->semantic()->max_tokens() > 1;
    const bool given = std::any_of(rest.begin(), rest.end(), [&](const std::string& r) {
      return r == "--" + opt->long_name() || starts_with(r, "--" + opt->long_name() + "=") ||
             (!short_flag(*opt).empty() && r == short_flag(*opt));
    });
    if (!given || repeatable) c.add("--" + opt->long_name(), opt->description());
  }
  out << ":0\n";
}

}  // namespace

int complete_words(std::ostream& out, const std::vector<std::string>& words) {
  // Collected first: a failure half-way prints nothing.
  std::ostringstream collected;
  try {
    complete(collected, words);
  } catch (...) {
    return 0;
  }
  out << collected.str();
  return 0;
}

}  // namespace qualrank::cli
