#include "core/json_io.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <limits>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

namespace kopt {
namespace {

// "a/b~c" -> "a~1b~0c" (RFC 6901), so a key holding '/' names one member.
std::string escape_pointer_token(const std::string& key) {
  std::string out;
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

const char* type_name(const json& node) {
  switch (node.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "a number";
    default:
      return "an unsupported value";
  }
}

// Line and column of byte offset `byte` (1-based, as nlohmann reports it).
std::string position_of(const std::string& text, std::size_t byte) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

void write_all(int fd, const std::string& text, const std::string& temp) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(temp + ": write failed: " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::string shorten(const std::string& text, std::size_t max) {
  if (text.size() <= max) return text;
  return text.substr(0, max) + "...(" + std::to_string(text.size() - max) + " more)";
}

std::string valid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    std::size_t length = 0;
    unsigned char low = 0x80;  // bounds of the second byte (overlongs, surrogates, > U+10FFFF excluded)
    unsigned char high = 0xBF;
    if (c < 0x80) {
      length = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    }
    bool ok = length != 0 && i + length <= text.size();
    for (std::size_t k = 1; ok && k < length; ++k) {
      const unsigned char next = byte(i + k);
      ok = k == 1 ? (next >= low && next <= high) : (next >= 0x80 && next <= 0xBF);
    }
    if (ok) {
      out.append(text, i, length);
      i += length;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    }
  }
  return out;
}

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::string why = std::filesystem::exists(path) ? "cannot read" : "no such file";
    throw format_error(path.string() + ": " + why);
  }
  // Read in chunks up to the limit (a pipe or /dev/zero has no size to ask).
  std::string text;
  std::string chunk(1 << 16, '\0');
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > k_max_input_bytes) {
      throw format_error(path.string() + ": larger than " + std::to_string(k_max_input_bytes >> 20) +
                         " MiB (the limit on files kopt reads)");
    }
  }
  if (in.bad()) throw format_error(path.string() + ": read error");
  return text;
}

namespace {

// nlohmann's DOM builder behind a SAX layer that knows the JSON pointer of
// the value being read: nesting past k_max_json_depth stops the parse
// there (the parser itself is iterative, but copy, compare and dump of the
// result recurse once per level), and a number beyond double is reported at
// its field.
class limited_dom_parser {
 public:
  using sax = nlohmann::detail::json_sax_dom_parser<json>;

  explicit limited_dom_parser(json& result) : m_dom(result, false) {}

  bool null() { return value() && m_dom.null(); }
  bool boolean(bool v) { return value() && m_dom.boolean(v); }
  bool number_integer(json::number_integer_t v) { return value() && m_dom.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value() && m_dom.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return value() && m_dom.number_float(v, s); }
  bool string(json::string_t& v) { return value() && m_dom.string(v); }
  bool binary(json::binary_t& v) { return value() && m_dom.binary(v); }
  bool start_object(std::size_t n) { return open(true) && m_dom.start_object(n); }
  bool key(json::string_t& k) {
    m_stack.back().m_key = escape_pointer_token(k.size() > k_max_quote ? k.substr(0, k_max_quote) : k);
    return m_dom.key(k);
  }
  bool end_object() {
    m_stack.pop_back();
    return m_dom.end_object();
  }
  bool start_array(std::size_t n) { return open(false) && m_dom.start_array(n); }
  bool end_array() {
    m_stack.pop_back();
    return m_dom.end_array();
  }
  bool parse_error(std::size_t byte, const std::string& /*last_token*/, const nlohmann::detail::exception& error) {
    m_byte = byte;
    // nlohmann's message starts "[json.exception.parse_error.101] parse error at ...":
    // keep only the part after the last ": " that says what was wrong.
    std::string what = error.what();
    const std::size_t colon = what.rfind(": ");
    const std::size_t bracket = what.find("] ");
    if (error.id == 406 && bracket != std::string::npos) {
      value();  // the number is the next element of an enclosing array
      what = what.substr(bracket + 2);  // "number overflow parsing '1e999'"
      m_error = "number beyond the range of a double (" + shorten(what) + ")";
      m_at_field = true;
    } else {
      if (colon != std::string::npos) what = what.substr(colon + 2);
      m_error = shorten(what);
    }
    return false;
  }

  [[nodiscard]] const std::string& error() const { return m_error; }
  [[nodiscard]] bool at_field() const { return m_at_field; }
  [[nodiscard]] std::size_t byte() const { return m_byte; }

  // The pointer of the value now being read ("" at the root).
  [[nodiscard]] std::string pointer() const {
    std::string out;
    for (const frame& f : m_stack) out += "/" + (f.m_object ? f.m_key : std::to_string(f.m_index));
    return out;
  }

 private:
  struct frame {
    bool m_object = false;
    std::string m_key;        // object: the member being read (escaped, cut to k_max_quote)
    std::size_t m_index = 0;  // array: the element being read
    std::size_t m_count = 0;  // array: elements begun
  };

  // A value begins: in an array it is the next element.
  bool value() {
    if (!m_stack.empty() && !m_stack.back().m_object) m_stack.back().m_index = m_stack.back().m_count++;
    return true;
  }

  bool open(bool object) {
    value();
    if (m_stack.size() >= k_max_json_depth) {
      m_error = "nested deeper than " + std::to_string(k_max_json_depth) + " levels (the limit on JSON kopt reads)";
      m_at_field = true;
      return false;
    }
    m_stack.push_back({object, "", 0, 0});
    return true;
  }

  sax m_dom;
  std::vector<frame> m_stack;
  std::string m_error;
  bool m_at_field = false;
  std::size_t m_byte = 0;
};

}  // namespace

bool same_json_value(const json& a, const json& b) {
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      const auto other = b.find(it.key());
      if (other == b.end() || !same_json_value(it.value(), *other)) return false;
    }
    return true;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same_json_value(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

json parse_json_text(const std::string& text, const std::string& source) {
  if (text.size() > k_max_input_bytes) {
    throw format_error(source + ": larger than " + std::to_string(k_max_input_bytes >> 20) +
                       " MiB (the limit on files kopt reads)");
  }
  json result;
  limited_dom_parser parser(result);
  if (json::sax_parse(text, &parser) && parser.error().empty()) return result;
  if (parser.at_field()) {
    const std::string pointer = parser.pointer();
    throw format_error(source + ": " + (pointer.empty() ? std::string("/") : shorten(pointer)) + ": " +
                       parser.error());
  }
  throw format_error(source + ": invalid JSON at " + position_of(text, parser.byte()) + ": " + parser.error());
}

json read_json_file(const std::filesystem::path& path) { return parse_json_text(read_text_file(path), path.string()); }

void check_kind(const json& doc, const std::filesystem::path& path, const std::string& kind,
                int max_version) {
  (void)check_kind(json_reader(doc, path.string()), kind, max_version);
}

std::int64_t check_kind(const json_reader& root, const std::string& kind, int max_version) {
  if (!root.raw().is_object()) root.fail("expected an object, got " + std::string(type_name(root.raw())));
  const std::string actual = root.at("kind").as_string();
  if (actual != kind) {
    root.at("kind").fail("expected \"" + kind + "\", got \"" + shorten(actual) + "\"");
  }
  const std::int64_t version = root.at("schema_version").as_integer();
  if (version > max_version) {
    root.at("schema_version")
        .fail(std::to_string(version) + " is newer than this kopt reads (" + std::to_string(max_version) +
              "): update KernelOpt");
  }
  if (version < 1) root.at("schema_version").fail("must be >= 1, got " + std::to_string(version));
  return version;
}

std::filesystem::path temp_path_for(const std::filesystem::path& path) {
  return path.string() + ".tmp." + std::to_string(::getpid());
}

namespace {

void create_parent(const std::filesystem::path& path) {
  if (!path.has_parent_path()) return;
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw std::runtime_error(path.parent_path().string() + ": cannot create directory: " + ec.message());
}

// `text` in a flushed temp file beside `path`; returns its name.
std::string write_temp(const std::filesystem::path& path, const std::string& text) {
  create_parent(path);
  const std::string temp = temp_path_for(path).string();
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(temp + ": cannot create: " + std::strerror(errno));
  try {
    write_all(fd, text, temp);
    if (::fsync(fd) != 0) throw std::runtime_error(temp + ": fsync failed: " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    throw std::runtime_error(temp + ": close failed: " + std::strerror(saved));
  }
  return temp;
}

// Only the pid's own files: "<name>.tmp.<digits>".
std::optional<pid_t> temp_writer_pid(const std::string& name) {
  const std::size_t at = name.rfind(".tmp.");
  if (at == std::string::npos || at == 0 || at + 5 >= name.size()) return std::nullopt;
  const std::string digits = name.substr(at + 5);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) return std::nullopt;
  return static_cast<pid_t>(std::stol(digits));
}

}  // namespace

void write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  const std::string temp = write_temp(path, text);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    throw std::runtime_error(path.string() + ": cannot replace: " + std::strerror(saved));
  }
}

void create_file_exclusive(const std::filesystem::path& path, const std::string& text) {
  const std::string temp = write_temp(path, text);
  if (::link(temp.c_str(), path.c_str()) == 0) {
    ::unlink(temp.c_str());
    return;
  }
  const int saved = errno;
  ::unlink(temp.c_str());
  if (saved == EEXIST) {
    throw file_exists_error(path.string() + ": exists already (another writer created it first); not replaced");
  }
  if (saved != EPERM && saved != EOPNOTSUPP && saved != ENOSYS) {
    throw std::runtime_error(path.string() + ": cannot create: " + std::strerror(saved));
  }
  // A file system without hard links: O_EXCL still never replaces a file,
  // but a reader may see it half-written.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST) {
    throw file_exists_error(path.string() + ": exists already (another writer created it first); not replaced");
  }
  if (fd < 0) throw std::runtime_error(path.string() + ": cannot create: " + std::strerror(errno));
  try {
    write_all(fd, text, path.string());
    if (::fsync(fd) != 0) throw std::runtime_error(path.string() + ": fsync failed: " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(path.c_str());
    throw;
  }
  ::close(fd);
}

void write_json_new(const std::filesystem::path& path, const json& doc) {
  create_file_exclusive(path, doc.dump(2) + "\n");
}

std::vector<std::filesystem::path> remove_stale_temp_files(const std::filesystem::path& dir,
                                                           std::chrono::seconds max_age) {
  std::vector<std::filesystem::path> removed;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return removed;
  const auto now = std::filesystem::file_time_type::clock::now();
  for (std::filesystem::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::optional<pid_t> pid = temp_writer_pid(it->path().filename().string());
    if (!pid || *pid == ::getpid()) continue;
    const bool dead = *pid <= 0 || (::kill(*pid, 0) != 0 && errno == ESRCH);
    const auto written = std::filesystem::last_write_time(it->path(), ec);
    const bool old = !ec && now - written > max_age;
    if ((dead || old) && std::filesystem::remove(it->path(), ec)) removed.push_back(it->path());
    ec.clear();
  }
  return removed;
}

void write_json_atomic(const std::filesystem::path& path, const json& doc) {
  // Replace, not throw, on invalid UTF-8: a string that slipped in from a
  // tool's output must not lose the whole file.
  write_file_atomic(path, doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

json_reader json_reader::at(const std::string& key) const {
  if (!m_node.is_object()) fail("expected an object, got " + std::string(type_name(m_node)));
  const std::string pointer = m_pointer + "/" + escape_pointer_token(key);
  const auto it = m_node.find(key);
  if (it == m_node.end()) json_reader(m_node, m_file, pointer).fail("missing");
  return json_reader(*it, m_file, pointer);
}

json_reader json_reader::at(std::size_t index) const {
  if (!m_node.is_array()) fail("expected an array, got " + std::string(type_name(m_node)));
  const std::string pointer = m_pointer + "/" + std::to_string(index);
  if (index >= m_node.size()) {
    json_reader(m_node, m_file, pointer)
        .fail("missing (the array has " + std::to_string(m_node.size()) + " elements)");
  }
  return json_reader(m_node[index], m_file, pointer);
}

bool json_reader::has(const std::string& key) const {
  if (!m_node.is_object()) return false;
  const auto it = m_node.find(key);
  return it != m_node.end() && !it->is_null();
}

std::size_t json_reader::size() const {
  if (!m_node.is_array()) fail("expected an array, got " + std::string(type_name(m_node)));
  return m_node.size();
}

std::string json_reader::as_string() const {
  if (!m_node.is_string()) fail("expected a string, got " + std::string(type_name(m_node)));
  return m_node.get<std::string>();
}

double json_reader::as_number() const {
  if (!m_node.is_number()) fail("expected a number, got " + std::string(type_name(m_node)));
  const double value = m_node.get<double>();
  if (!std::isfinite(value)) fail("expected a finite number, got " + shorten(m_node.dump()));
  return value;
}

std::int64_t json_reader::as_integer() const {
  if (m_node.is_number_unsigned()) {
    if (m_node.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      fail("integer out of range (beyond 2^63-1), got " + shorten(m_node.dump()));
    }
    return static_cast<std::int64_t>(m_node.get<std::uint64_t>());
  }
  if (m_node.is_number_integer()) return m_node.get<std::int64_t>();
  if (m_node.is_number_float()) {
    const double value = m_node.get<double>();
    // [-2^63, 2^63): the cast below is defined only inside it.
    if (value >= -9223372036854775808.0 && value < 9223372036854775808.0 &&
        value == static_cast<double>(static_cast<std::int64_t>(value))) {
      return static_cast<std::int64_t>(value);
    }
    fail("expected an integer, got " + shorten(m_node.dump()));
  }
  fail("expected an integer, got " + std::string(type_name(m_node)));
}

double json_reader::as_positive() const {
  const double value = as_number();
  if (!(value > 0)) fail("must be > 0, got " + shorten(m_node.dump()));
  return value;
}

double json_reader::as_non_negative() const {
  const double value = as_number();
  if (!(value >= 0)) fail("must be >= 0, got " + shorten(m_node.dump()));
  return value;
}

std::int64_t json_reader::as_count() const {
  const std::int64_t value = as_integer();
  if (value < 1) fail("must be an integer >= 1, got " + std::to_string(value));
  return value;
}

std::int64_t json_reader::as_non_negative_integer() const {
  const std::int64_t value = as_integer();
  if (value < 0) fail("must be an integer >= 0, got " + std::to_string(value));
  return value;
}

bool json_reader::as_bool() const {
  if (!m_node.is_boolean()) fail("expected a boolean, got " + std::string(type_name(m_node)));
  return m_node.get<bool>();
}

void json_reader::fail(const std::string& what) const {
  throw format_error(m_file + ": " + (m_pointer.empty() ? std::string("/") : m_pointer) + ": " + what);
}

}  // namespace kopt
