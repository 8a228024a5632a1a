// The HUD (issue 51): the players' statistics beside the seats, fetched by htmx
// (tables.views_hud), never carried by the socket's frames. It is fetched again when a hand
// ends or a new one starts (the seats' data-hand and data-street say so), and placed around
// the oval as the seats are (their --bottom and --seats). A button beside each seat shows
// its figures on hover or focus (CSS), and a tap or Enter keeps them open until the next,
// across the HUD's refreshes (the player's box is opened again once the new one is in).
(function () {
  "use strict";
  var shownFor = null;  // the hand and whether it is over, when the HUD was last asked for
  var openFor = null;  // the player whose figures a tap keeps open

  function follow() {
    var hud = document.getElementById("table-hud");
    var seats = document.getElementById("table-seats");
    if (!hud || !seats) return;
    ["--bottom", "--seats"].forEach(function (name) {
      var value = seats.style.getPropertyValue(name);
      if (hud.style.getPropertyValue(name) !== value) hud.style.setProperty(name, value);
    });
    var key = (seats.dataset.hand || "") + ":" + (seats.dataset.street === "over");
    if (shownFor !== null && key !== shownFor) htmx.trigger(hud, "hud-refresh");
    shownFor = key;
  }
  document.addEventListener("htmx:wsAfterMessage", follow);
  follow();

  function setOpen(box, open) {
    if (open) openFor = box.dataset.player;
    else if (openFor === box.dataset.player) openFor = null;
    box.classList.toggle("open", open);
    var button = box.querySelector(".hud-toggle");
    if (button) button.setAttribute("aria-expanded", open ? "true" : "false");
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest(".hud-toggle");
    document.querySelectorAll(".hud.open").forEach(function (box) {
      if (!button || box !== button.closest(".hud")) setOpen(box, false);
    });
    if (button) {
      var box = button.closest(".hud");
      setOpen(box, !box.classList.contains("open"));
    }
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (openFor === null || !e.target || e.target.id !== "table-hud") return;
    var box = Array.prototype.find.call(e.target.querySelectorAll(".hud"), function (b) {
      return b.dataset.player === openFor;
    });
    if (box) setOpen(box, true);
    else openFor = null;  // the player left the table
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    document.querySelectorAll(".hud.open").forEach(function (box) { setOpen(box, false); });
  });
})();
