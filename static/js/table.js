// The table page, only what htmx cannot do: the action clock countdown, the bet slider and
// quick sizes, keyboard shortcuts and the connection indicator. The server owns the clock.
(function () {
  "use strict";

  function tickClock() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (clock) {
      var left = Math.max(0, Math.ceil((Number(clock.dataset.deadline) - Date.now()) / 1000));
      var out = clock.querySelector(".countdown");
      if (out) {
        out.textContent = left + "s";
        out.classList.toggle("low", left <= 5);
      }
    });
  }
  setInterval(tickClock, 250);

  function setAmount(form, value) {
    var amount = form.querySelector(".amount"), slider = form.querySelector(".slider");
    if (!amount) return;
    var lo = Number(amount.min), hi = Number(amount.max);
    value = Math.max(lo, Math.min(hi, Math.round(Number(value) || lo)));
    amount.value = value;
    if (slider) slider.value = value;
    var label = form.querySelector(".raise-to");
    if (label) label.textContent = value;
  }

  document.addEventListener("input", function (e) {
    var form = e.target.closest("form.act");
    if (form && (e.target.matches(".slider") || e.target.matches(".amount"))) {
      setAmount(form, e.target.value);
    }
  });
  document.addEventListener("click", function (e) {
    var size = e.target.closest("button.size");
    if (size) setAmount(size.closest("form.act"), size.dataset.amount);
  });

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var tag = (e.target.tagName || "").toLowerCase();
    var form = document.querySelector("form.act");
    if (!form) return;
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      var amount = form.querySelector(".amount");
      if (amount && tag !== "input") {
        var step = Math.max(1, Math.round((Number(amount.max) - Number(amount.min)) / 20));
        setAmount(form, Number(amount.value) + (e.key === "ArrowUp" ? step : -step));
        e.preventDefault();
      }
      return;
    }
    if (tag === "input" && e.key !== "Enter") return;
    var key = e.key === "Enter" ? "r" : e.key.toLowerCase();
    var button = form.querySelector('button[data-key="' + key + '"]');
    if (button) { e.preventDefault(); button.click(); }
  });

  function connState(state, text) {
    var conn = document.getElementById("conn");
    if (conn) { conn.dataset.state = state; conn.textContent = text; }
  }
  document.addEventListener("htmx:wsOpen", function () { connState("open", "live"); });
  document.addEventListener("htmx:wsClose", function () { connState("closed", "reconnecting…"); });
  document.addEventListener("htmx:wsAfterMessage", tickClock);
})();
