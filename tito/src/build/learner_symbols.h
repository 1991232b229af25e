#pragma once
// What a grader lets a learner's objects define and call. The learner's code is linked into the same
// program as the test harness that records its results, so a definition can stand in for someone else's
// code: a function of the harness (its matchers could then record the expected value as the learner's), a
// function of TinyTorch's given code or another module's reference, or one of the C or C++ runtime
// (`write`, `fopen`, `operator new` defined in the program replace the library's everywhere). Link
// order alone does not stop that: a strong definition wins over an inline (weak) one wherever it
// is. And a call can reach what no learner code needs: the harness's recorder, the descriptor its
// events go to, the process's own memory through /proc, the environment with the grading seed. So before
// a learner's build runs, every external symbol its objects define or use is checked:
//   - C++ code in a namespace only: a C name (`write`, `main`) is refused, except the few the
//     compilers themselves emit (DW.ref.__gxx_personality_v0, sanitizer bookkeeping);
//   - nothing in the harness's namespaces (Catch::, tito_catch::, tinytorch::testing::), defined or used;
//   - nothing the system's C and C++ runtime libraries export;
//   - no strong definition of a symbol that a protected archive (the harness, the given code, the
//     reference modules linked beside it) also defines;
//   - no use of what opens, writes or maps files and descriptors, loads code, changes memory protection,
//     starts processes or reads the environment (open, write, fopen, std::ofstream, mmap, mprotect, dlsym,
//     syscall, getenv, ...): the reference solutions use none of them;
//   - no system-call instruction in the code (inline assembly spelled so that no scan of the text sees it).
#include <filesystem>
#include <string>
#include <vector>

namespace tito {

// One external symbol an object file or library defines, as `nm -P` prints it.
struct DefinedSymbol {
  std::string name;  // mangled
  char type = '?';   // nm's letter: 'T' code, 'W'/'V' weak, 'D'/'B'/'R' data, 'i' ifunc, 'u' unique
  // Vague linkage: an inline function, a template's instance, or ('u') a static local or member of
  // one, which every object using it defines and the linker (or loader) keeps one copy of.
  bool weak() const { return type == 'W' || type == 'V' || type == 'w' || type == 'v' || type == 'u'; }
};

// The external symbols `file` (an object, an archive, or with `dynamic` a shared library's exports)
// defines. Throws std::runtime_error when nm is missing or cannot read the file.
std::vector<DefinedSymbol> defined_symbols(const std::filesystem::path& file, bool dynamic = false);

// The shared libraries every test program loads: the C++ runtime, libc, libm, libgcc_s, as `cxx`
// finds them (-print-file-name).
std::vector<std::filesystem::path> runtime_libraries(const std::string& cxx);

// The external symbols `object` uses without defining them (`nm -u`).
std::vector<std::string> used_symbols(const std::filesystem::path& object);

// "tensor.cpp defines `write`, a C name (...)" or "tensor.cpp uses `getenv`, ..." for each refused
// symbol in `learner_objects` (absolute paths; the labels name them in messages). `protected_libs`:
// the harness, given code and reference archives linked with them; `runtime_libs`: runtime_libraries().
// Results for libraries are cached by path and modification time (graders check many learners).
std::vector<std::string> forbidden_symbols(const std::vector<std::filesystem::path>& learner_objects,
                                               const std::vector<std::string>& labels,
                                               const std::vector<std::filesystem::path>& protected_libs,
                                               const std::vector<std::filesystem::path>& runtime_libs);

// The readable name of a mangled symbol ("tinytorch::relu(tinytorch::Tensor const&)"), or the name
// itself when it is not a C++ name.
std::string demangled(const std::string& name);

}  // namespace tito
