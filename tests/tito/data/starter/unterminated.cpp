int f() {
  // BEGIN SOLUTION name="f" lesson="1. F"
  return 1;
}
