// Cards only (issue 53): a phone in the room shows its player's own cards, large, and their
// actions; the room screen shows the table. The same page and the same socket frames: only
// the layout changes (classes on <html>, painted by cards_only.css), so no frame is sent for
// it. The choice is remembered by this browser; the cards come face down after each switch
// and each new hand, until the player peeks (a neighbour cannot glance at them).
(function () {
  "use strict";
  var KEY = "poker.cardsOnly";
  var root = document.documentElement;
  var modeSwitch = document.getElementById("cards-only-switch");
  var peekSwitch = document.getElementById("peek-switch");
  if (!modeSwitch || !peekSwitch) return;

  function remembered() {
    try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function remember(on) {
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
  }

  function setPeek(on) {
    root.classList.toggle("peeking", on);
    peekSwitch.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function setMode(on) {
    root.classList.toggle("cards-only", on);
    modeSwitch.setAttribute("aria-pressed", on ? "true" : "false");
    setPeek(false);
  }

  modeSwitch.addEventListener("click", function () {
    var on = !root.classList.contains("cards-only");
    remember(on);
    setMode(on);
  });
  peekSwitch.addEventListener("click", function () {
    setPeek(!root.classList.contains("peeking"));
  });
  // A tap on the big cards peeks too (or hides them again); the button says which.
  document.addEventListener("click", function (e) {
    if (!root.classList.contains("cards-only") || !e.target.closest(".seat.me .hole")) return;
    setPeek(!root.classList.contains("peeking"));
  });

  // A new hand's cards come face down.
  var hand = null;
  function newHand() {
    var seats = document.getElementById("table-seats");
    var now = seats ? seats.dataset.hand : null;
    if (now !== hand && hand !== null) setPeek(false);
    hand = now;
  }
  document.addEventListener("htmx:wsAfterMessage", newHand);
  newHand();
  setMode(remembered());
})();
