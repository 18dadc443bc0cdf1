#include <catch2/catch.hpp>

#include "qualrank/report/pseudonymise.h"

using namespace qualrank;

namespace {

std::vector<NameEntry> names(const std::string& csv) {
  Diagnostics d;
  auto parsed = parse_names_list(csv, "names.csv", d);
  REQUIRE_FALSE(d.has_errors());
  REQUIRE(parsed);
  return *parsed;
}

std::string first_error(const std::string& csv) {
  Diagnostics d;
  auto parsed = parse_names_list(csv, "names.csv", d);
  CHECK_FALSE(parsed);
  REQUIRE(d.has_errors());
  return format_diagnostic(d.items()[0]);
}

}  // namespace

TEST_CASE("report::parse_names_list generates pseudonyms per kind, in the list's order", "[report]") {
  auto n = names("name,pseudonym,kind\nAnna Berg,,\nGlobex,,organisation\nTom,T.,person\nKarl,,\nInitech,,organisation\n");
  REQUIRE(n.size() == 5);
  CHECK(n[0].pseudonym == "Person-1");
  CHECK(n[1].pseudonym == "Organisation-1");
  CHECK(n[2].pseudonym == "T.");
  CHECK(n[3].pseudonym == "Person-2");
  CHECK(n[4].pseudonym == "Organisation-2");
  CHECK(n[4].line == 6);
  CHECK(names("name\nAnna\n")[0].kind == "person");
}

TEST_CASE("report::parse_names_list refuses what would break the package or leak a name, located", "[report]") {
  CHECK(first_error("name\nA\n") == "names.csv:2:1: error: a name has at least 2 characters, not 'A'");
  CHECK(first_error("name,kind\nAnna,Person\n") ==
        "names.csv:2:1: error: a kind is lower-case letters (person, organisation, ...), not 'Person'");
  CHECK(first_error("name,pseudonym\nAnna,P/1\n") == "names.csv:2:1: error: the pseudonym 'P/1' holds '/' (coding markup or a path character)");
  CHECK(first_error("name,pseudonym\nAnna,{A}\n") == "names.csv:2:1: error: the pseudonym '{A}' holds '{' (coding markup or a path character)");
  CHECK(first_error("name,pseudonym\nAnna,.hidden\n") == "names.csv:2:1: error: the pseudonym '.hidden' starts with '.'");
  CHECK(first_error("name,pseudonym\nAnna,*ref\n") == "names.csv:2:1: error: the pseudonym '*ref' does not start with a letter or digit");
  CHECK(first_error("name,pseudonym\nAnna,\"Smith, J\"\n") ==
        "names.csv:2:1: error: the pseudonym 'Smith, J' holds a character other than letters, digits, space, '-', '_' and '.'");
  CHECK(first_error("name,pseudonym\nAnna,x\nANNA,y\n") == "names.csv:3:1: error: 'ANNA' is listed twice (first on line 2); give each name once");
  CHECK(first_error("name,pseudonym\nAnna,Bert\nBert,Anna\n") ==
        "names.csv:2:1: error: the pseudonym 'Bert' contains a listed name or an e-mail address; it would appear in the package");
  CHECK(first_error("name,alias\nAnna,x\n") == "names.csv:1: error: unknown column 'alias' (name, pseudonym, kind)");
}

TEST_CASE("report::Pseudonymiser replaces whole words, case-insensitively, longest name first", "[report]") {
  Pseudonymiser p(names("name,pseudonym\nAnna,P-A\nAnna Berg,P-AB\nÅsa,P-Å\n"));
  CHECK(p.apply("Anna Berg met anna; Annabel and Hanna did not. ANNA BERG's plan.") ==
        "P-AB met P-A; Annabel and Hanna did not. P-AB's plan.");
  CHECK(p.apply("ÅSA and åsa, not Åsafrid") == "P-Å and P-Å, not Åsafrid");
  CHECK(p.apply("[Anna said]{A.1} and U01.anna.codes") == "[P-A said]{A.1} and U01.P-A.codes");
  CHECK(p.replacements() == 7);
  CHECK(p.names_found() == 3);
}

TEST_CASE("report::Pseudonymiser::find_name finds what apply would replace, counting nothing", "[report]") {
  Pseudonymiser p(names("name\nAnna Berg\n"));
  CHECK(p.find_name("Annabel Bergen") == nullptr);
  const NameEntry* hit = p.find_name("x anna  berg, ANNA BERG.");
  REQUIRE(hit);
  CHECK(hit->name == "Anna Berg");
  CHECK(p.replacements() == 0);
}

TEST_CASE("report::Pseudonymiser numbers e-mail addresses by first appearance, across calls", "[report]") {
  Pseudonymiser p({});
  CHECK(p.apply("Write to Anna.Berg@uni.example.org. Or bob@x.io!") == "Write to Email-1. Or Email-2!");
  CHECK(p.apply("ANNA.BERG@UNI.EXAMPLE.ORG again; @code A.1 and a@b and x@y.z1 stay") ==
        "Email-1 again; @code A.1 and a@b and x@y.z1 stay");
  CHECK(p.addresses() == 2);
  CHECK(p.key_csv() ==
        "kind,original,pseudonym,occurrences\n"
        "email,Anna.Berg@uni.example.org,Email-1,2\n"
        "email,bob@x.io,Email-2,1\n");
}

TEST_CASE("report::Pseudonymiser key lists every listed name with its count", "[report]") {
  Pseudonymiser p(names("name,pseudonym,kind\nAnna,,\n=cmd,,other\n"));
  p.apply("Anna and anna");
  CHECK(p.key_csv() == "kind,original,pseudonym,occurrences\nperson,Anna,Person-1,2\nother,'=cmd,Other-1,0\n");
}

TEST_CASE("report::parse_names_list enforces its limits, located", "[report]") {
  std::string many = "name\n";
  for (int i = 0; i <= 10000; ++i) many += "Name" + std::to_string(i) + "\n";
  CHECK(first_error(many) == "names.csv:10002:1: error: a names list holds at most 10000 names");
  CHECK(first_error("name\n" + std::string(201, 'a') + "\n") == "names.csv:2:1: error: a name is at most 200 bytes");
  CHECK(first_error(std::string(kMaxNamesFileBytes + 1, 'a')) ==
        "names.csv: error: a names list holds at most 4194304 bytes, not 4194305");
}
