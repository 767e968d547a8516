"""What an HTTP request gets when a service it needs (the database, Redis) is out of reach:
503 with the error shape and the code ``/readyz`` uses for it, so that a client knows to try
again in a moment, instead of a bare 500 and a traceback in the log for a network fault."""

from __future__ import annotations

import logging

from fastapi import Request
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from twintable.server.protocol import ErrorMessage
from twintable.server.storage.store import database_out_of_reach

log = logging.getLogger("twintable.server")

#: The exceptions :func:`service_out_of_reach` looks at (anything else is not an outage).
OUTAGE_ERRORS: tuple[type[Exception], ...] = (DBAPIError, OSError, PoolTimeout, RedisError)
#: Seconds a client is asked to wait before it tries again.
RETRY_AFTER_S = 2


async def service_out_of_reach(request: Request, error: Exception) -> JSONResponse:
    """503 ``storage.down`` or ``cluster.down``; an error that is not an outage (a wrong
    statement, say) is raised again, to be the 500 it is."""
    if request.scope["type"] != "http":
        raise error  # a socket's own loop answers its faults (storage.failed)
    if isinstance(error, RedisError):
        code, message = "cluster.down", "Redis is out of reach; try again in a moment"
    elif database_out_of_reach(error):
        code, message = "storage.down", "the database is out of reach; try again in a moment"
    else:
        raise error
    log.warning("a request found a service out of reach",
                extra={"path": request.url.path, "code": code, "error": repr(error)})
    return JSONResponse(ErrorMessage(code=code, message=message).model_dump(), status_code=503,
                        headers={"Retry-After": str(RETRY_AFTER_S)})
