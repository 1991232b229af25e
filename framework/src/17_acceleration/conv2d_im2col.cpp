// Module 17 (Acceleration), lesson sections "7. im2col: a convolution as one GEMM" and "8. col2im,
// the adjoint, and the backward pass": the convolution behind torch::conv2d in builds with module 17
// (contracts in tinytorch/acceleration_kernels.h). Unfold the
// batch into one matrix (im2col) so that the convolution becomes one GEMM, the operation a CPU does
// best. Its backward is two more GEMMs (grad_weight = grad_out x columns^T, grad_columns = weight^T x
// grad_out) and a fold (col2im). The batch goes through in chunks of a few images, sized for the cache
// and the GEMM. Above kGemmParallelThreshold multiply-adds the chunks are split between threads (each
// GEMM then stays on its thread): LeNet-5's step on 2 threads was no faster than on 1 while only
// its GEMMs were threaded, since im2col and col2im ran on one. Both are tested
// against module 09's loops (conv2d_reference, conv2d_backward_reference).
#include <algorithm>
#include <vector>

#include "tinytorch/acceleration_kernels.h"
#include "tinytorch/kernels.h"
#include "tinytorch/parallel.h"

namespace tinytorch {
namespace native {
namespace {

// Images per GEMM, within two limits: a chunk's unfolded columns stay within about 256 KiB (still in
// the L2 cache when the GEMM reads them), and, where one image allows it, each GEMM stays within
// kSmallGemmMaxMultiplyAdds, the size up to which cpublas::gemm multiplies without packing.
// Measured on conv_1_8_8x8 (batch 32 of 8x8 digits): one
// GEMM of 147k multiply-adds, 68 us per step; two of 74k, 46 us. The batch is split evenly.
int64_t images_per_chunk(int64_t column_rows, int64_t multiply_adds_per_image, int64_t positions,
                         int64_t element_size, int64_t batch) {
  constexpr int64_t kChunkBytes = 256 * 1024;
  const int64_t by_bytes = kChunkBytes / std::max<int64_t>(column_rows * positions * element_size, 1);
  const int64_t by_gemm = cpublas::kSmallGemmMaxMultiplyAdds / std::max<int64_t>(multiply_adds_per_image, 1);
  const int64_t most = std::clamp<int64_t>(std::min(by_bytes, by_gemm), 1, std::max<int64_t>(batch, 1));
  const int64_t chunks = (batch + most - 1) / most;
  return std::max<int64_t>((batch + chunks - 1) / chunks, 1);
}

// TODO: add_weight_grad_chunk -- add one chunk's share of the weight gradient onto total_grad (O x K
//   values, K = group_in kh kw: the weight's own layout) (section 8, "col2im, the adjoint, and the
//   backward pass"). The chunk is `images` contiguous images starting at x (C H W elements each);
//   grad_matrix (O, L), L = images OH OW, is its output gradient laid out as the forward GEMM's
//   product (the images side by side). Scratch you may overwrite: `columns` (groups K rows of L
//   values) and chunk_grad (O K values). Per group, the weight gradient is the output gradient times
//   the transposed unfolded input; every chunk of the batch adds to the same total. No transposed
//   copy is needed: cpublas::gemm reads any strides.
template <typename scalar_t>
void add_weight_grad_chunk(const Conv2dGeometry& g, const scalar_t* x, int64_t images, const scalar_t* grad_matrix,
                           scalar_t* columns, scalar_t* chunk_grad, scalar_t* total_grad) {
  // BEGIN SOLUTION name="tinytorch::native::add_weight_grad_chunk" lesson="8. col2im, the adjoint, and the backward pass"
  const int64_t K = g.group_in * g.kernel_h * g.kernel_w, positions = g.out_h * g.out_w;
  const int64_t L = images * positions, image_size = g.channels * g.height * g.width;
  for (int64_t n = 0; n < images; ++n) im2col(x + n * image_size, g, columns + n * positions, L);
  for (int64_t group = 0; group < g.groups; ++group) {
    cpublas::gemm(g.group_out, K, L, grad_matrix + group * g.group_out * L, L, 1, columns + group * K * L, 1, L,
                  chunk_grad + group * g.group_out * K, K);
  }
  for (int64_t i = 0; i < g.out_channels * K; ++i) total_grad[i] += chunk_grad[i];
  // END SOLUTION
}

// TODO: add_input_grad_chunk -- add one chunk's input gradient onto grad_input (`images` images of
//   C H W elements, contiguous; the caller's, starting at zero) (section 8). weight holds O x K values
//   (K = group_in kh kw), grad_matrix (O, L) the chunk's output gradient as in add_weight_grad_chunk, and
//   `columns` scratch you may overwrite (groups K rows of L values). The input gradient is the
//   weight, transposed, times the output gradient, per group, folded back onto the images by col2im:
//   pixels seen by several taps sum their gradients. No transposed copy of the weight is needed.
template <typename scalar_t>
void add_input_grad_chunk(const Conv2dGeometry& g, const scalar_t* weight, const scalar_t* grad_matrix,
                          int64_t images, scalar_t* columns, scalar_t* grad_input) {
  // BEGIN SOLUTION name="tinytorch::native::add_input_grad_chunk" lesson="8. col2im, the adjoint, and the backward pass"
  const int64_t K = g.group_in * g.kernel_h * g.kernel_w, positions = g.out_h * g.out_w;
  const int64_t L = images * positions, image_size = g.channels * g.height * g.width;
  for (int64_t group = 0; group < g.groups; ++group) {
    cpublas::gemm(K, L, g.group_out, weight + group * g.group_out * K, 1, K, grad_matrix + group * g.group_out * L,
                  L, 1, columns + group * K * L, L);
  }
  for (int64_t n = 0; n < images; ++n) col2im(columns + n * positions, L, g, grad_input + n * image_size);
  // END SOLUTION
}

}  // namespace

// TODO: conv2d_im2col -- out (N, O, OH, OW) = the convolution of input (N, C, H, W) with weight
//   (O, C / groups, kh, kw), both contiguous, plus bias (O) when it is defined, computed as im2col and
//   one cpublas::gemm per chunk of images and group (section 7, "im2col: a convolution as one GEMM").
//   It equals module 09's loops (conv2d_reference) for every stride, padding, dilation and group
//   count. g = geometry_of(input, weight, params) gives the sizes; the given images_per_chunk says how
//   many images one chunk unfolds side by side (the last chunk may be shorter).
//   Threads (section 6's rules): above cpublas::kGemmParallelThreshold multiply-adds
//   (N O K OH OW, K = C / groups kh kw) whole chunks are shared between threads with parallel_for,
//   each thread with its own scratch tensors and its own images of the output; below it, one thread.
//   An empty output (numel() == 0) is returned as allocated. Nothing extra is saved for backward: it
//   unfolds the input again, which costs less than keeping C kh kw x N OH OW columns alive.
//   Element types: TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "conv2d", [&] { ... scalar_t ... }).
Tensor conv2d_im2col(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params) {
  // BEGIN SOLUTION name="tinytorch::native::conv2d_im2col" lesson="7. im2col: a convolution as one GEMM"
  const Conv2dGeometry g = geometry_of(input, weight, params);
  const int64_t batch = g.batch, out_channels = g.out_channels, groups = g.groups, group_out = g.group_out;
  const int64_t K = g.group_in * g.kernel_h * g.kernel_w;  // rows of one group's columns: C / groups kh kw
  const int64_t positions = g.out_h * g.out_w;               // P = OH OW
  const int64_t image_size = g.channels * g.height * g.width;
  Tensor output = empty({batch, out_channels, g.out_h, g.out_w}, input.options());
  if (output.numel() == 0) return output;
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "conv2d", [&] {
    const int64_t chunk = images_per_chunk(groups * K, group_out * K * positions, positions, sizeof(scalar_t), batch);
    const scalar_t* x = input.data_ptr<scalar_t>();
    const scalar_t* w = weight.data_ptr<scalar_t>();
    const scalar_t* b = bias.defined() ? bias.data_ptr<scalar_t>() : nullptr;
    scalar_t* out = output.data_ptr<scalar_t>();
    // Threads take whole chunks (each its own columns and product; every chunk writes its own
    // images of the output), once the convolution is big enough to pay for waking them.
    const int64_t chunks = (batch + chunk - 1) / chunk;
    const bool threaded = batch * out_channels * K * positions >= cpublas::kGemmParallelThreshold;
    parallel_for(0, chunks, threaded ? 1 : chunks, [&](int64_t first_chunk, int64_t last_chunk) {
      Tensor columns = empty({groups * K, chunk * positions}, input.options());
      Tensor product = chunk > 1 ? empty({out_channels, chunk * positions}, input.options()) : Tensor();
      scalar_t* cols = columns.data_ptr<scalar_t>();
      for (int64_t first = first_chunk * chunk; first < std::min(batch, last_chunk * chunk); first += chunk) {
        const int64_t images = std::min(chunk, batch - first);
        const int64_t L = images * positions;  // columns of this chunk: image n's start at n P
        for (int64_t n = 0; n < images; ++n) im2col(x + (first + n) * image_size, g, cols + n * positions, L);
        // One image: (O, P) is already the output's layout, so the GEMM writes the output directly.
        scalar_t* prod = images == 1 ? out + first * out_channels * positions : product.data_ptr<scalar_t>();
        for (int64_t group = 0; group < groups; ++group) {
          // product rows of this group (group_out, L) = weight rows (group_out, K) x columns rows (K, L)
          cpublas::gemm(group_out, L, K, w + group * group_out * K, K, 1, cols + group * K * L, L, 1,
                        prod + group * group_out * L, L);
        }
        // (O, images P) -> (images, O, P), adding the bias on the way.
        for (int64_t n = 0; n < images; ++n) {
          for (int64_t o = 0; o < out_channels; ++o) {
            const scalar_t* src = prod + o * L + n * positions;
            scalar_t* dst = out + ((first + n) * out_channels + o) * positions;
            const scalar_t shift = b != nullptr ? b[o] : scalar_t(0);
            for (int64_t p = 0; p < positions; ++p) dst[p] = src[p] + shift;
          }
        }
      }
    });
  });
  return output;
  // END SOLUTION
}

std::tuple<Tensor, Tensor, Tensor> conv2d_backward_im2col(const Tensor& grad_output, const Tensor& input_,
                                                          const Tensor& weight_, const Conv2dParams& params,
                                                          const std::array<bool, 3>& output_mask) {
  const Tensor input = input_.contiguous();
  const Tensor weight = weight_.contiguous();
  const Conv2dGeometry g = geometry_of(input, weight, params);
  const int64_t batch = g.batch, out_channels = g.out_channels, groups = g.groups, group_out = g.group_out;
  const int64_t K = g.group_in * g.kernel_h * g.kernel_w;  // rows of one group's columns: C / groups kh kw
  const int64_t positions = g.out_h * g.out_w;               // P = OH OW
  const int64_t image_size = g.channels * g.height * g.width;
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = zeros(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = zeros(weight.sizes(), weight.options());
  if (output_mask[2]) grad_bias = zeros({out_channels}, weight.options());
  if (batch * positions == 0 || K == 0) return {grad_input, grad_weight, grad_bias};
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "conv2d_backward", [&] {
    const int64_t chunk = images_per_chunk(groups * K, group_out * K * positions, positions, sizeof(scalar_t), batch);
    const scalar_t* x = input.data_ptr<scalar_t>();
    const scalar_t* w = weight.data_ptr<scalar_t>();
    // grad_output is read through its strides: the gradient of out.sum() is one number expanded
    // (every stride 0), not worth materialising.
    const scalar_t* gy = grad_output.data_ptr<scalar_t>();
    const int64_t sn = grad_output.stride(0), so = grad_output.stride(1);
    const int64_t sy = grad_output.stride(2), sx = grad_output.stride(3);
    // Tasks take contiguous ranges of chunks, each with its own scratch, a few tasks per thread
    // (claimed as threads come free). The input gradient of a chunk is its own images'; the weight
    // and bias gradients sum over every chunk, so each task after the first adds into its own
    // partial sums, added to the totals at the end in task order (the same result on every run).
    const int64_t chunks = (batch + chunk - 1) / chunk;
    const bool threaded = batch * out_channels * K * positions >= cpublas::kGemmParallelThreshold;
    const int64_t tasks = threaded ? parallel_task_count(chunks, 1) : 1;
    std::vector<Tensor> partial_weight(tasks), partial_bias(tasks);
    for (int64_t t = 1; t < tasks; ++t) {
      if (output_mask[1]) partial_weight[t] = zeros(weight.sizes(), weight.options());
      if (output_mask[2]) partial_bias[t] = zeros({out_channels}, weight.options());
    }
    if (output_mask[1]) partial_weight[0] = grad_weight;
    if (output_mask[2]) partial_bias[0] = grad_bias;
    parallel_for(0, tasks, 1, [&](int64_t first_task, int64_t last_task) {
      for (int64_t task = first_task; task < last_task; ++task) {
        const int64_t first_image = chunks * task / tasks * chunk;
        const int64_t end_image = std::min(batch, chunks * (task + 1) / tasks * chunk);
        Tensor columns = empty({groups * K, chunk * positions}, input.options());
        Tensor grad_matrix = empty({out_channels, chunk * positions}, input.options());
        // One chunk's weight gradient, added to the total (the GEMM overwrites its output).
        Tensor chunk_grad_weight = output_mask[1] ? empty({out_channels * K}, weight.options()) : Tensor();
        scalar_t* cols = columns.data_ptr<scalar_t>();
        scalar_t* gm = grad_matrix.data_ptr<scalar_t>();
        for (int64_t first = first_image; first < end_image; first += chunk) {
          const int64_t images = std::min(chunk, end_image - first);
          const int64_t L = images * positions;
          // This chunk of grad_output as the (O, images P) matrix the forward GEMM produced.
          for (int64_t o = 0; o < out_channels; ++o) {
            for (int64_t n = 0; n < images; ++n) {
              const scalar_t* src = gy + (first + n) * sn + o * so;
              scalar_t* dst = gm + o * L + n * positions;
              if (sy == g.out_w && sx == 1) {  // a contiguous (OH, OW) plane: one vectorised copy
                for (int64_t p = 0; p < positions; ++p) dst[p] = src[p];
              } else if (sy == 0 && sx == 0) {  // one value broadcast over the plane
                const scalar_t value = src[0];
                for (int64_t p = 0; p < positions; ++p) dst[p] = value;
              } else {
                for (int64_t y = 0; y < g.out_h; ++y, dst += g.out_w) {
                  for (int64_t x_out = 0; x_out < g.out_w; ++x_out) dst[x_out] = src[y * sy + x_out * sx];
                }
              }
            }
          }
          // grad_bias[o] += row o of the grad matrix summed (over the chunk's samples and positions).
          if (output_mask[2]) {
            scalar_t* gb = partial_bias[task].data_ptr<scalar_t>();
            for (int64_t o = 0; o < out_channels; ++o) {
              // Eight running sums, not one: independent additions the compiler can vectorise.
              constexpr int64_t kLanes = 8;
              scalar_t lanes[kLanes] = {};
              const scalar_t* row = gm + o * L;
              int64_t l = 0;
              for (; l + kLanes <= L; l += kLanes) {
                for (int64_t lane = 0; lane < kLanes; ++lane) lanes[lane] += row[l + lane];
              }
              scalar_t sum = 0;
              for (; l < L; ++l) sum += row[l];
              for (int64_t lane = 0; lane < kLanes; ++lane) sum += lanes[lane];
              gb[o] += sum;
            }
          }
          if (output_mask[1]) {
            add_weight_grad_chunk(g, x + first * image_size, images, gm, cols, chunk_grad_weight.data_ptr<scalar_t>(),
                                  partial_weight[task].data_ptr<scalar_t>());
          }
          if (output_mask[0]) {
            add_input_grad_chunk(g, w, gm, images, cols, grad_input.data_ptr<scalar_t>() + first * image_size);
          }
        }
      }
    });
    for (int64_t t = 1; t < tasks; ++t) {
      if (output_mask[1]) grad_weight.add_(partial_weight[t]);
      if (output_mask[2]) grad_bias.add_(partial_bias[t]);
    }
  });
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace native
}  // namespace tinytorch
