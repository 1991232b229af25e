#include "core/clock.h"

#include <ctime>
#include <fmt/format.h>

namespace tito {
namespace {

std::string format_utc_now(const char* pattern) {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  std::strftime(text, sizeof text, pattern, &utc);
  return text;
}

}  // namespace

std::string iso8601_now() { return format_utc_now("%Y-%m-%dT%H:%M:%SZ"); }

std::string filename_stamp_now() { return format_utc_now("%Y%m%d-%H%M%S"); }

std::optional<std::chrono::system_clock::time_point> parse_iso8601(const std::string& text) {
  std::tm utc{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &utc.tm_year, &utc.tm_mon, &utc.tm_mday, &utc.tm_hour,
                  &utc.tm_min, &utc.tm_sec, &consumed) != 6 ||
      consumed != static_cast<int>(text.size())) {
    return std::nullopt;
  }
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(timegm(&utc));
}

std::string describe_age(std::chrono::system_clock::time_point then) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - then).count();
  auto plural = [](long long n, const char* unit) { return fmt::format("{} {}{} ago", n, unit, n == 1 ? "" : "s"); };
  if (seconds < 60) return "just now";
  if (seconds < 3600) return plural(seconds / 60, "minute");
  if (seconds < 86400) return plural(seconds / 3600, "hour");
  return plural(seconds / 86400, "day");
}

}  // namespace tito
