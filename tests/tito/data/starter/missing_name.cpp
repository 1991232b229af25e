int f() {
  // BEGIN SOLUTION lesson="1. F"
  return 1;
  // END SOLUTION
}
