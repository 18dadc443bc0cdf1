#include "qualrank/model/node_resolver.h"

#include <cctype>

#include "qualrank/model/taxonomy.h"
#include "qualrank/util/edit_distance.h"
#include "qualrank/util/text.h"

namespace qualrank {

NodeResolver direct_resolver(const Taxonomy& taxonomy) {
  return [&taxonomy](const std::string& written) {
    NodeResolution r;
    r.node = taxonomy.resolve(written);
    if (!r.node) {
      r.problem = "unknown taxonomy node '" + written + "'";
    } else if (taxonomy.find(*r.node)->status != "active") {
      r.problem = "taxonomy node '" + *r.node + "' is " + taxonomy.find(*r.node)->status;
      r.node.reset();
    }
    return r;
  };
}

std::string did_you_mean(const Taxonomy& taxonomy, const std::string& written) {
  auto key = [](std::string_view s) {
    std::string k;
    for (char c : text::fold_case(s))
      if (std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) k += c;
    return k;
  };
  const std::string wk = key(written), wf = text::fold_case(written);
  if (wk.empty() || written.size() > 200) return "";
  for (const auto& id : taxonomy.order())
    if (key(id) == wk) return " (did you mean '" + id + "'?)";
  std::string hint;
  std::size_t best = 3;
  for (const auto& id : taxonomy.order()) {
    const auto* n = taxonomy.find(id);
    for (const std::string& cand : {id, n ? n->name : std::string()}) {
      if (cand.empty()) continue;
      auto d = text::edit_distance_at_most(text::fold_case(cand), wf, 2);
      if (d < best) {
        best = d;
        hint = " (did you mean '" + id + "'" + (cand == id ? "" : " (" + cand + ")") + "?)";
      }
    }
  }
  return hint;
}

}  // namespace qualrank
