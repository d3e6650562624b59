// The field tables of KernelOpt's file formats: each type that is written
// to a file declares its fields once, next to its to_json, and
// docs/formats.md shows the same tables (the test formats.doc_tables checks
// that they agree, and that to_json writes exactly the fields declared).
#pragma once

#include <string>
#include <vector>

namespace kopt {

struct field_doc {
  const char* m_name;     // the JSON key ("median_ns"), or "<name>" for the keys of a map
  const char* m_type;     // "number", "integer", "string", "boolean", "object", "array", "... | null"
  const char* m_meaning;  // one line
};

// One table of docs/formats.md: `m_title` names the object it describes
// ("kernelopt.ceilings", "kernelopt.ceilings: ceilings.<name>").
struct format_table {
  std::string m_title;
  std::vector<field_doc> m_fields;
};

}  // namespace kopt
