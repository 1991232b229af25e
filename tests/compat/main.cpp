// The corpus's one main: runs the program named on the command line (see compat.h).
#include <cstring>
#include <iostream>
#include <map>
#include <string>

#include "compat.h"

namespace compat {
namespace {
std::map<std::string, ProgramMain>& programs() {
  static std::map<std::string, ProgramMain> table;
  return table;
}
}  // namespace

bool register_program(const char* name, ProgramMain main) {
  programs()[name] = main;
  return true;
}
}  // namespace compat

int main(int argc, char** argv) {
  auto& table = compat::programs();
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " PROGRAM | --list\n";
    return 2;
  }
  if (std::strcmp(argv[1], "--list") == 0) {
    for (const auto& entry : table) std::cout << entry.first << "\n";
    return 0;
  }
  auto found = table.find(argv[1]);
  if (found == table.end()) {
    std::cerr << "error: no compat program named '" << argv[1] << "'\nfix: run " << argv[0]
              << " --list to see the names\n";
    return 2;
  }
  return found->second();
}
