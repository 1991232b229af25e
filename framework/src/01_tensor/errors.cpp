// Message formatting for TT_CHECK (see errors.h: kept out of the header for compile speed).
#include <sstream>

#include "tinytorch/errors.h"

namespace tinytorch {
namespace detail {

namespace {
template <typename T>
std::string formatted(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}
}  // namespace

MessageBuilder& MessageBuilder::operator<<(const char* text) {
  text_ += text;
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(const std::string& text) {
  text_ += text;
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(char c) {
  text_ += c;
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(bool value) {
  text_ += value ? "1" : "0";  // what std::ostream prints without std::boolalpha
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(double value) {
  text_ += formatted(value);
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(long long value) {
  text_ += std::to_string(value);
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(unsigned long long value) {
  text_ += std::to_string(value);
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(IntArrayRef values) {
  text_ += formatted(values);
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(ScalarType type) {
  text_ += toString(type);
  return *this;
}
MessageBuilder& MessageBuilder::operator<<(TypeMeta dtype) {
  text_ += dtype.name();
  return *this;
}

}  // namespace detail
}  // namespace tinytorch
