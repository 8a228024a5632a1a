"""The table socket's protocol: what a frame may ask, what it is answered, what it is sent,
and its close codes and limits. The socket reads and answers frames in
``tables.live.consumer`` (``decode_frame``, ``FrameBudget``, the answers); it joins in
``tables.live.joining``; what it is sent is made in ``tables.live.frames``.

- A request is a JSON object from htmx's ``ws-send`` (``decode_frame``): ``op`` names one of
  ``OPERATIONS`` (``tables.operations``, the command layer the REST play API shares) and the
  other fields are that operation's. A refused request (``BadFrame``, ``NumberError`` or the
  service's ``ServiceError``) changed nothing and is answered to the sender only.
- An answer (``answer_json``) is ``{"type": "answer", "message", "error"}``, a refusal's
  stable ``code`` beside its message (a service error's ``code``, ``bad_request``,
  ``invalid_number``, ``rate_limited``, ``database_unavailable``, ``server_error``), and the
  request's ``id`` if it gave one (``request_id_of``); a browser gets the message line as HTML
  instead (``tables.presenters.render.render_message``). A socket opened with
  ``answers=inline`` gets a carried-out request's answer as the ``answer`` member of the
  first state or update frame sent to it while the request is handled (``with_answer``: one
  frame fewer per action), or alone when no frame goes to it meanwhile; refusals always
  come alone.
- What a socket is sent after a change is made in ``tables.live.frames``: only what changed
  since what it holds (a browser's regions as htmx out-of-band HTML; a ``frames=diff`` JSON
  socket's ``update`` patches). A ``?state=json`` socket without ``frames=diff`` gets one
  ``state_json`` frame every time (``render_viewer``): ``{"type": "state", "state",
  "version", "hand", "running", "view", "me", "html"}``: ``state`` is the play state
  (``tables.presenters.play_state``, the same object the REST API answers with); the others
  are the engine's view for this viewer (the same data the HTML shows) with the regions a
  browser would get, kept for the clients written before it.
- Acting in advance (``pre_action``): a player in the hand who is not to act ticks a choice;
  the server keeps it on their seat and takes it in the same step as the action that brings
  their turn (``tables.services.pre_actions``), so that action's version (or the next) already
  shows theirs: no request of theirs is needed. Their state's ``pre_actions`` lists what they
  may tick and what they ticked (their own only).
- How many frames a socket may send (``FrameBudget``): every frame, binary ones included,
  takes a token (``RATE_BURST`` at most, refilled at ``RATE_PER_SECOND``); a frame without
  one is refused, and ``FLOOD_CLOSE_AFTER`` refusals within ``FLOOD_WINDOW_SECONDS`` close the
  socket (``FLOODING``, ``tables.live.consumer``).
- Close codes (websocket servers may send only 1000 and 3000-4999) are below.
"""

from __future__ import annotations

NOT_LOGGED_IN = 4401  # also when the log-in ended
NO_SUCH_TABLE = 4404
TOO_MANY_SOCKETS = 4429
FLOODING = 4008
FRAME_TOO_BIG = 4009
SERVER_TROUBLE = 4011  # the channel layer failed, or the first state could not be read: reconnect
#: The server is too busy to send this socket its table soon (a connect rush,
#: ``tables.live.admission``), or it is stopping (``TableRuntime.drain``): reconnect after a
#: jittered, growing pause (``pokerclient.backoff``).
#: 1013 "try again later" is the standard code, but a server may send only 1000 and 3000-4999.
SERVER_BUSY = 4013

#: The requests the socket answers itself, not through a service: log in by the first frame,
#: and send the whole state again (``sync``: a ``frames=diff`` client that doubts its state).
SOCKET_REQUESTS = ("auth", "sync")


# --- what a socket may send ----------------------------------------------------------------

RATE_PER_SECOND = 5.0
RATE_BURST = 10
#: Frames refused for the rate within ``FLOOD_WINDOW_SECONDS`` that close the socket: a
#: steady flood above the rate is closed too, though a token refills now and then.
FLOOD_CLOSE_AFTER = 30
FLOOD_WINDOW_SECONDS = 10.0


#: What a ``?state=json`` frame tells of its viewer (``Viewer``'s fields).
STATE_ME_FIELDS = ("seated", "sitting_out", "in_hand", "stack")
