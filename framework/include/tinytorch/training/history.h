#pragma once
// What a Trainer measured, one record per epoch, and the curves drawn from it.
//
//   const auto& history = trainer.history();
//   history.epochs.back().val_accuracy      // 0.93
//   history.write_svg("curves.svg");        // loss and accuracy per epoch, train and validation
//
// A value the run did not measure is NaN: val_loss without a validation loader, accuracy for a
// regression loss. The SVG leaves NaN points out.
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <string>
#include <vector>

namespace tinytorch {
namespace training {

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

struct EpochRecord {
  int64_t epoch = 0;  // 1 for the first epoch
  double train_loss = kNotMeasured;
  double train_accuracy = kNotMeasured;
  double val_loss = kNotMeasured;
  double val_accuracy = kNotMeasured;
  double lr = kNotMeasured;               // parameter group 0's learning rate during the epoch
  int64_t samples = 0;                    // training samples seen in the epoch
  double seconds = 0;                     // wall time of the training pass (not of validation)
  double samples_per_second = 0;          // samples / seconds
};

struct History {
  std::vector<EpochRecord> epochs;

  // The SVG text of two charts side by side: loss per epoch (train solid, validation dashed) and
  // accuracy per epoch, with the axes' ranges written on them.
  std::string to_svg(const std::string& title = "Training curves") const;
  // Writes to_svg() to path; throws tinytorch::Error naming the path when it cannot.
  void write_svg(const std::string& path, const std::string& title = "Training curves") const;
};

// One line per epoch: "epoch 3  train loss 0.4123 acc 91.2%  val loss 0.4500 acc 90.1%  lr 0.05  ..."
std::ostream& operator<<(std::ostream& out, const EpochRecord& record);

}  // namespace training
}  // namespace tinytorch
