#include "run/transcript.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tito {
namespace {

double json_value_to_double(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// Within `rtol`/`atol` of the reference value; NaN only matches NaN, an infinity only itself.
bool close(double learner, double reference, double rtol, double atol) {
  if (std::isnan(learner) || std::isnan(reference)) return std::isnan(learner) && std::isnan(reference);
  if (learner == reference) return true;
  if (std::isinf(learner) || std::isinf(reference)) return false;
  return std::fabs(learner - reference) <= atol + rtol * std::fabs(reference);
}

// The least tolerance between two honest results of one floating computation (summation order).
struct Tolerance {
  double rtol, atol;
};
Tolerance tolerance_for(const Observation& reference) {
  if (reference.dtype == "float") return {std::max(1e-5, 2 * reference.rtol), std::max(1e-6, 2 * reference.atol)};
  if (reference.dtype == "double") return {std::max(1e-9, 2 * reference.rtol), std::max(1e-12, 2 * reference.atol)};
  return {2 * reference.rtol, 2 * reference.atol};  // integers and booleans: exact unless the test allowed slack
}

std::string join_sizes(const std::vector<int64_t>& sizes) {
  return "[" + fmt::format("{}", fmt::join(sizes, ", ")) + "]";
}

std::string short_text(const std::string& text) { return text.size() > 160 ? text.substr(0, 160) + "..." : text; }

// Splits text into numbers, addresses and everything else, for texts_match.
struct Token {
  enum Kind { Other, Number, Address } kind;
  std::string text;
};

std::vector<Token> tokens_of(const std::string& text) {
  std::vector<Token> tokens;
  std::size_t at = 0;
  auto is_digit = [&](std::size_t i) { return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); };
  while (at < text.size()) {
    const bool word_before = at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    if (!word_before && text.compare(at, 2, "0x") == 0 && at + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[at + 2]))) {
      std::size_t end = at + 2;
      while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
      tokens.push_back({Token::Address, text.substr(at, end - at)});
      at = end;
      continue;
    }
    const bool sign = text[at] == '-' && is_digit(at + 1);
    if (!word_before && (is_digit(at) || sign)) {
      std::size_t end = at + (sign ? 1 : 0);
      while (is_digit(end)) ++end;
      if (end < text.size() && text[end] == '.' && is_digit(end + 1)) {
        ++end;
        while (is_digit(end)) ++end;
      }
      if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
        std::size_t exponent = end + 1;
        if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) ++exponent;
        if (is_digit(exponent)) {
          end = exponent;
          while (is_digit(end)) ++end;
        }
      }
      if (end < text.size() && text[end] == 'f') ++end;  // Catch2 prints floats as "1.5f"
      tokens.push_back({Token::Number, text.substr(at, end - at)});
      at = end;
      continue;
    }
    if (tokens.empty() || tokens.back().kind != Token::Other) tokens.push_back({Token::Other, ""});
    tokens.back().text += text[at++];
  }
  return tokens;
}

bool numbers_match(const std::string& learner, const std::string& reference) {
  if (learner == reference) return true;
  const bool integral = learner.find_first_of(".eEf") == std::string::npos && reference.find_first_of(".eEf") == std::string::npos;
  if (integral) return false;
  return close(std::strtod(learner.c_str(), nullptr), std::strtod(reference.c_str(), nullptr), 1e-5, 1e-6);
}

std::string describe(const Observation& observation) {
  if (!observation.is_tensor()) return "\"" + short_text(observation.text) + "\"";
  if (observation.dtype == "undefined") return "an undefined tensor";
  return fmt::format("a {} tensor of sizes {}", observation.dtype, join_sizes(observation.sizes));
}

// "" when the two observations agree, else what differs.
std::string observation_difference(const Observation& learner, const Observation& reference) {
  if (learner.is_tensor() != reference.is_tensor())
    return fmt::format("got {} where the reference has {}", describe(learner), describe(reference));
  if (!reference.is_tensor())
    return texts_match(learner.text, reference.text)
               ? ""
               : fmt::format("got \"{}\", the reference \"{}\"", short_text(learner.text), short_text(reference.text));
  if (learner.dtype != reference.dtype || learner.sizes != reference.sizes || learner.numel != reference.numel ||
      learner.values.size() != reference.values.size())
    return fmt::format("got {} where the reference has {}", describe(learner), describe(reference));
  const Tolerance tolerance = tolerance_for(reference);
  for (std::size_t i = 0; i < reference.values.size(); ++i)
    if (!close(learner.values[i], reference.values[i], tolerance.rtol, tolerance.atol))
      return fmt::format("element {} of {}: got {}, the reference {}", i, describe(reference), learner.values[i],
                         reference.values[i]);
  return "";
}

}  // namespace

Observation observation_from_json(const nlohmann::json& event) {
  Observation observation;
  observation.text = event.value("text", "");
  observation.dtype = event.value("dtype", "");
  observation.rtol = event.value("rtol", 0.0);
  observation.atol = event.value("atol", 0.0);
  observation.numel = event.value("numel", int64_t{0});
  if (event.contains("sizes") && event["sizes"].is_array())
    for (const auto& size : event["sizes"]) observation.sizes.push_back(size.is_number_integer() ? size.get<int64_t>() : -1);
  if (event.contains("values") && event["values"].is_array())
    for (const auto& value : event["values"]) observation.values.push_back(json_value_to_double(value));
  return observation;
}

nlohmann::json observation_to_json(const Observation& observation) {
  nlohmann::json event;
  if (!observation.text.empty()) event["text"] = observation.text;
  if (!observation.is_tensor()) return event;
  event["dtype"] = observation.dtype;
  event["rtol"] = observation.rtol;
  event["atol"] = observation.atol;
  event["numel"] = observation.numel;
  event["sizes"] = observation.sizes;
  nlohmann::json values = nlohmann::json::array();
  for (double value : observation.values) {
    if (std::isnan(value)) values.push_back("nan");
    else if (std::isinf(value)) values.push_back(value > 0 ? "inf" : "-inf");
    else values.push_back(value);
  }
  event["values"] = std::move(values);
  return event;
}

bool texts_match(const std::string& learner, const std::string& reference) {
  if (learner == reference) return true;
  const std::vector<Token> mine = tokens_of(learner), theirs = tokens_of(reference);
  if (mine.size() != theirs.size()) return false;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (mine[i].kind != theirs[i].kind) return false;
    if (mine[i].kind == Token::Other && mine[i].text != theirs[i].text) return false;
    if (mine[i].kind == Token::Number && !numbers_match(mine[i].text, theirs[i].text)) return false;
  }
  return true;
}

TranscriptMatch compare_transcripts(const std::vector<Observation>& learner, const std::vector<Observation>& reference) {
  const std::size_t common = std::min(learner.size(), reference.size());
  for (std::size_t i = 0; i < common; ++i) {
    const std::string difference = observation_difference(learner[i], reference[i]);
    if (!difference.empty()) return {false, fmt::format("result {} of {}: {}", i + 1, reference.size(), difference)};
  }
  if (learner.size() != reference.size())
    return {false, fmt::format("{} results recorded where the reference records {}", learner.size(), reference.size())};
  return {};
}

}  // namespace tito
