// The HUD (issue 51): the players' statistics beside the seats, fetched by htmx
// (tables.views_hud), never carried by the socket's frames. It is fetched again when a hand
// ends or a new one starts (the seats' data-hand and data-street say so), and placed around
// the oval as the seats are (their --bottom and --seats). A button beside each seat shows
// its figures on hover or focus (CSS), and a tap or Enter keeps them open until the next.
(function () {
  "use strict";
  var shownFor = null;  // the hand and whether it is over, when the HUD was last asked for

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
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    document.querySelectorAll(".hud.open").forEach(function (box) { setOpen(box, false); });
  });
})();
