// Module 20 (Capstone), lesson section "6. The submission".
#include <string>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/olympics.h"

namespace tinytorch {
namespace olympics {


// TODO: build_submission -- fill the submission's measured parts (section 6): improvements of
//   `optimized` over `baseline` (your improvements()), and events: the name (event_name) of every
//   event in all_events() order for which your qualifies_event(event, optimized, baseline) says it
//   qualifies. A submission claims only what its figures earn: tito re-applies the rules to what it
//   measures and rejects an event the figures do not earn.
Submission build_submission(const std::string& learner, const std::string& model_description,
                            const std::vector<std::string>& techniques, const ModelMetrics& baseline,
                            const ModelMetrics& optimized) {
  Submission submission;
  submission.learner = learner;
  submission.model_description = model_description;
  submission.techniques = techniques;
  submission.baseline = baseline;
  submission.optimized = optimized;
  submission.system = system_info();
  submission.timestamp = utils::benchmark::utc_timestamp();
  // BEGIN SOLUTION name="tinytorch::olympics::build_submission" lesson="6. The submission"
  submission.improvements = improvements(baseline, optimized);
  for (Event event : all_events())
    if (qualifies_event(event, optimized, baseline).qualifies) submission.events.push_back(event_name(event));
  // END SOLUTION
  return submission;
}

}  // namespace olympics
}  // namespace tinytorch
