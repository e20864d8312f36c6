#include <doctest/doctest.h>

#include "famspec/python_text.hpp"
#include "famspec/resolver.hpp"

using famspec::PyLiteral;
using famspec::to_python;

TEST_CASE("literals render as Python's repr writes them") {
    CHECK(to_python(famspec::none) == "None");
    CHECK(to_python(true) == "True");
    CHECK(to_python(false) == "False");
    CHECK(to_python(3) == "3");
    CHECK(to_python(std::int64_t{-42}) == "-42");
    CHECK(to_python(1e-05) == "1e-05");
    CHECK(to_python(1e-06) == "1e-06");
    CHECK(to_python(0.0001) == "0.0001");
    CHECK(to_python(0.5) == "0.5");
    CHECK(to_python(2.0) == "2.0");
    CHECK(to_python(-0.0) == "-0.0");
    CHECK(to_python(123.25) == "123.25");
    CHECK(to_python(1e15) == "1000000000000000.0");
    CHECK(to_python(1e16) == "1e+16");
    CHECK(to_python(1.5e300) == "1.5e+300");
    CHECK(to_python(0.1) == "0.1");
    CHECK(to_python("") == "''");
    CHECK(to_python("abc") == "'abc'");
    CHECK(to_python("it's") == "\"it's\"");
    CHECK(to_python("a'b\"c") == "'a\\'b\"c'");
    CHECK(to_python("line\nnext\\") == "'line\\nnext\\\\'");
    CHECK(to_python(std::string("\x01", 1)) == "'\\x01'");
}
