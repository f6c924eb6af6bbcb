#pragma once
// ASCII classes by hand, for the litmus language's readers: <cctype> depends on the locale and is
// undefined for negative chars.
namespace vmmcheck::litmus::syntax {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool is_word_char(char c) { return is_word_start(c) || is_digit(c); }

}  // namespace vmmcheck::litmus::syntax
