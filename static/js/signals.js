// Signals at the table: a short sound when it becomes your turn and when your clock runs low
// (generated with the Web Audio API, no files), switched off and on with the 🔔 button and
// remembered in localStorage; the tab title says "Your turn" while it is.
(function () {
  "use strict";
  var KEY = "poker.sound";
  var baseTitle = document.title;
  var audio = null, wasMyTurn = false, warned = false;

  function soundOn() { return localStorage.getItem(KEY) !== "off"; }

  function showSwitch() {
    var button = document.getElementById("sound-switch");
    if (!button) return;
    var on = soundOn();
    button.textContent = on ? "🔔 sound on" : "🔕 sound off";
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function beep(frequency, seconds, times) {
    if (!soundOn()) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
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

  // Your turn: the action bar (only ever rendered for the player to act) is on screen.
  function myTurn() { return !!document.querySelector("#table-actions form.act"); }

  function check() {
    var turn = myTurn();
    if (turn && !wasMyTurn) { beep(660, 0.15, 2); warned = false; }
    wasMyTurn = turn;
    document.title = turn ? "Your turn · " + baseTitle : baseTitle;
    var low = turn && document.querySelector("#table-actions .countdown.low");
    if (low && !warned) { warned = true; beep(880, 0.1, 3); }
  }

  document.addEventListener("click", function (e) {
    if (audio && audio.state === "suspended") audio.resume();  // browsers wait for a gesture
    if (e.target.closest("#sound-switch")) {
      localStorage.setItem(KEY, soundOn() ? "off" : "on");
      showSwitch();
    }
  });
  document.addEventListener("htmx:wsAfterMessage", check);
  setInterval(check, 500);  // the low-clock mark is set by table.js's countdown
  showSwitch();
  check();
})();
