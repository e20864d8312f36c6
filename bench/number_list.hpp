// The benchmarks' "--counts 1,10,100" arguments: a comma-separated list of whole numbers.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace famspec::bench {

inline std::vector<int> numbers(const std::string& list) {
    std::vector<int> out;
    for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        out.push_back(std::atoi(list.substr(start, comma - start).c_str()));
        start = comma + 1;
    }
    return out;
}

}  // namespace famspec::bench
