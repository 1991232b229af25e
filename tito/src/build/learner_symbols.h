#pragma once
// What a grader lets a learner's objects define. The learner's code is linked into the same program
// as the test harness that records its results, so a definition can stand in for someone else's code:
// a function of the harness (its matchers could then record the expected value as the learner's), a
// function of TinyTorch's given code or another module's reference, or one of the C or C++ runtime
// (`write`, `fopen`, `operator new` defined in the program replace the library's everywhere). Link
// order alone does not stop that: a strong definition wins over an inline (weak) one wherever it
// is. So before a learner's build runs, every external symbol its objects define is checked:
//   - C++ code in a namespace only: a C name (`write`, `main`) is refused, except the few the
//     compilers themselves emit (DW.ref.__gxx_personality_v0, sanitizer bookkeeping);
//   - nothing in the harness's namespaces (Catch::, tito_catch::, tinytorch::testing::);
//   - nothing the system's C and C++ runtime libraries export;
//   - no strong definition of a symbol that a protected archive (the harness, the given code, the
//     reference modules linked beside it) also defines.
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

// "modules/01_tensor/tensor.cpp's object defines `write` (a C function ...)" for each refused
// definition in `learner_objects` (absolute paths; the labels name them in messages). `protected_libs`:
// the harness, given code and reference archives linked with them; `runtime_libs`: runtime_libraries().
// Results for libraries are cached by path and modification time (graders check many learners).
std::vector<std::string> forbidden_definitions(const std::vector<std::filesystem::path>& learner_objects,
                                               const std::vector<std::string>& labels,
                                               const std::vector<std::filesystem::path>& protected_libs,
                                               const std::vector<std::filesystem::path>& runtime_libs);

// The readable name of a mangled symbol ("tinytorch::relu(tinytorch::Tensor const&)"), or the name
// itself when it is not a C++ name.
std::string demangled(const std::string& name);

}  // namespace tito
