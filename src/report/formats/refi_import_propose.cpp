// A REFI-QDA codebook's differences from the taxonomy as proposed edits in the taxonomy history. The
// taxonomy file is never changed: the researcher accepts or rejects each proposal (qualrank taxonomy
// accept/reject). Provenance is the copy of the codebook kept in the workspace, at the code's line.
#include <algorithm>

#include "qualrank/model/history/history.h"
#include "qualrank/report/formats/refi_import.h"
#include "qualrank/model/workspace.h"

namespace qualrank {

namespace {

TaxonomyEdit edit_for(const CodebookDifference& d) {
  using Kind = CodebookDifference::Kind;
  TaxonomyEdit e;
  e.node = d.node;
  auto set = [](const std::string& v) { return v.empty() ? std::nullopt : std::optional<std::string>(v); };
  auto set_list = [](const std::vector<std::string>& v) {
    return v.empty() ? std::nullopt : std::optional<std::vector<std::string>>(v);
  };
  switch (d.kind) {
    case Kind::added:
      e.op = EditOp::add;
      e.parent = d.parent;
      e.name = d.name;
      e.definition = set(d.fields.definition);
      e.inclusion = set(d.fields.inclusion);
      e.exclusion = set(d.fields.exclusion);
      e.aliases = set_list(d.fields.aliases);
      e.keywords = set_list(d.fields.keywords);
      break;
    case Kind::renamed:
      e.op = EditOp::rename;
      e.name = d.name;
      break;
    case Kind::redefined:
      e.op = EditOp::redefine;
      e.definition = set(d.fields.definition);
      e.inclusion = set(d.fields.inclusion);
      e.exclusion = set(d.fields.exclusion);
      e.aliases = set_list(d.fields.aliases);
      e.keywords = set_list(d.fields.keywords);
      break;
    case Kind::moved:
      e.op = EditOp::move;
      e.parent = d.parent;
      break;
    case Kind::removed:
      e.op = EditOp::deprecate;
      break;
  }
  return e;
}

bool same_pending(const TaxonomyEdit& a, const TaxonomyEdit& b) {
  return a.status == EditStatus::proposed && a.op == b.op && a.node == b.node && a.parent == b.parent &&
         a.name == b.name && a.definition == b.definition && a.inclusion == b.inclusion &&
         a.exclusion == b.exclusion && a.aliases == b.aliases && a.keywords == b.keywords;
}

}  // namespace

std::optional<std::vector<std::string>> propose_codebook_differences(const std::filesystem::path& root,
                                                                    const RefiImportPlan& plan,
                                                                    const std::string& author, Diagnostics& diags,
                                                                    bool check_only) {
  std::vector<TaxonomyEdit> edits;
  std::vector<const CodebookDifference*> of_edit;
  if (plan.differences.empty()) return std::vector<std::string>{};
  std::optional<TaxonomyHistory> history;
  {
    Diagnostics ignore;
    if (auto ws = load_workspace_design(root, ignore)) history = load_history(*ws, ignore);
  }
  for (const auto& d : plan.differences) {
    TaxonomyEdit e = edit_for(d);
    if (history && std::any_of(history->edits.begin(), history->edits.end(), [&](const TaxonomyEdit& x) { return same_pending(x, e); })) {
      if (!check_only) diags.note(d.where, "already proposed: " + d.summary());
      continue;
    }
    e.author = author;
    e.rationale = "from the REFI-QDA codebook " + plan.codebook_copy + ": " + d.summary();
    Provenance p;
    p.participant = "codebook";
    p.source = plan.codebook_copy + ":" + std::to_string(d.where.line > 0 ? d.where.line : 1);
    e.provenance.push_back(p);
    edits.push_back(std::move(e));
    of_edit.push_back(&d);
  }
  if (edits.empty()) return std::vector<std::string>{};
  // Each refusal is located at its code in the codebook.
  auto located = [&](std::size_t k, const Diagnostics& problems) {
    for (const auto& item : problems.items()) {
      // "E0003: cannot rename: ..." -> "cannot rename: ...": no id is recorded for a refused batch
      std::string message = item.message;
      if (auto colon = message.find(": "); colon != std::string::npos && message[0] == 'E' &&
                                           message.find_first_not_of("0123456789", 1) == colon)
        message.erase(0, colon + 2);
      diags.add({item.severity, of_edit[k]->where, "cannot propose '" + of_edit[k]->summary() + "': " + message});
    }
  };
  return append_proposals(root, std::move(edits), diags, plan.files, check_only, located);
}

}  // namespace qualrank
