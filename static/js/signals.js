// Signals at the table: a short sound when it becomes your turn and when your clock runs low
// (generated with the Web Audio API, no files), switched off and on with the 🔔 button and
// remembered in localStorage; the tab title says "Your turn" while it is. A player who chose
// the turn nudge (<body data-nudge="on">, pokersite/preferences.py) also gets a vibration on
// a phone and, while the tab is not in front, a notification through the service worker;
// again at each new turn, also one that follows the player's own action at once.
(function () {
  "use strict";
  var KEY = "poker.sound";
  var baseTitle = document.title;
  var audio = null, wasMyTurn = false, warned = false;
  var actedOn = null;  // the action bar's version the player last acted on

  function soundOn() { return localStorage.getItem(KEY) !== "off"; }

  function showSwitch() {
    var button = document.getElementById("sound-switch");
    if (!button) return;
    var on = soundOn();
    button.textContent = on ? "🔔 sound on" : "🔕 sound off";
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  // The audio context is made at the player's first click, key or tap on the page (the
  // events that let a page start sound): made before one, the browser refuses to start it
  // and says so in the console. Until then no sound plays.
  function startAudio() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume();
  }
  ["click", "keydown", "touchend"].forEach(function (type) {
    document.addEventListener(type, startAudio, { capture: true, passive: true });
  });

  function beep(frequency, seconds, times) {
    if (!soundOn() || !audio) return;
    for (var i = 0; i < times; i++) {
      var start = audio.currentTime + i * seconds * 1.6;
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + seconds + 0.05);
    }
  }

  function nudge() {
    if (document.body.dataset.nudge !== "on") return;
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    var bar = document.getElementById("table-actions");
    var title = "Your turn · " + baseTitle;
    var options = {
      body: (bar && bar.dataset.announce) || "It is your turn to act.",
      tag: "turn-" + location.pathname,  // a newer nudge replaces the last, one per table
      icon: "/static/icons/icon-192.png",
      data: { url: location.pathname },
    };
    var worker = navigator.serviceWorker;
    var registered = worker ? worker.getRegistration() : Promise.resolve(null);
    registered.then(function (registration) {
      if (registration) return registration.showNotification(title, options);
      new Notification(title, options);  // no worker (not yet registered): the page's own
    }).catch(function (error) { console.warn("No turn notification:", error); });
  }

  // Your turn: the action bar (only ever rendered for the player to act) is on screen.
  function myTurn() { return !!document.querySelector("#table-actions form.act"); }

  // A new turn: the bar came, or it is a later version's than the one acted on (the player
  // is to act again at once: heads-up, the big blind closing preflop and first on the flop).
  function check() {
    var turn = myTurn();
    var version = turn ? document.getElementById("table-actions").dataset.version : null;
    if (turn && (!wasMyTurn || (actedOn !== null && version !== actedOn))) {
      beep(660, 0.15, 2); nudge(); warned = false; actedOn = null;
    }
    wasMyTurn = turn;
    document.title = turn ? "Your turn · " + baseTitle : baseTitle;
    var low = turn && document.querySelector("#table-actions .countdown.low");
    if (low && !warned) { warned = true; beep(880, 0.1, 3); }
  }

  document.addEventListener("click", function (e) {
    if (e.target.closest("#sound-switch")) {
      localStorage.setItem(KEY, soundOn() ? "off" : "on");
      showSwitch();
    }
  });
  document.addEventListener("htmx:wsBeforeSend", function (e) {
    if (e.target && e.target.closest && e.target.closest("form.act")) {
      actedOn = document.getElementById("table-actions").dataset.version;
    }
  });
  document.addEventListener("htmx:wsAfterMessage", check);
  setInterval(check, 500);  // the low-clock mark is set by table.js's countdown
  showSwitch();
  check();
})();
