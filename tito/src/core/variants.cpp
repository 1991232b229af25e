#include "core/variants.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/learner_files.h"
#include "core/starter_generator.h"

namespace tito {
namespace fs = std::filesystem;
using json = nlohmann::json;
namespace {

// A snippet is a string or a list of lines (easier to read in JSON for several lines).
std::string snippet(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  std::string text;
  for (const auto& line : value) text += (text.empty() ? "" : "\n") + line.get<std::string>();
  return text;
}

int line_of(const std::string& text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

}  // namespace

std::vector<Variant> load_variants(const ModuleInfo& module) {
  std::vector<Variant> variants;
  if (!fs::is_regular_file(module.variants)) return variants;
  const std::string where = module.variants.string();
  const std::string fix = "fix " + where + " (see tito/src/core/variants.h for its format)";
  json data;
  try {
    data = json::parse(read_file(module.variants));
  } catch (const json::exception& error) {
    throw UserError(fmt::format("{} is not valid JSON: {}", where, error.what()), fix);
  }
  if (!data.is_object() || !data.contains("variants") || !data["variants"].is_array())
    throw UserError(where + " has no \"variants\" list", fix);
  int index = 0;
  for (const auto& entry : data["variants"]) {
    ++index;
    Variant variant;
    variant.name = entry.value("name", fmt::format("#{}", index));
    for (const char* field : {"name", "file", "original", "replacement", "description"}) {
      const bool text_or_lines =
          entry.contains(field) && (entry[field].is_string() || (entry[field].is_array() &&
                                                                 std::all_of(entry[field].begin(), entry[field].end(),
                                                                             [](const json& line) { return line.is_string(); })));
      if (!text_or_lines)
        throw UserError(fmt::format("{}: variant {} has no \"{}\" (a string{})", where, variant.name, field,
                                    std::string(field) == "original" || std::string(field) == "replacement"
                                        ? " or a list of lines" : ""),
                        fix);
    }
    variant.file = entry["file"].get<std::string>();
    variant.original = snippet(entry["original"]);
    variant.replacement = snippet(entry["replacement"]);
    variant.description = entry["description"].get<std::string>();
    variant.caught_by = entry.value("caught_by", "");
    const bool duplicate = std::any_of(variants.begin(), variants.end(), [&](const Variant& v) { return v.name == variant.name; });
    if (duplicate) throw UserError(fmt::format("{}: two variants are named {}", where, variant.name), fix);
    variants.push_back(std::move(variant));
  }
  return variants;
}

std::string apply_variant(const Variant& variant, const ModuleInfo& module, const std::string& reference_source) {
  const std::string fix = fmt::format("re-target the variant in {} to the current reference code", module.variants.string());
  if (std::find(module.learner_files.begin(), module.learner_files.end(), variant.file) == module.learner_files.end())
    throw UserError(fmt::format("variant {}: {} is not a learner file of module {}", variant.name, variant.file, module.number),
                    fix);
  if (variant.original.empty() || variant.original == variant.replacement)
    throw UserError(fmt::format("variant {}: its original text is empty or equal to its replacement", variant.name), fix);
  const std::size_t at = reference_source.find(variant.original);
  if (at == std::string::npos)
    throw UserError(fmt::format("variant {}: its original text is no longer in {}", variant.name, variant.file), fix);
  if (reference_source.find(variant.original, at + 1) != std::string::npos)
    throw UserError(fmt::format("variant {}: its original text occurs more than once in {}; make it longer", variant.name,
                                variant.file),
                    fix);
  const int first = line_of(reference_source, at);
  const int last = line_of(reference_source, at + variant.original.size() - 1);
  const auto regions = scan_solution_regions(reference_source, variant.file);
  const bool inside = std::any_of(regions.begin(), regions.end(),
                                  [&](const SolutionRegion& r) { return first > r.begin_line && last < r.end_line; });
  if (!inside)
    throw UserError(fmt::format("variant {}: its original text ({}:{}) is not inside a SOLUTION region, so a learner "
                                "never writes it",
                                variant.name, variant.file, first),
                    fix);
  std::string changed = reference_source;
  changed.replace(at, variant.original.size(), variant.replacement);
  return changed;
}

PreparedVariants prepare_variants(const Installation& installation, const ModuleInfo& module) {
  PreparedVariants prepared;
  try {
    prepared.variants = load_variants(module);
    const auto reference = generate_module_files(installation, module, FileFlavour::Reference);
    for (const auto& variant : prepared.variants) {
      const std::string file_name = fs::path(variant.file).filename().string();
      const auto file = std::find_if(reference.begin(), reference.end(), [&](const GeneratedFile& f) { return f.name == file_name; });
      prepared.sources.push_back(apply_variant(variant, module, file == reference.end() ? std::string() : file->content));
    }
  } catch (const UserError& error) {
    prepared.problem = error.problem();
  }
  return prepared;
}

}  // namespace tito
