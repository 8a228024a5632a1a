"""Accounts: sign up (with the starting grant), log in/out, change password, profile.

Log in, log out and password change are Django's auth views with our templates; sign-up
creates the user and player through ``tables.services.player_sign_up``.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.urls import path, reverse_lazy
from django.views.decorators.http import require_http_methods

from tables.selectors import player_ledger
from tables.services import player_get_or_create, player_sign_up


class SignUpForm(UserCreationForm):
    """Username and password twice, checked by Django's password validators."""

    email = forms.EmailField(required=False, help_text="Optional; only used to reset a password.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = player_sign_up(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            email=form.cleaned_data.get("email") or "",
        )
        login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("profile")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile(request):
    """The player's bankroll, seats and ledger."""
    player = player_get_or_create(user=request.user)
    context = {
        "player": player,
        "seats": player.seats.select_related("table").order_by("table__name"),
        "ledger": player_ledger(player),
    }
    return render(request, "accounts/profile.html", context)


urlpatterns = [
    path("signup/", signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="accounts/login.html"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/password_change.html",
            success_url=reverse_lazy("password_change_done"),
        ),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path("profile/", profile, name="profile"),
]
