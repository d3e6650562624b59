#include "cuda/cupti_clock.hpp"

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <tuple>

namespace kopt::cuda {
namespace {

// Newest record layouts of the CUPTI this is built with. Only leading
// fields are read (start, end, streamId, correlationId, launch
// configuration), whose offsets every version since CUDA 12.0 shares.
#if CUPTI_API_VERSION >= 130000
using kernel_record = CUpti_ActivityKernel10;
using memcpy_record = CUpti_ActivityMemcpy6;
#else
using kernel_record = CUpti_ActivityKernel9;
using memcpy_record = CUpti_ActivityMemcpy5;
#endif
using memset_record = CUpti_ActivityMemset4;

// A memcpy or memset: part of the span, not a kernel.
template <typename Record>
device_op transfer_op(const Record* r) {
  device_op op;
  op.m_stream = r->streamId;
  op.m_start = r->start;
  op.m_end = r->end;
  op.m_correlation = r->correlationId;
  return op;
}

constexpr std::size_t k_buffer_bytes = std::size_t{8} << 20;
constexpr std::size_t k_buffer_alignment = 8;
constexpr CUpti_ExternalCorrelationKind k_external_kind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
// External id = pass << 40 | sample: records of an earlier pass that arrive
// late can never be taken for this one's.
constexpr int k_pass_shift = 40;
constexpr std::uint64_t k_sample_mask = (std::uint64_t{1} << k_pass_shift) - 1;

// RUNTIME and DRIVER are needed only because external correlation records
// are emitted for API records; their host cost is outside the event clock.
constexpr CUpti_ActivityKind k_kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,  CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,           CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};

// What the buffer-completed callback (any thread) hands to the clock.
struct activity_store {
  std::mutex m_mutex;
  std::vector<device_op> m_ops;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> m_links;  // correlation id, external id
  std::size_t m_dropped = 0;
};

// Never destroyed: CUPTI may deliver buffers from its own exit handler,
// after function-local statics are gone.
activity_store& store() {
  static activity_store* const instance = new activity_store;
  return *instance;
}

std::string result_text(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) return "CUPTI error " + std::to_string(result);
  return text;
}

std::string demangle(const std::string& name) {
  int status = 0;
  char* plain = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || plain == nullptr) return name;
  std::string result = plain;
  std::free(plain);
  return result;
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(k_buffer_alignment, k_buffer_bytes));
  *size = *buffer != nullptr ? k_buffer_bytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t /*size*/, size_t valid) {
  std::vector<device_op> ops;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> links;
  CUpti_Activity* record = nullptr;
  while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const kernel_record*>(record);
        device_op op;
        op.m_kernel = true;
        op.m_name = k->name != nullptr ? k->name : "unknown";
        op.m_grid = {k->gridX, k->gridY, k->gridZ};
        op.m_block = {k->blockX, k->blockY, k->blockZ};
        op.m_registers = k->registersPerThread;
        op.m_static_smem = k->staticSharedMemory;
        op.m_dynamic_smem = k->dynamicSharedMemory;
        op.m_stream = k->streamId;
        op.m_start = k->start;
        op.m_end = k->end;
        op.m_correlation = k->correlationId;
        ops.push_back(std::move(op));
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY:
        ops.push_back(transfer_op(reinterpret_cast<const memcpy_record*>(record)));
        break;
      case CUPTI_ACTIVITY_KIND_MEMSET:
        ops.push_back(transfer_op(reinterpret_cast<const memset_record*>(record)));
        break;
      case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
        if (e->externalKind == k_external_kind) links.emplace_back(e->correlationId, e->externalId);
        break;
      }
      default:
        break;
    }
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS) dropped = 0;
  std::free(buffer);

  activity_store& s = store();
  const std::lock_guard<std::mutex> lock(s.m_mutex);
  s.m_ops.insert(s.m_ops.end(), std::make_move_iterator(ops.begin()), std::make_move_iterator(ops.end()));
  s.m_links.insert(s.m_links.end(), links.begin(), links.end());
  s.m_dropped += dropped;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

cupti_clock::~cupti_clock() {
  if (m_active) end();
}

std::string cupti_clock::begin() {
  static const CUptiResult registered = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (registered != CUPTI_SUCCESS) return "cuptiActivityRegisterCallbacks: " + result_text(registered);
  if (m_active) end();

  ++m_pass;
  m_sample_of.clear();
  m_pending.clear();
  m_spans.clear();
  m_kernels.clear();
  {
    activity_store& s = store();
    const std::lock_guard<std::mutex> lock(s.m_mutex);
    s.m_ops.clear();
    s.m_links.clear();
    s.m_dropped = 0;
  }
  std::size_t enabled = 0;
  for (const CUpti_ActivityKind kind : k_kinds) {
    const CUptiResult result = cuptiActivityEnable(kind);
    if (result != CUPTI_SUCCESS) {
      for (std::size_t i = 0; i < enabled; ++i) cuptiActivityDisable(k_kinds[i]);
      return "cuptiActivityEnable(kind " + std::to_string(static_cast<int>(kind)) + "): " + result_text(result);
    }
    ++enabled;
  }
  m_active = true;
  return {};
}

void cupti_clock::push(std::uint64_t sample) {
  if (m_active) cuptiActivityPushExternalCorrelationId(k_external_kind, (m_pass << k_pass_shift) | (sample & k_sample_mask));
}

void cupti_clock::pop() {
  std::uint64_t last = 0;
  if (m_active) cuptiActivityPopExternalCorrelationId(k_external_kind, &last);
}

void cupti_clock::flush() {
  if (!m_active) return;
  // Flag 0: every buffer whose records are all complete, full or not. A
  // forced flush would also hand over records still without timestamps.
  cuptiActivityFlushAll(0);
  take_records();
}

void cupti_clock::end() {
  if (!m_active) return;
  // Work the implementation left on other streams must finish to be seen;
  // an error here is the implementation's and surfaces at the caller's next
  // synchronization.
  (void)cudaDeviceSynchronize();
  cuptiActivityFlushAll(0);
  for (const CUpti_ActivityKind kind : k_kinds) cuptiActivityDisable(kind);
  // Forced: hand back every buffer; a record still incomplete has no
  // timestamps and is skipped in take_records().
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  take_records();
  m_active = false;
}

void cupti_clock::take_records() {
  std::vector<device_op> ops;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> links;
  {
    activity_store& s = store();
    const std::lock_guard<std::mutex> lock(s.m_mutex);
    ops.swap(s.m_ops);
    links.swap(s.m_links);
  }
  for (const auto& [correlation, external] : links) {
    if ((external >> k_pass_shift) == m_pass) m_sample_of[correlation] = external & k_sample_mask;
  }
  m_pending.insert(m_pending.end(), std::make_move_iterator(ops.begin()), std::make_move_iterator(ops.end()));
  std::vector<device_op> still_pending;
  for (device_op& op : m_pending) {
    // Without timestamps a record says nothing; the timer's helpers are
    // never tagged, the name check only guards against a mix-up.
    if (op.m_start == 0 || op.m_end < op.m_start) continue;
    if (op.m_kernel && op.m_name.rfind("kopt_bench_", 0) == 0) continue;
    const auto it = m_sample_of.find(op.m_correlation);
    if (it == m_sample_of.end()) {
      still_pending.push_back(std::move(op));
      continue;
    }
    auto [span, inserted] = m_spans.try_emplace(it->second, op.m_start, op.m_end);
    if (!inserted) {
      span->second.first = std::min(span->second.first, op.m_start);
      span->second.second = std::max(span->second.second, op.m_end);
    }
    if (op.m_kernel) m_kernels.push_back(std::move(op));
  }
  // Untagged records (the timer's own kernels, other threads) whose link
  // never comes: keep the list from growing over a long pass.
  constexpr std::size_t k_max_pending = 1 << 16;
  if (still_pending.size() > k_max_pending) {
    still_pending.erase(still_pending.begin(), still_pending.end() - static_cast<std::ptrdiff_t>(k_max_pending));
  }
  m_pending.swap(still_pending);
}

std::optional<double> cupti_clock::span_ns(std::uint64_t sample) const {
  const auto it = m_spans.find(sample);
  if (it == m_spans.end() || it->second.second < it->second.first) return std::nullopt;
  return static_cast<double>(it->second.second - it->second.first);
}

std::vector<kernel_summary> cupti_clock::kernels() const {
  using key = std::tuple<std::string, std::array<int, 3>, std::array<int, 3>, int, int, int, std::uint32_t>;
  std::vector<key> order;
  std::map<key, std::vector<double>> durations;
  for (const device_op& op : m_kernels) {
    key k{op.m_name, op.m_grid, op.m_block, op.m_registers, op.m_static_smem, op.m_dynamic_smem, op.m_stream};
    auto [it, inserted] = durations.try_emplace(k);
    if (inserted) order.push_back(k);
    it->second.push_back(static_cast<double>(op.m_end - op.m_start));
  }
  std::vector<kernel_summary> result;
  const double samples = std::max<double>(1.0, static_cast<double>(m_spans.size()));
  for (const key& k : order) {
    const std::vector<double>& d = durations.at(k);
    kernel_summary s;
    s.m_name = demangle(std::get<0>(k));
    s.m_grid = std::get<1>(k);
    s.m_block = std::get<2>(k);
    s.m_registers = std::get<3>(k);
    s.m_static_smem = std::get<4>(k);
    s.m_dynamic_smem = std::get<5>(k);
    s.m_stream = std::get<6>(k);
    s.m_median_ns = median_of(d);
    s.m_launches_per_sample = static_cast<double>(d.size()) / samples;
    result.push_back(std::move(s));
  }
  return result;
}

std::size_t cupti_clock::dropped() const {
  activity_store& s = store();
  const std::lock_guard<std::mutex> lock(s.m_mutex);
  return s.m_dropped;
}

}  // namespace kopt::cuda
