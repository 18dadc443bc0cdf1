// qualrank participants import FILE.csv|FILE.xlsx --id-column NAME [--map COLUMN=ATTRIBUTE ...] [--sheet NAME]
// [--dry-run]: a classification sheet into the transcripts' front matter (model/participants_import.h).
// Every change is listed; nothing is written when there is an error, or with --dry-run.
#include <iostream>

#include "../cli.h"
#include "qualrank/model/participants_import.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/xlsx_read.h"

namespace qualrank::cli {

namespace {

std::string located(const Location& l) {
  std::string s = l.file;
  if (l.line > 0) s += ":" + std::to_string(l.line);
  if (l.column > 0) s += ":" + std::to_string(l.column);
  return s;
}

int participants_import(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("participants import options");
  desc.add_options()
      ("file", po::value<std::string>()->required(), "the sheet: .csv (UTF-8) or .xlsx (relative to the current folder)")
      ("id-column", po::value<std::string>()->required(), "the column holding the participant ids (as in the transcripts' 'participant:')")
      ("map", po::value<std::vector<std::string>>()->composing(), "COLUMN=ATTRIBUTE: write this column as this attribute (repeatable)")
      ("sheet", po::value<std::string>(), ".xlsx: the sheet to read (default: the first)")
      ("dry-run,n", "list every change and write nothing");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "participants import",
                     "FILE.csv|FILE.xlsx --id-column NAME [--map COLUMN=ATTRIBUTE ...] [--sheet NAME] [--dry-run]\n\n"
                     "Columns named like 'role', the experience attribute, the attribute it is derived from, a background\n"
                     "question's attribute or an attribute a transcript has are imported without --map; other columns are\n"
                     "listed as ignored. Roles and levels are matched case-insensitively; years may be written '3 years',\n"
                     "'1.5', '8 months', '2 yrs' (docs/participants.md). An empty cell changes nothing.",
                     desc, args, vm, rc, &pos))
    return rc;
  ParticipantImportOptions options;
  options.id_column = vm["id-column"].as<std::string>();
  if (vm.count("map"))
    for (const auto& m : vm["map"].as<std::vector<std::string>>()) {
      auto eq = m.rfind('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == m.size()) {
        *ctx.err << "qualrank participants import: error: --map takes COLUMN=ATTRIBUTE, not '" << m << "'\n";
        return 2;
      }
      options.map.emplace_back(std::string(text::trim(m.substr(0, eq))), std::string(text::trim(m.substr(eq + 1))));
    }
  std::string file = vm["file"].as<std::string>();
  auto lower = text::to_lower_ascii(file);
  bool is_xlsx = lower.size() > 5 && lower.compare(lower.size() - 5, 5, ".xlsx") == 0;
  bool is_csv = lower.size() > 4 && lower.compare(lower.size() - 4, 4, ".csv") == 0;
  if (!is_xlsx && !is_csv) {
    *ctx.err << "qualrank participants import: error: '" << file << "' is neither a .csv nor an .xlsx file\n";
    return 2;
  }
  if (vm.count("sheet") && !is_xlsx) {
    *ctx.err << "qualrank participants import: error: --sheet is for .xlsx files\n";
    return 2;
  }
  Diagnostics diags;
  std::optional<ParticipantSheet> sheet;
  if (is_xlsx) {
    sheet = sheet_from_xlsx(file, file, vm.count("sheet") ? vm["sheet"].as<std::string>() : "", diags);
  } else if (std::error_code ec; std::filesystem::file_size(file, ec) > xlsx::kMaxPartBytes && !ec) {
    diags.error({file, 0, 0}, "larger than " + std::to_string(xlsx::kMaxPartBytes / (1024 * 1024)) + " MiB; qualrank reads smaller sheets");
  } else if (std::string why; auto text = files::read_input(file, files::kTableInput, &why)) {
    sheet = sheet_from_csv(*text, file, diags);
  } else {
    diags.error({file, 0, 0}, why);
  }
  std::optional<ParticipantImportPlan> plan;
  if (sheet && !diags.has_errors()) plan = plan_participants_import(ctx.workspace, *sheet, options, diags);
  report_diagnostics(ctx, diags);
  if (!plan) {
    *ctx.err << "qualrank participants import: nothing written\n";
    return 1;
  }
  auto& out = *ctx.out;
  std::vector<std::string> cols;
  for (const auto& [c, a] : plan->columns) cols.push_back(c == a ? c : c + " -> " + a);
  std::string id_header = options.id_column;
  for (const auto& h : sheet->header)
    if (text::fold_case(text::trim(h)) == text::fold_case(text::trim(options.id_column))) id_header = h;
  auto count = [](std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
  out << sheet->source << ": " << count(static_cast<std::size_t>(plan->rows), "participant row", "participant rows")
      << "; id column '" << id_header << "'; imported columns: "
      << (cols.empty() ? "none" : text::join(cols, ", ")) << '\n';
  if (!plan->ignored_columns.empty())
    out << "ignored columns (no attribute of that name; use --map COLUMN=ATTRIBUTE): " << text::join(plan->ignored_columns, ", ") << '\n';
  for (const auto& ch : plan->changes) {
    out << "  " << ch.file << ": " << ch.attribute << ": ";
    if (ch.old_value.empty()) out << "(not set) -> " << ch.new_value << "  (set";
    else out << ch.old_value << " -> " << ch.new_value << "  (replaced";
    out << "; from " << located(ch.source) << ")\n";
  }
  if (!plan->sheet_only.empty())
    out << "in the sheet without a transcript: " << text::join(plan->sheet_only, ", ") << '\n';
  if (!plan->transcript_only.empty())
    out << "transcripts without a row in the sheet: " << text::join(plan->transcript_only, ", ") << '\n';
  out << count(plan->changes.size(), "change", "changes") << " in " << count(plan->files.size(), "transcript", "transcripts")
      << "; " << count(static_cast<std::size_t>(plan->unchanged), "value", "values") << " already as in the sheet\n";
  if (vm.count("dry-run")) {
    out << "dry run: nothing written\n";
    return 0;
  }
  std::string err;
  if (!write_participants_import(ctx.workspace, *plan, &err)) {
    *ctx.err << "qualrank participants import: error: " << err << '\n';
    return 1;
  }
  if (!plan->files.empty()) out << "wrote " << count(plan->files.size(), "transcript", "transcripts") << '\n';
  return 0;
}

}  // namespace

int cmd_participants(Context& ctx, const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "import") return participants_import(ctx, {args.begin() + 1, args.end()});
  bool help = !args.empty() && (args[0] == "--help" || args[0] == "-h");
  (help ? *ctx.out : *ctx.err) << "usage: qualrank participants import FILE.csv|FILE.xlsx --id-column NAME "
                                  "[--map COLUMN=ATTRIBUTE ...] [--sheet NAME] [--dry-run]\n"
                                  "(see 'qualrank participants import --help')\n";
  if (help) return 0;
  if (!args.empty()) *ctx.err << "qualrank participants: error: unknown subcommand '" << args[0] << "' (import)\n";
  return 2;
}

}  // namespace qualrank::cli
