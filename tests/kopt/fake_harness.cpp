// Stands in for a kernel's generated test and bench executables in the
// tests of `kopt optimize` and `kopt perf`. It recognizes which one it plays
// from its flags and, as told by the environment:
//   KOPT_FAKE_LOG            appends its arguments (one line per run)
//   KOPT_FAKE_TEST_RESULTS   file copied to --kopt_results=FILE (none if unset)
//   KOPT_FAKE_TEST_EXIT      exit code as the test (default 0)
//   KOPT_FAKE_TEST_SIGNAL    signal the test raises on itself instead (SIGSEGV = 11, SIGABRT = 6)
//   KOPT_FAKE_BENCH_OUT      file copied to --benchmark_out=FILE (none if unset)
//   KOPT_FAKE_BENCH_EXIT     exit code as the bench (default 0)
//   KOPT_FAKE_BENCH_SEQ      DIR: the n-th bench run (n from 0, counted in
//                            DIR/count) copies DIR/<n>.json instead
//                            (runs of `kopt baseline` that differ)
//   KOPT_FAKE_TEST_HANG      as the test: start a child that sleeps, write
//                            "<own pid> <child pid>" to this file, hang
//   KOPT_FAKE_TEST_SIGNAL_KOPT  as the test: send this signal to kopt (the
//                            parent of its supervisor), then hang
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

std::string flag(int argc, char** argv, const char* prefix) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) return argv[i] + std::strlen(prefix);
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  if (const std::string log = env("KOPT_FAKE_LOG"); !log.empty()) {
    std::ofstream out(log, std::ios::app);
    for (int i = 1; i < argc; ++i) out << (i > 1 ? " " : "") << argv[i];
    out << "\n";
  }
  const std::string results = flag(argc, argv, "--kopt_results=");
  const std::string bench = flag(argc, argv, "--benchmark_out=");
  const bool is_test = !results.empty();
  std::string source = env(is_test ? "KOPT_FAKE_TEST_RESULTS" : "KOPT_FAKE_BENCH_OUT");
  if (const std::string seq = env("KOPT_FAKE_BENCH_SEQ"); !is_test && !seq.empty()) {
    int n = 0;
    std::ifstream(seq + "/count") >> n;
    std::ofstream(seq + "/count") << n + 1;
    source = seq + "/" + std::to_string(n) + ".json";
  }
  const std::string target = is_test ? results : bench;
  if (!source.empty() && !target.empty()) {
    std::filesystem::copy_file(source, target, std::filesystem::copy_options::overwrite_existing);
  }
  if (const std::string hang = env("KOPT_FAKE_TEST_HANG"); is_test && !hang.empty()) {
    const pid_t child = ::fork();
    if (child == 0) {
      for (;;) ::pause();
    }
    {
      std::ofstream pids(hang + ".part");
      pids << ::getpid() << " " << child << "\n";
    }
    std::filesystem::rename(hang + ".part", hang);
    for (;;) ::pause();
  }
  if (const std::string sig = env("KOPT_FAKE_TEST_SIGNAL_KOPT"); is_test && !sig.empty()) {
    // /proc/<supervisor>/stat: "pid (comm) state ppid ...".
    std::ifstream stat("/proc/" + std::to_string(::getppid()) + "/stat");
    const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const std::size_t paren = text.rfind(')');
    if (paren != std::string::npos) {
      const pid_t kopt = static_cast<pid_t>(std::atol(text.c_str() + paren + 4));
      ::kill(kopt, std::atoi(sig.c_str()));
    }
    for (;;) ::pause();
  }
  if (const std::string sig = env("KOPT_FAKE_TEST_SIGNAL"); is_test && !sig.empty()) {
    std::signal(std::atoi(sig.c_str()), SIG_DFL);
    std::raise(std::atoi(sig.c_str()));
  }
  const std::string code = env(is_test ? "KOPT_FAKE_TEST_EXIT" : "KOPT_FAKE_BENCH_EXIT");
  return code.empty() ? 0 : std::atoi(code.c_str());
}
