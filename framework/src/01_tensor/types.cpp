// Names and printing of the small value types: ScalarType, TypeMeta, Scalar, IntArrayRef.
#include <ostream>

#include "tinytorch/int_array_ref.h"
#include "tinytorch/scalar.h"
#include "tinytorch/scalar_type.h"

namespace tinytorch {

const char* toString(ScalarType t) {
  switch (t) {
    case kBool: return "Bool";
    case kLong: return "Long";
    case kFloat: return "Float";
    case kDouble: return "Double";
    case kByte: return "Byte";
    case kChar: return "Char";
    case kInt: return "Int";
    case kQInt8: return "QInt8";
    case kQUInt8: return "QUInt8";
    case kQInt32: return "QInt32";
    case kShort: return "Short";
    case kHalf: return "Half";
    case kBFloat16: return "BFloat16";
  }
  return "UNKNOWN_SCALAR";
}

std::ostream& operator<<(std::ostream& out, ScalarType t) { return out << toString(t); }

// caffe2::TypeMeta names types by their demangled C++ name; int64_t is `long` on Linux.
const char* TypeMeta::name() const {
  switch (type_) {
    case kBool: return "bool";
    case kLong: return "long int";
    case kFloat: return "float";
    case kDouble: return "double";
    case kByte: return "unsigned char";
    case kChar: return "signed char";
    case kInt: return "int";
    case kQInt8: return "c10::qint8";
    case kQUInt8: return "c10::quint8";
    case kQInt32: return "c10::qint32";
    case kShort: return "short int";
    case kHalf: return "c10::Half";
    case kBFloat16: return "c10::BFloat16";
  }
  return "nullptr (uninitialized)";
}

std::ostream& operator<<(std::ostream& out, TypeMeta dtype) { return out << dtype.name(); }

std::ostream& operator<<(std::ostream& out, const Half& value) { return out << static_cast<float>(value); }
std::ostream& operator<<(std::ostream& out, const BFloat16& value) { return out << static_cast<float>(value); }

std::ostream& operator<<(std::ostream& out, const Scalar& s) {
  if (s.isFloatingPoint()) return out << s.toDouble();
  if (s.isBoolean()) return out << (s.toBool() ? "true" : "false");
  return out << s.toLong();
}

std::ostream& operator<<(std::ostream& out, IntArrayRef values) {
  out << "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out << ", ";
    out << values[i];
  }
  return out << "]";
}

}  // namespace tinytorch
