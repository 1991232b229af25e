#pragma once
// Timestamps in the two spellings tito uses: ISO-8601 UTC for records, and a filename-safe form for backups.
#include <chrono>
#include <optional>
#include <string>

namespace tito {

std::string iso8601_now();           // "2025-03-01T14:05:09Z"
std::string filename_stamp_now();    // "20250301-140509"
// Parses what iso8601_now() writes; nullopt for anything else.
std::optional<std::chrono::system_clock::time_point> parse_iso8601(const std::string& text);
std::string describe_age(std::chrono::system_clock::time_point then);  // "5 minutes ago", in the learner's language
std::string format_local_time(std::chrono::system_clock::time_point when);  // "2026-12-07 14:05", local time; numbers only, the same in every language (JSON uses it too)
std::string describe_seconds(double seconds);  // "1 h 05 min", "12 min", "40 s"

}  // namespace tito
