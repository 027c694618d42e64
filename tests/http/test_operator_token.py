"""Outside development, an operator token that can never work or is weak stops the server at
start, saying why; in development it is replaced by a random one (docs/api.md, "The
operator token")."""
from __future__ import annotations

import logging
import secrets
import shlex
import subprocess
from typing import Literal

import pytest
from pydantic import SecretStr

from shared.settings import Settings, SettingsError

REFUSED = {
    "": "not set",
    "short-token": "shorter than 16",
    "aaaaaaaaaaaaaaaa": "different characters",
    "abababababababababab": "different characters",
    "changemechangeme": "repeats",
    "Changeme-Changeme-": "repeats",
    "k3Yx9!k3Yx9!k3Yx9!k3Yx9!": "repeats",
    "passwordpassword": "well known",
    "0123456789abcdef": "consecutive",
    "abcdefghijklmnopqrst": "consecutive",
    "1234567890123456": "consecutive",
    "changeme": "shorter than 16",
    " 8fK2pQ9xLm4vRt7Z": "spaces around it",
    "8fK2pQ9xLm4vRt7Z ": "spaces around it",
    "8fK2pQ9xLm4vRt7Z\n": "spaces around it",
    "8fK2pQ9x Lm4vRt7Z": "character",
    "8fK2pQ9x\u00e9Lm4vRt7Z": "character",
    "8fK2pQ9x\u0000Lm4vRt7Z": "character",
    "x" * 257: "longer than 256",
    "8fK2" + secrets.token_urlsafe(300): "longer than 256",
    "s.a_operator.8fK2pQ9xLm4vRt7Z": "session",
    "b.g_operator.8fK2pQ9xLm4vRt7Z": "bot",
    # guessable by zxcvbn's estimate though long enough and varied: keyboard walks, words with
    # digits, the server's own words (each started a production server before)
    "1qaz2wsx3edc4rfv": "guessable",
    "qwertyuiopasdfgh": "guessable",
    "Password12345678": "guessable",
    "letmeinletmein12": "guessable",
    "entente-operator": "guessable",
    "Diplomacy2024!Diplomacy": "guessable",
    # well-known passphrases and the documentation's own example values, however dressed
    "correcthorsebatterystaple": "well-known passphrase",
    "correct-horse-battery-staple": "well-known passphrase",
    "Correct Horse Battery Staple 2026".replace(" ", "_"): "well-known passphrase",
    "Tr0ub4dor&3Tr0ub4dor": "well-known passphrase",
    "Tr0ub4dor&3-x9Kq2vLm": "well-known passphrase",
    "op-token-for-fuzzing-12345": "example value of the documentation",
    "CHANGE-ME-8fK2pQ9xLm4v": "well-known passphrase",
}


@pytest.mark.parametrize("token", list(REFUSED), ids=[f"{i:02d}" for i in range(len(REFUSED))])
@pytest.mark.parametrize("environment", ["production", "test"])
def test_a_token_that_cannot_work_or_is_weak_stops_the_start_and_says_why(
        token: str, environment: Literal["production", "test"]) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings(operator_token=SecretStr(token), environment=environment).checked()
    message = str(refused.value)
    assert "ENTENTE_OPERATOR_TOKEN" in message and REFUSED[token] in message, message
    assert token.strip() not in message or len(token.strip()) < 4  # the secret itself is not repeated


@pytest.mark.parametrize("token", [secrets.token_urlsafe(32), secrets.token_hex(16), "8fK2pQ9xLm4vRt7Z",
                                   "operator-token-for-tests-0123456789", "purple-walrus-7-kettle-Ohm9",
                                   "Y" + secrets.token_urlsafe(190)],
                         ids=["urlsafe-32", "hex-16", "mixed-16", "long-words", "words", "urlsafe-190"])
def test_strong_tokens_start(token: str) -> None:
    assert Settings(operator_token=SecretStr(token), environment="production").checked().operator_secret() == token


def test_a_guessable_token_is_refused_with_a_command_that_makes_a_strong_one() -> None:
    with pytest.raises(SettingsError) as refused:
        Settings(operator_token=SecretStr("qwertyuiopasdfgh"), environment="production").checked()
    message = str(refused.value)
    assert "zxcvbn" in message and "10^12" in message, message
    command = message.split("`")[1]
    made = subprocess.run(shlex.split(command), capture_output=True, text=True, check=True).stdout.strip()
    assert Settings(operator_token=SecretStr(made), environment="production").checked().operator_secret() == made


def test_in_development_a_weak_token_is_replaced_and_the_reason_given(
        caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]) -> None:
    with caplog.at_level(logging.WARNING, logger="entente.settings"):
        checked = Settings(operator_token=SecretStr("changemechangeme"), environment="development").checked()
    assert checked.operator_secret() != "changemechangeme"
    assert len(checked.operator_secret()) >= 32
    assert checked.operator_secret() in capsys.readouterr().err
    assert "repeats" in caplog.text and "changemechangeme" not in caplog.text
