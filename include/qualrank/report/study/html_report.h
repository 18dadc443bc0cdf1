// The self-contained HTML report (`reports/index.html`): rendered from report.json alone, so every number
// on the page is the number in the JSON. No scripts, no external fonts or images: inline CSS and SVG.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace qualrank {

// `report` is the object written to report.json (see study_report.h for its keys).
std::string render_html_report(const nlohmann::ordered_json& report);

}  // namespace qualrank
