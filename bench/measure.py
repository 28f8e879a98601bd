#!/usr/bin/env python3
"""Times commands on benchmark streams and prints the figures (bench/run.sh).

Each command runs with the stream on stdin and stdout to /dev/null; wall time is
the best of --repeat runs (the least disturbed by other work on the machine), with
the CPU time (user + system, all threads) of that run; peak
RSS is the largest GNU time reports (the child's ru_maxrss). GNU time, not this
process's wait4: a child spawned from Python starts with Python's pages resident,
so its own ru_maxrss never drops below Python's size.
"""
import argparse
import os
import statistics
import tempfile
import time

GNU_TIME = "/usr/bin/time"


def run_measured(argv, stdin_path, piped=False):
    """Runs argv once under GNU time; returns (seconds, CPU seconds (user + system),
    peak RSS in bytes, exit status)."""
    with tempfile.NamedTemporaryFile("r") as report:
        seconds, _, code = run([GNU_TIME, "-q", "-f", "%M %U %S", "-o", report.name] + argv,
                               stdin_path, piped)
        kib, user, system = report.read().split()[-3:]
    return seconds, float(user) + float(system), int(kib) * 1024, code


def run(argv, stdin_path, piped=False):
    """Runs argv once with the file on stdin, or written into a pipe as Helm gives a
    post-renderer its input (piped); returns (seconds, ru_maxrss in bytes, exit status)."""
    with open(stdin_path, "rb") as stdin, open(os.devnull, "wb") as devnull:
        reader, writer = os.pipe() if piped else (stdin.fileno(), None)
        actions = [(os.POSIX_SPAWN_DUP2, reader, 0),
                   (os.POSIX_SPAWN_DUP2, devnull.fileno(), 1),
                   (os.POSIX_SPAWN_DUP2, devnull.fileno(), 2)]
        if piped:
            actions.append((os.POSIX_SPAWN_CLOSE, writer))
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
        if piped:
            os.close(reader)
            try:
                while chunk := stdin.read(1 << 20):
                    os.write(writer, chunk)
            except BrokenPipeError:
                pass  # it stopped reading: its exit status says why
            os.close(writer)
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
    return elapsed, usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)


def count_documents(path):
    with open(path, "rb") as f:
        return sum(1 for line in f if line.startswith(b"---"))


def throughput(args):
    # label, command, exit statuses that mean it ran (lint exits 1 on findings)
    commands = [("baseline", [args.baseline], (0,))]
    if args.libyaml:
        commands.append(("libyaml", [args.libyaml], (0,)))
    commands += [("rollcall", [args.rollcall, "render"], (0,)),
                 ("lint", [args.rollcall, "lint", "-"], (0, 1))]
    print(f"{'stream':<22} {'docs':>6} {'MB':>6} {'program':<9} {'seconds':>7} {'cpu s':>6} "
          f"{'MB/s':>6} {'docs/s':>7} {'RSS MiB':>7} {'RSS/in':>6} {'vs base':>7} {'vs rend':>7}")
    for path in args.streams:
        size = os.path.getsize(path)
        docs = count_documents(path)
        name = os.path.basename(path).split(".")[0]
        rows = list(commands)
        if docs <= args.kustomize_max_docs:
            rows.append(("kustomize", [args.kustomize], (0,)))
        best_of = {}
        for label, argv, fine in rows:
            best, cpu, rss = None, None, 0
            for _ in range(args.repeat if label != "kustomize" else 1):
                seconds, cpu_seconds, peak, code = run_measured(argv, path)
                if code not in fine:
                    raise SystemExit(f"{label} failed on {path} (exit {code})")
                if best is None or seconds < best:
                    best, cpu = seconds, cpu_seconds
                rss = max(rss, peak)
            best_of[label] = best
            ratio = "" if label == "baseline" else f"{best / best_of['baseline']:.2f}x"
            vs_render = f"{best / best_of['rollcall']:.2f}x" if label == "lint" else ""
            print(f"{name:<22} {docs:>6} {size / 1e6:>6.2f} {label:<9} {best:>7.3f} {cpu:>6.2f} "
                  f"{size / 1e6 / best:>6.1f} {docs / best:>7.0f} {rss / 2**20:>7.1f} "
                  f"{rss / size:>6.2f} {ratio:>7} {vs_render:>7}", flush=True)


def memory(args):
    """Peak RSS of render (its input a file, then a pipe as Helm gives it) and lint
    against the target of docs/performance.md: 2 x input + 32 MiB. Each command
    runs --repeat times and the largest RSS counts."""
    print(f"{'stream':<34} {'docs':>8} {'in MiB':>7} {'limit':>7} {'render':>7} {'piped':>7} "
          f"{'lint':>7}  {'render s':>8} {'lint s':>7}  verdict")
    over = 0
    for path in args.streams:
        size = os.path.getsize(path)
        limit = 2 * size + 32 * 2**20
        figures = {}
        for label, argv, piped in (("render", [args.rollcall, "render"], False),
                                   ("piped", [args.rollcall, "render"], True),
                                   ("lint", [args.rollcall, "lint", "-"], False)):
            rss, best, codes = 0, None, set()
            for _ in range(args.repeat):
                seconds, _, peak, code = run_measured(argv, path, piped)
                rss = max(rss, peak)
                best = seconds if best is None else min(best, seconds)
                codes.add(code)
            figures[label] = (rss, best, codes)
        verdict = "within" if max(f[0] for f in figures.values()) <= limit else "OVER"
        over += verdict == "OVER"
        refused = [f"{label} exit {sorted(f[2])}" for label, f in figures.items()
                   if f[2] - ({0, 1} if label == "lint" else {0})]
        name = os.path.relpath(path, args.relative_to) if args.relative_to else os.path.basename(path)
        print(f"{name[-34:]:<34} {count_documents(path):>8} {size / 2**20:>7.1f} "
              f"{limit / 2**20:>7.1f} {figures['render'][0] / 2**20:>7.1f} "
              f"{figures['piped'][0] / 2**20:>7.1f} "
              f"{figures['lint'][0] / 2**20:>7.1f}  {figures['render'][1]:>8.2f} "
              f"{figures['lint'][1]:>7.2f}  {verdict}{'; ' + ', '.join(refused) if refused else ''}",
              flush=True)
    print(f"{len(args.streams)} streams, {over} over 2 x input + 32 MiB")


def startup(args):
    times = []
    for _ in range(args.runs):
        seconds, _, code = run([args.rollcall, "render"], os.devnull)
        if code != 0:
            raise SystemExit(f"rollcall render </dev/null failed (exit {code})")
        times.append(seconds * 1000)
    print(f"rollcall render </dev/null: {len(times)} runs, mean {statistics.mean(times):.2f} ms, "
          f"median {statistics.median(times):.2f} ms, min {min(times):.2f} ms, "
          f"max {max(times):.2f} ms")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    t = sub.add_parser("throughput")
    t.add_argument("--rollcall", required=True)
    t.add_argument("--baseline", required=True)
    t.add_argument("--libyaml", help="bench/libyaml_baseline: the same documents, libyaml events")
    t.add_argument("--kustomize", required=True)
    t.add_argument("--kustomize-max-docs", type=int, default=1600)
    t.add_argument("--repeat", type=int, default=3)
    t.add_argument("streams", nargs="+")
    m = sub.add_parser("memory")
    m.add_argument("--rollcall", required=True)
    m.add_argument("--repeat", type=int, default=1)
    m.add_argument("--relative-to", help="name streams by their path from here")
    m.add_argument("streams", nargs="+")
    s = sub.add_parser("startup")
    s.add_argument("--rollcall", required=True)
    s.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    {"throughput": throughput, "memory": memory, "startup": startup}[args.mode](args)


if __name__ == "__main__":
    main()
