#pragma once
// ASCII classes by hand, for the litmus language's readers: <cctype> depends on the locale and is
// undefined for negative chars.
namespace vmmcheck::litmus::syntax {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace vmmcheck::litmus::syntax
