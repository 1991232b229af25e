#include "backtrace_on_signal.h"

#include <execinfo.h>
#include <link.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace tito_catch {
namespace {

constexpr int kMaxFrames = 64;
std::uintptr_t executable_base = 0;

// Only async-signal-safe calls below: the handler may interrupt anything, malloc included.
void write_text(const char* text) {
  ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void write_hex(std::uintptr_t value) {
  char digits[2 + 2 * sizeof value + 1];
  int at = sizeof digits - 1;
  digits[at] = '\0';
  do {
    digits[--at] = "0123456789abcdef"[value & 0xf];
    value >>= 4;
  } while (value != 0);
  digits[--at] = 'x';
  digits[--at] = '0';
  write_text(digits + at);
}

void write_backtrace(int signal_number) {
  void* frames[kMaxFrames];
  const int count = backtrace(frames, kMaxFrames);
  char number[16];
  int at = sizeof number - 1;
  number[at] = '\0';
  int value = signal_number;
  do {
    number[--at] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  write_text("\ntito-backtrace-begin ");
  write_text(number + at);
  write_text(" ");
  write_hex(executable_base);
  write_text("\n");
  for (int i = 0; i < count; ++i) {
    write_hex(reinterpret_cast<std::uintptr_t>(frames[i]));
    write_text("\n");
  }
  write_text("tito-backtrace-end\n");
}

void on_sample(int signal_number) { write_backtrace(signal_number); }

void on_crash(int signal_number) {
  write_backtrace(signal_number);
  // SA_RESETHAND restored the default action: die of the same signal, as tito expects.
  raise(signal_number);
}

int find_executable_base(struct dl_phdr_info* info, size_t, void*) {
  executable_base = info->dlpi_addr;  // the first object listed is the program itself
  return 1;
}

}  // namespace

void install_backtrace_handlers() {
  dl_iterate_phdr(find_executable_base, nullptr);
  void* warm_up[1];
  backtrace(warm_up, 1);  // loads the unwinder now, not inside a signal handler

  struct sigaction sample {};
  sample.sa_handler = on_sample;
  sigemptyset(&sample.sa_mask);
  sample.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sample, nullptr);

  const char* crash_backtrace = std::getenv("TITO_CRASH_BACKTRACE");
  if (!crash_backtrace || std::strcmp(crash_backtrace, "1") != 0) return;
  // A stack overflow leaves no stack for the handler: give it one of its own.
  static char alternate_stack[64 * 1024];
  stack_t stack {};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, nullptr);
  struct sigaction crash {};
  crash.sa_handler = on_crash;
  sigemptyset(&crash.sa_mask);
  crash.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
  for (int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(signal_number, &crash, nullptr);
}

}  // namespace tito_catch
