// The chat panel: clear the box once a message is sent, keep the newest line in view, keep
// at most 300 lines on a long night. Lines arrive as htmx out-of-band swaps over the socket.
(function () {
  "use strict";
  var MAX_LINES = 300;

  function scrollDown() {
    var lines = document.getElementById("chat-lines");
    if (!lines) return;
    while (lines.children.length > MAX_LINES) lines.removeChild(lines.firstElementChild);
    lines.scrollTop = lines.scrollHeight;
  }

  document.addEventListener("htmx:wsAfterSend", function (e) {
    var form = e.target && e.target.closest && e.target.closest("form.chat-form");
    if (form) form.reset();
  });
  document.addEventListener("htmx:wsAfterMessage", scrollDown);
})();
