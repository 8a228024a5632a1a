from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Poker tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save, pre_save

        from tables.live import sessions
        from tables.live.feed import TableFeed
        from tables.services import hooks, time_bank
        from tables.services.events import local_listeners

        # A log-out or a password change ends the user's live table sockets (see the module).
        user_logged_out.connect(sessions.on_logged_out, dispatch_uid="tables.live_logout")
        pre_save.connect(
            sessions.on_user_saving,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="tables.live_password_saving",
        )
        post_save.connect(
            sessions.on_user_saved,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="tables.live_password_saved",
        )
        # This process's own changes reach its sockets at once (``TableFeed.changed_here``).
        if TableFeed.changed_here not in local_listeners:
            local_listeners.append(TableFeed.changed_here)
        # The time bank refills every few hands (a cash table's own listener).
        hooks.register(hooks.hand_ended, time_bank.refill_after_hand)
