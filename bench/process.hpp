// Fresh processes for the benchmark: a probe whose `key=value` report is read back, or a whole
// command timed from spawn to exit.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace famspec::bench {

using Report = std::map<std::string, double>;

// Runs argv[0] (an absolute path) with stdout captured; nullopt when it does not exit with 0.
std::optional<Report> run_probe(const std::vector<std::string>& argv);

// Wall time in ns from spawn to exit, both output streams discarded; nullopt when it does not exit with 0.
std::optional<double> time_process(const std::vector<std::string>& argv);

}  // namespace famspec::bench
