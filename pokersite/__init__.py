"""The Django project: settings, URLs, ASGI routing and the account views."""
