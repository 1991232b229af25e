#pragma once
// The events file tito reads (written to the descriptor $TITO_EVENTS_FD, format in tito/src/run/test_events.h): one JSON
// object per line, written by the event listener (case start and end, failures) and by the test
// helpers, which record what the code under test produced ("observed" events). tito compares those
// observations with the reference solution's, outside this process, before a case earns points.
#include <string>

namespace tito_catch {

// Appends one line and flushes it (the next line of learner code may crash the process). Does
// nothing when tito did not ask for events.
void write_event_line(const std::string& json);

// Records one observation of the running case: `fields` are a JSON object's members without the
// braces. A case records at most kMaxObservationsPerCase; tito's reference run stops at the same count.
constexpr int kMaxObservationsPerCase = 2000;
void record_observation(const std::string& fields);
bool observation_room_left();  // false once the running case has recorded its maximum
void start_case_observations();

}  // namespace tito_catch
