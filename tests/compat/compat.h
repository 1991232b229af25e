#pragma once
// Shared by every program of the compatibility corpus. Each program is written as a LibTorch user
// would write it; only this include differs between the two builds (-DCOMPAT_WITH_LIBTORCH).
// All programs are linked into one executable per library (link once, compile each program once);
// `compat_<library> NAME` runs one program, `compat_<library> --list` names them all.
#ifdef COMPAT_WITH_LIBTORCH
#include <torch/torch.h>
#else
#include <tinytorch/torch.h>
#endif

namespace compat {
using ProgramMain = int (*)();
// Adds a program to the table main.cpp dispatches on; returns true so it can initialise a static.
bool register_program(const char* name, ProgramMain main);
}  // namespace compat

// COMPAT_PROGRAM(tensor_creation) { ...the program's main... return 0; }
#define COMPAT_PROGRAM(name)                                                               \
  static int compat_main_##name();                                                         \
  static const bool compat_registered_##name = compat::register_program(#name, &compat_main_##name); \
  static int compat_main_##name()
