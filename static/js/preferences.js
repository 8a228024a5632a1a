// The preferences page: ticking the turn nudge asks the browser for permission to notify
// (it asks only on a click), and says so when the browser already refuses.
(function () {
  "use strict";
  var box = document.getElementById("id_turn_nudge");
  var note = document.getElementById("nudge-permission");
  if (!box || !("Notification" in window)) return;

  function showRefusal() { note.hidden = !(box.checked && Notification.permission === "denied"); }

  box.addEventListener("change", function () {
    if (box.checked && Notification.permission === "default") {
      Notification.requestPermission().then(showRefusal);
    }
    showRefusal();
  });
  showRefusal();
})();
