// The Plackett-Luce model for (partial, tied) rankings: pure functions, no I/O.
// An answer is a sequence of choices: its first tier is chosen from every item still available, then the
// next tier from the rest, and so on; item i is chosen with probability worth_i / (sum of the available
// worths). Top-k answers (fewer items than the question's item set) are k choices from all items not yet
// chosen, unranked items included (they lose every choice); `PartialRankings::subset` instead reads such an
// answer as a ranking of only the items it names (PlackettLuce's partial rankings). See
// src/analysis/rankings/plackett_luce.cpp for the estimation and its references.
#pragma once
#include <string>
#include <vector>

namespace qualrank::pl {

// One answer: tiers of item indices (0-based, into the question's item set), best first; a tier of several
// items is a tie. Items not named are unranked.
struct Ranking {
  std::vector<std::vector<int>> tiers;
};

enum class PartialRankings {
  top_k,   // unranked items were available at every choice and never chosen
  subset,  // a ranking of the named items only; unranked items are not in any choice set
};

struct Options {
  // Pseudo-rankings against a hypothetical item of worth 1 (PlackettLuce's `npseudo`): every item gets
  // `pseudo_rankings` wins and as many losses against it, so every worth is finite. 0 = plain MLE.
  double pseudo_rankings = 0.5;
  PartialRankings partial = PartialRankings::top_k;
  int max_iterations = 200;
  std::vector<std::string> item_names;  // for error messages (default: "item N")
};

struct Fit {
  // Non-empty when there is no estimate: the rankings do not connect the items (some worths diverge
  // without pseudo-rankings; the message names the items), or the question has fewer than two items.
  std::string error;
  int rankings = 0;                    // answers used
  int iterations = 0;                  // Newton iterations
  double log_likelihood = 0;           // of the rankings alone (the pseudo-rankings' terms left out)
  double penalised_log_likelihood = 0; // the maximised objective: rankings plus pseudo-rankings
  std::vector<double> worth;           // normalised to sum 1
  std::vector<double> log_worth;       // log(worth_i / worth_0): item 0 is the reference
  std::vector<double> se;              // of log_worth, from the observed information (0 for item 0)
  std::vector<double> quasi_se;        // Firth & de Menezes quasi-standard errors of the log-worths
  std::vector<std::vector<double>> covariance;  // of log_worth (row and column 0 are zero)
};

// Maximum-likelihood (with pseudo-rankings: penalised) estimates of the worths of `items` items, their
// standard errors and quasi-standard errors. Ties: Efron's approximation (see the .cpp). Answers naming
// no item of the set are skipped; an item index outside [0, items) -> std::invalid_argument.
Fit fit_plackett_luce(int items, const std::vector<Ranking>& rankings, const Options& options = {});

// The log-likelihood of `rankings` at `log_worth` (any scale; pseudo-rankings not included), for tests and
// the likelihood-ratio test.
double plackett_luce_log_likelihood(const std::vector<double>& log_worth, const std::vector<Ranking>& rankings,
                                    PartialRankings partial = PartialRankings::top_k);

// Quasi-variances q (Firth & de Menezes 2004; as R's qvcalc): the q minimising
// sum over pairs i < j of (log v_ij - log(q_i + q_j))^2, v_ij = var(b_i - b_j) from `covariance` (square,
// symmetric; a reference item has a zero row and column). Two items: v_12 / 2 each. Fewer than two -> the
// diagonal. A pair with v_ij <= 0 -> std::invalid_argument. A quasi-variance may come out negative (rare).
std::vector<double> quasi_variances(const std::vector<std::vector<double>>& covariance);

}  // namespace qualrank::pl
