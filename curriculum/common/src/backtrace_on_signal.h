#pragma once
// Lets tito see where a test program is: on SIGUSR1 (tito sends it to a case that ran out of time,
// just before the kill) the program writes the addresses of its call stack to stderr and goes on;
// with TITO_CRASH_BACKTRACE=1 it does the same on a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT)
// and then dies of the same signal. tito turns the addresses into function, file and line with
// addr2line (tito/src/run/stack_location.h). The block it writes:
//   tito-backtrace-begin <signal> <load address of the executable, hex>
//   <one return address per line, hex>
//   tito-backtrace-end
// Sanitizer builds leave the crash signals to the sanitizer (TITO_CRASH_BACKTRACE unset).
namespace tito_catch {

void install_backtrace_handlers();

}  // namespace tito_catch
