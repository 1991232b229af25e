// test
