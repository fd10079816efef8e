"""Errors of the server's game service, each with the HTTP status it is answered with."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """`status`: the HTTP status of the answer; `detail`: more fields of its body; `headers`: of the answer."""

    status = 400

    def __init__(self, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail
        self.headers: dict[str, str] = {}


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    """The caller may not do this (e.g. act for a seat it does not hold)."""

    status = 403


class VersionConflict(ServiceError):
    """The game moved on: the caller's version is not the current one (`detail["version"]`)."""

    status = 409

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at version {current}", version=current)
        self.current = current


class BadRequest(ServiceError):
    status = 400


class Outdated(Exception):
    """Internal: an action prepared on what this process saw last could not be stored because the game or its
    seats changed meanwhile (another worker, an undo); it is prepared again on a fresh read."""
