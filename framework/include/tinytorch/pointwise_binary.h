#pragma once
// torch:: spellings of the pointwise ops of two or three operands (src/01_tensor/pointwise_binary*.cpp):
// the function, LibTorch's `name_out(out, ...)` / `name_outf(..., out)` forms, and the operators
// % & | ^ << >>. An `_out` form writes the result into `out`: out's dtype must be one the result
// can be cast to, a shape that differs is resized, and no argument may require grad.
#include <optional>
#include <string_view>

#include "tinytorch/tensor.h"

namespace c10 {
using string_view = std::string_view;  // div's rounding_mode: c10::optional<c10::string_view>
}  // namespace c10

namespace tinytorch {

// ---- maximum / minimum (NaN wins), fmax / fmin (NaN loses) ----
inline Tensor maximum(const Tensor& self, const Tensor& other) { return self.maximum(other); }
Tensor& maximum_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& maximum_outf(const Tensor& self, const Tensor& other, Tensor& out) { return maximum_out(out, self, other); }
inline Tensor minimum(const Tensor& self, const Tensor& other) { return self.minimum(other); }
Tensor& minimum_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& minimum_outf(const Tensor& self, const Tensor& other, Tensor& out) { return minimum_out(out, self, other); }
inline Tensor fmax(const Tensor& self, const Tensor& other) { return self.fmax(other); }
Tensor& fmax_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& fmax_outf(const Tensor& self, const Tensor& other, Tensor& out) { return fmax_out(out, self, other); }
inline Tensor fmin(const Tensor& self, const Tensor& other) { return self.fmin(other); }
Tensor& fmin_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& fmin_outf(const Tensor& self, const Tensor& other, Tensor& out) { return fmin_out(out, self, other); }

// ---- Division family ----
inline Tensor fmod(const Tensor& self, const Tensor& other) { return self.fmod(other); }
inline Tensor fmod(const Tensor& self, const Scalar& other) { return self.fmod(other); }
Tensor& fmod_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& fmod_outf(const Tensor& self, const Tensor& other, Tensor& out) { return fmod_out(out, self, other); }
Tensor& fmod_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& fmod_outf(const Tensor& self, const Scalar& other, Tensor& out) { return fmod_out(out, self, other); }
inline Tensor remainder(const Tensor& self, const Tensor& other) { return self.remainder(other); }
inline Tensor remainder(const Tensor& self, const Scalar& other) { return self.remainder(other); }
Tensor& remainder_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& remainder_outf(const Tensor& self, const Tensor& other, Tensor& out) { return remainder_out(out, self, other); }
Tensor& remainder_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& remainder_outf(const Tensor& self, const Scalar& other, Tensor& out) { return remainder_out(out, self, other); }
Tensor remainder(const Scalar& self, const Tensor& other);
Tensor& remainder_out(Tensor& out, const Scalar& self, const Tensor& other);
inline Tensor& remainder_outf(const Scalar& self, const Tensor& other, Tensor& out) { return remainder_out(out, self, other); }
inline Tensor floor_divide(const Tensor& self, const Tensor& other) { return self.floor_divide(other); }
inline Tensor floor_divide(const Tensor& self, const Scalar& other) { return self.floor_divide(other); }
Tensor& floor_divide_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& floor_divide_outf(const Tensor& self, const Tensor& other, Tensor& out) { return floor_divide_out(out, self, other); }
inline Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) { return self.div(other, rounding_mode); }
inline Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) { return self.div(other, rounding_mode); }
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& div_outf(const Tensor& self, const Tensor& other, Tensor& out) { return div_out(out, self, other); }
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);
inline Tensor& div_outf(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode, Tensor& out) { return div_out(out, self, other, rounding_mode); }
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& div_outf(const Tensor& self, const Scalar& other, Tensor& out) { return div_out(out, self, other); }
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode);
inline Tensor& div_outf(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode, Tensor& out) { return div_out(out, self, other, rounding_mode); }
inline Tensor divide(const Tensor& self, const Tensor& other) { return self.divide(other); }
inline Tensor divide(const Tensor& self, const Scalar& other) { return self.divide(other); }
inline Tensor divide(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) { return self.divide(other, rounding_mode); }
inline Tensor divide(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) { return self.divide(other, rounding_mode); }
Tensor& divide_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& divide_outf(const Tensor& self, const Tensor& other, Tensor& out) { return divide_out(out, self, other); }
Tensor& divide_out(Tensor& out, const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);
inline Tensor& divide_outf(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode, Tensor& out) { return divide_out(out, self, other, rounding_mode); }
inline Tensor true_divide(const Tensor& self, const Tensor& other) { return self.true_divide(other); }
inline Tensor true_divide(const Tensor& self, const Scalar& other) { return self.true_divide(other); }
Tensor& true_divide_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& true_divide_outf(const Tensor& self, const Tensor& other, Tensor& out) { return true_divide_out(out, self, other); }

// ---- Aliases and `_out` forms of the arithmetic (+ - * / and pow live in arithmetic.cpp) ----
inline Tensor multiply(const Tensor& self, const Tensor& other) { return self.multiply(other); }
inline Tensor multiply(const Tensor& self, const Scalar& other) { return self.multiply(other); }
Tensor& multiply_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& multiply_outf(const Tensor& self, const Tensor& other, Tensor& out) { return multiply_out(out, self, other); }
inline Tensor subtract(const Tensor& self, const Tensor& other, const Scalar& alpha = 1) { return self.subtract(other, alpha); }
inline Tensor subtract(const Tensor& self, const Scalar& other, const Scalar& alpha = 1) { return self.subtract(other, alpha); }
Tensor& subtract_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
inline Tensor& subtract_outf(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) { return subtract_out(out, self, other, alpha); }
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
inline Tensor& add_outf(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) { return add_out(out, self, other, alpha); }
Tensor& add_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
inline Tensor& add_outf(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) { return add_out(out, self, other, alpha); }
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
inline Tensor& sub_outf(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) { return sub_out(out, self, other, alpha); }
Tensor& sub_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
inline Tensor& sub_outf(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out) { return sub_out(out, self, other, alpha); }
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& mul_outf(const Tensor& self, const Tensor& other, Tensor& out) { return mul_out(out, self, other); }
Tensor& mul_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& mul_outf(const Tensor& self, const Scalar& other, Tensor& out) { return mul_out(out, self, other); }
// base^exponent for a number base: PowBackward2.
Tensor pow(const Scalar& self, const Tensor& exponent);
Tensor& pow_out(Tensor& out, const Tensor& self, const Tensor& exponent);
inline Tensor& pow_outf(const Tensor& self, const Tensor& exponent, Tensor& out) { return pow_out(out, self, exponent); }
Tensor& pow_out(Tensor& out, const Scalar& self, const Tensor& exponent);
inline Tensor& pow_outf(const Scalar& self, const Tensor& exponent, Tensor& out) { return pow_out(out, self, exponent); }
// pow_out(out, Tensor self, Scalar exponent) is with the unary ops (tinytorch/pointwise_unary.h).
inline Tensor float_power(const Tensor& self, const Tensor& exponent) { return self.float_power(exponent); }
inline Tensor float_power(const Tensor& self, const Scalar& exponent) { return self.float_power(exponent); }
Tensor float_power(const Scalar& self, const Tensor& exponent);
Tensor& float_power_out(Tensor& out, const Tensor& self, const Tensor& exponent);
inline Tensor& float_power_outf(const Tensor& self, const Tensor& exponent, Tensor& out) { return float_power_out(out, self, exponent); }
Tensor& float_power_out(Tensor& out, const Scalar& self, const Tensor& exponent);
inline Tensor& float_power_outf(const Scalar& self, const Tensor& exponent, Tensor& out) { return float_power_out(out, self, exponent); }
Tensor& float_power_out(Tensor& out, const Tensor& self, const Scalar& exponent);
inline Tensor& float_power_outf(const Tensor& self, const Scalar& exponent, Tensor& out) { return float_power_out(out, self, exponent); }

// ---- Floating functions of two operands ----
inline Tensor atan2(const Tensor& self, const Tensor& other) { return self.atan2(other); }
Tensor& atan2_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& atan2_outf(const Tensor& self, const Tensor& other, Tensor& out) { return atan2_out(out, self, other); }
inline Tensor arctan2(const Tensor& self, const Tensor& other) { return self.arctan2(other); }
Tensor& arctan2_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& arctan2_outf(const Tensor& self, const Tensor& other, Tensor& out) { return arctan2_out(out, self, other); }
inline Tensor hypot(const Tensor& self, const Tensor& other) { return self.hypot(other); }
Tensor& hypot_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& hypot_outf(const Tensor& self, const Tensor& other, Tensor& out) { return hypot_out(out, self, other); }
inline Tensor nextafter(const Tensor& self, const Tensor& other) { return self.nextafter(other); }
Tensor& nextafter_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& nextafter_outf(const Tensor& self, const Tensor& other, Tensor& out) { return nextafter_out(out, self, other); }
inline Tensor logaddexp(const Tensor& self, const Tensor& other) { return self.logaddexp(other); }
Tensor& logaddexp_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& logaddexp_outf(const Tensor& self, const Tensor& other, Tensor& out) { return logaddexp_out(out, self, other); }
inline Tensor logaddexp2(const Tensor& self, const Tensor& other) { return self.logaddexp2(other); }
Tensor& logaddexp2_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& logaddexp2_outf(const Tensor& self, const Tensor& other, Tensor& out) { return logaddexp2_out(out, self, other); }
inline Tensor ldexp(const Tensor& self, const Tensor& other) { return self.ldexp(other); }
Tensor& ldexp_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& ldexp_outf(const Tensor& self, const Tensor& other, Tensor& out) { return ldexp_out(out, self, other); }
inline Tensor& ldexp_(Tensor& self, const Tensor& other) { return self.ldexp_(other); }
inline Tensor copysign(const Tensor& self, const Tensor& other) { return self.copysign(other); }
inline Tensor copysign(const Tensor& self, const Scalar& other) { return self.copysign(other); }
Tensor& copysign_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& copysign_outf(const Tensor& self, const Tensor& other, Tensor& out) { return copysign_out(out, self, other); }
Tensor& copysign_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& copysign_outf(const Tensor& self, const Scalar& other, Tensor& out) { return copysign_out(out, self, other); }
inline Tensor xlogy(const Tensor& self, const Tensor& other) { return self.xlogy(other); }
inline Tensor xlogy(const Tensor& self, const Scalar& other) { return self.xlogy(other); }
Tensor xlogy(const Scalar& self, const Tensor& other);
inline Tensor& xlogy_(Tensor& self, const Tensor& other) { return self.xlogy_(other); }
inline Tensor& xlogy_(Tensor& self, const Scalar& other) { return self.xlogy_(other); }
Tensor& xlogy_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& xlogy_outf(const Tensor& self, const Tensor& other, Tensor& out) { return xlogy_out(out, self, other); }
Tensor& xlogy_out(Tensor& out, const Scalar& self, const Tensor& other);
inline Tensor& xlogy_outf(const Scalar& self, const Tensor& other, Tensor& out) { return xlogy_out(out, self, other); }
Tensor& xlogy_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& xlogy_outf(const Tensor& self, const Scalar& other, Tensor& out) { return xlogy_out(out, self, other); }
inline Tensor heaviside(const Tensor& self, const Tensor& values) { return self.heaviside(values); }
Tensor& heaviside_out(Tensor& out, const Tensor& self, const Tensor& values);
inline Tensor& heaviside_outf(const Tensor& self, const Tensor& values, Tensor& out) { return heaviside_out(out, self, values); }
inline Tensor gcd(const Tensor& self, const Tensor& other) { return self.gcd(other); }
inline Tensor& gcd_(Tensor& self, const Tensor& other) { return self.gcd_(other); }
Tensor& gcd_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& gcd_outf(const Tensor& self, const Tensor& other, Tensor& out) { return gcd_out(out, self, other); }
inline Tensor lcm(const Tensor& self, const Tensor& other) { return self.lcm(other); }
inline Tensor& lcm_(Tensor& self, const Tensor& other) { return self.lcm_(other); }
Tensor& lcm_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& lcm_outf(const Tensor& self, const Tensor& other, Tensor& out) { return lcm_out(out, self, other); }

// ---- Three operands ----
inline Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) { return self.lerp(end, weight); }
inline Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) { return self.lerp(end, weight); }
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight);
inline Tensor& lerp_outf(const Tensor& self, const Tensor& end, const Scalar& weight, Tensor& out) { return lerp_out(out, self, end, weight); }
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight);
inline Tensor& lerp_outf(const Tensor& self, const Tensor& end, const Tensor& weight, Tensor& out) { return lerp_out(out, self, end, weight); }
inline Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) { return self.addcmul(tensor1, tensor2, value); }
Tensor& addcmul_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
inline Tensor& addcmul_outf(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value, Tensor& out) { return addcmul_out(out, self, tensor1, tensor2, value); }
inline Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) { return self.addcdiv(tensor1, tensor2, value); }
Tensor& addcdiv_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
inline Tensor& addcdiv_outf(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value, Tensor& out) { return addcdiv_out(out, self, tensor1, tensor2, value); }
inline Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p = 2) { return self.dist(other, p); }
Tensor& dist_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& p = 2);
inline Tensor& dist_outf(const Tensor& self, const Tensor& other, const Scalar& p, Tensor& out) { return dist_out(out, self, other, p); }
inline Tensor isclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) { return self.isclose(other, rtol, atol, equal_nan); }

// ---- Comparisons (kBool results); eq..le of two tensors are in tinytorch/functions.h ----
inline Tensor eq(const Tensor& self, const Scalar& other) { return self.eq(other); }
Tensor& eq_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& eq_outf(const Tensor& self, const Tensor& other, Tensor& out) { return eq_out(out, self, other); }
Tensor& eq_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& eq_outf(const Tensor& self, const Scalar& other, Tensor& out) { return eq_out(out, self, other); }
inline Tensor ne(const Tensor& self, const Scalar& other) { return self.ne(other); }
Tensor& ne_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& ne_outf(const Tensor& self, const Tensor& other, Tensor& out) { return ne_out(out, self, other); }
Tensor& ne_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& ne_outf(const Tensor& self, const Scalar& other, Tensor& out) { return ne_out(out, self, other); }
inline Tensor lt(const Tensor& self, const Scalar& other) { return self.lt(other); }
Tensor& lt_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& lt_outf(const Tensor& self, const Tensor& other, Tensor& out) { return lt_out(out, self, other); }
Tensor& lt_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& lt_outf(const Tensor& self, const Scalar& other, Tensor& out) { return lt_out(out, self, other); }
inline Tensor le(const Tensor& self, const Scalar& other) { return self.le(other); }
Tensor& le_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& le_outf(const Tensor& self, const Tensor& other, Tensor& out) { return le_out(out, self, other); }
Tensor& le_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& le_outf(const Tensor& self, const Scalar& other, Tensor& out) { return le_out(out, self, other); }
inline Tensor gt(const Tensor& self, const Scalar& other) { return self.gt(other); }
Tensor& gt_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& gt_outf(const Tensor& self, const Tensor& other, Tensor& out) { return gt_out(out, self, other); }
Tensor& gt_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& gt_outf(const Tensor& self, const Scalar& other, Tensor& out) { return gt_out(out, self, other); }
inline Tensor ge(const Tensor& self, const Scalar& other) { return self.ge(other); }
Tensor& ge_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& ge_outf(const Tensor& self, const Tensor& other, Tensor& out) { return ge_out(out, self, other); }
Tensor& ge_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& ge_outf(const Tensor& self, const Scalar& other, Tensor& out) { return ge_out(out, self, other); }
inline Tensor not_equal(const Tensor& self, const Tensor& other) { return self.not_equal(other); }
inline Tensor not_equal(const Tensor& self, const Scalar& other) { return self.not_equal(other); }
Tensor& not_equal_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& not_equal_outf(const Tensor& self, const Tensor& other, Tensor& out) { return not_equal_out(out, self, other); }
Tensor& not_equal_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& not_equal_outf(const Tensor& self, const Scalar& other, Tensor& out) { return not_equal_out(out, self, other); }
inline Tensor less(const Tensor& self, const Tensor& other) { return self.less(other); }
inline Tensor less(const Tensor& self, const Scalar& other) { return self.less(other); }
Tensor& less_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& less_outf(const Tensor& self, const Tensor& other, Tensor& out) { return less_out(out, self, other); }
Tensor& less_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& less_outf(const Tensor& self, const Scalar& other, Tensor& out) { return less_out(out, self, other); }
inline Tensor less_equal(const Tensor& self, const Tensor& other) { return self.less_equal(other); }
inline Tensor less_equal(const Tensor& self, const Scalar& other) { return self.less_equal(other); }
Tensor& less_equal_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& less_equal_outf(const Tensor& self, const Tensor& other, Tensor& out) { return less_equal_out(out, self, other); }
Tensor& less_equal_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& less_equal_outf(const Tensor& self, const Scalar& other, Tensor& out) { return less_equal_out(out, self, other); }
inline Tensor greater(const Tensor& self, const Tensor& other) { return self.greater(other); }
inline Tensor greater(const Tensor& self, const Scalar& other) { return self.greater(other); }
Tensor& greater_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& greater_outf(const Tensor& self, const Tensor& other, Tensor& out) { return greater_out(out, self, other); }
Tensor& greater_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& greater_outf(const Tensor& self, const Scalar& other, Tensor& out) { return greater_out(out, self, other); }
inline Tensor greater_equal(const Tensor& self, const Tensor& other) { return self.greater_equal(other); }
inline Tensor greater_equal(const Tensor& self, const Scalar& other) { return self.greater_equal(other); }
Tensor& greater_equal_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& greater_equal_outf(const Tensor& self, const Tensor& other, Tensor& out) { return greater_equal_out(out, self, other); }
Tensor& greater_equal_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& greater_equal_outf(const Tensor& self, const Scalar& other, Tensor& out) { return greater_equal_out(out, self, other); }

// ---- Logical ops (any dtype in, kBool out) ----
inline Tensor logical_and(const Tensor& self, const Tensor& other) { return self.logical_and(other); }
Tensor& logical_and_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& logical_and_outf(const Tensor& self, const Tensor& other, Tensor& out) { return logical_and_out(out, self, other); }
inline Tensor logical_or(const Tensor& self, const Tensor& other) { return self.logical_or(other); }
Tensor& logical_or_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& logical_or_outf(const Tensor& self, const Tensor& other, Tensor& out) { return logical_or_out(out, self, other); }
inline Tensor logical_xor(const Tensor& self, const Tensor& other) { return self.logical_xor(other); }
Tensor& logical_xor_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& logical_xor_outf(const Tensor& self, const Tensor& other, Tensor& out) { return logical_xor_out(out, self, other); }
inline Tensor logical_not(const Tensor& self) { return self.logical_not(); }
Tensor& logical_not_out(Tensor& out, const Tensor& self);
inline Tensor& logical_not_outf(const Tensor& self, Tensor& out) { return logical_not_out(out, self); }

// ---- Bitwise ops (integer and bool dtypes) ----
inline Tensor bitwise_and(const Tensor& self, const Tensor& other) { return self.bitwise_and(other); }
inline Tensor bitwise_and(const Tensor& self, const Scalar& other) { return self.bitwise_and(other); }
Tensor bitwise_and(const Scalar& self, const Tensor& other);
Tensor& bitwise_and_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& bitwise_and_outf(const Tensor& self, const Tensor& other, Tensor& out) { return bitwise_and_out(out, self, other); }
Tensor& bitwise_and_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& bitwise_and_outf(const Tensor& self, const Scalar& other, Tensor& out) { return bitwise_and_out(out, self, other); }
Tensor& bitwise_and_out(Tensor& out, const Scalar& self, const Tensor& other);
inline Tensor& bitwise_and_outf(const Scalar& self, const Tensor& other, Tensor& out) { return bitwise_and_out(out, self, other); }
inline Tensor bitwise_or(const Tensor& self, const Tensor& other) { return self.bitwise_or(other); }
inline Tensor bitwise_or(const Tensor& self, const Scalar& other) { return self.bitwise_or(other); }
Tensor bitwise_or(const Scalar& self, const Tensor& other);
Tensor& bitwise_or_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& bitwise_or_outf(const Tensor& self, const Tensor& other, Tensor& out) { return bitwise_or_out(out, self, other); }
Tensor& bitwise_or_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& bitwise_or_outf(const Tensor& self, const Scalar& other, Tensor& out) { return bitwise_or_out(out, self, other); }
Tensor& bitwise_or_out(Tensor& out, const Scalar& self, const Tensor& other);
inline Tensor& bitwise_or_outf(const Scalar& self, const Tensor& other, Tensor& out) { return bitwise_or_out(out, self, other); }
inline Tensor bitwise_xor(const Tensor& self, const Tensor& other) { return self.bitwise_xor(other); }
inline Tensor bitwise_xor(const Tensor& self, const Scalar& other) { return self.bitwise_xor(other); }
Tensor bitwise_xor(const Scalar& self, const Tensor& other);
Tensor& bitwise_xor_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& bitwise_xor_outf(const Tensor& self, const Tensor& other, Tensor& out) { return bitwise_xor_out(out, self, other); }
Tensor& bitwise_xor_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& bitwise_xor_outf(const Tensor& self, const Scalar& other, Tensor& out) { return bitwise_xor_out(out, self, other); }
Tensor& bitwise_xor_out(Tensor& out, const Scalar& self, const Tensor& other);
inline Tensor& bitwise_xor_outf(const Scalar& self, const Tensor& other, Tensor& out) { return bitwise_xor_out(out, self, other); }
inline Tensor bitwise_left_shift(const Tensor& self, const Tensor& other) { return self.bitwise_left_shift(other); }
inline Tensor bitwise_left_shift(const Tensor& self, const Scalar& other) { return self.bitwise_left_shift(other); }
Tensor bitwise_left_shift(const Scalar& self, const Tensor& other);
Tensor& bitwise_left_shift_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& bitwise_left_shift_outf(const Tensor& self, const Tensor& other, Tensor& out) { return bitwise_left_shift_out(out, self, other); }
Tensor& bitwise_left_shift_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& bitwise_left_shift_outf(const Tensor& self, const Scalar& other, Tensor& out) { return bitwise_left_shift_out(out, self, other); }
Tensor& bitwise_left_shift_out(Tensor& out, const Scalar& self, const Tensor& other);
inline Tensor& bitwise_left_shift_outf(const Scalar& self, const Tensor& other, Tensor& out) { return bitwise_left_shift_out(out, self, other); }
inline Tensor bitwise_right_shift(const Tensor& self, const Tensor& other) { return self.bitwise_right_shift(other); }
inline Tensor bitwise_right_shift(const Tensor& self, const Scalar& other) { return self.bitwise_right_shift(other); }
Tensor bitwise_right_shift(const Scalar& self, const Tensor& other);
Tensor& bitwise_right_shift_out(Tensor& out, const Tensor& self, const Tensor& other);
inline Tensor& bitwise_right_shift_outf(const Tensor& self, const Tensor& other, Tensor& out) { return bitwise_right_shift_out(out, self, other); }
Tensor& bitwise_right_shift_out(Tensor& out, const Tensor& self, const Scalar& other);
inline Tensor& bitwise_right_shift_outf(const Tensor& self, const Scalar& other, Tensor& out) { return bitwise_right_shift_out(out, self, other); }
Tensor& bitwise_right_shift_out(Tensor& out, const Scalar& self, const Tensor& other);
inline Tensor& bitwise_right_shift_outf(const Scalar& self, const Tensor& other, Tensor& out) { return bitwise_right_shift_out(out, self, other); }
inline Tensor bitwise_not(const Tensor& self) { return self.bitwise_not(); }
Tensor& bitwise_not_out(Tensor& out, const Tensor& self);
inline Tensor& bitwise_not_outf(const Tensor& self, Tensor& out) { return bitwise_not_out(out, self); }
inline Tensor __and__(const Tensor& self, const Tensor& other) { return self.bitwise_and(other); }
inline Tensor __and__(const Tensor& self, const Scalar& other) { return self.bitwise_and(other); }
inline Tensor __or__(const Tensor& self, const Tensor& other) { return self.bitwise_or(other); }
inline Tensor __or__(const Tensor& self, const Scalar& other) { return self.bitwise_or(other); }
inline Tensor __xor__(const Tensor& self, const Tensor& other) { return self.bitwise_xor(other); }
inline Tensor __xor__(const Tensor& self, const Scalar& other) { return self.bitwise_xor(other); }
inline Tensor __lshift__(const Tensor& self, const Tensor& other) { return self.bitwise_left_shift(other); }
inline Tensor __lshift__(const Tensor& self, const Scalar& other) { return self.bitwise_left_shift(other); }
inline Tensor __rshift__(const Tensor& self, const Tensor& other) { return self.bitwise_right_shift(other); }
inline Tensor __rshift__(const Tensor& self, const Scalar& other) { return self.bitwise_right_shift(other); }

// ---- Operators, as LibTorch's ATen/TensorOperators.h (+ - * / == ... with a tensor on the left are in tensor.h) ----
inline Tensor operator%(const Tensor& a, const Tensor& b) { return a.remainder(b); }
inline Tensor operator%(const Tensor& a, const Scalar& b) { return a.remainder(b); }
inline Tensor operator%(const Scalar& a, const Tensor& b) { return remainder(a, b); }
inline Tensor operator&(const Tensor& a, const Tensor& b) { return a.bitwise_and(b); }
inline Tensor operator&(const Tensor& a, const Scalar& b) { return a.bitwise_and(b); }
inline Tensor operator&(const Scalar& a, const Tensor& b) { return b.bitwise_and(a); }
inline Tensor operator|(const Tensor& a, const Tensor& b) { return a.bitwise_or(b); }
inline Tensor operator|(const Tensor& a, const Scalar& b) { return a.bitwise_or(b); }
inline Tensor operator|(const Scalar& a, const Tensor& b) { return b.bitwise_or(a); }
inline Tensor operator^(const Tensor& a, const Tensor& b) { return a.bitwise_xor(b); }
inline Tensor operator^(const Tensor& a, const Scalar& b) { return a.bitwise_xor(b); }
inline Tensor operator^(const Scalar& a, const Tensor& b) { return b.bitwise_xor(a); }
inline Tensor operator<(const Scalar& a, const Tensor& b) { return b.gt(a); }
inline Tensor operator<=(const Scalar& a, const Tensor& b) { return b.ge(a); }
inline Tensor operator>(const Scalar& a, const Tensor& b) { return b.lt(a); }
inline Tensor operator>=(const Scalar& a, const Tensor& b) { return b.le(a); }
inline Tensor operator==(const Scalar& a, const Tensor& b) { return b.eq(a); }
inline Tensor operator!=(const Scalar& a, const Tensor& b) { return b.ne(a); }
// Shifts as PyTorch's Python operators (LibTorch 1.13's C++ has only the methods).
inline Tensor operator<<(const Tensor& a, const Tensor& b) { return a.bitwise_left_shift(b); }
inline Tensor operator<<(const Tensor& a, const Scalar& b) { return a.bitwise_left_shift(b); }
inline Tensor operator>>(const Tensor& a, const Tensor& b) { return a.bitwise_right_shift(b); }
inline Tensor operator>>(const Tensor& a, const Scalar& b) { return a.bitwise_right_shift(b); }

}  // namespace tinytorch
