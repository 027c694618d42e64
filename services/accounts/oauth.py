"""The OAuth2 authorization-code flow against a provider that speaks Discord's protocol.

``/auth/login`` sends the browser to the provider's authorize URL with a ``state`` that is
signed here (nonce, expiry, HMAC) and whose nonce is also set in a short-lived cookie: the
callback accepts only a state this server made, not expired, for this browser (no login CSRF).
PKCE (RFC 7636, S256) on top: the authorize URL carries the challenge of a verifier that only
this server can make (an HMAC of the state's nonce under the server's state key, so nothing
more is kept between the two requests), and the code exchange sends the verifier, so a code
caught on its way back is useless to anyone else. No ``prompt`` is forced: the provider decides
whether to ask again (Discord asks on the first sign-in and skips it later for an app already
authorised). ``/auth/callback`` exchanges the code at the token URL (client id and secret in the
form, as Discord accepts them) and reads the user at the user URL with the access token.
Kept hand-written rather than authlib's or httpx-oauth's client: docs/architecture.md,
"Libraries measured".
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from shared.errors import BadRequest, DomainError, ErrorCode, Unauthorized
from shared.settings import Settings
from shared.text import cleaned, is_ascii_number

if TYPE_CHECKING:  # loaded by a sign-in, not by a server's start (docs/testing.md, "A server's start")
    import httpx

STATE_COOKIE = "entente_oauth_state"
STATE_SECONDS = 600
MAX_STATE_LENGTH = 512  # a state issued here is under 100 characters; a longer one is refused unread
PROVIDER_TIMEOUT_SECONDS = 10.0


class ProviderError(DomainError):
    status_code = 502
    code = ErrorCode.PROVIDER_ERROR


class SignInUnavailable(DomainError):
    status_code = 404  # this server offers no sign-in: nothing to find here
    code = ErrorCode.SIGN_IN_UNAVAILABLE


def _state_key(settings: Settings) -> bytes:
    client_secret = settings.oauth_client_secret.get_secret_value() if settings.oauth_client_secret else ""
    material = f"entente-oauth-state\0{client_secret}\0{settings.operator_secret()}"
    return hashlib.sha256(material.encode("utf-8")).digest()


def _signature(key: bytes, nonce: str, expires: int) -> str:
    return hmac.new(key, f"{nonce}.{expires}".encode("ascii"), hashlib.sha256).hexdigest()


def new_state(settings: Settings, now: float | None = None) -> tuple[str, str]:
    """A signed state for the authorize URL, and the nonce to keep in the browser's cookie."""
    nonce = secrets.token_urlsafe(16)
    expires = int((now if now is not None else time.time()) + STATE_SECONDS)
    return f"{nonce}.{expires}.{_signature(_state_key(settings), nonce, expires)}", nonce


def check_state(settings: Settings, state: str | None, cookie_nonce: str | None, now: float | None = None) -> str:
    """The state's nonce; 400 ``invalid_state`` unless ``state`` was signed here, is fresh, and
    matches the cookie."""
    text = state or ""
    if len(text) > MAX_STATE_LENGTH:
        raise BadRequest(f"the sign-in state is longer than {MAX_STATE_LENGTH} characters: not one issued here",
                         code=ErrorCode.INVALID_STATE, where="query.state")
    nonce, expires_text, signature = text.split(".", 2) if text.count(".") == 2 else ("", "", "")
    problem = None
    # ASCII only ("²".isdigit() is true and int("²") fails; compare_digest takes ASCII str only)
    if not nonce or not text.isascii() or not is_ascii_number(expires_text) or len(expires_text) > 12:
        problem = "the sign-in state is missing or malformed"
    elif not hmac.compare_digest(signature.encode(),
                                 _signature(_state_key(settings), nonce, int(expires_text)).encode()):
        problem = "the sign-in state was not issued by this server"
    elif int(expires_text) < (now if now is not None else time.time()):
        problem = "the sign-in took too long; start again"
    elif not cookie_nonce or not hmac.compare_digest(cookie_nonce.encode("utf-8"), nonce.encode()):
        problem = "the sign-in was started in another browser; start again"
    if problem:
        raise BadRequest(problem, code=ErrorCode.INVALID_STATE, where="query.state")
    return nonce


def _base64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def code_verifier(settings: Settings, nonce: str) -> str:
    """The PKCE verifier of a sign-in: 43 characters (RFC 7636's shortest), from its nonce."""
    return _base64url(hmac.new(_state_key(settings), b"pkce\0" + nonce.encode("utf-8"), hashlib.sha256).digest())


def code_challenge(verifier: str) -> str:
    """The S256 challenge of a verifier: the base64url SHA-256 of its ASCII."""
    return _base64url(hashlib.sha256(verifier.encode("ascii")).digest())


def authorize_url(settings: Settings, state: str, nonce: str) -> str:
    query = urlencode({"response_type": "code", "client_id": settings.oauth_client_id,
                       "scope": settings.oauth_scope, "redirect_uri": settings.oauth_redirect_uri,
                       "state": state, "code_challenge": code_challenge(code_verifier(settings, nonce)),
                       "code_challenge_method": "S256"})
    separator = "&" if "?" in settings.oauth_authorize_url else "?"
    return f"{settings.oauth_authorize_url}{separator}{query}"


@dataclass(frozen=True, slots=True)
class ProviderUser:
    user_id: str
    name: str


async def exchange_code(settings: Settings, code: str, verifier: str) -> ProviderUser:
    """The provider's user behind ``code``: token exchange (with the PKCE verifier), then the
    user endpoint."""
    import httpx

    if not code or len(code) > 512:
        raise BadRequest("the provider sent no usable code", code=ErrorCode.INVALID_CODE, where="query.code")
    client_secret = settings.oauth_client_secret.get_secret_value() if settings.oauth_client_secret else ""
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": settings.oauth_redirect_uri,
            "client_id": settings.oauth_client_id, "client_secret": client_secret, "code_verifier": verifier}
    try:
        async with httpx.AsyncClient(timeout=PROVIDER_TIMEOUT_SECONDS) as client:
            token_response = await client.post(settings.oauth_token_url, data=form,
                                               headers={"accept": "application/json"})
            if token_response.status_code in (400, 401):
                raise Unauthorized("the sign-in provider refused the code; start again", code=ErrorCode.OAUTH_REFUSED)
            if token_response.status_code != 200:
                raise ProviderError(f"the sign-in provider answered {token_response.status_code} to the code exchange")
            access_token = _field(token_response, "access_token")
            user_response = await client.get(settings.oauth_user_url,
                                             headers={"authorization": f"Bearer {access_token}"})
            if user_response.status_code != 200:
                raise ProviderError(f"the sign-in provider answered {user_response.status_code} for the user")
            user = user_response.json()
    except httpx.HTTPError as error:
        raise ProviderError(f"the sign-in provider could not be reached ({type(error).__name__})") from None
    except ValueError:
        raise ProviderError("the sign-in provider sent something that is not JSON") from None
    user_id = str(user.get("id") or "") if isinstance(user, dict) else ""
    if not user_id or cleaned(user_id) != user_id:
        raise ProviderError("the sign-in provider sent a user without a usable id")
    # a display name is the provider's text: what the store would refuse is left out (shared/text.py)
    name = cleaned(str(user.get("global_name") or user.get("username") or user_id))[:100] or user_id[:100]
    return ProviderUser(user_id[:100], name)


def _field(response: httpx.Response, name: str) -> str:
    body = response.json()
    value = body.get(name) if isinstance(body, dict) else None
    if not isinstance(value, str) or not value:
        raise ProviderError(f"the sign-in provider's answer has no {name}")
    return value
