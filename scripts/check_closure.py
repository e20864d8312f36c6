#!/usr/bin/python3
"""The embedder's header stays small: every famspec header that `famspec/famspec.hpp` reaches,
counted in lines, within a ceiling, and no Boost header among them.

The compiler lists what the header includes (`-E -H`); the famspec headers are those under the
include directories given. The ceiling only comes down: lower it when the closure shrinks.
Usage: check_closure.py COMPILER MAX_LINES INCLUDE_DIR...; exits 1 and says why.
"""

import os
import subprocess
import sys


def closure(compiler, include_dirs):
    """The set of header files `famspec/famspec.hpp` includes, directly or not."""
    source = '#include "famspec/famspec.hpp"\n'
    command = [compiler, '-std=c++20', '-E', '-H', '-x', 'c++', '-', '-o', os.devnull]
    command += ['-I' + d for d in include_dirs]
    run = subprocess.run(command, input=source, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit('check_closure: the compiler failed:\n' + run.stderr)
    headers = set()
    for line in run.stderr.splitlines():
        dots, _, path = line.partition(' ')
        if dots and set(dots) == {'.'}:
            headers.add(os.path.realpath(path))
    return headers


def main(argv):
    compiler, ceiling, include_dirs = argv[1], int(argv[2]), [os.path.realpath(d) for d in argv[3:]]
    headers = closure(compiler, include_dirs)
    boost = sorted(h for h in headers if '/boost/' in h)
    ours = sorted(h for h in headers if any(h.startswith(d + os.sep) for d in include_dirs))
    lines = sum(sum(1 for _ in open(h, encoding='utf-8')) for h in ours)
    problems = []
    if boost:
        problems.append('famspec/famspec.hpp reaches Boost: ' + ', '.join(boost))
    if lines > ceiling:
        problems.append(f'famspec/famspec.hpp reaches {lines} lines of famspec headers, over {ceiling}: '
                        + ', '.join(os.path.basename(h) for h in ours))
    for problem in problems:
        print('check_closure: ' + problem)
    if not problems:
        print(f'check_closure: famspec/famspec.hpp reaches {len(ours)} famspec headers, {lines} lines '
              f'(at most {ceiling}), and no Boost header')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
