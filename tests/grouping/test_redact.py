"""Secret-looking lines never reach a remote model."""

from __future__ import annotations

import pytest

from segmint_core.redact import MASK, redact


def test_key_shapes_and_secret_assignments_are_masked() -> None:
    text = "\n".join(
        [
            "+aws = 'AKIAABCDEFGHIJKLMNOP'",
            "+password = 'hunter2hunter2'",
            " -----BEGIN RSA PRIVATE KEY-----",
            "+timeout = 30",
        ]
    )
    assert redact(text).split("\n") == [f"+{MASK}", f"+{MASK}", f" {MASK}", "+timeout = 30"]


def test_plain_text_is_untouched() -> None:
    text = "+def check_token(token):\n+    return token == expected"
    assert redact(text) is text


SECRETS = [
    "+password = 'hunter2hunter2'",
    "+DB_PASSWORD=opensesame99",
    "+    conn = connect(host='db', password='correct horse battery')",
    "+password: str = 'hunter2hunter2'",
    '+  "client_secret": "abcdef0123456789",',
    "+auth_token: 9f8e7d6c5b4a39281706",
    "+aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "+SECRET_KEY = 'django-insecure-abcdefgh'",
    "+    apiKey: 'abcdefgh12345678',",
    "+  run --password=hunter2hunter2 --user=bob",
    "+if password == 'hunter2hunter2':",
    '+API = "sk-live-0123456789abcdefghijklmnop"',
    "+GITHUB=ghp_0123456789abcdefghijklmnopqrstuvwxyz",
    "+Authorization: Bearer abcdefghijklmnop0123456789",
    "+DATABASE_URL=postgres://admin:opensesame@db/prod",
    "+-----BEGIN OPENSSH PRIVATE KEY-----",
]
LOOK_ALIKES = [
    "+tokenizer = Tokenizer(vocab_size=50000)",
    "+keyboard_layout = load_layout('us-international')",
    "+passthrough = config.get('passthrough_mode')",
    "+author = 'jane.doe@example.org'",
    "+authentication_backend = 'django.contrib.auth.backends.ModelBackend'",
    "+bypass_cache = should_bypass_cache_for(request)",
    "+compass_heading = 'north-north-east'",
    "+    self.token_count = self.total_tokens",
    "+secretary = Employee('secretary_name')",
    "+    password = getpass.getpass()",
    "+    'password': os.environ['DB_PASSWORD'],",
    "+    token = os.environ.get('GITHUB_TOKEN')",
    "+desk = 'desk-0123456789abcdefghijklmnop'",
    "+see https://example.org:8080/path@v2",
]


@pytest.mark.parametrize("line", SECRETS)
def test_a_secret_is_masked(line: str) -> None:
    assert redact(line) == f"+{MASK}"


@pytest.mark.parametrize("line", LOOK_ALIKES)
def test_a_word_that_only_holds_a_secret_s_name_is_sent(line: str) -> None:
    assert redact(line) == line


def test_a_private_key_is_masked_up_to_its_end() -> None:
    key = [
        "+-----BEGIN RSA PRIVATE KEY-----",
        "+MIIEpAIBAAKCAQEA7bq0",
        "+c2VjcmV0IGtleSBib2R5",
        "+-----END RSA PRIVATE KEY-----",
    ]
    assert redact("\n".join([*key, "+x = 1"])).split("\n") == [f"+{MASK}"] * 4 + ["+x = 1"]
