// Proposing a new code from the terminal coder (`+`): the id the proposal takes, continuing the numbering
// style of the parent's children. No terminal; annotate_main records the proposal with `append_proposal`.
#pragma once
#include <string>

#include "qualrank/model/taxonomy.h"

namespace qualrank::tui {

// A free id for a new child of `parent` that continues its children's numbering style: numbers (A.1, A.2 ->
// A.3), lower-case letters (COM.1.a, COM.1.b -> COM.1.c), upper-case letters, or lower-case roman numerals
// (A.3.i, A.3.ii, A.3.iii -> A.3.iv; a lone child "i" counts as roman). A parent without children gets
// numbers. The id after the highest child's is taken (a gap is not filled); letters past z go on as numbers. A new top-level code
// (`parent` empty) takes up to four capitals of the name's letters and digits ("NEW" when it has none),
// then a number when taken. `skip` passes over that many free ids (an id the history has used for a node
// that is gone cannot be taken again).
std::string new_child_id(const Taxonomy& taxonomy, const std::string& parent, const std::string& name, int skip);

// Lower-case roman numeral of 1..3999 ("" outside); its value, or -1 when `s` is not one written canonically.
std::string roman_numeral(int n);
int roman_value(const std::string& s);

}  // namespace qualrank::tui
