#pragma once
// Known-wrong variants of a module's reference code: the mistakes its lesson warns about and the
// ones learners make. Each one is data in curriculum/NN_slug/variants.json:
//   {"variants": [{"name": "transpose-keeps-strides",
//                  "file": "framework/src/01_tensor/shape_ops.cpp",
//                  "original": "std::swap(strides[d0], strides[d1]);",   (a string, or a list of lines)
//                  "replacement": "",
//                  "description": "swaps the sizes but not the strides",
//                  "caught_by": "transpose is a view with swapped strides"}]}   (optional)
// `tito instructor validate` applies each to a copy of the reference and requires a test to fail:
// tests that let a real mistake pass are tests that cannot fail.
#include <filesystem>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/installation.h"

namespace tito {

struct Variant {
  std::string name;
  std::string file;         // one of the module's learner_files
  std::string original;     // exact text, once in the file, inside a SOLUTION region
  std::string replacement;
  std::string description;  // the mistake, in the words of a hint
  std::string caught_by;    // the test case expected to fail; empty: any
};

// The module's variants (none when it has no variants.json). Throws UserError naming the file and
// the entry when the file is not valid JSON or an entry lacks a field.
std::vector<Variant> load_variants(const ModuleInfo& module);

// The reference source with the variant applied. Throws UserError naming the variant when its
// file is not a learner file of the module, or its original text is not found exactly once inside
// a SOLUTION region (the reference changed under it: re-target the variant).
std::string apply_variant(const Variant& variant, const ModuleInfo& module, const std::string& reference_source);

// The module's variants, each applied to its reference file as `tito module start NN --reference` writes
// it, or the reason they cannot be (no valid variants.json, a variant whose text no longer matches):
// known before anything is built, so a stale variant costs no compile time. `tito instructor validate`
// runs each against the module's tests, `tito instructor knockout` against the milestones.
struct PreparedVariants {
  std::vector<Variant> variants;
  std::vector<std::string> sources;  // the changed file of each variant, whole
  std::string problem;               // empty when every variant applied
};
PreparedVariants prepare_variants(const Installation& installation, const ModuleInfo& module);

}  // namespace tito
