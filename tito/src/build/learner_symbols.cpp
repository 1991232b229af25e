#include "build/learner_symbols.h"

#include <cxxabi.h>

#include <cstdlib>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "build/captured_command.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

// Names the compilers emit for their own bookkeeping, with C linkage but nothing a program calls.
bool compiler_generated(const std::string& name) {
  for (const char* prefix : {"DW.ref.", "__clang_call_terminate", "__odr_asan", "__asan", "___asan", "__ubsan", "__sancov"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

// "vtable for Catch::X" names Catch::X's vtable: what matters is the entity it belongs to.
std::string entity_of(std::string readable) {
  for (const char* prefix : {"vtable for ", "typeinfo for ", "typeinfo name for ", "VTT for ", "construction vtable for ",
                             "guard variable for ", "non-virtual thunk to ", "virtual thunk to ",
                             "covariant return thunk to ", "TLS init function for ", "TLS wrapper function for "}) {
    const std::string text = prefix;
    if (readable.rfind(text, 0) == 0) return entity_of(readable.substr(text.size()));
  }
  return readable;
}

bool in_harness_namespace(const std::string& entity) {
  for (const char* space : {"Catch::", "tito_catch::", "tinytorch::testing::"})
    if (entity.rfind(space, 0) == 0) return true;
  return false;
}

// C functions (and variables) no learner code needs, through which code could reach files, descriptors
// (the harness's events), its own process's memory, the environment (the grading seed), or the system.
const char* const kForbiddenCalls[] = {
    "open", "open64", "openat", "openat64", "__open_2", "__open64_2", "__openat_2", "__openat64_2", "creat", "creat64",
    "fopen", "fopen64", "freopen", "freopen64", "fdopen", "tmpfile", "tmpfile64", "opendir", "fdopendir",
    "write", "writev", "pwrite", "pwrite64", "pwritev", "pwritev2", "read", "readv", "pread", "pread64", "lseek", "lseek64",
    "dup", "dup2", "dup3", "fcntl", "fcntl64", "ioctl", "close", "send", "sendto", "sendmsg", "socket", "connect",
    "sendfile", "sendfile64", "splice", "tee", "vmsplice", "copy_file_range",
    "mmap", "mmap64", "mprotect", "pkey_mprotect", "mremap", "memfd_create", "process_vm_readv", "process_vm_writev",
    "ptrace", "dlopen", "dlmopen", "dlsym", "dlvsym", "dladdr", "dl_iterate_phdr", "syscall",
    "getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "clearenv", "environ", "__environ", "_environ",
    "system", "popen", "fork", "vfork", "clone", "execve", "execv", "execvp", "execvpe", "execl", "execlp", "execle",
    "posix_spawn", "posix_spawnp", "kill", "tgkill", "raise", "signal", "sigaction",
    "link", "linkat", "symlink", "symlinkat", "rename", "renameat", "renameat2", "unlink", "unlinkat", "remove",
    "mkdir", "rmdir", "chdir", "fchdir", "chmod", "chown", "truncate", "ftruncate",
    "__executable_start", "__ehdr_start", "_DYNAMIC"};

// The C++ library's file streams, which open files by name like fopen.
bool is_file_stream(const std::string& readable) {
  for (const char* stream : {"std::basic_ofstream", "std::basic_ifstream", "std::basic_fstream", "std::basic_filebuf",
                             "std::filesystem::"})
    if (readable.find(stream) != std::string::npos) return true;
  return false;
}

// Runs a binutils tool (nm, objdump) on `file`, each line of its output to `on_line`. Throws when the
// tool is missing or cannot read the file: unchecked code is never run for a grade.
void run_binutils(const char* tool, std::vector<std::string> options, const fs::path& file,
                  const std::function<void(const std::string&)>& on_line) {
  const std::string path = find_executable(tool);
  if (path.empty())
    throw std::runtime_error(std::string(tool) + " (from binutils) is missing, so tito cannot check what learner code "
                             "defines and uses; install it: sudo apt-get install binutils");
  options.insert(options.begin(), path);
  options.push_back(file.string());
  std::string errors;
  const CommandOutcome outcome = run_captured(options, {}, [&](const std::string& line) {
    if (line.rfind(path + ":", 0) == 0 || line.rfind(std::string(tool) + ":", 0) == 0) errors += line + "\n";
    else on_line(line);
  });
  if (outcome.exit_code != 0)
    throw std::runtime_error(std::string(tool) + " could not read " + file.string() + (errors.empty() ? "" : ": " + errors));
}

// The system-call instructions in `object`'s code, as objdump disassembles it: "syscall at offset 0x1a".
std::vector<std::string> system_call_instructions(const fs::path& object) {
  std::vector<std::string> found;
  run_binutils("objdump", {"-d", "--no-show-raw-insn"}, object, [&](const std::string& line) {
    // "  1a:\tsyscall" / "  20:\tint    $0x80"
    const auto tab = line.find('\t'), colon = line.find(':');
    if (tab == std::string::npos || colon == std::string::npos || colon > tab || found.size() >= 5) return;
    const std::string instruction = line.substr(tab + 1);
    std::string offset = line.substr(0, colon);
    offset.erase(0, offset.find_first_not_of(' '));
    for (const char* call : {"syscall", "sysenter", "int    $0x80", "svc"})
      if (instruction.rfind(call, 0) == 0) found.push_back(std::string(call) + " at offset 0x" + offset);
  });
  return found;
}

// Symbols of a library, read once per (path, modification time).
const std::vector<DefinedSymbol>& library_symbols(const fs::path& file, bool dynamic) {
  static std::mutex mutex;
  static std::map<std::string, std::pair<fs::file_time_type, std::vector<DefinedSymbol>>> known;
  std::error_code error;
  const auto stamp = fs::last_write_time(file, error);
  const std::string key = (dynamic ? "D:" : "S:") + fs::absolute(file).string();
  std::lock_guard<std::mutex> lock(mutex);
  auto found = known.find(key);
  if (found == known.end() || found->second.first != stamp)
    found = known.insert_or_assign(key, std::make_pair(stamp, defined_symbols(file, dynamic))).first;
  return found->second.second;
}

}  // namespace

std::string demangled(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

std::vector<DefinedSymbol> defined_symbols(const fs::path& file, bool dynamic) {
  std::vector<std::string> options = {"-g", "--defined-only", "-P"};
  if (dynamic) options.push_back("-D");
  std::vector<DefinedSymbol> symbols;
  run_binutils("nm", options, file, [&](const std::string& line) {
    // "name type value size"; an archive member's header ends in ':'.
    std::istringstream fields(line);
    std::string name, type;
    if (!(fields >> name >> type) || type.size() != 1 || line.back() == ':') return;
    symbols.push_back({name.substr(0, name.find('@')), type[0]});  // "malloc@@GLIBC_2.2.5" in a shared library
  });
  return symbols;
}

std::vector<std::string> used_symbols(const fs::path& object) {
  std::vector<std::string> names;
  run_binutils("nm", {"-u", "-P"}, object, [&](const std::string& line) {
    std::istringstream fields(line);
    std::string name, type;
    if (fields >> name >> type && type.size() == 1) names.push_back(name.substr(0, name.find('@')));
  });
  return names;
}

std::vector<fs::path> runtime_libraries(const std::string& cxx) {
  std::vector<fs::path> found;
  for (const char* name : {"libstdc++.so.6", "libc.so.6", "libm.so.6", "libgcc_s.so.1"}) {
    std::string path;
    run_captured({cxx, std::string("-print-file-name=") + name}, {}, [&](const std::string& line) { path = line; });
    std::error_code error;
    if (!path.empty() && path != name && fs::exists(path, error)) found.push_back(fs::canonical(path, error));
  }
  return found;
}

std::vector<std::string> forbidden_symbols(const std::vector<fs::path>& learner_objects,
                                               const std::vector<std::string>& labels,
                                               const std::vector<fs::path>& protected_libs,
                                               const std::vector<fs::path>& runtime_libs) {
  std::set<std::string> runtime, guarded;
  for (const auto& lib : runtime_libs)
    for (const auto& symbol : library_symbols(lib, true)) runtime.insert(symbol.name);
  for (const auto& lib : protected_libs)
    for (const auto& symbol : library_symbols(lib, false)) guarded.insert(symbol.name);

  std::vector<std::string> refused;
  for (std::size_t i = 0; i < learner_objects.size(); ++i) {
    const std::string label = i < labels.size() ? labels[i] : learner_objects[i].filename().string();
    for (const auto& symbol : defined_symbols(learner_objects[i])) {
      const std::string readable = demangled(symbol.name);
      std::string why;
      if (symbol.name.rfind("_Z", 0) != 0 && !compiler_generated(symbol.name))
        why = "a C name (only C++ code in a namespace may be defined: a C function or variable of that name would "
              "replace the system's own in the whole test program)";
      else if (in_harness_namespace(entity_of(readable)) || symbol.name == "main")
        why = "a part of the test harness";
      else if (runtime.count(symbol.name))
        why = "which the C or C++ runtime library defines (it would replace that one in the whole program)";
      else if (!symbol.weak() && guarded.count(symbol.name))
        why = "which TinyTorch's given code, the test harness or a reference module linked beside it defines (it "
              "would replace that one)";
      if (!why.empty()) refused.push_back(label + " defines `" + readable + "`, " + why);
    }
    const std::set<std::string> forbidden_calls(std::begin(kForbiddenCalls), std::end(kForbiddenCalls));
    for (const auto& name : used_symbols(learner_objects[i])) {
      const std::string readable = demangled(name);
      std::string why;
      if (in_harness_namespace(entity_of(readable)))
        why = "a part of the test harness (learner code never calls it)";
      else if (forbidden_calls.count(name) || is_file_stream(readable))
        why = "which opens, writes or maps files or descriptors, loads code, starts processes or reads the environment "
              "(no module's code needs it; print with std::cout or printf instead)";
      if (!why.empty()) refused.push_back(label + " uses `" + readable + "`, " + why);
    }
    for (const auto& instruction : system_call_instructions(learner_objects[i]))
      refused.push_back(label + " makes a system call itself (" + instruction +
                        "), which only inline assembly can do; learner code calls the library instead");
  }
  return refused;
}

}  // namespace tito
