#pragma once
// One error path for every CUDA call the harness makes: the failing expression, where it was made, and
// the error name the driver (or runtime) gives. Library code throws; only the CLI turns errors into exit
// codes.
#include <stdexcept>
#include <string>

namespace vmmcheck {

// A CUDA driver or runtime call returned something other than success.
class CudaError : public std::runtime_error {
 public:
  CudaError(int code, std::string error_name, std::string expression, const char* file, int line);

  int code() const noexcept { return code_; }
  const std::string& error_name() const noexcept { return error_name_; }
  const std::string& expression() const noexcept { return expression_; }

 private:
  int code_;
  std::string error_name_;
  std::string expression_;
};

// Bad input from the user: a case file, a flag, a case name. The CLI maps it to exit code 2.
class InputError : public std::runtime_error {
 public:
  // A NUL byte echoed from an input would end what() there: it is written \x00 instead.
  explicit InputError(const std::string& what) : std::runtime_error(without_nul(what)) {}
  explicit InputError(const char* what) : std::runtime_error(what) {}

 private:
  static std::string without_nul(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '\0' ? std::string("\\x00") : std::string(1, c);
    return out;
  }
};

// The feature a case needs is absent here (no GPU, attribute unset, policy). Maps to NotSupported.
class NotSupportedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_cuda_error(int code, const char* error_name, const char* expression,
                                   const char* file, int line);

// Checks a CUresult (driver API). The name comes from cuGetErrorName through the driver table.
void check_driver(int result, const char* expression, const char* file, int line);
// Checks a cudaError_t (runtime API). The name comes from cudaGetErrorName.
void check_runtime(int result, const char* expression, const char* file, int line);

}  // namespace vmmcheck

#define VMM_CHECK(expr) ::vmmcheck::check_driver(static_cast<int>(expr), #expr, __FILE__, __LINE__)
#define CUDA_CHECK(expr) ::vmmcheck::check_runtime(static_cast<int>(expr), #expr, __FILE__, __LINE__)
