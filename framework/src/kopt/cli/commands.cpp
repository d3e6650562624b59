#include "kopt/cli/commands.hpp"

#include <cstdlib>
#include <ostream>

#include "core/json_io.hpp"
#include "core/version.hpp"
#include "kopt/cli/parser.hpp"
#include "kopt/compare/verdict.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/kernel_lock.hpp"

namespace kopt::cli {

using o = option_spec;

const std::vector<command>& command_table() {
  static const std::vector<command> table = {
      {"env",
       "probe GPU, driver, CUDA, clocks and counter permission; write kernelopt.env",
       "",
       0,
       {{"--out", "FILE", o::required, "where to write the env JSON"}},
       "0 written, 2 usage or write error",
       cmd_env},
      {"ceilings", "measure copy bandwidth, FP32 FMA and tensor-core (cuBLAS) rates on the GPU; write kernelopt.ceilings",
       "", 0,
       {{"--out", "FILE", o::required, "where to write the kernelopt.ceilings JSON"},
        {"--device", "N", o::optional, "CUDA device ordinal (default: CTest's allocation, else 0)"},
        {"--repeats", "N", o::optional, "timed runs per configuration, median taken (default 20)"},
        {"--quick", "", o::flag, "small sizes, few repeats: a smoke test, not a ceiling"}},
       "0 every ceiling measured, 1 some measurement failed (written with its reason), 2 usage error, "
       "77 no GPU (nothing written)",
       cmd_ceilings},
      {"record",
       "assemble a variant's record from its results, run the gate, embed the decision",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--variant", "NAME", o::required, "the variant to record"},
        {"--correctness", "FILE", o::repeated_required, "a kernelopt.correctness results file (repeatable)"},
        {"--bench", "FILE", o::required,
         "benchmark JSON timing the variant with its parent, best-so-far, reference, baselines"},
        {"--env", "FILE", o::optional, "a kernelopt.env file"},
        {"--ceilings", "FILE", o::optional,
         "a kernelopt.ceilings file (peak.* / ceiling.* and % of ceiling)"},
        {"--profile", "FILE", o::optional, "profile JSON, embedded as-is"},
        {"--static", "FILE", o::optional, "static-check JSON, embedded as-is"},
        {"--lock-wait", "SECONDS", o::optional,
         "wait this long for another kopt writing this kernel's records (default 600; 0: do not wait)"},
        {"--json", "", o::flag, "print a versioned JSON document (docs/formats.md) instead of text"}},
       "0 written and ACCEPT, 1 written and REJECT, 2 usage or input error (nothing written), "
       "77 correctness skipped (nothing written)",
       cmd_record},
      {"gate",
       "re-evaluate a record against the current state: ACCEPT or REJECT with every reason",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--variant", "NAME", o::optional, "the variant (default: the newest recorded)"},
        {"--json", "", o::flag, "print a versioned JSON document (docs/formats.md) instead of text"}},
       "0 ACCEPT, 1 REJECT, 2 usage or input error",
       cmd_gate},
      {"compare",
       "noise-aware FASTER / SLOWER / SAME / UNSURE per row of two result sets (KernelOpt, Google Benchmark, NVBench)",
       "BASE NEW",
       2,
       {{"--threshold", "FRACTION", o::optional, "minimum effect: a smaller change is SAME (default 0.02)"},
        {"--format", "md|json", o::optional, "output format (default md)"},
        {"--json", "", o::flag, "the same as --format json"}},
       "0 no SLOWER row, 1 some row SLOWER, 2 usage or input error",
       cmd_compare},
      {"report",
       "write report.md and a self-contained report.html for a kernel",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--out-dir", "DIR", o::required, "where report.md and report.html go"},
        {"--records-dir", "DIR", o::optional,
         "keep the records here instead of the manifest's RECORDS (a scratch folder: the main job)"},
        {"--notes", "FILE.md", o::optional, "Markdown notes (default: <RECORDS>/<k>/notes.md if present)"}},
       "0 written, 2 usage or input error",
       cmd_report},
      {"mask",
       "mark a record discarded: kept, ignored by the gate and best-so-far",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--variant", "NAME", o::required, "the variant whose record to mask"},
        {"--reason", "TEXT", o::required, "why (kept in the record)"},
        {"--lock-wait", "SECONDS", o::optional,
         "wait this long for another kopt writing this kernel's records (default 600; 0: do not wait)"},
        {"--json", "", o::flag, "print a versioned JSON document (docs/formats.md) instead of text"}},
       "0 masked, 2 usage or input error (or already masked)",
       cmd_mask},
      {"optimize",
       "one iteration: env, correctness, benchmark, record, gate, report",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--variant", "NAME", o::optional, "the variant (default: the first without a record)"},
        {"--records-dir", "DIR", o::optional,
         "keep the records here instead of the manifest's RECORDS (a scratch folder: the main job)"},
        {"--quick", "", o::flag, "benchmark the quick shapes only"},
        {"--ceilings", "FILE", o::optional, "a kernelopt.ceilings file for the record"},
        {"--no-profile", "", o::flag, "skip the Nsight Compute step (the record says profile: not run)"},
        {"--ablate", "", o::flag,
         "after an ACCEPT, kopt ablate's steps on the variant's switchable METHODS (docs/ablation.md)"},
        {"--build-target", "", o::flag, "as optimize-<k>: a REJECT or a skip is printed, exit 0"},
        {"--lock-wait", "SECONDS", o::optional,
         "wait this long for another kopt writing this kernel's records (default 600; 0: do not wait)"},
        {"--json", "", o::flag, "progress on stderr; stdout gets one kernelopt.optimize JSON document"}},
       "0 ACCEPT (or nothing left to optimize; with --build-target also REJECT and skipped), 1 REJECT "
       "or a step failed, 2 usage or input error (a variant out of declaration order included), 77 tests or "
       "benchmark skipped (no record written)",
       cmd_optimize},
      {"ablate",
       "each switchable METHOD of a variant switched off: build, check, time; attribution and class into its record",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--variant", "NAME", o::optional, "the variant (default: the accepted best)"},
        {"--records-dir", "DIR", o::optional,
         "keep the records here instead of the manifest's RECORDS (a scratch folder: the main job)"},
        {"--repetitions", "N", o::optional, "benchmark processes, each timing the variant and its ablations (default 3)"},
        {"--threshold", "FRACTION", o::optional, "minimum effect: a smaller change is ineffective (default 0.02)"},
        {"--quick", "", o::flag, "benchmark the quick shapes only"},
        {"--no-build", "", o::flag, "do not build the ablated modules (they are built already)"},
        {"--build-target", "", o::flag, "as ablate-<k>: nothing to ablate (no record, no GPU) is printed, exit 0"},
        {"--lock-wait", "SECONDS", o::optional,
         "wait this long for another kopt writing this kernel's records (default 600; 0: do not wait)"},
        {"--json", "", o::flag, "progress on stderr; stdout gets one kernelopt.ablate JSON document"}},
       "0 written (whatever the classes), 2 usage or input error (or the variant's own build fails), "
       "77 nothing measured: no accepted record, or no device",
       cmd_ablate},
      {"perf",
       "benchmark the accepted best and compare it with its record (the <k>.perf test)",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--quick", "", o::flag, "benchmark the quick shapes only"},
        {"--threshold", "FRACTION", o::optional, "floor of the SAME band (default 0.02; KernelOpt_PERF_THRESHOLD)"},
        {"--missing", "skip|fail", o::optional,
         "when the gate cannot run (no record, no GPU, no baseline for this model): skip (77, default) or fail "
         "(1; KernelOpt_PERF_MISSING)"},
        {"--json", "", o::flag, "progress on stderr; stdout gets one kernelopt.perf JSON document"}},
       "0 no SLOWER shape and every TARGET that held still holds, 1 otherwise (or not run with --missing "
       "fail), 2 usage or input error, 77 not run: no accepted record yet, benchmark skipped, or no "
       "reference for this GPU model",
       cmd_perf},
      {"baseline",
       "time the accepted best in N processes: per-shape run-to-run spread for <k>.perf, per GPU model",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--runs", "N", o::optional, "benchmark processes (default 8, at least 3)"},
        {"--quick", "", o::flag, "benchmark the quick shapes only"},
        {"--threshold", "FRACTION", o::optional, "floor of the band shown (default 0.02)"},
        {"--json", "", o::flag, "progress on stderr; stdout gets one kernelopt.baseline JSON document"}},
       "0 written, 1 a benchmark failed, 2 usage or input error, 77 no accepted record yet or benchmark "
       "skipped",
       cmd_baseline},
      {"profile", "Nsight Compute on one launch per implementation x shape: bottleneck, findings, roofline", "", 0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--out", "FILE", o::required, "the kernelopt.profile JSON (several implementations: also <stem>.<impl>.json)"},
        {"--variant", "NAME", o::repeated, "a variant or baseline to profile (repeatable; default: all)"},
        {"--quick", "", o::flag, "the quick shapes only"},
        {"--ncu", "PATH", o::optional, "ncu to run (default: PATH, then /usr/local/cuda/bin/ncu, then /opt/nvidia/nsight-compute/ncu)"},
        {"--metrics", "LIST", o::optional, "comma-separated ncu metrics instead of the default list"},
        {"--ceilings", "FILE", o::optional, "a kernelopt.ceilings file for the roofline (measured wins over spec)"},
        {"--specs-dir", "DIR", o::optional, "spec files (framework/specs) matched against the device name"},
        {"--device", "NAME", o::optional, "the device name, when ncu's output lacks it"},
        {"--compute-ceiling", "NAME", o::optional, "the roofline's compute ceiling (default: by input dtype)"},
        {"--allow-unavailable", "", o::flag, "exit 0 when profiling is impossible (no ncu, counters not readable)"}},
       "0 every benchmark profiled (or unavailable with --allow-unavailable), 1 a benchmark failed, "
       "2 usage or input error, 77 profiling unavailable",
       cmd_profile},
      {"profile-import", "kernelopt.profile from ncu raw CSV pages already captured", "", 0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--csv", "BENCHMARK=FILE", o::repeated_required,
         "<k>/<impl>/<shape>=output of ncu --import R --csv --page raw --print-units base (repeatable)"},
        {"--out", "FILE", o::required, "the kernelopt.profile JSON"},
        {"--ceilings", "FILE", o::optional, "a kernelopt.ceilings file for the roofline"},
        {"--specs-dir", "DIR", o::optional, "spec files matched against the device name"},
        {"--device", "NAME", o::optional, "the device name, when the CSV lacks it"},
        {"--compute-ceiling", "NAME", o::optional, "the roofline's compute ceiling (default: by input dtype)"}},
       "0 every CSV imported, 1 a CSV held no kernel, 2 usage or input error", cmd_profile_import},
      {"static", "check a variant's SASS: claimed METHODS, SASS_SIGNATURES, registers, spills, local memory", "", 0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--variant", "NAME", o::required, "the variant whose objects these are"},
        {"--objects", "FILE", o::repeated_required, "an object file of the variant (repeatable)"},
        {"--out", "FILE", o::required, "where to write the kernelopt.static JSON"},
        {"--cuobjdump", "PATH", o::optional, "cuobjdump to use (default: the one in PATH)"},
        {"--method-signature", "METHOD=REGEX", o::repeated, "SASS regex of a claimed METHOD; empty: no signature (repeatable)"},
        {"--sass-signature", "NAME=REGEX", o::repeated, "a SASS_SIGNATURES regex that must match (repeatable)"},
        {"--max-registers", "N", o::optional, "fail when a function uses more registers"},
        {"--no-spills", "", o::flag, "fail on any local-memory load or store (STL/LDL)"},
        {"--no-local-memory", "", o::flag, "fail on STL/LDL, a stack frame or LOCAL memory"}},
       "0 every check holds, 1 a claim or limit fails, 2 usage or input error, "
       "77 skipped (no cuobjdump, or it cannot disassemble)",
       cmd_static},
      {"resources",
       "write the CTest resource spec file listing this machine's GPUs (docs/multi-gpu.md)",
       "",
       0,
       {{"--out", "FILE", o::required, "where to write the spec (ctest --resource-spec-file FILE)"},
        {"--slots", "N", o::optional, "slots per GPU (default 4); must equal the build's KernelOpt_GPU_SLOTS"},
        {"--devices", "LIST", o::optional, "comma-separated CUDA ordinals to list (default: every visible GPU)"}},
       "0 written (one placeholder GPU when none is visible), 2 usage or write error",
       cmd_resources},
      {"overlap",
       "from bench JSON files: did two benchmark runs ever share a GPU at the same time",
       "BENCH_JSON...",
       -1,
       {{"--json", "", o::flag, "print a versioned JSON document (docs/formats.md) instead of text"}},
       "0 no overlap, 1 some runs overlapped on one GPU, 2 usage or input error",
       cmd_overlap},
      {"status",
       "stop or continue: the best variant, the stop conditions, the bottleneck, the next step",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--kernel", "NAME", o::optional, "the kernel (checked against the manifest)"},
        {"--records-dir", "DIR", o::optional, "read the records here instead of the manifest's RECORDS"},
        {"--store", "DIR", o::optional, "the experience store (default: KOPT_EXPERIENCE_DIR, else <RECORDS>/experience)"},
        {"--stagnation", "N", o::optional, "stop after N rejections in a row (default 2)"},
        {"--json", "", o::flag, "print a versioned JSON document (docs/formats.md) instead of text"}},
       "0 continue, 1 stop (a stop condition holds), 2 usage or input error",
       cmd_status},
      {"recommend",
       "methods ranked from the experience store, with the records behind each",
       "",
       0,
       {{"--kernel", "NAME", o::required, "the kernel to recommend for"},
        {"--manifest", "FILE", o::optional, "the kernel's manifest.json (the store's default place, the backend)"},
        {"--records-dir", "DIR", o::optional, "the records folder in place of the manifest's (the store's default place)"},
        {"--store", "DIR", o::optional, "the experience store (default: KOPT_EXPERIENCE_DIR, else <RECORDS>/experience)"},
        {"--bottleneck", "NAME", o::optional, "the bottleneck to match (default: the kernel's newest entry's)"},
        {"--gpu", "NAME", o::optional, "the GPU to match (default: the kernel's newest entry's)"},
        {"--backend", "NAME", o::optional, "the backend to match (default: the manifest's, else the newest entry's)"},
        {"--top", "N", o::optional, "how many methods (default 5)"},
        {"--json", "", o::flag, "print a versioned JSON document (docs/formats.md) instead of text"}},
       "0 ranked (an empty store ranks nothing), 2 usage or input error",
       cmd_recommend},
      {"experience",
       "the experience store: add a kernel's records, list, search, stats, merge stores",
       "add|list|search|stats|merge [STORE...]",
       -1,
       {{"--store", "DIR", o::optional, "the store (default: KOPT_EXPERIENCE_DIR, else <RECORDS>/experience of --manifest)"},
        {"--manifest", "FILE", o::optional, "add: the kernel whose records to add"},
        {"--records-dir", "DIR", o::optional, "add: read the records here instead of the manifest's RECORDS"},
        {"--origin", "NAME", o::optional, "add: the entries' source repository (default: the records folder)"},
        {"--kernel-class", "NAME", o::optional, "add: the kernel class (default: the kernel's name up to its first _)"},
        {"--kernel", "NAME", o::optional, "list, search, stats: only this kernel"},
        {"--method", "NAME", o::optional, "search, stats: only entries that used this method"},
        {"--bottleneck", "NAME", o::optional, "search, stats: only entries with this bottleneck before"},
        {"--gpu", "NAME", o::optional, "search, stats: only entries from this GPU"},
        {"--outcome", "CLASS", o::optional, "search, stats: success, neutral, failure, root or unknown"},
        {"--text", "WORDS", o::optional, "search, stats: only entries whose hypothesis or methods contain WORDS"},
        {"--json", "", o::flag, "print a versioned JSON document (docs/formats.md) instead of text"}},
       "0 done, 2 usage or input error",
       cmd_experience},
      {"sweep",
       "build, test and time the points of a family (PARAMS); one result file per point, resumable",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--variant", "NAME", o::required, "the family variant"},
        {"--point", "NAME", o::repeated, "only this point (repeatable; default: every point of the family)"},
        {"--budget", "SECONDS", o::optional, "start no further point after this many seconds (default: no budget)"},
        {"--jobs", "N", o::optional, "points built at once (default 2)"},
        {"--force", "", o::flag, "run points whose current result is finished again"},
        {"--build-only", "", o::flag,
         "build the points and stop: a later run (e.g. ctest -L sweep over several GPUs) tests and times them"},
        {"--sweep-dir", "DIR", o::optional, "write the results here instead of the family's sweep_dir (a shard)"}},
       "0 every point asked for has a result (failed points included), 1 the budget left points for a later run, "
       "2 usage or input error, 77 every point run was skipped (no GPU; run again where one is)",
       cmd_sweep},
      {"select",
       "per-shape champion, frontier and failed points of a family; the selection its dispatch is generated from",
       "",
       0,
       {{"--manifest", "FILE", o::required, "the kernel's manifest.json"},
        {"--kernel", "NAME", o::optional, "the kernel (checked against the manifest)"},
        {"--variant", "NAME", o::required, "the family variant"},
        {"--margin", "FRACTION", o::optional, "a point within this fraction of a shape's champion is on its frontier "
                                               "(default 0.03)"},
        {"--sweep-dir", "DIR", o::optional, "read the points' results here instead of the family's sweep_dir"},
        {"--records-dir", "DIR", o::optional, "write the selection here instead of the manifest's RECORDS"},
        {"--lock-wait", "SECONDS", o::optional,
         "wait this long for another kopt writing this kernel's records (default 600; 0: do not wait)"},
        {"--json", "", o::flag, "print the kernelopt.selection document instead of text"}},
       "0 written, 2 usage or input error (a point without a current result, no usable point on a shape)",
       cmd_select},
      {"shard",
       "list the units of shard I of N, or run them into a self-describing folder (docs/scale-out.md)",
       "list|run",
       1,
       {{"--shard", "I/N", o::required,
         "shard I of N (0 <= I < N); auto/N: I from SLURM_ARRAY_TASK_ID, else JOB_COMPLETION_INDEX"},
        {"--manifest", "FILE", o::repeated, "a kernel's manifest.json (repeatable)"},
        {"--build-dir", "DIR", o::optional, "every kernel manifest under this build folder"},
        {"--out", "DIR", o::optional, "run: the folder of the shards' folders (shared by all shards)"},
        {"--quick", "", o::flag, "run: benchmark the quick shapes only"},
        {"--ceilings", "FILE", o::optional, "run: a kernelopt.ceilings file for the benchmarks"},
        {"--budget", "SECONDS", o::optional,
         "run: time for the whole shard; a unit that might not finish in what is left is not started"},
        {"--format", "lines|json|ctest-regex", o::optional, "list: one unit a line (default), a JSON document, "
                                                          "or a regex of the units' CTest tests (ctest -R)"}},
       "0 listed, or every unit of the shard run (pass or fail alike), 1 the budget ran out (partial shard), "
       "2 usage or input error",
       cmd_shard},
      {"merge",
       "shard folders from any hosts -> one results folder and champions per device model; what is missing",
       "SHARD_DIR...",
       -1,
       {{"--out", "DIR", o::required, "the merged folder (replaced when it holds an earlier merge)"},
        {"--same-as", "DIR", o::optional,
         "another merge folder (e.g. a single-host run): exit 1 unless champions and failures agree"},
        {"--manifest", "FILE", o::repeated,
         "a kernel's manifest.json (repeatable): also write each model's records, selections and reports"},
        {"--build-dir", "DIR", o::optional, "every kernel manifest under this build folder, as --manifest"},
        {"--margin", "FRACTION", o::optional, "the selections' frontier margin, as kopt select's (default 0.03)"},
        {"--into-records", "", o::flag,
         "also install one device model's records and selections into the manifests' RECORDS (as kopt record "
         "and kopt select write them); the next build makes the dispatch"},
        {"--model", "NAME", o::optional,
         "with --into-records: the device model (or its folder) to install; needed when the results hold several"},
        {"--records-dir", "DIR", o::optional, "with --into-records: install here instead of the manifests' RECORDS"},
        {"--lock-wait", "SECONDS", o::optional,
         "wait this long for another kopt writing a kernel's records (default 600; 0: do not wait)"}},
       "0 complete, 1 conflicting duplicates (merged by the rule) or not the same as --same-as, "
       "2 usage or input error (nothing installed when a record there differs), 3 incomplete: shards missing "
       "(named; nothing installed), 4 complete, but a family's selection could not be made (named)",
       cmd_merge},
      {"slurm",
       "submit a suite's shards as a Slurm job array and a merge job after it; --resubmit: only unfinished shards",
       "",
       0,
       {{"--shards", "N", o::required, "how many shards (array tasks)"},
        {"--out", "DIR", o::required, "the shards' folder, on storage every node sees"},
        {"--manifest", "FILE", o::repeated, "a kernel's manifest.json (repeatable)"},
        {"--build-dir", "DIR", o::optional, "every kernel manifest under this build folder"},
        {"--merge-out", "DIR", o::optional, "the merge job's folder (default <out>/merged)"},
        {"--time", "HH:MM:SS", o::optional, "time limit of each shard task (default 01:00:00); the shard's budget"},
        {"--gpus-per-task", "N", o::optional, "GPUs per shard task (default 0: none requested)"},
        {"--cpus-per-task", "N", o::optional, "CPUs per shard task (default 1)"},
        {"--partition", "NAME", o::optional, "the Slurm partition"},
        {"--sbatch-arg", "ARG", o::repeated, "another #SBATCH line, e.g. --account=abc (repeatable)"},
        {"--prolog", "LINE", o::repeated, "a shell line the jobs run first, e.g. a per-node build (repeatable)"},
        {"--kopt", "PATH", o::optional, "the kopt the jobs run (default: this one)"},
        {"--quick", "", o::flag, "benchmark the quick shapes only"},
        {"--resubmit", "", o::flag, "submit only the shards without a finished folder in --out"},
        {"--dry-run", "", o::flag, "write the scripts and print the sbatch commands; submit nothing"}},
       "0 submitted (or nothing left to run), 1 sbatch failed, 2 usage or input error",
       cmd_slurm},
      {"help",
       "list the subcommands, or describe one",
       "[COMMAND]",
       -1,
       {},
       "0 ok, 2 unknown command",
       cmd_help},
  };
  return table;
}

int int_option(const std::string& option, const std::string& text, int min, int max) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < min || value > max) {
    throw usage_error(option + " '" + shorten(text) + "': expected an integer from " + std::to_string(min) + " to " +
                      std::to_string(max));
  }
  return static_cast<int>(value);
}

double fraction_option(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(value >= 0) || !(value < 1)) {
    throw usage_error(option + " must be a fraction in [0, 1), got '" + shorten(text) + "'");
  }
  return value;
}

double threshold_option(const arguments& args) {
  const auto text = args.optional_value("--threshold");
  return text ? fraction_option("--threshold", *text) : k_default_threshold;
}

double lock_wait_option(const arguments& args) {
  const auto text = args.optional_value("--lock-wait");
  return text ? int_option("--lock-wait", *text, 0, 86400) : k_default_lock_wait_s;
}

manifest read_manifest_of(const arguments& args) {
  manifest m = read_manifest(args.value("--manifest"));
  if (const auto dir = args.optional_value("--records-dir")) {
    if (dir->empty()) throw usage_error("--records-dir: the folder name is empty");
    m.m_records_dir = std::filesystem::absolute(*dir).lexically_normal();
  }
  return m;
}

const command* find_command(const std::string& name) {
  for (const command& cmd : command_table()) {
    if (name == cmd.m_name) return &cmd;
  }
  return nullptr;
}

std::string usage_line(const command& cmd) {
  std::string line = std::string("kopt ") + cmd.m_name;
  if (*cmd.m_positionals != '\0') line += std::string(" ") + cmd.m_positionals;
  for (const option_spec& option : cmd.m_options) {
    std::string text = option.m_name;
    if (*option.m_value != '\0') text += std::string(" ") + option.m_value;
    switch (option.m_kind) {
      case option_spec::required:
        line += " " + text;
        break;
      case option_spec::repeated_required:
        line += " " + text + " [" + text + " ...]";
        break;
      case option_spec::repeated:
        line += " [" + text + " ...]";
        break;
      case option_spec::optional:
      case option_spec::flag:
        line += " [" + text + "]";
        break;
    }
  }
  return line;
}

int dispatch(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  if (argv.empty()) {
    (void)cmd_help(arguments{}, err, err);
    return k_exit_usage;
  }
  const command* cmd = nullptr;
  try {
    cmd = command_named_in(argv);
    const command_line line = parse_command_line(argv);
    if (line.m_request == command_line::version) {
      out << "kopt (KernelOpt) " << kernelopt_version() << "\n";
      return k_exit_ok;
    }
    if (line.m_request == command_line::help) {
      arguments help;
      if (line.m_command != nullptr) help.add_positional(line.m_command->m_name);
      return cmd_help(help, out, err);
    }
    return line.m_command->m_run(line.m_arguments, out, err);
  } catch (const usage_error& error) {
    if (cmd == nullptr) {
      err << "kopt: " << error.what() << " (run 'kopt help')\n";
      return k_exit_usage;
    }
    err << "kopt " << cmd->m_name << ": " << error.what() << "\nusage: " << usage_line(*cmd)
        << "\n(run 'kopt help " << cmd->m_name << "' for details)\n";
    return k_exit_usage;
  } catch (const std::exception& error) {
    err << "kopt " << (cmd != nullptr ? cmd->m_name : "") << ": error: " << error.what() << "\n";
    return k_exit_usage;
  }
}

}  // namespace kopt::cli
