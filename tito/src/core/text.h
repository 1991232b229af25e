#pragma once
// Small string helpers that several of tito's readers share (names matched without regard to case,
// lines compared without their surrounding blanks).
#include <string>

namespace tito {

// ASCII letters in lower case; every other byte as it is.
std::string lowercase(std::string text);

// `text` without the characters of `blanks` at either end ("" when it holds nothing else).
std::string trimmed(const std::string& text, const char* blanks = " \t\r\n");

}  // namespace tito
