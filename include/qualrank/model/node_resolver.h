// How a node written in a transcript (id, name or alias, possibly of an older taxonomy version) maps to a
// node of the taxonomy version in use.
#pragma once
#include <functional>
#include <optional>
#include <string>

namespace qualrank {

class Taxonomy;

struct NodeResolution {
  std::optional<std::string> node;  // the node at that version, when there is one
  std::string problem;              // why there is none (unknown, deprecated, needs re-coding ...)
  bool needs_recoding = false;      // split without a named successor
};
using NodeResolver = std::function<NodeResolution(const std::string& written)>;

// Resolves by id, name or alias in `taxonomy` (no history). The taxonomy must outlive the resolver.
NodeResolver direct_resolver(const Taxonomy& taxonomy);

// " (did you mean 'COM.1'?)" for a node written that resolves to nothing: the id whose letters and digits
// are the same with punctuation ignored (`COM1`, `com-1` -> COM.1), else the id or name nearest by edit
// distance (at most 2, case-insensitive; a name is shown beside its id); "" when nothing is that near.
std::string did_you_mean(const Taxonomy& taxonomy, const std::string& written);

}  // namespace qualrank
