// from_file: a tensor whose storage is a file mapped into memory (mmap), as LibTorch's at::from_file.
// The storage's deleter unmaps the file, so the mapping lives exactly as long as the last tensor or
// view that uses it. Error messages keep LibTorch's wording (its MapAllocator's) on their first line.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <string>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/from_blob.h"

namespace tinytorch {
namespace {

// "No such file or directory (2)", as LibTorch words a failed system call.
std::string system_error(int code) { return detail::str(std::strerror(code), " (", code, ")"); }

// Closes the file on every way out of from_file: a mapping stays valid after its file is closed.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Tensor from_file(std::string_view filename, std::optional<bool> shared, std::optional<int64_t> size,
                 TensorOptions options) {
  const int64_t numel = size.value_or(0);
  const ScalarType dtype = options.dtype().toScalarType();
  const int64_t element_size = static_cast<int64_t>(elementSize(dtype));
  TT_CHECK(numel >= 0, "from_file: size is the number of elements to map and cannot be negative, but got ", numel,
           ". Fix: pass the element count (0 maps nothing)");
  TT_CHECK(numel <= std::numeric_limits<int64_t>::max() / element_size, "from_file: size ", numel,
           " elements of ", dtype, " is more bytes than a file can hold");
  const int64_t nbytes = numel * element_size;
  // As in LibTorch, nothing to map means the file is not even opened.
  if (nbytes == 0) return empty({0}, options);

  const std::string path(filename);
  const std::string shown = path.empty() ? "filename not specified" : path;
  const bool writes_to_file = shared.value_or(false);
  FileDescriptor file(writes_to_file ? ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)
                                     : ::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  TT_CHECK(file.get() >= 0, "unable to open file <", shown, "> in ", writes_to_file ? "read-write" : "read-only",
           " mode: ", system_error(errno));
  struct stat status {};
  TT_CHECK(::fstat(file.get(), &status) == 0, "unable to stat the file <", shown, ">: ", system_error(errno));
  if (status.st_size < nbytes) {
    TT_CHECK(writes_to_file, "file <", shown, "> size is smaller than the required mapping size <", nbytes, ">\n",
             "from_file: the file has ", static_cast<int64_t>(status.st_size), " bytes, but ", numel, " elements of ",
             dtype, " need ", nbytes, ". Fix: ask for at most ", static_cast<int64_t>(status.st_size) / element_size,
             " elements, or pass shared=true to grow the file with zeros");
    // A shared mapping may grow its file: the new bytes read as zeros.
    TT_CHECK(::ftruncate(file.get(), nbytes) == 0, "unable to resize file <", shown,
             "> to the right size: ", system_error(errno));
  }

  // Writable in both cases, as in LibTorch: a private mapping copies a page on its first write, so
  // the file opened read-only never changes. MAP_NORESERVE: without it Linux charges a private
  // writable mapping's full length against memory plus swap up front and refuses a file larger than
  // both, which is exactly the file this factory is for.
  const int flags = writes_to_file ? MAP_SHARED : MAP_PRIVATE | MAP_NORESERVE;
  void* data = ::mmap(nullptr, static_cast<size_t>(nbytes), PROT_READ | PROT_WRITE, flags, file.get(), 0);
  TT_CHECK(data != MAP_FAILED, "unable to mmap ", nbytes, " bytes from file <", shown, ">: ", system_error(errno));

  const auto length = static_cast<size_t>(nbytes);
  return from_blob(data, {numel}, [length](void* mapped) { ::munmap(mapped, length); }, options);
}

}  // namespace tinytorch
