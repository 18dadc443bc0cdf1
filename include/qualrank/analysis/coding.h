// Coded segments: the transcripts' coded turns and spans, each code resolved to a node of the taxonomy
// version in use, with auto-coding suggestions kept apart from the codes a researcher applied.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/diagnostics.h"
#include "qualrank/util/shared_text.h"

namespace qualrank {

// Its strings are SharedText (interned, 8 bytes a copy): 2,000 transcripts give some 400,000 applied codes.
struct AppliedCode {
  SharedText node;      // resolved node id at the version in use
  SharedText written;   // as written in the transcript
  SharedText coder;
  SharedText memo;
  Location where;
  bool exemplar = false;  // the researcher picked this segment as an exemplar quote for `node`
};

// A segment's attributes: its transcript's front-matter attributes, shared by all the transcript's segments
// (400,000 segments would otherwise hold 400,000 copies of a few maps). Reads like a const std::map; writing
// through operator[] gives the segment its own copy first.
class SegmentAttributes {
 public:
  using Map = std::map<std::string, std::string>;
  SegmentAttributes() = default;
  explicit SegmentAttributes(std::shared_ptr<const Map> shared) : map_(std::move(shared)) {}
  SegmentAttributes& operator=(const Map& m) {
    map_ = std::make_shared<const Map>(m);
    return *this;
  }
  const Map& get() const { return map_ ? *map_ : none(); }
  operator const Map&() const { return get(); }  // NOLINT: reads as the map it stands for
  Map::const_iterator find(const std::string& key) const { return get().find(key); }
  Map::const_iterator begin() const { return get().begin(); }
  Map::const_iterator end() const { return get().end(); }
  std::size_t count(const std::string& key) const { return get().count(key); }
  bool empty() const { return get().empty(); }
  std::string& operator[](const std::string& key) {
    auto own = std::make_shared<Map>(get());
    std::string& value = (*own)[key];
    map_ = std::move(own);
    return value;
  }
  bool operator==(const SegmentAttributes& o) const { return get() == o.get(); }

 private:
  static const Map& none() {
    static const Map nothing;
    return nothing;
  }
  std::shared_ptr<const Map> map_;
};

// The strings every segment of a transcript or section repeats are SharedText (interned, 8 bytes a copy).
struct CodedSegment {
  std::string id;                   // PARTICIPANT#tN, or PARTICIPANT#tN[b:e] for a span (code points)
  SharedText participant;
  SharedText role;
  SegmentAttributes attributes;     // the transcript's front-matter attributes (shared)
  SharedText question;              // guideline question id ("" outside sections)
  SharedText part;                  // guideline part id
  std::string text;
  int turn = 0;
  bool whole_turn = true;
  std::size_t begin = 0, end = 0;   // code-point offsets of the span in the turn text (whole turn: 0, length)
  std::vector<AppliedCode> codes;
  std::vector<std::string> suggested;
  Location source;

  // Sorted distinct node ids of the codes (taxonomy order).
  std::vector<std::string> nodes(const Taxonomy& taxonomy) const;
  std::vector<std::string> coders() const;
  // The same two lists as pointers to the codes' own strings, into `out` (cleared first): for loops over many
  // segments that reuse one buffer instead of copying the strings of each.
  void node_refs(const Taxonomy& taxonomy, std::vector<const std::string*>& out) const;
  void coder_refs(std::vector<const std::string*>& out) const;
};

// A code of a transcript whose node resolved at the version in use (what a filter sees before anything is
// copied into a segment).
struct ResolvedCode {
  std::string node;       // the node at the version in use
  const Coding* coding;   // the code as written (coder, memo, location)
};

// What CodingOptions::keep sees of a segment before it is built.
struct SegmentProbe {
  const Transcript& transcript;
  const Turn& turn;
  const Question* question;                // the turn's guideline question, or nullptr
  bool whole_turn;
  const std::vector<ResolvedCode>& codes;  // the codes that resolved at the version in use
};
using SegmentFilter = std::function<bool(const SegmentProbe&)>;

struct CodingOptions {
  bool include_uncoded = false;   // also list participant turns without codes or suggestions
  bool suggestions = true;        // compute keyword suggestions
  // When set, only the segments it accepts are built (codes are resolved, and problems reported, for every
  // segment all the same). Called concurrently from several threads: it must only read shared state.
  SegmentFilter keep;
  // true (and suggestions, not include_uncoded): suggestions are only counted. A participant turn with
  // suggestions but no code (a suggestion-only segment) is counted in CodingTally::suggested_only instead of
  // being built, and the segments built carry none. The report counts every segment but shows only the coded
  // ones and no suggestion; building 170,000 uncoded turns it never shows cost it a second.
  bool suggestions_counted_only = false;
};

// What coded_segments counted without building it.
struct CodingTally {
  std::size_t suggested_only = 0;  // suggestion-only segments left unbuilt (CodingOptions::suggestions_counted_only)
};

// Builds the coded segments of every transcript (those options.keep accepts), in file then turn order. Codes whose node cannot be
// resolved are reported (located) and left out of the segment; never dropped silently.
std::vector<CodedSegment> coded_segments(const Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                         Diagnostics& diags, const CodingOptions& options = {}, CodingTally* tally = nullptr);
// The same segments, for a caller that owns the workspace and reads no turn's text afterwards: a whole-turn
// segment takes its turn's text instead of copying it, leaving that turn's `text` empty (StudyOptions::
// segments_take_turn_text; `report`).
std::vector<CodedSegment> coded_segments_taking_text(Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                                     Diagnostics& diags, const CodingOptions& options = {},
                                                     CodingTally* tally = nullptr);

}  // namespace qualrank
