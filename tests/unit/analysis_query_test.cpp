// Unit tests for segment retrieval (src/analysis/suggest/query.cpp) on tests/fixtures/fieldwork.
//
// The fixture's segments at its latest version (2: COM.1.b merged into COM.1), worked out by hand from its six
// transcripts and E01.carol.codes; the codes' coder in brackets, (x) = picked as exemplar, "sugg" = keyword
// suggestions of a turn without codes. A span segment's id ends in [begin:end].
//   C01 contractor, junior (tenure 0.5), BR        E01 employee, junior (tenure 1), FR
//     C01#t2        II.1  COM.1, WELL.1 [eli]        E01#t2        II.1  COM.1.a, WELL.1 [dana]; COM.1.a [carol]
//     C01#t2[8:17]  II.1  COM.1 (was COM.1.b)        E01#t3        II.2  COM.2, WELL.1(x) [dana]; COM.2(x) [carol]
//     C01#t3        II.2  COM.2, WELL.1(x)           E01#t4        III.1 TOOL.1, TOOL.2.a [dana]
//     C01#t4        III.1 TOOL.2(x)                  E01#t4[7:44]  III.1 TOOL.1 [carol]
//     C01#t6        IV.1  sugg COM.3, WELL.2         E01#t5        III.R sugg TOOL.2
//   C02 contractor, mid (tenure 4 by @answer), IN    E01#t6        IV.1  WELL.2 [carol]
//     C02#t2        II.1  COM.1 (text starts '=')  E02 employee, senior (tenure 6), DE, team_size 5 by @answer
//     C02#t3[9:29]  II.2  COM.2 (a span only)        E02#t3        II.1  COM.1 [eli]
//     C02#t3[52:78] II.2  COM.3 (a span only)        E02#t3[59:68] II.1  COM.3
//   M01 manager, senior (tenure 8), DE, team 12      E02#t4        II.2  COM.2
//     M01#t2        II.1  COM.1(x), TOOL.1 [dana]    E02#t5        III.1 TOOL.3(x)
//     M01#t2[34:49] II.1  COM.1.a                    E02#t7        IV.1  WELL.2, TOOL.1
//     M01#t3        II.1  COM.3 ("Die Übergabe ...")
//     M01#t4        II.2  COM.2, TOOL.2            M02 manager, mid (tenure 3), US, team_size 5
//     M01#t5        III.1 TOOL.3                     M02#t2 / M02#t2[42:59]  II.1  COM.1 / COM.1 (was COM.1.b)
//                                                    M02#t3        II.2  COM.2, COM.3, WELL.2
//                                                    M02#t4        III.1 TOOL.2.a(x)
// 28 segments in all (`qualrank code`). Participant turns without any code: C01 t1 t5 t6, C02 t1 t4,
// E01 t1 t5, E02 t1 t2 t6, M01 t1 t6, M02 t1 t5 = 14 (C02#t3 is coded by its spans only, so it is coded).
#include "catch.h"

#include "qualrank/analysis/suggest/query.h"

using namespace qualrank;

namespace {

const std::string kFieldwork = std::string(QUALRANK_FIXTURES_DIR) + "/fieldwork";

std::unique_ptr<Study> study_for(const SegmentQuery& q, const std::optional<std::string>& at = std::nullopt) {
  Diagnostics diags;
  auto study = load_study(kFieldwork, diags, query_study_options(q, at));
  REQUIRE(study);
  REQUIRE_FALSE(diags.has_errors());
  return study;
}

std::vector<std::string> ids(const QueryResult& r) {
  std::vector<std::string> out;
  for (const auto& s : r.segments) out.push_back(s.id);
  return out;
}

std::vector<std::string> found(const SegmentQuery& q, const std::optional<std::string>& at = std::nullopt) {
  auto study = study_for(q, at);
  auto problems = check_query(*study, q);
  INFO((problems.empty() ? std::string() : problems.front()));
  REQUIRE(problems.empty());
  return ids(query_segments(*study, q));
}

using Ids = std::vector<std::string>;

}  // namespace

TEST_CASE("analysis::query_segments without a filter lists what `code` lists", "[analysis][query]") {
  auto all = found({});
  CHECK(all.size() == 28);
  CHECK(all.front() == "C01#t2");
  CHECK(std::find(all.begin(), all.end(), "C01#t6") != all.end());   // suggestions only
  CHECK(std::find(all.begin(), all.end(), "C02#t3") == all.end());   // no code, no suggestion: only with --all
  SegmentQuery every;
  every.all = true;
  CHECK(found(every).size() == 41);  // 34 participant turns + 7 coded spans
}

TEST_CASE("analysis::query_segments takes descendants unless exact", "[analysis][query]") {
  SegmentQuery q;
  q.all_of = {"COM.1"};
  CHECK(found(q) == Ids{"C01#t2", "C01#t2[8:17]", "C02#t2", "E01#t2", "E02#t3", "M01#t2", "M01#t2[34:49]", "M02#t2", "M02#t2[42:59]"});
  q.exact = true;  // E01#t2 and M01#t2[34:49] carry COM.1.a only
  CHECK(found(q) == Ids{"C01#t2", "C01#t2[8:17]", "C02#t2", "E02#t3", "M01#t2", "M02#t2", "M02#t2[42:59]"});
  q.all_of = {"COM"};  // nothing is coded with the root itself
  CHECK(found(q).empty());
  q.exact = false;
  CHECK(found(q).size() == 18);  // every segment with a COM.* code
}

TEST_CASE("analysis::query_segments resolves codes at the version asked for", "[analysis][query]") {
  SegmentQuery q;
  q.all_of = {"COM.1.b"};
  CHECK(found(q, "1") == Ids{"C01#t2[8:17]", "M02#t2[42:59]"});
  q.exact = true;
  q.all_of = {"COM.1"};  // at version 1 the two spans are COM.1.b, not COM.1
  CHECK(found(q, "1") == Ids{"C01#t2", "C02#t2", "E02#t3", "M01#t2", "M02#t2"});
  q.all_of = {"asynchronous updates"};  // a name resolves like an id
  CHECK(found(q).size() == 7);
}

TEST_CASE("analysis::query_segments combines codes with AND, OR and NOT", "[analysis][query]") {
  SegmentQuery both;
  both.all_of = {"COM.2", "WELL.1"};
  CHECK(found(both) == Ids{"C01#t3", "E01#t3"});
  SegmentQuery either;
  either.any_of = {{"TOOL.3", "WELL.2"}};
  CHECK(found(either) == Ids{"E01#t6", "E02#t5", "E02#t7", "M01#t5", "M02#t3"});
  SegmentQuery but;
  but.all_of = {"COM"};
  but.none_of = {"COM.1"};  // 18 COM segments minus the 9 with COM.1 or COM.1.a
  CHECK(found(but) == Ids{"C01#t3", "C02#t3[9:29]", "C02#t3[52:78]", "E01#t3", "E02#t3[59:68]", "E02#t4", "M01#t3", "M01#t4", "M02#t3"});
  SegmentQuery not_well;
  not_well.none_of = {"WELL"};  // 28 minus C01#t2, C01#t3, E01#t2, E01#t3, E01#t6, E02#t7, M02#t3
  CHECK(found(not_well).size() == 21);
  SegmentQuery meetings_not_alone;
  meetings_not_alone.all_of = {"COM.2"};
  meetings_not_alone.none_of = {"WELL.1"};
  CHECK(found(meetings_not_alone) == Ids{"C02#t3[9:29]", "E02#t4", "M01#t4", "M02#t3"});
}

TEST_CASE("analysis::query_segments filters by attributes, role and experience included", "[analysis][query]") {
  SegmentQuery q;
  q.where = {{"role", "contractor"}};
  CHECK(found(q) == Ids{"C01#t2", "C01#t2[8:17]", "C01#t3", "C01#t4", "C01#t6", "C02#t2", "C02#t3[9:29]", "C02#t3[52:78]"});
  q.where = {{"experience", "junior"}};  // C01 (5 segments) and E01 (6)
  CHECK(found(q).size() == 11);
  q.where = {{"experience", "mid"}};  // M02 (4) and C02, whose tenure comes from @answer (3)
  CHECK(found(q).size() == 7);
  q.where = {{"team_size", "5"}};  // M02 (4) and E02, whose team_size comes from @answer (5)
  CHECK(found(q).size() == 9);
  q.where = {{"country", "DE"}, {"role", "employee"}};  // both must hold: E02 only
  CHECK(found(q) == Ids{"E02#t3", "E02#t3[59:68]", "E02#t4", "E02#t5", "E02#t7"});
}

TEST_CASE("analysis::query_segments filters by participant, question and coder", "[analysis][query]") {
  SegmentQuery q;
  q.participants = {"C02", "E01"};  // C02: 3, E01: 6
  CHECK(found(q).size() == 9);
  SegmentQuery question;
  question.questions = {"II.2"};
  CHECK(found(question) == Ids{"C01#t3", "C02#t3[9:29]", "C02#t3[52:78]", "E01#t3", "E02#t4", "M01#t4", "M02#t3"});
  question.questions = {"III"};  // a part: III.1 and III.R
  CHECK(found(question) == Ids{"C01#t4", "E01#t4", "E01#t4[7:44]", "E01#t5", "E02#t5", "M01#t5", "M02#t4"});
  SegmentQuery coder;
  coder.coders = {"CAROL"};  // case-insensitive
  CHECK(found(coder) == Ids{"E01#t2", "E01#t3", "E01#t4[7:44]", "E01#t6"});
  coder.all_of = {"WELL"};  // only carol's codes count: E01#t2's WELL.1 is dana's
  CHECK(found(coder) == Ids{"E01#t6"});
  coder.coders = {"dana"};
  coder.all_of = {"COM.2"};
  CHECK(found(coder) == Ids{"E01#t3", "M01#t4", "M02#t3"});
}

TEST_CASE("analysis::query_segments matches text with a case-insensitive, Unicode-aware ICU regex", "[analysis][query]") {
  SegmentQuery q;
  q.text = "ÜBERGABE";
  auto study = study_for(q);
  auto r = query_segments(*study, q);
  REQUIRE(ids(r) == Ids{"M01#t3"});
  // "Die " is 4 bytes, "Übergabe" 9 (Ü takes two): the match is bytes [4, 13)
  REQUIRE(r.highlights[0].size() == 1);
  CHECK(r.highlights[0][0].begin == 4);
  CHECK(r.highlights[0][0].end == 13);
  q.text = "\\bzeit\\w+";
  CHECK(found(q) == Ids{"C02#t3[52:78]"});
  q.all = true;  // C02#t3's whole turn has no code: listed with --all
  CHECK(found(q) == Ids{"C02#t3", "C02#t3[52:78]"});
  SegmentQuery zones;
  zones.text = "time zones?";
  auto zs = study_for(zones);
  auto zr = query_segments(*zs, zones);
  CHECK(ids(zr) == Ids{"C01#t6", "M01#t2", "M02#t3"});
  // M02#t3: "The Monday call stays. Too many meetings across three " is 54 bytes
  CHECK(zr.highlights[2][0].begin == 54);
  CHECK(zr.highlights[2][0].end == 64);
}

TEST_CASE("analysis::query_segments matches a fixed phrase case-folded, metacharacters literal", "[analysis][query]") {
  SegmentQuery q;
  q.text = "ÉQUIPE EST";
  q.fixed = true;
  auto study = study_for(q);
  auto r = query_segments(*study, q);
  REQUIRE(ids(r) == Ids{"E01#t2"});
  // "I post in the stand-up thread, but I never know if anyone reads it. Notre " is 74 bytes; "équipe est" 11
  CHECK(r.highlights[0][0].begin == 74);
  CHECK(r.highlights[0][0].end == 85);
  q.text = "=cmd|";
  CHECK(found(q) == Ids{"C02#t2"});
  q.fixed = false;  // as a regex, the empty alternative matches every segment: a text search looks at every
                    // participant turn, so the coded segments and the uncoded turns none of whose spans is coded
                    // (40 = 26 + 14, counted from `qualrank code --all --format json` on the fieldwork study)
  CHECK(found(q).size() == 40);
}

TEST_CASE("analysis::query_segments lists uncoded turns with their suggestions", "[analysis][query]") {
  SegmentQuery q;
  q.uncoded = true;
  auto study = study_for(q);
  auto r = query_segments(*study, q);
  CHECK(ids(r) == Ids{"C01#t1", "C01#t5", "C01#t6", "C02#t1", "C02#t4", "E01#t1", "E01#t5", "E02#t1", "E02#t2", "E02#t6",
                      "M01#t1", "M01#t6", "M02#t1", "M02#t5"});
  CHECK(r.segments[2].suggested == Ids{"COM.3", "WELL.2"});
  CHECK(r.segments[6].suggested == Ids{"TOOL.2"});
  q.questions = {"IV.1"};  // E01's IV.1 turn is coded by carol alone: not uncoded
  CHECK(found(q) == Ids{"C01#t6"});
  q.suggestions = false;
  auto plain = study_for(q);
  CHECK(query_segments(*plain, q).segments.front().suggested.empty());
}

TEST_CASE("analysis::check_query reports every bad filter with a hint", "[analysis][query]") {
  SegmentQuery q;
  q.all_of = {"COMM"};
  q.any_of = {{"TOOL.9"}};
  q.where = {{"rol", "manager"}, {"role", "manger"}};
  q.participants = {"m01"};
  q.questions = {"II.9"};
  q.coders = {"bob"};
  q.text = "a(b";
  auto study = study_for(q);
  auto problems = check_query(*study, q);
  CHECK(problems == Ids{
                        "--code: unknown taxonomy node 'COMM' (did you mean 'COM'?)",
                        "--any-code: unknown taxonomy node 'TOOL.9' (did you mean 'TOOL.1'?)",
                        "--where: no participant has an attribute 'rol' (did you mean 'role'?)",
                        "--where: no participant has role = 'manger' (did you mean 'manager'?)",
                        "--participant: no participant 'm01' (did you mean 'M01'?)",
                        "--question: the guideline has no question or part 'II.9' (did you mean 'II.1'?)",
                        "--coder: no codes by 'bob' (coders: carol, dana, eli)",
                        "--text: invalid regular expression 'a(b': U_REGEX_MISMATCHED_PAREN at character 4 (use --fixed for a plain phrase)",
                    });
  CHECK_THROWS_AS(query_segments(*study, q), std::invalid_argument);
  SegmentQuery mixed;
  mixed.uncoded = true;
  mixed.all_of = {"COM"};
  CHECK(check_query(*study, mixed).size() == 1);
  SegmentQuery retired;  // COM.1.b has a successor at version 2, so it resolves; an id never defined does not
  retired.all_of = {"COM.1.b"};
  CHECK(check_query(*study, retired).empty());
}

TEST_CASE("analysis::query_matrix counts segments and participants per group, node by node", "[analysis][query]") {
  SegmentQuery q;
  q.all_of = {"COM"};
  auto study = study_for(q);
  auto m = query_matrix(*study, query_segments(*study, q).segments, "role");
  REQUIRE(m.groups == Ids{"manager", "employee", "contractor"});
  CHECK(m.group_sizes == std::vector<std::size_t>{2, 2, 2});
  std::vector<std::string> rows;
  for (const auto& r : m.rows) rows.push_back(r.node);
  CHECK(rows == Ids{"COM.1", "COM.1.a", "COM.2", "COM.3", "TOOL.1", "TOOL.2", "WELL.1", "WELL.2"});
  // COM.1: managers M01#t2, M02#t2 and its span (3 segments, 2 people); employee E02#t3; contractors
  // C01#t2, its span, C02#t2 (3, 2)
  CHECK(m.rows[0].cells[0].segments == 3);
  CHECK(m.rows[0].cells[0].participants == 2);
  CHECK(m.rows[0].cells[1].segments == 1);
  CHECK(m.rows[0].cells[2].segments == 3);
  CHECK(m.rows[0].all.segments == 7);
  CHECK(m.rows[0].all.participants == 5);
  // WELL.1 among COM segments: E01#t2, E01#t3 (one employee) and C01#t2, C01#t3 (one contractor)
  CHECK(m.rows[6].cells[0].segments == 0);
  CHECK(m.rows[6].cells[1].segments == 2);
  CHECK(m.rows[6].cells[1].participants == 1);
  CHECK(m.rows[6].all.participants == 2);
  CHECK(m.total.all.segments == 18);
  CHECK(m.total.cells[0].segments == 7);  // M01 t2, t2 span, t3, t4; M02 t2, t2 span, t3
  CHECK(m.total.cells[2].segments == 6);
  auto by_country = query_matrix(*study, query_segments(*study, q).segments, "country");
  CHECK(by_country.groups == Ids{"BR", "DE", "FR", "IN", "US"});  // sorted: not a guideline attribute
}

TEST_CASE("analysis::exemplar_quotes keeps the picks per node in segment order", "[analysis][query]") {
  auto study = study_for({});
  auto ex = exemplar_quotes(study->segments);
  std::vector<std::string> nodes;
  for (const auto& [node, quotes] : ex) nodes.push_back(node);
  CHECK(nodes == Ids{"COM.1", "COM.2", "TOOL.2", "TOOL.2.a", "TOOL.3", "WELL.1"});
  REQUIRE(ex["WELL.1"].size() == 2);
  CHECK(ex["WELL.1"][0].segment == "C01#t3");
  CHECK(ex["WELL.1"][1].segment == "E01#t3");
  CHECK(ex["COM.2"].size() == 1);  // E01#t3, picked by carol; dana's COM.2 there is no pick
  CHECK(ex["TOOL.2"][0].quote.find("<script>") != std::string::npos);  // kept as written: escaping is the output's job
  CHECK(exemplar_quotes(study->segments, 1)["WELL.1"].size() == 1);
}

TEST_CASE("analysis::query_study_options drops only text the query cannot list", "[analysis][query]") {
  // The same queries on a study loaded whole and on one loaded with the query's trim: the same segments, texts
  // and highlights; and the trimmed study really holds less text.
  std::vector<SegmentQuery> queries(5);
  queries[0].all_of = {"COM"};
  queries[0].where = {{"role", "employee"}};
  queries[1].any_of = {{"TOOL.1", "WELL"}};
  queries[1].text = "the";
  queries[2].none_of = {"COM.1"};
  queries[2].questions = {"II"};
  queries[3].participants = {"M01", "E02"};
  queries[3].coders = {"eli"};
  queries[4].where = {{"experience", "mid"}};
  for (const auto& q : queries) {
    Diagnostics d1, d2;
    auto options = query_study_options(q, std::nullopt);
    REQUIRE(options.load.trim);
    auto trimmed = load_study(kFieldwork, d1, options);
    options.load.trim = nullptr;
    auto whole = load_study(kFieldwork, d2, options);
    REQUIRE(trimmed);
    REQUIRE(whole);
    CHECK(d1.has_errors() == d2.has_errors());
    auto a = query_segments(*trimmed, q), b = query_segments(*whole, q);
    CHECK(ids(a) == ids(b));
    CHECK_FALSE(a.segments.empty());
    for (std::size_t i = 0; i < a.segments.size() && i < b.segments.size(); ++i) CHECK(a.segments[i].text == b.segments[i].text);
    REQUIRE(a.highlights.size() == b.highlights.size());
    for (std::size_t i = 0; i < a.highlights.size(); ++i) {
      REQUIRE(a.highlights[i].size() == b.highlights[i].size());
      for (std::size_t k = 0; k < a.highlights[i].size(); ++k)
        CHECK((a.highlights[i][k].begin == b.highlights[i][k].begin && a.highlights[i][k].end == b.highlights[i][k].end));
    }
    std::size_t text_trimmed = 0, text_whole = 0;
    for (const auto& t : trimmed->workspace.transcripts)
      for (const auto& turn : t.turns) text_trimmed += turn.text.size();
    for (const auto& t : whole->workspace.transcripts)
      for (const auto& turn : t.turns) text_whole += turn.text.size();
    CHECK(text_trimmed < text_whole);
  }
  SegmentQuery uncoded;  // --uncoded learns from every coded turn's text: nothing is dropped
  uncoded.uncoded = true;
  CHECK_FALSE(query_study_options(uncoded, std::nullopt).load.trim);
}

TEST_CASE("analysis::coded_segments only counts suggestions when asked", "[analysis][coding]") {
  // The fieldwork study has two participant turns with keyword suggestions and no code (C01#t6: COM.3,
  // WELL.2; E01#t5: TOOL.2; see the table above). The report counts them but builds only coded segments.
  Diagnostics diags;
  auto all = load_study(kFieldwork, diags);
  REQUIRE(all);
  std::vector<std::string> suggested_only;
  for (const auto& s : all->segments)
    if (s.codes.empty()) suggested_only.push_back(s.id);
  CHECK(suggested_only == std::vector<std::string>{"C01#t6", "E01#t5"});
  CHECK(all->tally.suggested_only == 0);

  StudyOptions options;
  options.coding.suggestions_counted_only = true;
  auto coded = load_study(kFieldwork, diags, options);
  REQUIRE(coded);
  REQUIRE_FALSE(diags.has_errors());
  CHECK(coded->tally.suggested_only == 2);
  CHECK(coded->segments.size() == all->segments.size() - 2);
  std::size_t with_suggestions = 0;  // coded segments with suggestions in the full build
  for (const auto& s : all->segments) with_suggestions += !s.codes.empty() && !s.suggested.empty();
  CHECK(with_suggestions > 0);
  for (const auto& s : coded->segments) {
    CHECK_FALSE(s.codes.empty());
    CHECK(s.suggested.empty());  // only counted: none carried
  }

  // With uncoded turns listed, every turn is built with its suggestions as before; nothing is only counted.
  options.coding.include_uncoded = true;
  auto listed = load_study(kFieldwork, diags, options);
  REQUIRE(listed);
  CHECK(listed->tally.suggested_only == 0);
  CHECK(listed->segments.size() > all->segments.size());
}

TEST_CASE("analysis::coded_segments_taking_text gives the same segments and empties only the coded turns", "[analysis][coding]") {
  Diagnostics diags;
  auto copied = load_study(kFieldwork, diags);
  StudyOptions options;
  options.segments_take_turn_text = true;
  auto taken = load_study(kFieldwork, diags, options);
  REQUIRE(copied);
  REQUIRE(taken);
  REQUIRE_FALSE(diags.has_errors());
  REQUIRE(taken->segments.size() == copied->segments.size());
  for (std::size_t i = 0; i < copied->segments.size(); ++i) {
    const auto& a = copied->segments[i];
    const auto& b = taken->segments[i];
    CHECK(a.id == b.id);
    CHECK(a.text == b.text);  // spans too: they are copied before their turn's text is taken
    CHECK(a.begin == b.begin);
    CHECK(a.end == b.end);
    CHECK(a.nodes(copied->taxonomy()) == b.nodes(taken->taxonomy()));
  }
  // C01#t2 is listed as a whole turn (its text moved into the segment); C01#t1 has no segment (its text stays).
  const Transcript* c01 = taken->workspace.participant("C01");
  REQUIRE(c01);
  std::size_t emptied = 0, kept = 0;
  for (const auto& turn : c01->turns) {
    if (turn.interviewer) continue;
    if (turn.number == 2) CHECK(turn.text.empty());
    if (turn.number == 1) CHECK_FALSE(turn.text.empty());
    (turn.text.empty() ? emptied : kept) += 1;
  }
  CHECK(emptied > 0);
  CHECK(kept > 0);
  // The workspace loaded as usual keeps every turn's text.
  for (const auto& turn : copied->workspace.participant("C01")->turns)
    if (!turn.interviewer) CHECK_FALSE(turn.text.empty());
}
