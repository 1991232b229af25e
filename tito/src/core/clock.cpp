#include "core/clock.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fmt/format.h>

#include "core/i18n.h"

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
  const auto n = [](long long count) { return static_cast<unsigned long>(count); };
  if (seconds < 60) return tr("just now");
  if (seconds < 3600) return trnf("{} minute ago", "{} minutes ago", n(seconds / 60), seconds / 60);
  if (seconds < 86400) return trnf("{} hour ago", "{} hours ago", n(seconds / 3600), seconds / 3600);
  return trnf("{} day ago", "{} days ago", n(seconds / 86400), seconds / 86400);
}

std::string format_local_time(std::chrono::system_clock::time_point when) {
  const std::time_t stamp = std::chrono::system_clock::to_time_t(when);
  std::tm local{};
  localtime_r(&stamp, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
  return text;
}

std::string describe_seconds(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  if (total < 60) return fmt::format("{} s", total);
  if (total < 3600) return fmt::format("{} min", total / 60);
  return fmt::format("{} h {:02} min", total / 3600, (total % 3600) / 60);
}

}  // namespace tito
