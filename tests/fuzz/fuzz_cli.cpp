// kopt's command line: the input's lines are argv; parsed against every
// subcommand's option table (commands.cpp) by CLI11 (parser.hpp), and the integer and threshold
// options checked. Commands are not run (they would write files and start
// processes).
#include "fuzz_target.hpp"
#include "kopt/cli/commands.hpp"
#include "kopt/cli/parser.hpp"

KOPT_FUZZ_TARGET(cli) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> argv;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    argv.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  (void)kopt::cli::find_command(argv.front());
  for (const kopt::cli::command& cmd : kopt::cli::command_table()) {
    kopt::fuzz::guarded([&] {
      const kopt::cli::arguments args =
          kopt::cli::parse_arguments(cmd, {argv.begin() + 1, argv.end()});
      for (const char* name : {"--jobs", "--slots", "--repeat"}) {
        if (const auto v = args.optional_value(name)) (void)kopt::cli::int_option(name, *v, 1, 1024);
      }
      (void)kopt::cli::threshold_option(args);
    });
  }
  return 0;
}
