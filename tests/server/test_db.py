"""The database layer: grouped SQLite commits keep each job's effects and errors to itself."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from aare.server.db import Split, Writer, make_engine, read
from aare.server.settings import sqlite_url


class Boom(Exception):
    pass


class Refused(Exception):
    """A job's own refusal, raised before it writes anything."""


def refusing_insert(n: int, every: int) -> Callable[[sa.Connection], int]:
    """A job inserting `n` into `t`, refused (before it writes) when `n` is a multiple of `every`."""
    def job(conn: sa.Connection) -> int:
        if n % every == 0:
            raise Refused(n)
        conn.exec_driver_sql(f"INSERT INTO t (n) VALUES ({n})")
        return n
    return job


def outcomes_of(futures: dict[int, Any]) -> dict[int, Any]:
    """Each job's result, or "refused"."""
    outcomes = {}
    for n, future in futures.items():
        try:
            outcomes[n] = future.result()
        except Refused:
            outcomes[n] = "refused"
    return outcomes


def table_and_writer(tmp_path: Path, **options: Any) -> tuple[sa.Engine, Writer]:
    """A SQLite database with a table `t (n)`, and a writer on it."""
    engine = make_engine(sqlite_url(tmp_path))
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    return engine, Writer(engine, **options)


def hold(writer: Writer) -> tuple[threading.Event, Any]:
    """Keep the writer busy with a first job until the returned event is set, so the next jobs queue up (one
    batch); the first job's future."""
    gate, holding = threading.Event(), threading.Event()
    first = writer.submit(lambda conn: holding.set() or gate.wait(10))
    holding.wait(10)
    return gate, first


def test_grouped_writes_isolate_failing_jobs(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path))
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    writer = Writer(engine)
    assert writer.grouped
    results: dict[int, str] = {}

    def job(n: int) -> None:
        def insert(conn: sa.Connection) -> int:
            conn.exec_driver_sql(f"INSERT INTO t (n) VALUES ({n})")
            if n % 3 == 0:
                raise Boom(n)  # its insert is undone, the others in its batch stay
            return n

        try:
            results[n] = f"stored {writer.run(insert)}"
        except Boom:
            results[n] = "failed"

    threads = [threading.Thread(target=job, args=(n,)) for n in range(1, 61)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writer.close()
    with read(engine) as conn:
        stored = {row[0] for row in conn.exec_driver_sql("SELECT n FROM t")}
    assert stored == {n for n in range(1, 61) if n % 3}
    assert all(results[n] == ("failed" if n % 3 == 0 else f"stored {n}") for n in range(1, 61))
    again = Writer(engine)
    with pytest.raises(sa.exc.IntegrityError):
        again.run(lambda conn: conn.exec_driver_sql("INSERT INTO t (n) VALUES (1)"))
    again.close()
    engine.dispose()


def test_clean_errors_leave_the_batch_alone_and_after_runs_in_commit_order(tmp_path: Path) -> None:
    engine, writer = table_and_writer(tmp_path, clean_errors=(Refused,))
    published: list[int] = []

    def after(n: int) -> str:
        published.append(n)
        return f"published {n}"

    outcomes = outcomes_of({n: writer.submit(refusing_insert(n, 4), after=after) for n in range(1, 41)})
    writer.close()
    assert outcomes == {n: "refused" if n % 4 == 0 else f"published {n}" for n in range(1, 41)}
    assert published == [n for n in range(1, 41) if n % 4]  # one writer thread: in the order submitted
    with read(engine) as conn:
        assert {row[0] for row in conn.exec_driver_sql("SELECT n FROM t")} == set(published)
    engine.dispose()



def test_a_batch_runs_its_jobs_in_key_order_and_those_of_one_key_in_order_submitted(tmp_path: Path) -> None:
    """Two processes' batches then take the rows of the same games in the same order (no deadlock)."""
    engine, writer = table_and_writer(tmp_path)
    gate, first = hold(writer)
    ran: list[str] = []

    def job(name: str):  # type: ignore[no-untyped-def]
        return lambda conn: ran.append(name)

    queued = [writer.submit(job(name), key=name[0]) for name in ("b1", "a1", "c1", "a2", "b2")]
    gate.set()
    first.result()
    for future in queued:
        future.result()
    writer.close()
    assert ran == ["a1", "a2", "b1", "b2", "c1"]
    engine.dispose()


def test_group_commit_off_runs_each_job_alone(tmp_path: Path) -> None:
    engine, writer = table_and_writer(tmp_path, max_batch=1)
    gate, first = hold(writer)
    seen: list[int] = []

    def job(n: int):  # type: ignore[no-untyped-def]
        def insert(conn: sa.Connection) -> None:
            seen.append(len(conn.exec_driver_sql("SELECT n FROM t").all()))  # the earlier jobs are committed
            conn.exec_driver_sql(f"INSERT INTO t (n) VALUES ({n})")
        return insert

    futures = [writer.submit(job(n)) for n in range(5)]
    gate.set()
    first.result()
    for future in futures:
        future.result()
    writer.close()
    assert seen == [0, 1, 2, 3, 4]
    engine.dispose()


def test_a_batch_of_bulk_jobs_is_written_at_once_and_split_when_one_does_not_hold(tmp_path: Path) -> None:
    engine, writer = table_and_writer(tmp_path, clean_errors=(Refused,))
    bulks: list[list[int]] = []

    def bulk(conn: sa.Connection, items: list[int]) -> None:
        bulks.append(items)
        if any(n % 5 == 0 for n in items):
            raise Split()
        conn.exec_driver_sql("INSERT INTO t (n) VALUES " + ", ".join(f"({n})" for n in items))

    for numbers in ([1, 2, 3, 4], [6, 7, 10, 11]):
        gate, first = hold(writer)
        futures = {n: writer.submit(refusing_insert(n, 5), key=f"{n:03}", bulk=bulk, item=n) for n in numbers}
        gate.set()
        first.result()
        outcomes = outcomes_of(futures)
        split = any(n % 5 == 0 for n in numbers)  # then the jobs ran one by one and gave their own results
        assert outcomes == {n: "refused" if n % 5 == 0 else n if split else None for n in numbers}
    writer.close()
    assert bulks == [[1, 2, 3, 4], [6, 7, 10, 11]]  # the second split: its jobs ran one by one
    with read(engine) as conn:
        assert {row[0] for row in conn.exec_driver_sql("SELECT n FROM t")} == {1, 2, 3, 4, 6, 7, 11}
    engine.dispose()


def _hold_writer_lock(database: str, held: Any, release: Any) -> None:
    from aare.server.db import WriterLock

    with WriterLock(database):
        held.set()
        release.wait(30)


def test_jobs_that_come_while_the_writer_waits_for_the_file_lock_join_its_batch(tmp_path: Path) -> None:
    """`--workers` on SQLite: while another worker's batch holds the file's write lock, the commit thread waits with
    its first job; what comes meanwhile is written in the same transaction, not in one more after it."""
    import time

    from aare.server.db import _writer_lock

    engine, writer = table_and_writer(tmp_path)
    commits: list[int] = []
    sa.event.listen(engine, "commit", lambda conn: commits.append(1))
    lock = _writer_lock(engine)
    assert lock is not None
    with lock:  # (as another worker's batch would)
        first = writer.submit(refusing_insert(1, 1000))
        deadline = time.monotonic() + 10
        while not writer._jobs.empty() and time.monotonic() < deadline:  # the commit thread took it
            time.sleep(0.001)
        time.sleep(0.05)  # and waits for the lock
        later = [writer.submit(refusing_insert(n, 1000)) for n in (2, 3)]
    assert [f.result(10) for f in (first, *later)] == [1, 2, 3]
    writer.close()
    assert len(commits) == 1
    with read(engine) as conn:
        assert [r[0] for r in conn.exec_driver_sql("SELECT n FROM t ORDER BY n")] == [1, 2, 3]
    engine.dispose()


def test_processes_queue_for_a_sqlite_file_on_its_writer_lock(tmp_path: Path) -> None:
    """`--workers`: another process holding the write lock of the file makes this one wait for it."""
    import fcntl
    import multiprocessing

    from aare.server.db import WriterLock

    database = str(tmp_path / "aare.db")
    context = multiprocessing.get_context("spawn")
    held, release = context.Event(), context.Event()
    other = context.Process(target=_hold_writer_lock, args=(database, held, release))
    other.start()
    try:
        assert held.wait(60)
        probe = os.open(f"{database}-writer.lock", os.O_RDWR)
        with pytest.raises(BlockingIOError):
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)  # taken by the other process
        os.close(probe)
        release.set()
        lock = WriterLock(database)
        with lock:  # waits until the other lets go
            probe = os.open(f"{database}-writer.lock", os.O_RDWR)
            with pytest.raises(BlockingIOError):
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)  # now this process holds it
            os.close(probe)
    finally:
        release.set()
        other.join(30)
