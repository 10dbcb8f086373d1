"""The Python client of the Deckforge HTTP API (docs/python.md): ``Deckforge`` and ``AsyncDeckforge``."""

from .async_client import AsyncDeckforge, AsyncJob
from .client import Deckforge, Job
from .dataframes import chart_data, table_rows
from .errors import (
    APIError,
    AuthenticationError,
    ConflictError,
    DeckforgeError,
    InvalidInputError,
    JobFailedError,
    JobTimeoutError,
    NetworkError,
    NotFoundError,
    PermissionDeniedError,
    Problem,
    RateLimitError,
    ServerError,
    ServiceUnavailableError,
    WebhookVerificationError,
)
from .models import (
    Deck,
    DeckWarning,
    JobStatus,
    Progress,
    Rendering,
    StoredTemplate,
    StoredTemplateDetail,
    Usage,
    WebhookDelivery,
)
from .presentation import Presentation, Slide
from .settings import DEFAULT_TIMEOUT, __version__
from .webhooks import verify_webhook

__all__ = [
    "APIError",
    "AsyncDeckforge",
    "AsyncJob",
    "AuthenticationError",
    "ConflictError",
    "DEFAULT_TIMEOUT",
    "Deck",
    "DeckWarning",
    "Deckforge",
    "DeckforgeError",
    "InvalidInputError",
    "Job",
    "JobFailedError",
    "JobStatus",
    "JobTimeoutError",
    "NetworkError",
    "NotFoundError",
    "PermissionDeniedError",
    "Presentation",
    "Problem",
    "Progress",
    "RateLimitError",
    "Rendering",
    "ServerError",
    "ServiceUnavailableError",
    "Slide",
    "StoredTemplate",
    "StoredTemplateDetail",
    "Usage",
    "WebhookDelivery",
    "WebhookVerificationError",
    "__version__",
    "chart_data",
    "table_rows",
    "verify_webhook",
]
