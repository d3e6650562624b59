// What a record was measured with besides its own code and the settings:
// the inputs its correctness trials and benchmark filled (ARGS with each
// input's fill, DIMS) and the reference its outputs were checked against
// (entry, backend, precision, its sources' hash). A record keeps them as
// `inputs` (record.hpp); a reader compares them with the declaration now
// (record_store.hpp, staleness) and the gate with the parent's and the
// best's records (decide/gate.hpp, rule settings). Records made before
// kopt kept them have none, and are not compared on them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json_io.hpp"
#include "formats/field_doc.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/source_hash.hpp"

namespace kopt {

struct reference_inputs {
  std::string m_entry;                     // REFERENCE
  std::optional<std::string> m_backend;    // REFERENCE_BACKEND
  std::optional<std::string> m_precision;  // REFERENCE_PRECISION
  source_hash m_sources;                   // REFERENCE_SOURCES, hashed as a variant's sources are
};

struct measured_inputs {
  std::vector<arg_decl> m_args;  // as the manifest has them, with each input's `init`
  std::vector<std::string> m_dims;
  std::optional<reference_inputs> m_reference;  // nullopt: the manifest declares none
};

// The inputs as declared now, or why they cannot be known (the reference's
// sources cannot be read: m_error names the file).
struct current_inputs {
  std::optional<measured_inputs> m_inputs;
  std::string m_error;
};
[[nodiscard]] current_inputs inputs_now(const manifest& m);

// What differs between two sets of inputs, named as the declaration names
// it, in this order: "ARGS" (a name, direction, dtype or axes), "INIT" (an
// input's fill), "DIMS", "REFERENCE" (the entry, or whether there is one),
// "REFERENCE_BACKEND", "REFERENCE_PRECISION", "reference sources". Empty
// when they are the same.
[[nodiscard]] std::vector<std::string> input_differences(const measured_inputs& recorded,
                                                         const measured_inputs& other);

[[nodiscard]] json to_json(const measured_inputs& inputs);
[[nodiscard]] measured_inputs measured_inputs_from_json(const json_reader& node);

// Tables (docs/formats.md): the record's `inputs` and its `reference`.
[[nodiscard]] std::vector<format_table> measured_inputs_tables();

}  // namespace kopt
