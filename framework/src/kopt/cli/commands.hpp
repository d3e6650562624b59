// The subcommand table: one row per subcommand (name, one-line help,
// options, exit codes, function), as ninja does. `kopt help`, the argument
// parser (parser.hpp, CLI11) and the check of docs/loop.md all read this one
// table. A new command: its cmd_<name>.cpp, its declaration below, one row.
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "kopt/cli/cli_args.hpp"
#include "kopt/inputs/manifest.hpp"

namespace kopt::cli {

// Exit codes shared by every subcommand (docs/loop.md, "Exit codes").
inline constexpr int k_exit_ok = 0;        // ok, ACCEPT, no SLOWER row, targets hold
inline constexpr int k_exit_fail = 1;      // REJECT, a SLOWER row, a TARGET that no longer holds
inline constexpr int k_exit_usage = 2;     // bad arguments or bad / missing input
inline constexpr int k_exit_skipped = 77;  // nothing measured (no GPU, no record yet): CTest's skip

using command_fn = int (*)(const arguments& args, std::ostream& out, std::ostream& err);

struct command {
  const char* m_name;
  const char* m_summary;      // one line
  const char* m_positionals;  // "BASE NEW", or "" when none
  int m_positional_count;     // how many; -1: up to the command to check
  std::vector<option_spec> m_options;
  const char* m_exit_codes;  // one line: "0 ACCEPT, 1 REJECT, 2 usage or input error"
  command_fn m_run;
};

[[nodiscard]] const std::vector<command>& command_table();
[[nodiscard]] const command* find_command(const std::string& name);

// "kopt record --manifest M --variant V ..." from the table row.
[[nodiscard]] std::string usage_line(const command& cmd);

// An integer option's value in [min, max]; usage_error "<option> '<text>':
// expected an integer from <min> to <max>" otherwise.
[[nodiscard]] int int_option(const std::string& option, const std::string& text, int min, int max);

// `text` as a fraction in [0, 1); usage_error naming `option` otherwise.
[[nodiscard]] double fraction_option(const std::string& option, const std::string& text);

// --threshold FRACTION in [0, 1), else k_default_threshold (verdict.hpp).
[[nodiscard]] double threshold_option(const arguments& args);

// --lock-wait SECONDS in [0, 86400], else k_default_lock_wait_s (records/kernel_lock.hpp).
[[nodiscard]] double lock_wait_option(const arguments& args);

// --manifest FILE, with --records-dir DIR (where the command has it) in
// place of the manifest's records folder.
[[nodiscard]] manifest read_manifest_of(const arguments& args);

// After a record of `variant` is written: its entry into the default
// experience store, one line on `out` (a failure is a note, never an error).
void record_experience(const manifest& m, const std::string& variant, std::ostream& out);

// Parses argv (without the program name; parser.hpp), runs the subcommand,
// and turns every error into a message on `err` and an exit code: `--help`
// and `--version` exit 0, a usage error 2 with the command's usage line.
[[nodiscard]] int dispatch(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

int cmd_env(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_record(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_gate(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_compare(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_baseline(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_report(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_mask(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_optimize(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_ablate(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_perf(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_ceilings(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_profile(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_profile_import(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_static(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_resources(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_overlap(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_experience(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_recommend(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_status(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_sweep(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_select(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_shard(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_merge(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_slurm(const arguments& args, std::ostream& out, std::ostream& err);
int cmd_help(const arguments& args, std::ostream& out, std::ostream& err);

}  // namespace kopt::cli
