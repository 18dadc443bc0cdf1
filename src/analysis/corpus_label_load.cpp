// Loading a sample's labels from the workspace (analysis/corpus_labels.h: load_sample_labels), and the
// progress line the labelling commands print.
#include "qualrank/analysis/corpus_labels.h"
#include "qualrank/util/files.h"

namespace qualrank::corpus {

std::string grouped(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string progress_text(std::size_t done, std::size_t total) { return grouped(done) + " of " + grouped(total) + " labelled"; }

std::optional<SampleLabels> load_sample_labels(const std::filesystem::path& workspace, const std::string& sample,
                                               const Taxonomy& taxonomy, const NodeResolver& resolve, Diagnostics& diags) {
  const std::string rel = sample_path(sample);
  if (!files::exists(workspace / rel)) {
    diags.error({rel, 0, 0}, "no sample '" + sample + "': draw it with 'qualrank corpus sample " + sample + "'");
    return std::nullopt;
  }
  std::string why;
  auto text = files::read_inside(workspace, rel, &why);
  if (!text) {
    diags.error({rel, 0, 0}, why);
    return std::nullopt;
  }
  auto docs = read_sample(*text, rel, diags);
  auto coders = read_all_labels(workspace, sample, diags);
  std::vector<LabelDecision> decisions;
  const std::string drel = decisions_path(sample);
  if (files::exists(workspace / drel)) {
    auto dtext = files::read_inside(workspace, drel, &why);
    if (!dtext) diags.error({drel, 0, 0}, why);
    else decisions = read_decisions(*dtext, drel, diags);
  }
  if (diags.has_errors()) return std::nullopt;
  auto s = resolve_sample_labels(docs, coders, decisions, drel, sample, taxonomy, resolve, diags);
  if (diags.has_errors()) return std::nullopt;
  return s;
}

}  // namespace qualrank::corpus
