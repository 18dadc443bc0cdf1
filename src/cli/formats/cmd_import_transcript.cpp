// qualrank import-transcript FILE.vtt|.srt|.docx|.txt --participant ID [--role R] [--attr k=v ...]
// [--interviewer NAME ...] [--section QID] [-o FILE] [--force] (report/formats/transcript_import.h).
#include <iostream>

#include "../cli.h"
#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/report/formats/transcript_import.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

int cmd_import_transcript(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("import-transcript options");
  desc.add_options()
      ("file", po::value<std::string>()->required(), "the .vtt, .srt, .docx or .txt file (relative to the current folder)")
      ("participant", po::value<std::string>()->required(), "participant id (also the file name: transcripts/ID.md)")
      ("role", po::value<std::string>(), "the participant's role (default: the guideline's only role)")
      ("attr", po::value<std::vector<std::string>>()->composing(), "an attribute, key=value (repeatable)")
      ("interviewer", po::value<std::vector<std::string>>()->composing(), "another speaker name that is the interviewer (repeatable; Interviewer and I always are); becomes I")
      ("section", po::value<std::string>(), "put every turn under this guideline question's section (default: no section)")
      ("output,o", po::value<std::string>(), "write here instead of transcripts/ID.md (relative to the workspace)")
      ("force", "replace the output file if it exists");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "import-transcript",
                     "FILE --participant ID [--role R] [--attr k=v ...] [--interviewer NAME ...] [--section QID] [-o FILE] [--force]",
                     desc, args, vm, rc, &pos))
    return rc;
  const std::string name = "qualrank import-transcript: error: ";
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags) ? 1 : 1;
  TranscriptImportOptions options;
  options.participant = vm["participant"].as<std::string>();
  if (options.participant.empty() || options.participant.find_first_of(" \t:/\\") != std::string::npos ||
      options.participant == "I") {
    *ctx.err << name << "participant id '" << options.participant << "' may not be 'I' or contain spaces, ':' or slashes\n";
    return 2;
  }
  const auto& roles = ws->guideline.roles;
  if (vm.count("role")) options.role = vm["role"].as<std::string>();
  else if (roles.size() == 1) options.role = roles.front();
  if (std::find(roles.begin(), roles.end(), options.role) == roles.end()) {
    auto hint = options.role.empty() ? std::string() : text::closest(options.role, roles);
    *ctx.err << name << (options.role.empty() ? "give the participant's role with --role" : "unknown role '" + options.role + "'")
             << (hint.empty() ? " (the guideline's roles: " + text::join(roles, ", ") + ")" : " (did you mean '" + hint + "'?)") << '\n';
    return 2;
  }
  if (vm.count("attr"))
    for (const auto& kv : vm["attr"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        *ctx.err << name << "--attr takes key=value, not '" << kv << "'\n";
        return 2;
      }
      options.attributes.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
  if (vm.count("interviewer")) options.interviewers = vm["interviewer"].as<std::vector<std::string>>();
  if (vm.count("section")) {
    options.section = vm["section"].as<std::string>();
    const Question* q = ws->guideline.find(options.section);
    if (!q || !q->asked_to(options.role)) {
      *ctx.err << name << "--section '" << options.section << "' is not a guideline question asked to role '" << options.role << "'\n";
      return 2;
    }
  }
  std::filesystem::path input = vm["file"].as<std::string>();
  options.source_name = input.filename().string();
  std::string rel = vm.count("output") ? vm["output"].as<std::string>() : "transcripts/" + options.participant + ".md";
  auto out = vm.count("output") ? std::optional(given_path(ctx, rel)) : default_output(ctx, "import-transcript", rel);
  if (!out) return 1;

  auto utterances = read_transcript_source(input, input.string(), diags);
  if (!utterances) return report_diagnostics(ctx, diags);
  std::string md = write_imported_transcript(*utterances, options, input.string(), diags);
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  Diagnostics check;
  auto parsed = parse_transcript(md, rel, check);
  if (!parsed || check.has_errors()) {  // a bug, not an input error: the writer guards against markup
    diags.append(check);
    diags.error({input.string(), 0, 0}, "internal error: the imported transcript does not parse; nothing written");
    return report_diagnostics(ctx, diags);
  }
  std::error_code ec;
  if (!vm.count("force") && std::filesystem::exists(*out, ec)) {
    diags.error({rel, 0, 0}, "the file exists already; not overwritten (use --force to replace it)");
    return report_diagnostics(ctx, diags);
  }
  report_diagnostics(ctx, diags);
  std::string err;
  std::filesystem::create_directories(out->parent_path(), ec);
  if (!files::write_atomic(*out, md, &err)) {
    *ctx.err << name << err << '\n';
    return 1;
  }
  int participant_turns = 0, interviewer_turns = 0;
  for (const auto& t : parsed->turns) (t.interviewer ? interviewer_turns : participant_turns)++;
  if (!ctx.quiet)
    *ctx.err << "wrote " << rel << " (" << participant_turns << " participant turns, " << interviewer_turns
             << " interviewer turns)\n";
  return 0;
}

}  // namespace qualrank::cli
