// The subcommand table: help, docs/loop.md checked against it, mask.
#include <gtest/gtest.h>

#include "core/json_io.hpp"
#include "formats/env.hpp"
#include "kopt/cli/commands.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

TEST(cli, help_lists_every_command) {
  const run_result r = run_kopt({"help"});
  EXPECT_EQ(r.m_code, 0);
  for (const cli::command& cmd : cli::command_table()) {
    EXPECT_NE(r.m_out.find("  " + std::string(cmd.m_name) + " "), std::string::npos) << cmd.m_name;
    EXPECT_NE(r.m_out.find(cmd.m_summary), std::string::npos) << cmd.m_name;
    const run_result one = run_kopt({"help", cmd.m_name});
    EXPECT_EQ(one.m_code, 0);
    EXPECT_NE(one.m_out.find("usage: " + cli::usage_line(cmd)), std::string::npos);
    EXPECT_NE(one.m_out.find(std::string("exit codes: ") + cmd.m_exit_codes), std::string::npos);
  }
  EXPECT_EQ(run_kopt({"--help"}).m_code, 0);
  EXPECT_EQ(run_kopt({}).m_code, 2);
  EXPECT_EQ(run_kopt({"frobnicate"}).m_code, 2);
  EXPECT_EQ(run_kopt({"help", "frobnicate"}).m_code, 2);
}

// `kopt COMMAND --help` is `kopt help COMMAND` (exit 0); nothing else changes.
TEST(cli, command_help_is_kopt_help_command) {
  using args = std::vector<std::string>;
  EXPECT_EQ(cli::help_rewritten({"record", "--help"}), (args{"help", "record"}));
  EXPECT_EQ(cli::help_rewritten({"gate", "--manifest", "m.json", "-h"}), (args{"help", "gate"}));
  EXPECT_EQ(cli::help_rewritten({"frobnicate", "--help"}), (args{"help", "frobnicate"}));
  EXPECT_EQ(cli::help_rewritten({"--help", "record"}), (args{"--help", "record"}));
  EXPECT_EQ(cli::help_rewritten({"record", "--helpful"}), (args{"record", "--helpful"}));
  EXPECT_EQ(cli::help_rewritten({}), args{});
  for (const cli::command& cmd : cli::command_table()) {
    const run_result r = run_kopt(cli::help_rewritten({cmd.m_name, "--help"}));
    EXPECT_EQ(r.m_code, 0) << cmd.m_name << ": " << r.m_err;
    EXPECT_NE(r.m_out.find("usage: " + cli::usage_line(cmd)), std::string::npos) << cmd.m_name;
  }
  EXPECT_EQ(run_kopt(cli::help_rewritten({"frobnicate", "--help"})).m_code, 2);
  EXPECT_EQ(run_kopt({"record", "--frobnicate"}).m_code, 2);
}

// docs/loop.md documents each subcommand with its usage line and exit codes
// exactly as the table has them, so help and docs cannot drift apart.
TEST(cli, docs_match_the_command_table) {
  const std::string docs = read_text(k_docs_dir / "loop.md");
  ASSERT_FALSE(docs.empty()) << k_docs_dir / "loop.md";
  for (const cli::command& cmd : cli::command_table()) {
    const std::string heading = "### `kopt " + std::string(cmd.m_name) + "`";
    const std::size_t start = docs.find(heading);
    ASSERT_NE(start, std::string::npos) << "docs/loop.md has no section " << heading;
    const std::size_t end = docs.find("\n### ", start + heading.size());
    const std::string section =
        docs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    EXPECT_NE(section.find("    " + cli::usage_line(cmd) + "\n"), std::string::npos)
        << heading << " lacks the usage line: " << cli::usage_line(cmd);
    EXPECT_NE(section.find(std::string("Exit codes: ") + cmd.m_exit_codes + "\n"), std::string::npos)
        << heading << " lacks: Exit codes: " << cmd.m_exit_codes;
    for (const cli::option_spec& option : cmd.m_options) {
      EXPECT_NE(section.find(std::string("`") + option.m_name + "`"), std::string::npos)
          << heading << " does not explain `" << option.m_name << "`";
    }
  }
}

TEST(cli, env_without_cuda_says_why) {
  scratch_case c;
  const run_result r = run_kopt({"env", "--out", c.path("env/env.json").string()});
  ASSERT_EQ(r.m_code, 0) << r.m_err;
  // What kopt env writes, kopt record reads back through the same type.
  const env_file env = read_env(c.path("env/env.json"));
  EXPECT_FALSE(env.m_hostname.empty());
  EXPECT_FALSE(env.m_timestamp_utc.empty());
  if (env.m_devices.empty()) {
    ASSERT_TRUE(env.m_no_device_reason);
    EXPECT_NE(r.m_out.find("no device (" + *env.m_no_device_reason + ")"), std::string::npos) << r.m_out;
    EXPECT_FALSE(env.m_counters_reason.empty());
  } else {
    EXPECT_FALSE(env.m_no_device_reason);
  }
  EXPECT_EQ(to_json(env), read_json_file(c.path("env/env.json")));
}

TEST(cli, mask_changes_only_the_masked_field) {
  scratch_case c;
  ASSERT_NO_FATAL_FAILURE(record_golden_flow(c));
  const std::string before = read_text(c.record("v3"));
  const run_result r =
      run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v3", "--reason", "superseded"});
  ASSERT_EQ(r.m_code, 0) << r.m_err;
  const std::string after = read_text(c.record("v3"));
  json a = json::parse(before);
  json b = json::parse(after);
  EXPECT_TRUE(a["masked"].is_null());
  EXPECT_EQ(b["masked"]["reason"], "superseded");
  EXPECT_EQ(b["masked"]["utc"], "2025-11-21T05:00:00Z");
  a.erase("masked");
  b.erase("masked");
  EXPECT_EQ(a.dump(2), b.dump(2));
  // Byte for byte: everything before and after the `masked` member is unchanged.
  const std::size_t at = before.find("\"masked\": null");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(after.substr(0, at), before.substr(0, at));
  const std::string tail = before.substr(at + std::string("\"masked\": null").size());
  EXPECT_EQ(after.substr(after.size() - tail.size()), tail);

  const run_result again = run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v3", "--reason", "x"});
  EXPECT_EQ(again.m_code, 2);
  EXPECT_NE(again.m_err.find("already masked (superseded)"), std::string::npos);
  const run_result none = run_kopt({"mask", "--manifest", c.manifest(), "--variant", "v5", "--reason", "x"});
  EXPECT_EQ(none.m_code, 2);
  EXPECT_NE(none.m_err.find("no record of v5 to mask"), std::string::npos);
}

}  // namespace
}  // namespace kopt::test
