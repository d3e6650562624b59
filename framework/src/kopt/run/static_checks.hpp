// A variant's static machine-code checks (the <k>.static.<variant> test):
// cuobjdump's SASS and resource usage of the variant's objects; its own
// kernels told from the others (those defined in its SOURCES:
// static/ownership.hpp); each claimed METHOD's signature and each
// SASS_SIGNATURES regex searched in those; MAX_REGISTERS / NO_SPILLS /
// NO_LOCAL_MEMORY checked; a table and a kernelopt.static document.
// `kopt static` and `kopt optimize` both call it.
//
// The METHOD regexes come from the request (the CMake side resolves them
// from cmake/kernelopt/Methods.cmake, the one table), the claims from the
// manifest: a claim without a regex, or a regex for a method the variant
// does not claim, is a usage_error.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "kopt/inputs/manifest.hpp"
#include "kopt/records/ablation.hpp"
#include "static/check.hpp"

namespace kopt {

struct static_request {
  std::vector<std::string> m_objects;
  std::vector<std::string> m_method_signatures;  // "NAME=REGEX", one per claimed METHOD
  std::vector<std::string> m_sass_signatures;    // "NAME=REGEX", the variant's SASS_SIGNATURES
  sass::limits m_limits;
  std::optional<std::string> m_cuobjdump;        // the path CMake found; else PATH / the toolkit's
  std::filesystem::path m_out;                   // the kernelopt.static document
};

enum class static_outcome { passed, failed, skipped };

// One note per claimed METHOD the ablation measured (docs/static-checks.md,
// "Ablation"): "ablation: <method> <class>", and for an effective method
// whose signature is found in the variant and absent from its ablated
// build, "...: confirmed". check_machine_code adds them from the variant's
// record when its ablation measured the current sources.
[[nodiscard]] std::vector<std::string> ablation_notes(const ablation_result& ablation,
                                                      const std::vector<sass::signature_result>& signatures);

// For a family (docs/sweeps.md): its METHODS are claims about the code its
// dispatch runs, so the static test checks them in the champion points'
// objects. One note per claimed METHOD none of them has, naming the points
// searched: the selection serves only points without it (drop the claim, or
// select points that use it). Empty for a variant that is not a family or
// has no dispatch.
[[nodiscard]] std::vector<std::string> family_claim_notes(const variant_decl& decl,
                                                          const std::vector<sass::signature_result>& signatures);

// Runs the checks, writes m_out (also when skipped: no cuobjdump, or one
// that cannot read the objects), and prints the table on `out`.
[[nodiscard]] static_outcome check_machine_code(const manifest& m, const variant_decl& decl,
                                                const static_request& request, std::ostream& out);

}  // namespace kopt
