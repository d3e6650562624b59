// No record lost under concurrency: creating a file never replaces one, and
// temp files of killed writers can be told apart and removed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "core/json_io.hpp"
#include "test_support.hpp"

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

}  // namespace
}  // namespace kopt::test
