// The guideline as an interview protocol (`qualrank guide`) and as a transcript skeleton
// (`qualrank new-transcript`).
#pragma once
#include <map>
#include <string>

#include "qualrank/model/guideline.h"
#include "qualrank/model/taxonomy.h"

namespace qualrank {

enum class ProtocolFormat { markdown, text };

// The parts and questions asked to `role` in order (every role when empty), with the items to show for each
// ranking question (id and name) and how many to rank. Without a role, a question worded per role shows each
// role's wording under its default text. `taxonomy_version` ("2 (name)"), when given, is printed under the title.
std::string interview_protocol(const Guideline& g, const Taxonomy& t, const std::string& role, ProtocolFormat format,
                               const std::string& taxonomy_version = "");

// A transcript skeleton: front matter (participant, role, coder, attributes) and one section per question
// asked to `role`, with the question text as the interviewer's turn and placeholders to fill in.
// `taxonomy_version`, when given, is named in a comment after the front matter.
std::string transcript_skeleton(const Guideline& g, const Taxonomy& t, const std::string& participant,
                                const std::string& role, const std::map<std::string, std::string>& attributes,
                                const std::string& taxonomy_version = "");

}  // namespace qualrank
