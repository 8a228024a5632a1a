// A draw game's draw on the table page: tick the cards to throw away by clicking them or by
// their keys (1-5), then "Draw n" (D) or "Stand pat" (P), which throws none away whatever is
// ticked. The ticked cards travel with the discard (htmx sends the form's fields).
(function () {
  "use strict";

  function drawForm() {
    return document.querySelector("form.act.draw");
  }

  function update(form) {
    var ticked = form.querySelectorAll('input[name="cards"]:checked').length;
    var count = form.querySelector(".draw-count");
    if (count) count.textContent = ticked;
    form.querySelectorAll(".draw-card").forEach(function (label) {
      label.classList.toggle("thrown", label.querySelector("input").checked);
    });
  }

  document.addEventListener("change", function (e) {
    var form = e.target.closest("form.act.draw");
    if (form) update(form);
  });

  // Before htmx reads the form (capture phase): standing pat throws nothing away.
  document.addEventListener("click", function (e) {
    var pat = e.target.closest("button.stand-pat");
    if (!pat) return;
    pat.form.querySelectorAll('input[name="cards"]').forEach(function (box) {
      box.checked = false;
    });
    update(pat.form);
  }, true);

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var form = drawForm();
    if (!form) return;
    var box = form.querySelector('input[name="cards"][data-key="' + e.key + '"]');
    if (box) {
      e.preventDefault();
      box.checked = !box.checked;
      update(form);
      return;
    }
    // table.js reads the other keys, except while a card's box has the focus
    if (e.target.matches && e.target.matches('input[name="cards"]')) {
      var button = form.querySelector('button[data-key="' + e.key.toLowerCase() + '"]');
      if (button) { e.preventDefault(); button.click(); }
    }
  });
})();
