// Pseudonymisation for a replication package (docs/package.md): the names of a names list (people,
// organisations, places, anything listed) and every e-mail address are replaced by pseudonyms, the same
// pseudonym for the same name in every text one Pseudonymiser sees.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

class KeywordMatcher;

// One row of a names list.
struct NameEntry {
  std::string name;       // as listed (at least 2 characters; matched by meaning, as whole words: Pseudonymiser)
  std::string pseudonym;  // as listed, or generated: "<Kind>-<N>" ("Person-1", "Organisation-2")
  std::string kind;       // lower-case letters; "person" when the list has no kind
  int line = 0;           // its line in the names file
};

// Limits of a names list (README, "Safety and limits").
inline constexpr std::size_t kMaxNames = 10000;
inline constexpr std::size_t kMaxNamesFileBytes = 4u * 1024u * 1024u;
inline constexpr std::size_t kMaxNameBytes = 200;

// Parses a names list: CSV (RFC 4180) with a header naming the column `name` and optionally `pseudonym` and
// `kind`. An empty pseudonym is generated from the kind (`person` by default) and a counter per kind, in the
// list's order. Located errors: a missing `name` column, an unknown column, an empty or one-character name, a
// name listed twice (as the Pseudonymiser reads names: NFC and NFD, any case, alike), a kind that is not
// lower-case letters, a pseudonym that is empty of text, holds coding markup or a path character
// ([ ] { } | \ @ / : " # or a control character), starts with '.', or contains a listed name as a word (it
// would carry that name into the package); more than
// kMaxNames rows or kMaxNamesFileBytes bytes. Returns nullopt when there is any error.
std::optional<std::vector<NameEntry>> parse_names_list(std::string_view text, const std::string& file,
                                                       Diagnostics& diags);

// Where a listed name (or a near miss of one) stands in a text.
struct NameFound {
  const NameEntry* name = nullptr;  // the listed name
  std::size_t begin = 0, end = 0;   // its bytes in the text
  int line = 0, column = 0;         // of `begin` (1-based; columns in code points)
};

// Replaces names and e-mail addresses, consistently across every call on one object.
//   E-mail addresses (local@domain.tld, ASCII) first: each distinct address (case-insensitively) becomes
//   "Email-N", numbered in the order they are first met.
//   Then every listed name, by meaning rather than bytes (util/name_fold.h): canonically equivalent (NFC or
//   NFD), caseless (full case folding; İ, ı, I, i alike), across any run of white space (NBSP, tabs, line
//   breaks, CRLF) or '_', with invisible characters (soft hyphen, zero-width space and joiners, word joiner,
//   BOM), HTML comments and '*' emphasis next to a word of it (inside or at either end), and through HTML character references (&iacute; &#237;
//   &#xED;) and YAML/JSON escapes (\u00ED, \xED). A name counts as a whole word: the characters around it
//   are not letters, digits or combining marks ('_', '.', '-' and punctuation are boundaries). The longest
//   listed name wins where several start at one place. Replaced text is not searched again.
//   The replacement keeps the file's lines and markup: every line break inside the occurrence (and the
//   indentation after the last one) comes first, then the pseudonym with the emphasis inside the name kept
//   balanced ("Maria\n  Schmidt" -> "\n  Person-1", "**Mar**ia" -> "**Person-1**", "Jo**nas** Becker" ->
//   "Person-1", "Jonas **Becker**" -> "**Person-1**").
// One pass over the text whatever the list's length (one Aho-Corasick automaton), plus the occurrences found.
class Pseudonymiser {
 public:
  explicit Pseudonymiser(std::vector<NameEntry> names);
  ~Pseudonymiser();
  Pseudonymiser(const Pseudonymiser&) = delete;
  Pseudonymiser& operator=(const Pseudonymiser&) = delete;
  // `text` with every name and address replaced. With `near_misses`, also appends there (located in `text`)
  // every near miss left in place: a listed name's accent-stripped spelling ("Zoe Angstrom" for "Zoë
  // Ångström") where the text holds no listed name.
  std::string apply(std::string_view text, std::vector<NameFound>* near_misses = nullptr);
  // The key, as CSV: kind,original,pseudonym,occurrences — every listed name (with how often it was replaced,
  // 0 included) and every address met. The real names: never write it into the package.
  std::string key_csv() const;
  // Replacements made so far, and how many distinct listed names and addresses they concerned.
  std::size_t replacements() const { return replacements_; }
  std::size_t names_found() const;
  std::size_t addresses() const { return emails_.size(); }
  // Every listed name `text` still holds, as apply() would find it, located: the check of a finished package
  // (run on the decoded text: character references, escapes, comments and emphasis read as what they show).
  // Counts nothing.
  std::vector<NameFound> find_names(std::string_view text) const;

 private:
  std::string replace_emails(std::string_view text);
  std::string replace_names(std::string_view text);
  void find_near_misses(std::string_view text, std::vector<NameFound>& out) const;

  std::vector<NameEntry> names_;
  std::vector<std::size_t> counts_;
  std::unique_ptr<KeywordMatcher> matcher_;     // over names_' folded keys, in order; null when there are none
  std::unique_ptr<KeywordMatcher> unaccented_;  // the accent-stripped keys that differ from their name's key
  std::vector<std::size_t> unaccented_entry_;   // its rule -> index in names_
  struct Email {
    std::string folded, original, pseudonym;
    std::size_t count = 0;
  };
  std::vector<Email> emails_;
  std::size_t replacements_ = 0;
};

}  // namespace qualrank
