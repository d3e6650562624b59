// The experience entry of a gated record, read through the record store
// (records are re-checked where they are read).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kopt/experience/entry.hpp"
#include "kopt/inputs/manifest.hpp"
#include "kopt/records/record_store.hpp"

namespace kopt {

struct entry_options {
  std::string m_repository;                  // source.repository; "" = the records folder
  std::optional<std::string> m_kernel_class;  // default: default_kernel_class(kernel)
};

// The entry of the record at declaration index `index`, or nullopt when
// there is none to make: no record, masked (set aside as a bad measurement)
// or inconsistent (its decision does not follow from its evidence).
[[nodiscard]] std::optional<experience_entry> entry_of(const manifest& m, const record_set& records,
                                                       std::size_t index, const entry_options& options);

// The entries of every record of the kernel, in declaration order.
[[nodiscard]] std::vector<experience_entry> entries_of(const manifest& m, const record_set& records,
                                                       const entry_options& options);

}  // namespace kopt
