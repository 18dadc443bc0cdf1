// The coded segments as JSON (the public shape of `qualrank code --format json`), CSV and a text table.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "qualrank/analysis/coding.h"

namespace qualrank {

// {"segments":[{"id","participant","role","attributes":{...},"question","text",
//   "codes":[{"node","coder","memo"}],"suggested":[ids],"source":{"file","line"}}]}
nlohmann::ordered_json segments_json(const std::vector<CodedSegment>& segments);

// One row per segment: id, participant, role, question, nodes (sorted, comma-separated), coders, memo,
// suggested, source, text. Text fields are neutralised against CSV formula injection.
std::string segments_csv(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy);

// A readable fixed-width table (text cut to fit).
std::string segments_table(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy);

}  // namespace qualrank
