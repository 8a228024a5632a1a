// Hand replayer: without this script every step is listed; with it, one step at a time
// (buttons, or the arrow keys). The steps are rendered by the server; nothing is fetched.
(function () {
  "use strict";
  var root = document.getElementById("replayer");
  if (!root) return;
  var steps = root.querySelectorAll(".step");
  var controls = root.querySelector(".replayer-controls");
  var position = root.querySelector(".replayer-position");
  var last = steps.length - 1;
  var current = 0;
  function show(index) {
    current = Math.max(0, Math.min(last, index));
    for (var i = 0; i < steps.length; i++) steps[i].hidden = i !== current;
    position.textContent = "Step " + current + " of " + last;
  }
  controls.hidden = false;
  root.classList.add("stepping");
  controls.addEventListener("click", function (event) {
    var what = event.target.getAttribute("data-step");
    if (what === "first") show(0);
    else if (what === "prev") show(current - 1);
    else if (what === "next") show(current + 1);
    else if (what === "last") show(last);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") show(current + 1);
    else if (event.key === "ArrowLeft") show(current - 1);
  });
  show(0);
})();
