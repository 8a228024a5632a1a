// The preferences page: ticking the turn nudge asks the browser for permission to notify
// (it asks only on a click), and says so when the browser already refuses. Where the site
// has a VAPID key (#nudge-push), the browser also subscribes to Web Push for the nudge and
// hands its subscription to the site (unticking withdraws it), so the nudge comes even when
// no table tab is open; the service worker shows it (templates/pwa/service-worker.js).
(function () {
  "use strict";
  var box = document.getElementById("id_turn_nudge");
  var note = document.getElementById("nudge-permission");
  var push = document.getElementById("nudge-push");
  if (!box || !("Notification" in window)) return;

  function showRefusal() { note.hidden = !(box.checked && Notification.permission === "denied"); }

  function keyBytes(text) {
    var raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }

  function tell(method, body) {
    var token = document.querySelector("#preferences-form [name=csrfmiddlewaretoken]").value;
    return fetch(push.dataset.url, {
      method: method,
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  }

  // The browser's subscription matches the box: made and handed in, or withdrawn.
  function syncPush() {
    if (!push || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      return registration.pushManager.getSubscription().then(function (current) {
        if (box.checked && Notification.permission === "granted") {
          var made = current || registration.pushManager.subscribe({
            userVisibleOnly: true, applicationServerKey: keyBytes(push.dataset.key),
          });
          return Promise.resolve(made).then(function (subscription) {
            return tell("POST", subscription.toJSON());
          });
        }
        if (!box.checked && current) {
          return tell("DELETE", { endpoint: current.endpoint }).then(function () {
            return current.unsubscribe();
          });
        }
      });
    }).then(function () { push.dataset.synced = box.checked ? "on" : "off"; })
      .catch(function (error) { console.warn("Web Push not set up:", error); });
  }

  box.addEventListener("change", function () {
    if (box.checked && Notification.permission === "default") {
      Notification.requestPermission().then(function () { showRefusal(); syncPush(); });
    } else {
      syncPush();
    }
    showRefusal();
  });
  showRefusal();
  if (box.checked) syncPush();  // a browser whose subscription went (or a new one) hands it in
})();
