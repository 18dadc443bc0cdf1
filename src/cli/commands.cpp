// The subcommand table: name, one-line help, handler. `qualrank help` lists it in this order; the manual pages
// and the shell completion are made from it (command_catalog.cpp).
#include "cli.h"
#include "cmd_taxonomy.h"

namespace qualrank::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"init", "write a new workspace with an example taxonomy and guideline to edit into your study", cmd_init},
      {"validate", "check the whole workspace; print every problem as FILE:LINE:COL: error: MESSAGE", cmd_validate},
      {"status", "each step of the study: up to date, stale (what changed since) or incomplete, and what to run next", cmd_status},
      {"code", "print the coded segments (json, csv or table); code add / remove / exemplar change codings", cmd_code},
      {"query", "find coded segments by code, attribute, participant, question, coder or text; count them by group", cmd_query},
      {"suggest", "propose codes for uncoded turns, learned from your codings; --evaluate cross-validates", cmd_suggest},
      {"annotate", "code a transcript interactively in the terminal (select words, pick codes, memos, undo)", cmd_annotate},
      {"guide", "print the interview protocol for a role", cmd_guide},
      {"new-transcript", "write a transcript skeleton for a participant, one section per question", cmd_new_transcript},
      {"codebook", "write the Excel codebook (codebook, segments, participants, matrix, co-occurrence)", cmd_codebook},
      {"rank", "analyse rankings: group consensus, rank correlation, priority gaps", cmd_rank},
      {"saturation", "new codes per interview, the cumulative curve and saturation (base, run, threshold), overall and per role", cmd_saturation},
      {"agreement", "inter-coder agreement on label tables or multi-coder transcripts", cmd_agreement},
      {"reconcile", "walk the coders' disagreements and record the team's decisions as a consensus coding", cmd_reconcile},
      {"taxonomy", "the versioned taxonomy: show, log, propose, accept, reject, diff, export", cmd_taxonomy},
      {"export", "export the taxonomy or the project as REFI-QDA (.qdc, .qdpx)", cmd_export},
      {"import", "import a REFI-QDA project or codebook (.qdpx, .qdc)", cmd_import},
      {"participants", "participants import: merge a spreadsheet of participant attributes into the transcripts", cmd_participants},
      {"import-transcript", "turn a WebVTT, SRT, Word or text transcript into a workspace transcript", cmd_import_transcript},
      {"corpus", "issue reports: import exports, retrieve by keywords, screen, sample, label, reconcile, Table I", cmd_corpus},
      {"report", "the main job: validate, then write every output into reports/", cmd_report},
      {"package", "a pseudonymised replication package (folder + zip, README, SHA256SUMS); package verify DIR re-runs it", cmd_package},
      {"completion", "print the shell completion script for bash, zsh or fish (see README, Install)", cmd_completion},
      {"man", "print a manual page made from this table (qualrank.1, qualrank-COMMAND.1), or write them all with -o DIR", cmd_man},
  };
  return table;
}

// The commands that dispatch on their first word; each handler's own dispatch must know these names (the
// command catalog's test checks that every one reaches its own options).
std::vector<SubcommandHelp> subcommands_of(const std::string& command) {
  if (command == "taxonomy") return taxonomy_subcommands();
  if (command == "corpus") return corpus_subcommands();
  if (command == "code")
    return {{"add", "code a turn, or a span of it, with taxonomy nodes"},
            {"remove", "remove taxonomy nodes from a turn's or a span's coding"},
            {"exemplar", "mark a coding as an exemplar quote of its node (--off: unmark it)"}};
  if (command == "package") return {{"verify", "re-run the analysis from a package and name every output that differs"}};
  if (command == "participants")
    return {{"import", "merge a spreadsheet of participant attributes into the transcripts' front matter"}};
  return {};
}

}  // namespace qualrank::cli
