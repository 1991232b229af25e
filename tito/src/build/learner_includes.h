#pragma once
// What a grader lets a learner's file include: the released public headers, the compiler's own
// headers and the learner's own folder. Two checks, because either alone can be dodged: a scan of
// the text before compiling (absolute or '..' includes, inline assembly, which can read any file),
// and the compiler's own account of every file it opened (its -MD depfile), which also catches an
// include spelled through macros. A refused build never shows its compiler messages: they could
// quote the file that was reached for.
#include <filesystem>
#include <string>
#include <vector>

namespace tito {

// "line 3: #include "/etc/passwd" (an absolute path)" for each directive or construct of `source` that
// reaches outside the allowed folders: #include/#include_next/#import of an absolute path or one with
// a '..' component, and the asm keywords (`.incbin`/`.include` in assembly read any file).
std::vector<std::string> forbidden_include_lines(const std::string& source);

// The files a make-style depfile ("x.o: a.cpp b.h \\\n c.h") lists, spaces unescaped.
std::vector<std::filesystem::path> depfile_dependencies(const std::string& depfile_text);

// The dependencies that lie under none of `allowed_roots` once links and '..' are resolved.
std::vector<std::filesystem::path> dependencies_outside(const std::vector<std::filesystem::path>& dependencies,
                                                        const std::vector<std::filesystem::path>& allowed_roots);

// The folders `cxx` searches for <...> headers by default (its standard library, /usr/include, ...),
// as it reports them with -E -v; empty when it cannot be asked.
std::vector<std::filesystem::path> compiler_system_include_dirs(const std::string& cxx);

}  // namespace tito
