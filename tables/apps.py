from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Poker tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save, pre_save

        from tables import push
        from tables.live import sessions
        from tables.live.in_turn import move_in_turn, read_in_turn, tick_in_turn, write_in_turn
        from tables.operations import move_runners, turn_writers
        from tables.selectors.held import held_runners
        from tables.services import hooks, time_bank
        from tables.timers import turn_runners

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
        # A table's clock ticks in its runtime's turn where this process runs it.
        if tick_in_turn not in turn_runners:
            turn_runners.append(tick_in_turn)
        # The REST play API's moves go to the table's runtime where this process has one.
        if move_in_turn not in move_runners:
            move_runners.append(move_in_turn)
        if read_in_turn not in held_runners:  # and their state, from its table in memory
            held_runners.append(read_in_turn)
        if write_in_turn not in turn_writers:  # and a host's controls
            turn_writers.append(write_in_turn)
        # The time bank refills every few hands (a cash table's own listener).
        hooks.register(hooks.hand_ended, time_bank.refill_after_hand)
        # The turn nudge's Web Push (nothing without a VAPID key: tables/push.py).
        push.hear_turns()
        hooks.register(hooks.push_subscribed, push.note_subscribed)
