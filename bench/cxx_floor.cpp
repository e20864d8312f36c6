// The start-up floor of a C++ command: a program linked as famspec is (libstdc++ and libc as shared
// libraries, a position-independent executable) that prints one line with iostreams. famspec-bench
// times it as a whole process beside `python3 -c pass`, so that the start-up goals of `list` and
// `summary --digest` are read against what the dynamic linker and libstdc++'s start-up alone cost.
#include <iostream>

int main() {
    std::cout << "famspec-bench: C++ start-up floor\n";
    return 0;
}
