"""stop_process: SIGTERM first, SIGKILL when the process ignores it, nothing for an exited one."""

from __future__ import annotations

import signal
import subprocess
import sys

from pitwatch.streams.procs import stop_process

IGNORES_SIGTERM = ("import signal, sys, time\n"
                   "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                   "print('ready', flush=True)\n"
                   "time.sleep(60)\n")


def test_a_process_that_honours_sigterm_ends_by_it():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stop_process(proc, 10)
    assert proc.returncode == -signal.SIGTERM


def test_a_process_that_ignores_sigterm_is_killed_after_the_timeout():
    proc = subprocess.Popen([sys.executable, "-c", IGNORES_SIGTERM], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    stop_process(proc, 0.5)
    assert proc.returncode == -signal.SIGKILL
    proc.stdout.close()


def test_an_exited_process_is_left_alone():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(30)
    stop_process(proc, 1)
    assert proc.returncode == 0
