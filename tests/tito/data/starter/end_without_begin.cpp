int f() {
  return 1;
  // END SOLUTION
}
