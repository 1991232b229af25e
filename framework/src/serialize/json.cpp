// tinytorch::utils::json_quoted (tinytorch/utils/json.h), by nlohmann::json's string escaping.
#include "tinytorch/utils/json.h"

#include <nlohmann/json.hpp>

namespace tinytorch {
namespace utils {

std::string json_quoted(std::string_view text) {
  // dump() throws on invalid UTF-8 by default (type_error 316); a name or message with a stray byte
  // must still be written, so such bytes become U+FFFD.
  return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace utils
}  // namespace tinytorch
