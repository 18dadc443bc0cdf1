#include "catch.h"

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "qualrank/util/shared_text.h"

using namespace qualrank;

TEST_CASE("util::SharedText reads as the string it holds, equal strings sharing one", "[util]") {
  SharedText a("C.5.ii"), b(std::string("C.5") + ".ii"), none, empty("");
  CHECK(a == b);
  CHECK(&a.str() == &b.str());  // interned
  CHECK(a == "C.5.ii");
  CHECK(std::string("C.5.ii") == a);
  CHECK(a != "C.5.i");
  CHECK(none.empty());
  CHECK(empty == none);
  CHECK(none == "");
  CHECK(a.size() == 6);
  CHECK(a + "!" == "C.5.ii!");
  CHECK(a.substr(0, 3) == "C.5");
  CHECK(SharedText("A") < SharedText("B"));
  std::string copy = a;
  CHECK(copy == "C.5.ii");
  std::map<std::string, int> m;
  m[a] = 1;
  CHECK(m.at("C.5.ii") == 1);
  SharedText c = "x";
  c += "y";
  c += 'z';
  CHECK(c == "xyz");
}

TEST_CASE("util::SharedText interns from several threads alike", "[util]") {
  std::vector<const std::string*> seen(4);
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < seen.size(); ++k)
    threads.emplace_back([&, k] {
      for (int i = 0; i < 1000; ++i) SharedText("n" + std::to_string(i));
      seen[k] = &SharedText("shared").str();
    });
  for (auto& t : threads) t.join();
  for (const auto* p : seen) CHECK(p == seen[0]);
}
