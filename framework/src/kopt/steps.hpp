// Steps that more than one subcommand runs (`optimize` runs them all). Each
// is defined in the file of the subcommand it belongs to.
#pragma once

#include <filesystem>
#include <string>

#include "core/json_io.hpp"
#include "kopt/assemble.hpp"
#include "kopt/manifest.hpp"
#include "kopt/record.hpp"

namespace kopt::cli {

// cmd_env.cpp: the kernelopt.env document of this machine.
[[nodiscard]] json env_document();

// cmd_record.cpp: refuses (std::runtime_error) when the record exists:
// records are never rewritten.
void require_no_record(const manifest& m, const std::string& variant);
// cmd_record.cpp: assembles the record and embeds the gate's decision.
[[nodiscard]] record build_gated_record(const manifest& m, const record_inputs& inputs);

// cmd_report.cpp: report.md and report.html into `out_dir`.
void write_report(const manifest& m, const std::filesystem::path& out_dir, const std::string& notes);

}  // namespace kopt::cli
