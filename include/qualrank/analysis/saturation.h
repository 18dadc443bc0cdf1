// Thematic saturation of an interview study: how many new codes each interview brings, in interview
// order, and whether saturation was reached by the base-size / run-length / new-information-threshold
// method of Guest, Namey & Chen (2020), "A simple method to assess and report thematic saturation in
// qualitative research", PLoS ONE 15(5): e0232076.
//
// The method, as computed here (pure functions, no I/O):
//  * the interviews are taken in the order given (the caller orders them: interview date, else file order);
//  * the base is the first `base` interviews; its information is the number of distinct codes they hold
//    (B, the denominator);
//  * a run is `run` consecutive interviews after the base; runs roll forward one interview at a time
//    (base+1 .. base+run, then base+2 .. base+run+1, ...) until the last interview;
//  * a run's new information is the number of distinct codes that occur in the run and in no interview
//    before the run (N); its ratio is N / B;
//  * saturation is reached at the first run whose ratio is <= threshold. It is reported as the number of
//    interviews before that run (`saturated_at`): the run shows that those interviews had already found
//    (1 - threshold) of the information. No such run (too few interviews, or every ratio above the
//    threshold) -> not reached, and that is said as it is.
// Parameters are always echoed in the result so that a report states them.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace qualrank {
struct Study;
}

namespace qualrank::saturation {

struct Parameters {
  int base = 4;            // interviews in the base (>= 1)
  int run = 2;             // interviews in a run (>= 1)
  double threshold = 0.05; // new information / base information at or below which saturation is reached
};

// One interview: its id, its role and the distinct codes it holds (at the level the caller counts).
struct Interview {
  std::string id;
  std::string role;
  std::vector<std::string> codes;
};

// The new-codes curve: per interview, in order.
struct Step {
  int number = 0;          // 1-based position in interview order
  std::string id;
  std::string role;
  int codes = 0;           // distinct codes in this interview
  int new_codes = 0;       // codes not seen in any earlier interview
  int cumulative = 0;      // distinct codes seen up to and including this interview
  std::vector<std::string> first_seen;  // the new codes, sorted
};

// One rolling run after the base.
struct Run {
  int first = 0, last = 0; // 1-based interview numbers of the run
  int new_codes = 0;       // distinct codes first seen in the run
  double ratio = 0;        // new_codes / base_codes
};

struct Result {
  Parameters parameters;
  std::vector<Step> steps;
  int base_codes = 0;                // distinct codes in the base (0 when there are fewer interviews)
  std::vector<Run> runs;             // every run that fits, up to and including the first that saturates
  std::optional<int> saturated_at;   // interviews before the first run at or below the threshold
};

// The curve and the Guest et al. assessment of `interviews` in the order given.
//  * parameters.base < 1, parameters.run < 1, or a threshold outside [0, 1] -> std::invalid_argument;
//  * fewer than base + run interviews -> runs empty, saturated_at empty;
//  * a base without codes (B = 0) -> no ratio is defined: runs empty, saturated_at empty.
// Duplicate codes within one interview count once. Linear in the total number of codes (one hash set).
Result assess(const std::vector<Interview>& interviews, const Parameters& parameters = {});

// The study's interviews in interview order, each with the distinct codes a researcher applied in it:
//  * order: by the front matter's `date:` (ISO, checked when the transcript is parsed), ties and transcripts
//    without a date in file order, the undated after every dated one;
//  * level 0 counts each node as applied (the leaf codes used); level L >= 1 counts each applied node's
//    ancestor at level L, and a node applied above level L does not count;
//  * role non-empty keeps that role's interviews only. Keyword suggestions never count.
// A transcript without any code is still an interview (it adds 0 new codes).
std::vector<Interview> interviews_of(const Study& study, int level = 0, const std::string& role = "");

// Each participant's distinct codes at `level` (as interviews_of counts them), sorted: worked out once for
// several calls of the overload below (the study's and each role's curve read the same segments).
using ParticipantCodes = std::unordered_map<std::string, std::vector<std::string>>;
ParticipantCodes participant_codes(const Study& study, int level = 0);
// interviews_of(study, level, role), from participant_codes(study, level).
std::vector<Interview> interviews_of(const Study& study, const ParticipantCodes& codes, const std::string& role = "");

}  // namespace qualrank::saturation
