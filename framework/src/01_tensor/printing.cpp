// operator<<(ostream, Tensor), reproducing LibTorch's output (ATen's Formatting.cpp) character for
// character: one format (integer, fixed with 4 decimals, optional common scale, or scientific)
// chosen per matrix from the magnitudes of its finite values, column blocks at 80 characters, and
// the "[ CPUFloatType{2,3} ]" footer.
#include <cmath>
#include <iomanip>
#include <ostream>
#include <tuple>

#include "internal.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// Restores the stream's formatting state when printing is done.
class FormatGuard {
 public:
  explicit FormatGuard(std::ostream& out) : out_(out), saved_(nullptr) { saved_.copyfmt(out); }
  ~FormatGuard() { out_.copyfmt(saved_); }
  FormatGuard(const FormatGuard&) = delete;
  FormatGuard& operator=(const FormatGuard&) = delete;

 private:
  std::ostream& out_;
  std::ios saved_;
};

struct PrintFormat {
  double scale;   // values are printed divided by this (1 when no "scale *" line)
  int64_t width;  // characters per value
};

// Picks the format from the values (as doubles) and sets the stream's float mode accordingly.
PrintFormat choose_format(std::ostream& out, const double* values, int64_t size) {
  if (size == 0) return {1.0, 0};
  bool int_mode = true;  // every finite value is a whole number
  for (int64_t i = 0; i < size; ++i) {
    if (std::isfinite(values[i]) && values[i] != std::ceil(values[i])) {
      int_mode = false;
      break;
    }
  }
  int64_t offset = 0;  // first finite value
  while (offset < size && !std::isfinite(values[offset])) ++offset;
  double exp_min = 1, exp_max = 1;  // decimal exponents of the smallest and largest magnitudes
  if (offset < size) {
    exp_min = std::fabs(values[offset]);
    exp_max = std::fabs(values[offset]);
    for (int64_t i = offset; i < size; ++i) {
      const double z = std::fabs(values[i]);
      if (!std::isfinite(z)) continue;
      if (z < exp_min) exp_min = z;
      // LibTorch compares the signed value here; kept so the output matches it exactly.
      if (values[i] > exp_max) exp_max = z;
    }
    exp_min = exp_min != 0 ? std::floor(std::log10(exp_min)) + 1 : 1;
    exp_max = exp_max != 0 ? std::floor(std::log10(exp_max)) + 1 : 1;
  }
  double scale = 1;
  int64_t width;
  if (int_mode) {
    if (exp_max > 9) {
      width = 11;
      out << std::scientific << std::setprecision(4);
    } else {
      width = static_cast<int64_t>(exp_max) + 1;
      out << std::defaultfloat;
    }
  } else if (exp_max - exp_min > 4) {
    width = 11;
    if (std::fabs(exp_max) > 99 || std::fabs(exp_min) > 99) width += 1;
    out << std::scientific << std::setprecision(4);
  } else {
    if (exp_max > 5 || exp_max < 0) {
      width = 7;
      scale = std::pow(10, exp_max - 1);
    } else {
      width = exp_max == 0 ? 7 : static_cast<int64_t>(exp_max) + 6;
    }
    out << std::fixed << std::setprecision(4);
  }
  return {scale, width};
}

void print_scale(std::ostream& out, double scale) {
  FormatGuard guard(out);
  out << std::defaultfloat << scale << " *" << std::endl;
}

void print_indent(std::ostream& out, int64_t indent) {
  for (int64_t i = 0; i < indent; ++i) out << " ";
}

// A 2-D block of doubles (contiguous, rows x cols), split into column blocks that fit `linesize`.
void print_matrix(std::ostream& out, const double* values, int64_t rows, int64_t cols, int64_t linesize,
                  int64_t indent) {
  const PrintFormat format = choose_format(out, values, rows * cols);
  print_indent(out, indent);
  const int64_t columns_per_line = (linesize - indent) / (format.width + 1);
  int64_t first_column = 0;
  while (first_column < cols) {
    const int64_t last_column = std::min(first_column + columns_per_line, cols) - 1;
    if (columns_per_line < cols) {
      if (first_column != 0) out << std::endl;
      out << "Columns " << first_column + 1 << " to " << last_column + 1;
      print_indent(out, indent);
    }
    if (format.scale != 1) {
      print_scale(out, format.scale);
      print_indent(out, indent);
    }
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t col = first_column; col <= last_column; ++col) {
        out << std::setw(static_cast<int>(format.width)) << values[row * cols + col] / format.scale;
        if (col != last_column) {
          out << " ";
          continue;
        }
        out << std::endl;
        if (row != rows - 1) {
          print_indent(out, indent);
          if (format.scale != 1) out << " ";
        }
      }
    }
    first_column = last_column + 1;
  }
}

// N-D (N > 2): one "(i,j,.,.) = " block per matrix, indices counted from 1.
void print_blocks(std::ostream& out, const Tensor& values, int64_t linesize) {
  const int64_t outer_dims = values.dim() - 2;
  const int64_t rows = values.size(-2), cols = values.size(-1);
  const int64_t matrices = values.numel() / (rows * cols);
  const double* data = static_cast<const double*>(values.data_ptr());
  std::vector<int64_t> index(outer_dims, 0);
  for (int64_t m = 0; m < matrices; ++m) {
    if (m > 0) out << std::endl;
    out << "(";
    for (int64_t d = 0; d < outer_dims; ++d) out << index[d] + 1 << ",";
    out << ".,.) = " << std::endl;
    int64_t offset = 0;  // values is contiguous: matrix (i, j, ...) starts at the row-major offset
    for (int64_t d = 0; d < outer_dims; ++d) offset = offset * values.size(d) + index[d];
    print_matrix(out, data + offset * rows * cols, rows, cols, linesize, 1);
    for (int64_t d = 0; d < outer_dims; ++d) {  // next matrix: LibTorch counts the FIRST outer index fastest
      if (++index[d] < values.size(d)) break;
      index[d] = 0;
    }
  }
}

}  // namespace

std::ostream& print(std::ostream& out, const Tensor& t, int64_t linesize) {
  FormatGuard guard(out);
  if (!t.defined()) return out << "[ Tensor (undefined) ]";
  // Every dtype prints through doubles, as in LibTorch (bools as 0 and 1; quantized tensors as the
  // real numbers their codes stand for).
  // A device tensor prints its values copied back to the CPU, as LibTorch's does; the footer keeps its type.
  const Tensor host = t.is_cpu() ? t : t.cpu();
  const Tensor values = detail::as_contiguous(host.is_quantized() ? host.dequantize() : host, kDouble);
  const double* data = static_cast<const double*>(values.data_ptr());
  if (t.dim() == 0) {
    out << std::defaultfloat << data[0] << std::endl;
    out << "[ " << t.toString() << "{}";
  } else if (t.dim() == 1) {
    if (t.numel() > 0) {
      const PrintFormat format = choose_format(out, data, t.numel());
      if (format.scale != 1) print_scale(out, format.scale);
      for (int64_t i = 0; i < t.numel(); ++i) {
        out << std::setw(static_cast<int>(format.width)) << data[i] / format.scale << std::endl;
      }
    }
    out << "[ " << t.toString() << "{" << t.size(0) << "}";
  } else if (t.dim() == 2) {
    if (t.numel() > 0) print_matrix(out, data, t.size(0), t.size(1), linesize, 0);
    out << "[ " << t.toString() << "{" << t.size(0) << "," << t.size(1) << "}";
  } else {
    if (t.numel() > 0) print_blocks(out, values, linesize);
    out << "[ " << t.toString() << "{" << t.size(0);
    for (int64_t d = 1; d < t.dim(); ++d) out << "," << t.size(d);
    out << "}";
  }
  // LibTorch's footer goes on with the quantizer, in the stream state the values left behind.
  if (t.is_quantized()) {
    out << ", qscheme: " << toString(t.qscheme());
    if (t.qscheme() == kPerTensorAffine) {
      out << ", scale: " << t.q_scale() << ", zero_point: " << t.q_zero_point();
    } else {
      out << ", scales: ";
      print(out, t.q_per_channel_scales(), linesize);
      out << ", zero_points: ";
      print(out, t.q_per_channel_zero_points(), linesize);
      out << ", axis: " << t.q_per_channel_axis();
    }
  }
  return out << " ]";
}

std::ostream& operator<<(std::ostream& out, const Tensor& t) { return print(out, t, 80); }

}  // namespace tinytorch
