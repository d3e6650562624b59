// docs/formats.md against the types: every field table the code declares
// (format_table, next to each to_json) appears in the doc, under
// `<!-- fields: TITLE -->`, row for row; the doc has no table the code does
// not; and each to_json writes exactly the fields its tables declare.
// After an intended change, rewrite the doc's tables from the code with
//   KOPT_UPDATE_DOCS=1 ctest --test-dir build-ci -R formats.doc_tables
// and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "formats/bench_result.hpp"
#include "formats/ceilings.hpp"
#include "formats/correctness_result.hpp"
#include "formats/timing_settings.hpp"
#include "formats/timing_stats.hpp"
#include "kopt/records/record.hpp"

namespace kopt {
namespace {

const std::string k_doc = std::string(KOPT_SOURCE_DIR) + "/docs/formats.md";
const std::string k_marker = "<!-- fields: ";

std::vector<format_table> code_tables() {
  std::vector<format_table> all;
  for (std::vector<format_table> part :
       {ceilings_tables(), bench_tables(), std::vector<format_table>{timing_stats_table(), timing_settings_table()},
        correctness_tables(), record_tables()}) {
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

std::string escape_cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::vector<std::string> render(const format_table& table) {
  std::vector<std::string> lines = {"| field | type | meaning |", "|---|---|---|"};
  for (const field_doc& f : table.m_fields) {
    lines.push_back("| `" + std::string(f.m_name) + "` | " + escape_cell(f.m_type) + " | " + escape_cell(f.m_meaning) +
                    " |");
  }
  return lines;
}

std::vector<std::string> doc_lines() {
  std::ifstream in(k_doc);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Title -> (first line of the table, its lines) for each marked table.
struct doc_table {
  std::size_t m_first = 0;
  std::vector<std::string> m_lines;
};
std::map<std::string, doc_table> doc_tables(const std::vector<std::string>& lines) {
  std::map<std::string, doc_table> tables;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(k_marker, 0) != 0) continue;
    const std::size_t end = lines[i].find(" -->");
    doc_table t;
    t.m_first = i + 1;
    for (std::size_t j = i + 1; j < lines.size() && lines[j].rfind("|", 0) == 0; ++j) t.m_lines.push_back(lines[j]);
    tables[lines[i].substr(k_marker.size(), end - k_marker.size())] = t;
  }
  return tables;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(doc_tables, in_the_doc_are_the_code_tables) {
  std::vector<std::string> lines = doc_lines();
  ASSERT_FALSE(lines.empty()) << k_doc;
  const std::map<std::string, doc_table> in_doc = doc_tables(lines);
  const std::vector<format_table> in_code = code_tables();
  const bool update = std::getenv("KOPT_UPDATE_DOCS") != nullptr;
  std::set<std::string> titles;
  // Replaced from the last table up, so that earlier line numbers stay valid.
  std::map<std::size_t, std::pair<std::size_t, std::vector<std::string>>, std::greater<>> edits;
  for (const format_table& table : in_code) {
    titles.insert(table.m_title);
    const std::vector<std::string> expected = render(table);
    const auto it = in_doc.find(table.m_title);
    if (it == in_doc.end()) {
      ADD_FAILURE() << k_doc << " has no table for " << table.m_title << "; add\n"
                    << k_marker << table.m_title << " -->\n"
                    << joined(expected);
      continue;
    }
    if (it->second.m_lines == expected) continue;
    if (update) {
      edits[it->second.m_first] = {it->second.m_lines.size(), expected};
    } else {
      ADD_FAILURE() << k_doc << ": the table of " << table.m_title << " (line " << it->second.m_first + 1
                    << ") differs from the code; expected\n"
                    << joined(expected) << "(KOPT_UPDATE_DOCS=1 rewrites it)";
    }
  }
  for (const auto& [title, table] : in_doc) {
    EXPECT_TRUE(titles.count(title) != 0) << k_doc << " line " << table.m_first << ": a table for " << title
                                          << ", which no type declares";
  }
  if (!edits.empty()) {
    for (const auto& [first, edit] : edits) {
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(first),
                  lines.begin() + static_cast<std::ptrdiff_t>(first + edit.first));
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(first), edit.second.begin(), edit.second.end());
    }
    std::ofstream(k_doc) << joined(lines);
  }
}

// ---- to_json writes exactly the declared fields -----------------------------------

std::set<std::string> keys_of(std::initializer_list<json> objects) {
  std::set<std::string> keys;
  for (const json& o : objects) {
    for (const auto& item : o.items()) keys.insert(item.key());
  }
  return keys;
}

std::set<std::string> declared(std::initializer_list<std::string> titles) {
  std::map<std::string, format_table> by_title;
  for (const format_table& t : code_tables()) by_title[t.m_title] = t;
  std::set<std::string> names;
  for (const std::string& title : titles) {
    const auto it = by_title.find(title);
    EXPECT_NE(it, by_title.end()) << title;
    if (it == by_title.end()) continue;
    for (const field_doc& f : it->second.m_fields) names.insert(f.m_name);
  }
  return names;
}

TEST(doc_tables, ceilings_write_their_declared_fields) {
  ceilings_file c;
  c.m_measurement.emplace();
  ceiling known;
  known.m_name = "copy_bandwidth";
  known.m_value = 1e12;
  known.m_unit = "B/s";
  known.m_method = "copy";
  known.m_details = json::object();
  ceiling unknown;
  unknown.m_name = "fp32_fma";
  unknown.m_unit = "FLOP/s";
  c.m_ceilings = {known, unknown};
  const json doc = to_json(c);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.ceilings"}));
  EXPECT_EQ(keys_of({doc["ceilings"]["copy_bandwidth"], doc["ceilings"]["fp32_fma"]}),
            declared({"kernelopt.ceilings: ceilings.<name>"}));
}

TEST(doc_tables, bench_result_writes_its_declared_fields) {
  bench_result r;
  bench_header& h = r.m_kopt.emplace();
  h.m_timing.emplace();
  bench_row timed;
  timed.m_rounds.emplace();
  output_check_summary& check = timed.m_output_check.emplace();
  check.m_status = "pass";
  check.m_checked_launches = 4;
  output_check_summary unavailable;
  unavailable.m_status = "unavailable";
  bench_row failed;
  failed.m_error = "failed";
  bench_row profiled;
  profiled.m_profiled = true;
  gbench_run run;
  run.m_label = "label";
  gbench_run failed_run = run;
  failed_run.m_error_message = "error";
  gbench_run skipped_run = run;
  skipped_run.m_skip_message = "skipped";
  gbench_run aggregate = run;
  aggregate.m_run_type = "aggregate";
  r.m_benchmarks = {{run, timed}, {failed_run, failed}, {skipped_run, profiled}, {aggregate, std::nullopt}};
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"Benchmark JSON"}));
  EXPECT_EQ(keys_of({doc["kopt"]}), declared({"kernelopt.bench"}));
  EXPECT_EQ(keys_of({doc["kopt"]["timing"]}), declared({"timing settings"}));
  const json& runs = doc["benchmarks"];
  EXPECT_EQ(keys_of({runs[0], runs[1], runs[2], runs[3]}), declared({"kernelopt.bench: benchmarks[]"}));
  EXPECT_EQ(keys_of({runs[0]["kopt"], runs[1]["kopt"], runs[2]["kopt"]}),
            declared({"kernelopt.bench: benchmarks[].kopt", "timing statistics"}));
  bench_row unchecked = failed;
  unchecked.m_output_check = unavailable;
  EXPECT_EQ(keys_of({runs[0]["kopt"]["output_check"], to_json(unchecked)["output_check"]}),
            declared({"kernelopt.bench: benchmarks[].kopt.output_check"}));
  EXPECT_EQ(keys_of({runs[0]["kopt"]["rounds"]}), declared({"kernelopt.bench: benchmarks[].kopt.rounds"}));
}

TEST(doc_tables, correctness_result_writes_its_declared_fields) {
  correctness_result r;
  r.m_note = "note";
  trial_record t;
  output_result o;
  o.m_first_mismatch.emplace();
  t.m_outputs = {o};
  r.m_trials = {t};
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.correctness"}));
  EXPECT_EQ(keys_of({doc["trials"][0]}), declared({"kernelopt.correctness: trials[]"}));
  EXPECT_EQ(keys_of({doc["trials"][0]["outputs"][0]}), declared({"kernelopt.correctness: trials[].outputs[]"}));
  EXPECT_EQ(keys_of({doc["trials"][0]["outputs"][0]["first_mismatch"]}),
            declared({"kernelopt.correctness: trials[].outputs[].first_mismatch"}));
}

TEST(doc_tables, record_writes_its_declared_fields) {
  record r;
  r.m_failure = run_failure{"benchmark", "signal 11"};
  shape_timing timed;
  timed.m_shape = shape::parse("n=1");
  shape_timing failed;
  failed.m_shape = shape::parse("n=2");
  failed.m_error = "failed";
  r.m_timing.m_shapes = {timed, failed};
  const json doc = to_json(r);
  EXPECT_EQ(keys_of({doc}), declared({"kernelopt.record"}));
  EXPECT_EQ(keys_of({doc["timing"]}), declared({"kernelopt.record: timing"}));
  EXPECT_EQ(keys_of({doc["timing"]["shapes"][0], doc["timing"]["shapes"][1]}),
            declared({"kernelopt.record: timing.shapes[]", "timing statistics"}));
  EXPECT_EQ(keys_of({doc["timing_settings"]}), declared({"timing settings"}));
  EXPECT_EQ(keys_of({doc["gate"]}), declared({"kernelopt.record: gate"}));
}

}  // namespace
}  // namespace kopt
