// No record lost under concurrency: creating a file never replaces one, the
// kernel lock serializes kopt record / optimize / mask, and temp files of
// killed writers are cleaned up when the lock is taken.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "core/file_lock.hpp"
#include "core/json_io.hpp"
#include "kopt/records/record.hpp"
#include "test_support.hpp"

extern char** environ;

namespace kopt::test {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A pid that no process has now: a child that has exited and been reaped.
pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

// Files under `dir` whose names have ".tmp." in them.
std::vector<std::string> temp_files(const fs::path& dir) {
  std::vector<std::string> found;
  for (const std::string& file : list_files(dir)) {
    if (contains(file, ".tmp.")) found.push_back(file);
  }
  return found;
}

// Pairs of processes race to create one file, released at the same moment
// by closing a pipe they block on: exactly one creates it, the other gets
// file_exists_error, and the file holds the winner's text.
TEST(concurrency, of_two_writers_creating_one_file_exactly_one_wins) {
  scratch_case c;
  const fs::path path = c.path("records/softmax/v1.json");
  for (int round = 0; round < 50; ++round) {
    int gate[2];
    ASSERT_EQ(::pipe(gate), 0);
    pid_t writers[2];
    for (int w = 0; w < 2; ++w) {
      writers[w] = ::fork();
      ASSERT_GE(writers[w], 0);
      if (writers[w] == 0) {
        ::close(gate[1]);
        char byte;
        (void)!::read(gate[0], &byte, 1);  // EOF: go
        try {
          create_file_exclusive(path, "writer " + std::to_string(w) + "\n");
          ::_exit(0);
        } catch (const file_exists_error& error) {
          ::_exit(contains(error.what(), path.string() + ": exists already") ? 1 : 3);
        } catch (...) {
          ::_exit(4);
        }
      }
    }
    ::close(gate[0]);
    ::close(gate[1]);
    int codes[2];
    for (int w = 0; w < 2; ++w) {
      int status = 0;
      ASSERT_EQ(::waitpid(writers[w], &status, 0), writers[w]);
      ASSERT_TRUE(WIFEXITED(status));
      codes[w] = WEXITSTATUS(status);
    }
    ASSERT_TRUE((codes[0] == 0 && codes[1] == 1) || (codes[0] == 1 && codes[1] == 0))
        << "round " << round << ": exit codes " << codes[0] << ", " << codes[1];
    const int winner = codes[0] == 0 ? 0 : 1;
    EXPECT_EQ(read_text(path), "writer " + std::to_string(winner) + "\n") << "round " << round;
    EXPECT_EQ(temp_files(c.path("records")), std::vector<std::string>{}) << "round " << round;
    fs::remove(path);
  }
}

TEST(concurrency, create_file_exclusive_never_replaces_and_write_file_atomic_does) {
  scratch_case c;
  const fs::path path = c.path("out/a.json");
  create_file_exclusive(path, "first\n");
  EXPECT_THROW(create_file_exclusive(path, "second\n"), file_exists_error);
  EXPECT_EQ(read_text(path), "first\n");
  write_file_atomic(path, "replaced\n");
  EXPECT_EQ(read_text(path), "replaced\n");
  EXPECT_EQ(list_files(c.path("out")), std::vector<std::string>{"a.json"});
}

TEST(concurrency, stale_temp_files_are_those_of_dead_or_old_writers) {
  scratch_case c;
  const fs::path dir = c.path("records/softmax");
  const std::string dead = std::to_string(dead_pid());
  const std::string live = std::to_string(::getppid());
  write_text(dir / ("v1.json.tmp." + dead), "{");
  write_text(dir / ("report/report.md.tmp." + dead), "#");
  write_text(dir / ("v2.json.tmp." + live), "{");  // a live writer, just now: kept
  write_text(dir / ("v3.json.tmp." + live), "{");  // a live pid, but written long ago
  fs::last_write_time(dir / ("v3.json.tmp." + live),
                      fs::file_time_type::clock::now() - std::chrono::minutes(20));
  write_text(dir / "notes.tmp.md", "kept");  // not a temp file name of ours
  const std::vector<fs::path> removed = remove_stale_temp_files(dir, std::chrono::minutes(10));
  EXPECT_EQ(removed.size(), 3u);
  EXPECT_EQ(list_files(dir), (std::vector<std::string>{"notes.tmp.md", "v2.json.tmp." + live}));
}

TEST(concurrency, a_busy_lock_names_its_holder_and_is_removed_on_release) {
  scratch_case c;
  const fs::path path = c.path("records/softmax/.lock");
  {
    const file_lock held = acquire_file_lock(path, 0, "holder-a");
    const std::string pid = std::to_string(::getpid());
    try {
      (void)acquire_file_lock(path, 0, "holder-b");
      FAIL() << "acquired a held lock";
    } catch (const lock_busy_error& error) {
      EXPECT_EQ(std::string(error.what()), path.string() + ": held by pid " + pid + " (holder-a); not waiting");
    }
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW((void)acquire_file_lock(path, 0.3, "holder-b"), lock_busy_error);
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
  }
  EXPECT_FALSE(fs::exists(path));
  const file_lock again = acquire_file_lock(path, 0, "holder-b");
  EXPECT_TRUE(fs::exists(path));
}

TEST(concurrency, kopt_record_refuses_when_another_kopt_holds_the_kernel) {
  scratch_case c;
  const file_lock held = acquire_file_lock(c.path("records/softmax/.lock"), 0, "kopt optimize softmax");
  std::vector<std::string> args = {"record", "--manifest", c.manifest(), "--variant", "v0", "--correctness",
                                   c.path("results/correct.v0.json").string(), "--bench",
                                   c.path("bench/bench.v0.json").string(), "--lock-wait", "0"};
  const run_result r = run_kopt(args);
  EXPECT_EQ(r.m_code, 2);
  EXPECT_TRUE(contains(r.m_err, "held by pid " + std::to_string(::getpid()) + " (kopt optimize softmax)"))
      << r.m_err;
  EXPECT_TRUE(contains(r.m_err, "another kopt is writing softmax's records (--lock-wait SECONDS")) << r.m_err;
  EXPECT_FALSE(fs::exists(c.record("v0")));
}

TEST(concurrency, taking_the_kernel_lock_removes_what_killed_writers_left) {
  scratch_case c;
  const fs::path stale = c.path("records/softmax/v0.json.tmp." + std::to_string(dead_pid()));
  write_text(stale, "{\"half");
  const run_result r = record_variant(c, "v0", false);
  EXPECT_EQ(r.m_code, 0) << r.m_err;
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(contains(r.m_err, "kopt record: removed " + stale.string() + " (left by a writer that was killed)"))
      << r.m_err;
}

// Two real `kopt record` processes on one variant, 20 times: one records
// (ACCEPT), the other is refused because the record exists; the record is
// whole, and neither a lock file nor a temp file is left behind.
TEST(concurrency, two_kopt_record_at_once_write_one_record) {
  scratch_case c;
  for (const char* v : {"v0", "v1", "v2", "v3"}) {
    const std::string name = v;
    ASSERT_EQ(record_variant(c, name, name != "v0").m_code, name == "v2" || name == "v3" ? 1 : 0) << name;
  }
  std::vector<std::string> argv = {KOPT_BINARY,
                                   "record",
                                   "--manifest",
                                   c.manifest(),
                                   "--variant",
                                   "v4",
                                   "--correctness",
                                   c.path("results/correct.v4.json").string(),
                                   "--bench",
                                   c.path("bench/bench.v4.json").string(),
                                   "--env",
                                   c.path("env.json").string(),
                                   "--ceilings",
                                   c.path("ceilings.json").string()};
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  for (int round = 0; round < 20; ++round) {
    pid_t pids[2];
    std::string logs[2] = {c.path("err.0").string(), c.path("err.1").string()};
    for (int i = 0; i < 2; ++i) {
      posix_spawn_file_actions_t actions;
      posix_spawn_file_actions_init(&actions);
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
      posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, logs[i].c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                       0644);
      ASSERT_EQ(::posix_spawn(&pids[i], KOPT_BINARY, &actions, nullptr, args.data(), environ), 0);
      posix_spawn_file_actions_destroy(&actions);
    }
    int codes[2];
    for (int i = 0; i < 2; ++i) {
      int status = 0;
      ASSERT_EQ(::waitpid(pids[i], &status, 0), pids[i]);
      ASSERT_TRUE(WIFEXITED(status));
      codes[i] = WEXITSTATUS(status);
    }
    ASSERT_TRUE((codes[0] == 0 && codes[1] == 2) || (codes[0] == 2 && codes[1] == 0))
        << "round " << round << ": exit codes " << codes[0] << ", " << codes[1] << "\n"
        << read_text(logs[0]) << read_text(logs[1]);
    const std::string loser = read_text(logs[codes[0] == 0 ? 1 : 0]);
    EXPECT_TRUE(contains(loser, "the record of v4 exists")) << loser;
    EXPECT_TRUE(read_record(c.record("v4")).m_gate.accepted());
    EXPECT_EQ(temp_files(c.path("records")), std::vector<std::string>{});
    EXPECT_FALSE(fs::exists(c.path("records/softmax/.lock")));
    fs::remove(c.record("v4"));
  }
}

}  // namespace
}  // namespace kopt::test
