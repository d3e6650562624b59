#include "kopt/record_store.hpp"

namespace kopt {

const record* record_set::get(const manifest& m, const std::string& variant) const {
  const int index = m.variant_index(variant);
  return index < 0 ? nullptr : at(static_cast<std::size_t>(index));
}

const record* record_set::at(std::size_t index) const {
  if (index >= m_records.size() || !m_records[index]) return nullptr;
  return &*m_records[index];
}

const record* record_set::best_before(std::size_t before) const {
  for (std::size_t i = std::min(before, m_records.size()); i-- > 0;) {
    if (m_records[i] && m_records[i]->counts_as_accepted()) return &*m_records[i];
  }
  return nullptr;
}

const record* record_set::newest() const {
  for (std::size_t i = m_records.size(); i-- > 0;) {
    if (m_records[i]) return &*m_records[i];
  }
  return nullptr;
}

int record_set::first_unrecorded() const {
  for (std::size_t i = 0; i < m_records.size(); ++i) {
    if (!m_records[i]) return static_cast<int>(i);
  }
  return -1;
}

record_set load_records(const manifest& m) {
  std::vector<std::optional<record>> records(m.m_variants.size());
  for (std::size_t i = 0; i < m.m_variants.size(); ++i) {
    const std::filesystem::path path = m.record_path(m.m_variants[i].m_name);
    if (!std::filesystem::exists(path)) continue;
    record r = read_record(path);
    if (r.m_kernel != m.m_kernel || r.m_variant != m.m_variants[i].m_name) {
      throw format_error(path.string() + ": /variant: the record is for " + r.m_kernel + "/" + r.m_variant +
                         ", its file name says " + m.m_kernel + "/" + m.m_variants[i].m_name);
    }
    records[i] = std::move(r);
  }
  return record_set(std::move(records));
}

}  // namespace kopt
