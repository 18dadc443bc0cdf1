// One key, one meaning across the terminal screens (#37 item 12, docs/keys.md): annotate's action table and
// the corpus labeller's bind no key twice, and a key bound in both means the same thing in both.
#include "catch.h"

#include <map>
#include <set>
#include <string>
#include <utility>

#include "actions.h"
#include "label/label_actions.h"

using namespace qualrank::tui;

namespace {

// key -> the names of the actions bound to it (more than one is a fault).
template <class Table>
std::map<int, std::vector<std::string>> key_map(const Table& table) {
  std::map<int, std::vector<std::string>> out;
  for (const auto& a : table)
    for (int k : a.keys) out[k].push_back(a.name);
  return out;
}

// Annotate's action and the labeller's that share a meaning (on a transcript's turns / a sample's documents).
const std::set<std::pair<std::string, std::string>>& same_meaning() {
  static const std::set<std::pair<std::string, std::string>> pairs = {
      {"code", "label"},                      // c, Enter: pick a node and apply it
      {"search-next", "search-again"},        // n: the last search, forward
      {"search-previous", "search-previous"}, // N: the last search, backward
      {"next-uncoded", "next-unlabelled"},    // U: the next one without a code / label
      {"go-to-turn", "go-to"},                // g: go to by number
      {"first-turn", "first"},                // Home
      {"last-turn", "last"},                  // G, End
      {"next-transcript", "next"},            // ]: the next transcript / document
      {"previous-transcript", "previous"},    // [
      {"next-turn", "scroll-down"},           // j, Down: one step down (a turn / a line)
      {"previous-turn", "scroll-up"},         // k, Up
      {"page-down", "page-down"},             // Space, PgDn
      {"page-up", "page-up"},                 // b, PgUp
      // Right/Left: one step on (a word of the selection / a document); the labeller selects no words.
      {"select-right", "next"},
      {"select-left", "previous"},
      {"search", "search"},
      {"undo", "undo"},
      {"redo", "redo"},
      {"help", "help"},
      {"quit", "quit"},
  };
  return pairs;
}

std::string annotate_action(int k) {
  auto m = key_map(actions());
  return m.count(k) ? m[k].front() : "";
}
std::string label_action(int k) {
  auto m = key_map(label_actions());
  return m.count(k) ? m[k].front() : "";
}

}  // namespace

TEST_CASE("tui keys: no key is bound twice within annotate or the labeller", "[tui][keys]") {
  for (const auto& [k, names] : key_map(actions())) {
    INFO("annotate key " << key_name(k));
    CHECK(names.size() == 1);
  }
  for (const auto& [k, names] : key_map(label_actions())) {
    INFO("labeller key " << key_name(k));
    CHECK(names.size() == 1);
  }
}

TEST_CASE("tui keys: a key bound in annotate and the labeller means the same in both", "[tui][keys]") {
  const auto annotate = key_map(actions());
  const auto label = key_map(label_actions());
  int shared = 0;
  for (const auto& [k, names] : annotate) {
    auto it = label.find(k);
    if (it == label.end()) continue;
    ++shared;
    INFO("key " << key_name(k) << ": annotate " << names.front() << ", labeller " << it->second.front());
    CHECK(same_meaning().count({names.front(), it->second.front()}) == 1);
  }
  CHECK(shared >= 20);
}

TEST_CASE("tui keys: the keys of #37.12 in both screens", "[tui][keys]") {
  // n / N: the last search again, forward / backward.
  CHECK(annotate_action('n') == "search-next");
  CHECK(label_action('n') == "search-again");
  CHECK(annotate_action('N') == "search-previous");
  CHECK(label_action('N') == "search-previous");
  CHECK(label_action('.') == "search-again");  // kept
  // ] / [ (and Right/Left in the labeller): the next / previous transcript or document; p is gone.
  CHECK(annotate_action(']') == "next-transcript");
  CHECK(label_action(']') == "next");
  CHECK(annotate_action('[') == "previous-transcript");
  CHECK(label_action('[') == "previous");
  CHECK(label_action(key::right) == "next");
  CHECK(label_action(key::left) == "previous");
  CHECK(label_action('p') == "");
  // U: the next without a code / label; Tab only annotate's next coding.
  CHECK(annotate_action('U') == "next-uncoded");
  CHECK(label_action('U') == "next-unlabelled");
  CHECK(annotate_action(key::tab) == "next-coding");
  CHECK(label_action(key::tab) == "");
  // g: go to by number; Home first, G/End last.
  CHECK(annotate_action('g') == "go-to-turn");
  CHECK(label_action('g') == "go-to");
  CHECK(annotate_action(key::home) == "first-turn");
  CHECK(label_action(key::home) == "first");
  for (int k : {int{'G'}, key::end}) {
    CHECK(annotate_action(k) == "last-turn");
    CHECK(label_action(k) == "last");
  }
  // c and Enter: pick a node and apply it; l is annotate's select-right only.
  for (int k : {int{'c'}, key::enter}) {
    CHECK(annotate_action(k) == "code");
    CHECK(label_action(k) == "label");
  }
  CHECK(annotate_action('l') == "select-right");
  CHECK(label_action('l') == "");
  // a: annotate's accept; the labeller's add-node on A (unbound in annotate).
  CHECK(annotate_action('a') == "accept");
  CHECK(label_action('a') == "");
  CHECK(label_action('A') == "add-node");
  CHECK(annotate_action('A') == "");
  // Space / b: a page down / up in both.
  for (int k : {int{' '}, key::page_down}) {
    CHECK(annotate_action(k) == "page-down");
    CHECK(label_action(k) == "page-down");
  }
  for (int k : {int{'b'}, key::page_up}) {
    CHECK(annotate_action(k) == "page-up");
    CHECK(label_action(k) == "page-up");
  }
  CHECK(key_name(' ') == "Space");
}
