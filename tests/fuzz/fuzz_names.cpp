// A names list (qualrank package --names FILE.csv), and any text pseudonymised by a fixed list: the fold that
// finds names by meaning (util/name_fold.h) reads every byte sequence, and what a replacement makes of valid
// UTF-8 is valid UTF-8.
#include "fuzz_target.h"
#include "qualrank/report/package/pseudonymise.h"
#include "qualrank/util/text.h"

QUALRANK_FUZZ_TARGET(names) {
  using namespace qualrank;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Diagnostics diags;
  auto listed = parse_names_list(text, "names.csv", diags);
  fuzz::check_located(diags);
  if (listed) {
    Pseudonymiser p(*listed);
    fuzz::check_utf8(p.apply(text), "a text pseudonymised by its own names");
  }
  static const std::vector<NameEntry> fixed = [] {
    Diagnostics d;
    return *parse_names_list("name,pseudonym\nMaria Schmidt,Client-A\nZo\xC3\xAB \xC3\x85ngstr\xC3\xB6m,\n"
                             "\xC4\xB0lknur,\nW&B,Tracker-1\n", "fixed.csv", d);
  }();
  Pseudonymiser p(fixed);
  std::vector<NameFound> near;
  std::string out = p.apply(text, &near);
  if (!text::find_invalid_utf8(text)) fuzz::check_utf8(out, "a pseudonymised text");
  for (const auto& n : near)
    if (n.begin >= n.end || n.end > text.size() || n.line < 1 || n.column < 1) __builtin_trap();
  for (const auto& n : p.find_names(text))
    if (n.begin >= n.end || n.end > text.size() || n.line < 1 || n.column < 1) __builtin_trap();
  return 0;
}
