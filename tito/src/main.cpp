// tito: the TinyTorch C++ learner's command-line tool. All behaviour lives in tito_lib (src/cli, src/core).
#include "cli/app.h"

int main(int argc, char** argv) { return tito::run_tito(argc, argv); }
