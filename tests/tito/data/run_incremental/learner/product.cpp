namespace incremental {
int product(int a, int b) { return a * b; }
}  // namespace incremental
