// Benchmarks for the taxonomy history (src/model/history_*.cpp).
//  * BM_Materialise: replaying 100,000 accepted edits on a 10,000-node taxonomy into the latest version,
//    with the migration map (requirement: under 1 s).
//  * BM_DiffCompare: the diff of two materialised versions 50,000 edits apart (and first vs latest)
//    (requirement: under 200 ms); BM_Diff: the same end to end, with the one replay of all 100,000 edits that
//    materialises both versions.
//  * BM_Resolve: migrating 100,000 codes written with base-version ids to the latest version.
//  * BM_ParseHistory: reading and hash-checking the 100,000-edit history file (200,000 entries) from text,
//    for scale (yaml-cpp parsing dominates).
// The generator is deterministic: a 10,000-node, three-level taxonomy and a random mix of valid edits (add 30%,
// rename 20%, redefine 20%, move 15%, merge 5%, split 5%, deprecate 5%), each checked by a TaxonomyReplay so
// that every edit applies. Edits are accepted into versions 2..11, 10,000 per version.
#include <benchmark/benchmark.h>

#include <time.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "qualrank/model/history/history.h"

using namespace qualrank;

namespace {

constexpr int kEdits = 100000;
constexpr int kPerVersion = 10000;

struct Rng {  // splitmix64: the same numbers on every platform
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

Taxonomy make_base() {
  Taxonomy t;
  t.name = "bench";
  int theme_index = 0;
  for (int r = 0; r < 10; ++r) {
    std::string root = "R" + std::to_string(r);
    t.add({root, "Root " + std::to_string(r), "Definition of " + root, "", "", {}, {}, "", 1, "active", qualrank::Location{}, std::string()});
    for (int th = 0; th < 30; ++th, ++theme_index) {
      std::string theme = root + "." + std::to_string(th);
      t.add({theme, "Theme " + theme, "Definition of " + theme, "", "", {"alias " + theme}, {"kw " + theme}, root, 2, "active", qualrank::Location{}, std::string()});
      int subs = 32 + (theme_index < 90 ? 1 : 0);  // 10 + 300 + 9,690 = 10,000 nodes
      for (int s = 0; s < subs; ++s) {
        std::string sub = theme + "." + std::to_string(s);
        t.add({sub, "Sub-theme " + sub, "Definition of " + sub, "", "", {}, {}, theme, 3, "active", qualrank::Location{}, std::string()});
      }
    }
  }
  t.reindex();
  return t;
}

struct Generated {
  Taxonomy base;
  std::shared_ptr<TaxonomyHistory> history;
};

const Generated& generated() {
  static const Generated g = [] {
    Generated out;
    out.base = make_base();
    TaxonomyReplay oracle(out.base);
    std::vector<std::string> live = out.base.order();
    std::unordered_map<std::string, std::size_t> slot;
    for (std::size_t i = 0; i < live.size(); ++i) slot[live[i]] = i;
    auto drop = [&](const std::string& id) {
      auto i = slot.at(id);
      slot[live.back()] = i;
      std::swap(live[i], live.back());
      live.pop_back();
      slot.erase(id);
    };
    auto keep = [&](const std::string& id) {
      slot[id] = live.size();
      live.push_back(id);
    };
    Rng rng{42};
    auto h = std::make_shared<TaxonomyHistory>();
    h->file = "codebooks/bench.history.yaml";
    h->exists = true;
    h->taxonomy = "bench";
    for (int v = 1; v <= 1 + kEdits / kPerVersion; ++v) h->versions.push_back({v, v == 11 ? "latest" : "", {}});
    int fresh = 0;
    while (static_cast<int>(h->edits.size()) < kEdits) {
      TaxonomyEdit e;
      int n = static_cast<int>(h->edits.size());
      e.id = "E" + std::to_string(n + 1);
      e.where = {"bench", n + 1, 1};
      e.author = "bench";
      e.date = "2025-01-01";
      e.rationale = "generated";
      e.status = EditStatus::accepted;
      e.version = 2 + n / kPerVersion;
      const std::string& a = live[rng.below(live.size())];
      const std::string& b = live[rng.below(live.size())];
      auto roll = rng.below(100);
      std::string id = "N" + std::to_string(fresh);
      if (roll < 30) {
        e.op = EditOp::add;
        e.node = id;
        e.parent = a;
        e.name = "Node " + id;
        e.definition = "Added node " + id;
      } else if (roll < 50) {
        e.op = EditOp::rename;
        e.node = a;
        e.name = "Renamed " + id;
        if (roll < 40) e.new_id = id;
      } else if (roll < 70) {
        e.op = EditOp::redefine;
        e.node = a;
        e.definition = "Redefined by " + e.id;
        if (roll < 55) e.aliases = std::vector<std::string>{"alias " + id};
      } else if (roll < 85) {
        e.op = EditOp::move;
        e.node = a;
        e.parent = b;
      } else if (roll < 90) {
        e.op = EditOp::merge;
        e.from = {a};
        e.into = b;
      } else if (roll < 95) {
        e.op = EditOp::split;
        e.node = a;
        e.parts = {{id + "a", "Split " + id + "a"}, {id + "b", "Split " + id + "b"}};
        e.codings_to = roll < 93 ? id + "a" : "recode";
      } else {
        e.op = EditOp::deprecate;
        e.node = a;
      }
      Diagnostics ignored;
      if (!oracle.apply(e, e.version, ignored)) continue;
      ++fresh;
      switch (e.op) {
        case EditOp::add: keep(e.node); break;
        case EditOp::rename:
          if (e.new_id) {
            drop(e.node);
            keep(*e.new_id);
          }
          break;
        case EditOp::merge: drop(e.from[0]); break;
        case EditOp::split:
          drop(e.node);
          for (const auto& p : e.parts) keep(p.id);
          break;
        case EditOp::deprecate: drop(e.node); break;
        default: break;
      }
      h->accepted.push_back(h->edits.size());
      h->edits.push_back(std::move(e));
    }
    out.history = h;
    return out;
  }();
  return g;
}

void BM_Materialise(benchmark::State& state) {
  const auto& g = generated();
  std::size_t nodes = 0;
  for (auto _ : state) {
    Diagnostics d;
    auto v = materialise(g.base, *g.history, g.history->latest_version(), d);
    if (!v) state.SkipWithError("replay failed");
    nodes = v->taxonomy.size();
    benchmark::DoNotOptimize(v);
  }
  state.counters["edits"] = kEdits;
  state.counters["nodes_before"] = static_cast<double>(g.base.size());
  state.counters["nodes_after"] = static_cast<double>(nodes);
  Diagnostics d;
  state.counters["depth_after"] = materialise(g.base, *g.history, g.history->latest_version(), d)->taxonomy.max_level();
}
BENCHMARK(BM_Materialise)->Unit(benchmark::kMillisecond)->Iterations(5);

// Where the time of a replay goes: copying the base and indexing its labels, applying the edits, and
// finish() (dropping tombstones, rebuilding the indexes).
void BM_ReplayPhases(benchmark::State& state) {
  const auto& g = generated();
  // Thread CPU time: the machine may be shared, and wall time then measures the neighbours.
  struct clock {
    static double now() {
      timespec ts{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
      return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
    }
  };
  double construct = 0, apply = 0, finish = 0;
  for (auto _ : state) {
    auto t0 = clock::now();
    TaxonomyReplay replay(g.base);
    auto t1 = clock::now();
    Diagnostics d;
    for (auto i : g.history->accepted) replay.apply(g.history->edits[i], g.history->edits[i].version, d);
    auto t2 = clock::now();
    auto t = replay.finish();
    auto t3 = clock::now();
    benchmark::DoNotOptimize(t);
    construct += t1 - t0;
    apply += t2 - t1;
    finish += t3 - t2;
  }
  auto n = static_cast<double>(state.iterations());
  state.counters["construct_ms"] = construct / n;
  state.counters["apply_ms"] = apply / n;
  state.counters["finish_ms"] = finish / n;
}
BENCHMARK(BM_ReplayPhases)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_Diff(benchmark::State& state) {
  const auto& g = generated();
  int from = static_cast<int>(state.range(0)), to = g.history->latest_version();
  std::size_t changes = 0;
  for (auto _ : state) {
    Diagnostics d;
    auto diff = diff_versions(g.base, g.history, from, to, nullptr, d);
    if (!diff) state.SkipWithError("diff failed");
    changes = diff->changes.size();
    benchmark::DoNotOptimize(diff);
  }
  state.counters["changes"] = static_cast<double>(changes);
}
BENCHMARK(BM_Diff)->Arg(6)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(5);

// The diff of two materialised versions (compare_versions), without the replay that produces them.
void BM_DiffCompare(benchmark::State& state) {
  const auto& g = generated();
  int from = static_cast<int>(state.range(0)), to = g.history->latest_version();
  Diagnostics d;
  auto pair = replay_versions(g.base, *g.history, from, to, d);
  std::size_t changes = 0;
  for (auto _ : state) {
    auto diff = compare_versions(*pair, g.history, nullptr);
    changes = diff.changes.size();
    benchmark::DoNotOptimize(diff);
  }
  state.counters["changes"] = static_cast<double>(changes);
}
BENCHMARK(BM_DiffCompare)->Arg(6)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_Resolve(benchmark::State& state) {
  const auto& g = generated();
  Diagnostics d;
  auto v = materialise(g.base, *g.history, g.history->latest_version(), d);
  auto resolve = migrating_resolver(v->taxonomy, v->migration);
  const auto& written = g.base.order();
  std::size_t resolved = 0;
  for (auto _ : state) {
    resolved = 0;
    for (int i = 0; i < 100000; ++i) resolved += resolve(written[static_cast<std::size_t>(i) % written.size()]).node ? 1 : 0;
  }
  state.counters["resolved"] = static_cast<double>(resolved);
}
BENCHMARK(BM_Resolve)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_ParseHistory(benchmark::State& state) {
  const auto& g = generated();
  static const std::string text = render_history("bench", "codebooks/bench.yaml", g.history->edits);
  for (auto _ : state) {
    Diagnostics d;
    auto h = parse_history(text, "codebooks/bench.history.yaml", d);
    if (!h) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(h);
  }
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_ParseHistory)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
