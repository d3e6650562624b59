// The subcommand table: help, the command line (CLI11), docs/loop.md
// checked against it, mask.
#include <gtest/gtest.h>

#include "core/json_io.hpp"
#include "core/version.hpp"
#include "formats/env.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/cli/parser.hpp"
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

// Every command of the table (a new one too): `--help` anywhere exits 0 with
// its usage, an unknown option exits 2 naming it, `--version` is kopt's.
TEST(cli, every_command_has_help_and_names_unknown_options) {
  for (const cli::command& cmd : cli::command_table()) {
    for (const std::vector<std::string>& argv : {std::vector<std::string>{cmd.m_name, "--help"},
                                                 {cmd.m_name, "-h"},
                                                 {cmd.m_name, "--manifest", "m.json", "--help"},
                                                 {"--help", cmd.m_name}}) {
      const run_result r = run_kopt(argv);
      EXPECT_EQ(r.m_code, 0) << cmd.m_name << ": " << r.m_err;
      EXPECT_NE(r.m_out.find("usage: " + cli::usage_line(cmd) + "\n"), std::string::npos) << cmd.m_name << r.m_out;
    }
    const run_result unknown = run_kopt({cmd.m_name, "--no-such-option=1"});
    EXPECT_EQ(unknown.m_code, 2) << cmd.m_name;
    EXPECT_NE(unknown.m_err.find(std::string("kopt ") + cmd.m_name + ": unknown option --no-such-option\nusage: " +
                                 cli::usage_line(cmd) + "\n"),
              std::string::npos)
        << unknown.m_err;
    EXPECT_EQ(run_kopt({cmd.m_name, "--version"}).m_code, 2) << cmd.m_name << ": --version is kopt's, not a command's";
  }
  const run_result version = run_kopt({"--version"});
  EXPECT_EQ(version.m_code, 0);
  EXPECT_EQ(version.m_out, std::string("kopt (KernelOpt) ") + kernelopt_version() + "\n");
  const run_result top = run_kopt({"--frobnicate"});
  EXPECT_EQ(top.m_code, 2);
  EXPECT_NE(top.m_err.find("kopt: unknown option --frobnicate"), std::string::npos) << top.m_err;
  const run_result unknown = run_kopt({"frobnicate", "--help"});
  EXPECT_EQ(unknown.m_code, 2);
  EXPECT_NE(unknown.m_err.find("unknown command 'frobnicate'"), std::string::npos) << unknown.m_err;
}

// The table's rules on values, whatever CLI11 would allow.
TEST(cli, values_follow_the_table) {
  const cli::command& gate = *cli::find_command("gate");
  const auto parsed = [&](const std::vector<std::string>& argv) { return cli::parse_arguments(gate, argv); };
  const auto refused = [&](const std::vector<std::string>& argv) -> std::string {
    try {
      (void)parsed(argv);
    } catch (const usage_error& e) {
      return e.what();
    }
    return "accepted";
  };
  const cli::arguments a = parsed({"--manifest=m.json", "--variant", "report", "--json"});
  EXPECT_EQ(a.value("--manifest"), "m.json");
  EXPECT_EQ(a.value("--variant"), "report");  // a command's name as a value stays a value
  EXPECT_TRUE(a.has("--json"));
  EXPECT_FALSE(a.has("--no-such"));
  EXPECT_EQ(refused({"--manifest", "a", "--manifest", "b"}), "--manifest given twice");
  EXPECT_EQ(refused({"--manifest=", "--json"}), "--manifest needs a non-empty value");
  EXPECT_EQ(refused({"--manifest", ""}), "--manifest needs a non-empty value");
  EXPECT_EQ(refused({"--variant", "v1"}), "missing --manifest FILE");
  EXPECT_EQ(refused({"--manifest", "m.json", "--json=yes"}), "--json takes no value");
  EXPECT_EQ(refused({"--manifest", "m.json", "--json", "--json"}), "--json given twice");
  EXPECT_EQ(refused({"--manifest", "m.json", "extra"}), "unexpected argument 'extra'");
  EXPECT_EQ(refused({"--manifest"}), "--manifest needs a value (FILE)");
  EXPECT_EQ(refused({"--manifest", "--json"}), "--manifest needs a value (FILE)");
  EXPECT_EQ(refused({"--manifest", "m.json", "--help"}), "--help and --version do not run a command");

  const cli::command& compare = *cli::find_command("compare");
  EXPECT_EQ(cli::parse_arguments(compare, {"a.json", "b.json"}).positionals(),
            (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_THROW((void)cli::parse_arguments(compare, {"a.json"}), usage_error);
  // A second command name is an argument of the first.
  const cli::command_line help = cli::parse_command_line({"help", "record"});
  ASSERT_EQ(help.m_request, cli::command_line::run);
  EXPECT_EQ(help.m_command, cli::find_command("help"));
  EXPECT_EQ(help.m_arguments.positionals(), std::vector<std::string>{"record"});
  const cli::command& static_cmd = *cli::find_command("static");
  EXPECT_EQ(cli::parse_arguments(static_cmd, {"--manifest", "m", "--variant", "v", "--out", "o", "--objects", "a.o",
                                              "--objects=b.o"})
                .values("--objects"),
            (std::vector<std::string>{"a.o", "b.o"}));
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
