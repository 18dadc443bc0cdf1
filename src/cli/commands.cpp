// The subcommand table: name, one-line help, handler. `qualrank help` lists it in this order.
#include "cli.h"

namespace qualrank::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"validate", "check the whole workspace; print every problem as FILE:LINE:COL: error: MESSAGE", cmd_validate},
      {"code", "print the coded segments (json, csv or table), with keyword suggestions", cmd_code},
      {"guide", "print the interview protocol for a role", cmd_guide},
      {"new-transcript", "write a transcript skeleton for a participant, one section per question", cmd_new_transcript},
      {"report", "the main job: validate, then write every output into reports/", cmd_report},
  };
  return table;
}

}  // namespace qualrank::cli
