"""Database engines for SQLite (WAL) and PostgreSQL, and the two kinds of transaction the server uses.

A write transaction on SQLite starts with ``BEGIN IMMEDIATE`` so it holds the write lock from its first
statement (no lock upgrade, no deadlock); reads run concurrently under WAL. Game actions go through `Writer`:
the actions waiting at one moment share one transaction, so one disk flush. On PostgreSQL writes
are plain READ COMMITTED transactions (the server's conditional updates and unique keys settle races) and
reads REPEATABLE READ, so a game row and its log entries are always read from the same snapshot; game
actions are group-committed there too.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

try:
    import fcntl
except ImportError:  # pragma: no cover (not POSIX: the processes queue in SQLite's busy handler)
    fcntl = None  # type: ignore[assignment]

SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
MAX_BATCH = 64
"""The most write jobs one group commit takes."""
T = TypeVar("T")


def normalise_url(url: str) -> str:
    """Use psycopg (v3) for PostgreSQL URLs that name no driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(url: str, sqlite_synchronous: str = "FULL") -> Engine:
    """An engine for `url`; SQLite databases get WAL mode, a busy timeout and foreign keys."""
    url = normalise_url(url)
    if make_url(url).get_backend_name() != "sqlite":
        return create_engine(url, pool_size=10, max_overflow=30, pool_pre_ping=True)
    if sqlite_synchronous.upper() not in SYNCHRONOUS:
        raise ValueError(f"sqlite synchronous must be one of {SYNCHRONOUS}")
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=20,
                           max_overflow=40)
    synchronous = sqlite_synchronous.upper()

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun explicitly below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("aare_write") else "BEGIN")

    return engine


class WriterLock:
    """The write lock of one SQLite file, for the threads of this process and for other processes (`--workers`):
    they queue here, in order, instead of in SQLite's busy handler, which sleeps in steps of up to 100 ms and
    so lets a waiting process sleep on while the lock is free. Across processes it is an advisory lock
    (`flock`) on `<database>-writer.lock`, taken after the process's own thread lock."""

    def __init__(self, database: str | None) -> None:
        self.threads = threading.Lock()
        self.path = f"{database}-writer.lock" if database and database != ":memory:" and fcntl else None
        self.fd: int | None = None

    def __enter__(self) -> None:
        self.threads.acquire()
        if self.path is not None and fcntl is not None:
            try:
                if self.fd is None:
                    self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(self.fd, fcntl.LOCK_EX)
            except BaseException:
                self.threads.release()
                raise

    def __exit__(self, *exc: object) -> None:
        try:
            if self.fd is not None and fcntl is not None:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.threads.release()


_SQLITE_WRITERS: dict[str, WriterLock] = {}
_REGISTRY_LOCK = threading.Lock()


def _writer_lock(engine: Engine) -> WriterLock | None:
    """The write lock of a SQLite file (None on PostgreSQL)."""
    if not is_sqlite(engine):
        return None
    with _REGISTRY_LOCK:
        lock = _SQLITE_WRITERS.get(str(engine.url))
        if lock is None:
            lock = _SQLITE_WRITERS[str(engine.url)] = WriterLock(engine.url.database)
        return lock


@contextmanager
def write(engine: Engine) -> Iterator[Connection]:
    """A transaction that will write: committed on success, rolled back on any error."""
    lock = _writer_lock(engine)
    with engine.connect() as conn, lock or nullcontext():
        conn.execution_options(aare_write=True)
        with conn.begin():
            yield conn


@contextmanager
def read(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction on one consistent snapshot (WAL on SQLite, REPEATABLE READ on PostgreSQL)."""
    with engine.connect() as conn:
        if not is_sqlite(engine):
            conn.execution_options(isolation_level="REPEATABLE READ")
        with conn.begin():
            yield conn


class Writer:
    """Runs write jobs. With group commit (`max_batch` > 1, and always on SQLite) one thread runs them, as many per
    transaction as are waiting: one commit, so one flush to disk, for the batch; no job is reported done before its
    batch has committed. On SQLite the batch is taken once the file's write lock is held, so the jobs that came
    while another process's batch held it join it. A batch runs its jobs in the order of their `key` (the game),
    those of one key in the order submitted, so two processes' batches take the rows of the same games in the same
    order (on PostgreSQL they wait for each other instead of deadlocking). A job that raises one of `clean_errors`
    has written nothing (it checks before it writes) and just gets its error; any other error undoes the batch, and
    its jobs are run again one transaction each, so only the faulty one fails. Without group commit on PostgreSQL
    each job is its own transaction on a small pool of `threads`; on SQLite, batches of one.

    A job may come with `after(result)`, run once the job is committed, in commit order; what it returns is
    what the job's future gives (the game service publishes its updates there)."""

    def __init__(self, engine: Engine, clean_errors: tuple[type[Exception], ...] = (), max_batch: int = MAX_BATCH,
                 threads: int = 8) -> None:
        self.engine = engine
        self.clean_errors = clean_errors
        self.max_batch = max_batch
        self.grouped = is_sqlite(engine) or max_batch > 1
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._conn: Connection | None = None  # the commit thread's own, kept between batches
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None
        if self.grouped:
            self._thread = threading.Thread(target=self._work, name="aare-group-commit", daemon=True)
            self._thread.start()
        else:
            self._pool = ThreadPoolExecutor(threads, thread_name_prefix="aare-writer")

    def submit(self, job: Callable[[Connection], Any], after: Callable[[Any], T] | None = None,
               key: str = "", bulk: Bulk | None = None, item: Any = None) -> Future[T]:
        """Start `job(conn)` in a write transaction; the future gives `after(result)` (or the job's result)
        once committed, or the job's error. `key`: what the job writes to (its game), for the order in a
        batch. `bulk(conn, items)`: writes the `item`s of several such jobs at once (fewer statements), or
        raises `Split` having found one that does not hold, and then they run one by one."""
        done: Future[T] = Future()
        if self._pool is not None:
            self._pool.submit(self._run_alone, Job(job, after, done, key, bulk, item))
        else:
            self._jobs.put(Job(job, after, done, key, bulk, item))
        return done

    def run(self, job: Callable[[Connection], T]) -> T:
        """Run `job(conn)` in a write transaction; returns its result once committed, or raises its error."""
        return self.submit(job).result()

    def close(self) -> None:
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def _work(self) -> None:
        while True:
            first = self._jobs.get()
            if first is None:
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
                return
            # on SQLite the batch is taken once the file's write lock is held: the jobs that came while this
            # thread waited for it (another worker's batch holds it) join this batch, instead of waiting for the
            # next one and the lock again
            lock = _writer_lock(self.engine)
            with lock or nullcontext():
                then = self._commit(self._batch_from(first), locked=lock is not None)
            then()  # the jobs are told, or run one by one, with the lock released

    def _batch_from(self, first: Job) -> list[Job]:
        """`first` and the jobs waiting behind it, `max_batch` at most, in the order of their keys."""
        batch = [first]
        while len(batch) < self.max_batch:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is None:
                self._jobs.put(None)  # stop after this batch
                break
            batch.append(job)
        batch.sort(key=lambda job: job.key)
        return batch

    def _commit(self, batch: list[Job], locked: bool) -> Callable[[], None]:
        """Write `batch` in one transaction (`locked`: this thread holds the write lock already); returns what tells
        its jobs they are done, or, when the batch failed, what runs them one transaction each."""
        if len(batch) > 1:
            done = self._run_bulk(batch, locked)
            if done is not None:
                return done
        return self._run_batch(batch, locked)

    def _run_alone(self, job: Job) -> None:
        try:
            with write(self.engine) as conn:
                result = job.run(conn)
        except BaseException as exc:
            job.done.set_exception(exc)
            return
        _finish(job.done, job.after, result)

    def _run_bulk(self, batch: list[Job], locked: bool) -> Callable[[], None] | None:
        """Write a batch of jobs of one `bulk` on different keys at once; None if it cannot or it split."""
        bulk = batch[0].bulk
        if bulk is None or any(job.bulk != bulk for job in batch) or len({j.key for j in batch}) < len(batch):
            return None
        try:
            with self._transaction(locked) as conn:
                bulk(conn, [job.item for job in batch])
        except Split:
            return None
        except Exception:
            return None  # the jobs one by one will tell which failed

        def done() -> None:
            for job in batch:
                _finish(job.done, job.after, None)
        return done

    @contextmanager
    def _transaction(self, locked: bool) -> Iterator[Connection]:
        """A write transaction on the commit thread's own connection (`write`, without taking a connection from
        the pool and giving it back for every batch), taking the write lock unless `locked`; after an unexpected
        error the connection is closed, and the next batch opens another."""
        conn = self._conn
        if conn is None:
            conn = self._conn = self.engine.connect().execution_options(aare_write=True)
        lock = None if locked else _writer_lock(self.engine)
        try:
            with lock or nullcontext(), conn.begin():
                yield conn
        except BaseException as exc:
            if conn.invalidated or not isinstance(exc, (Split, *self.clean_errors)):
                self._conn = None
                conn.close()
            raise

    def _run_batch(self, batch: list[Job], locked: bool) -> Callable[[], None]:
        """Write `batch`, one job after another, in one transaction; returns what tells the jobs."""
        outcomes: list[tuple[Job, Any, BaseException | None]] = []
        try:
            with self._transaction(locked) as conn:
                for job in batch:
                    try:
                        outcomes.append((job, job.run(conn), None))
                    except self.clean_errors as exc:
                        outcomes.append((job, None, exc))
        except Exception:  # a job failed half-way, or the commit failed: nothing of the batch is stored

            def alone() -> None:  # (each takes the write lock itself)
                for job in batch:
                    self._run_alone(job)
            return alone

        def done() -> None:
            for job, result, error in outcomes:
                if error is None:
                    _finish(job.done, job.after, result)
                else:
                    job.done.set_exception(error)
        return done


class Split(Exception):
    """A bulk write found an item that does not hold (e.g. a game that moved on): its jobs run one by one."""


Bulk = Callable[[Connection, list[Any]], None]


class Job(NamedTuple):
    run: Callable[[Connection], Any]
    after: Callable[[Any], Any] | None
    done: Future[Any]
    key: str
    bulk: Bulk | None
    item: Any


def _finish(done: Future[Any], after: Callable[[Any], Any] | None, result: Any) -> None:
    """Complete a committed job's future with `after(result)` (or its error)."""
    if after is None:
        done.set_result(result)
        return
    try:
        done.set_result(after(result))
    except BaseException as exc:
        done.set_exception(exc)
