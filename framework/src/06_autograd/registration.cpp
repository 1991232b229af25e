// Module 06 registers its gradient engine before main() whenever it is part of the program, so that
// a LibTorch program (which never calls an enable function) gets gradients.
//
// A static library only contributes the objects a program refers to, and nothing refers to this
// one by name: the link flag -Wl,-u,tinytorch_autograd_registration (added to every link of
// tinytorch by framework/CMakeLists.txt, and to tito's learner builds through its toolchain) makes
// the linker keep it.
#include "tinytorch/autograd.h"

extern "C" {
extern const int tinytorch_autograd_registration;
const int tinytorch_autograd_registration = (tinytorch::enable_autograd(), 6);
}
