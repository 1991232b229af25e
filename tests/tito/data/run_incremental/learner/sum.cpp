// Two small "learner" files for the incremental-rebuild test: touching one recompiles only it.
namespace incremental {
int sum(int a, int b) { return a + b; }
}  // namespace incremental
