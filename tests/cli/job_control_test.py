"""Ctrl-Z on a terminal while famspec loads a plugin: famspec and the process that loads the plugin
stop as one job, both go on after the shell's SIGCONT (`fg`), and the terminal is not wedged: Ctrl-C
then ends famspec by SIGINT, saying so, with no process left behind.

Usage: job_control_test.py FAMSPEC PLUGIN_DIR SLOW_PLUGIN_DIR SLOW_PLUGIN_FILE PLAN
The test plays the shell itself: a session on a new pty, famspec its foreground job.
"""
import os
import pty
import signal
import sys
import tempfile
import time

FAMSPEC, PLUGINS, SLOW_DIR, SLOW_FILE, PLAN = sys.argv[1:6]
DEADLINE = 40.0  # seconds; the slow plugin sleeps 60


def state(pid):
    """The /proc state letter of pid ('T' stopped, 'S' sleeping, 'Z' zombie), '' when gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            text = stat.read()
    except OSError:
        return ""
    return text[text.rindex(")") + 2]


def wait_for(condition, what):
    end = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def shell(tmp):
    """Runs in the pty's session: famspec as the foreground job; what it saw goes to tmp/report."""
    report = []
    job = os.fork()
    if job == 0:
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        os.setpgid(0, 0)
        os.tcsetpgrp(0, os.getpid())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        out = os.open(os.path.join(tmp, "out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err = os.open(os.path.join(tmp, "err"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.execv(FAMSPEC, [FAMSPEC, "summary", "--digest", PLAN, "--plugin-path", PLUGINS,
                           "--plugin-path", SLOW_DIR])
    try:
        os.setpgid(job, job)
    except OSError:
        pass  # the job did it first
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    os.tcsetpgrp(0, job)
    _, status = os.waitpid(job, os.WUNTRACED)  # Ctrl-Z from the test
    report.append(f"stopped {os.WIFSTOPPED(status) and os.WSTOPSIG(status) == signal.SIGTSTP}")
    with open(os.path.join(tmp, "loading")) as pidfile:
        worker = int(pidfile.read())
    # The same SIGTSTP stops the worker, which may take a moment longer than famspec.
    end = time.monotonic() + 5
    while state(worker) != "T" and time.monotonic() < end:
        time.sleep(0.01)
    report.append(f"worker stopped {state(worker) == 'T'}")
    os.tcsetpgrp(0, job)  # fg
    os.killpg(job, signal.SIGCONT)
    with open(os.path.join(tmp, "continued"), "w") as marker:
        marker.write(f"{worker}\n")
    _, status = os.waitpid(job, 0)  # Ctrl-C from the test
    report.append(f"ended by SIGINT {os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT}")
    with open(os.path.join(tmp, "report"), "w") as out:
        out.write("\n".join(report) + "\n")
    os._exit(0)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["FAMSPEC_TEST_LOADING_PIDFILE"] = os.path.join(tmp, "loading")
        os.environ.pop("FAMSPEC_PLUGIN_PATH", None)
        session, terminal = pty.fork()
        if session == 0:
            try:
                shell(tmp)
            finally:
                os._exit(3)
        try:
            wait_for(lambda: os.path.exists(os.path.join(tmp, "loading")), "the plugin to load")
            os.write(terminal, b"\x1a")  # Ctrl-Z
            wait_for(lambda: os.path.exists(os.path.join(tmp, "continued")), "famspec to stop and go on")
            with open(os.path.join(tmp, "continued")) as marker:
                worker = int(marker.read())
            wait_for(lambda: state(worker) not in ("T", "t"), "the worker to go on after SIGCONT")
            os.write(terminal, b"\x03")  # Ctrl-C
            wait_for(lambda: os.path.exists(os.path.join(tmp, "report")), "famspec to end after Ctrl-C")
        except BaseException:
            # The session's end hangs up its foreground job: famspec, which takes its worker along.
            os.kill(session, signal.SIGKILL)
            raise
        finally:
            try:
                while os.read(terminal, 4096):
                    pass
            except OSError:
                pass
            _, status = os.waitpid(session, 0)
        with open(os.path.join(tmp, "report")) as report:
            seen = report.read()
        with open(os.path.join(tmp, "err")) as err:
            said = err.read()
        expected = "stopped True\nworker stopped True\nended by SIGINT True\n"
        assert seen == expected, f"the job saw:\n{seen}famspec said:\n{said}"
        assert said == (f"famspec: error: interrupted by SIGINT during open of plugin {SLOW_FILE}, "
                        "before famspec finished\n"), said
        assert os.path.getsize(os.path.join(tmp, "out")) == 0
        assert state(worker) == "", f"the worker {worker} is left behind ({state(worker)})"
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    print("ok: Ctrl-Z stops famspec and its work process as one job; fg and Ctrl-C work")


if __name__ == "__main__":
    main()
