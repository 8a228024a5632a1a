// Hand replayer: the server renders every step's felt (in <template>s) and the links that
// open each step (?step=N), so it works without this script. With it, stepping happens in
// place: buttons, a slider, play/pause, the arrow keys; the address follows (?step=N), and
// #step-N opens that step too. Nothing is fetched.
(function () {
  "use strict";
  var root = document.getElementById("replayer");
  if (!root) return;
  var felt = document.getElementById("replay-felt");
  var items = root.querySelectorAll(".replay-step");
  var last = items.length - 1;
  var slider = root.querySelector(".replay-slider");
  var play = root.querySelector("button.replay-play");
  var position = root.querySelector(".replay-position");
  var label = root.querySelector(".replay-label");
  var odds = document.getElementById("replay-odds");
  var links = {
    first: root.querySelector('[data-step="first"]'),
    prev: root.querySelector('[data-step="prev"]'),
    next: root.querySelector('[data-step="next"]'),
    last: root.querySelector('[data-step="last"]'),
  };
  var current = Number(root.dataset.step) || 0;
  var timer = null;

  function setLink(link, index, disabled) {
    link.href = "?step=" + index;
    if (disabled) link.setAttribute("aria-disabled", "true");
    else link.removeAttribute("aria-disabled");
  }

  function show(index, keepAddress) {
    index = Math.max(0, Math.min(last, index));
    current = index;
    var item = items[index];
    felt.replaceChildren(item.querySelector("template.replay-felt").content.cloneNode(true));
    odds.replaceChildren(item.querySelector("template.replay-odds").content.cloneNode(true));
    position.textContent = "Step " + index + " of " + last;
    label.innerHTML = item.querySelector("a").innerHTML;  // its cards drawn as cards
    slider.value = index;
    root.dataset.step = index;
    items.forEach(function (li, i) {
      li.classList.toggle("current", i === index);
      var a = li.querySelector("a");
      if (i === index) a.setAttribute("aria-current", "step");
      else a.removeAttribute("aria-current");
    });
    setLink(links.first, 0, index === 0);
    setLink(links.prev, Math.max(0, index - 1), index === 0);
    setLink(links.next, Math.min(last, index + 1), index === last);
    setLink(links.last, last, index === last);
    if (!keepAddress) history.replaceState(null, "", "?step=" + index);
    if (index === last) stop();
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.classList.remove("playing");
    play.setAttribute("aria-label", "Play");
  }

  function toggle() {
    if (timer !== null) return stop();
    if (current === last) show(0);
    play.classList.add("playing");
    play.setAttribute("aria-label", "Pause");
    timer = setInterval(function () { show(current + 1); }, 1200);
  }

  root.addEventListener("click", function (event) {
    var link = event.target.closest("a[href^='?step=']");
    if (link) {
      event.preventDefault();
      stop();
      show(Number(link.getAttribute("href").slice(6)));
    } else if (event.target.closest("button.replay-play")) {
      toggle();
    }
  });
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.matches && event.target.matches("input, textarea, select")) return;
    var to = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last }[event.key];
    if (to !== undefined) { event.preventDefault(); stop(); show(to); }
    else if (event.key === " " && !event.target.closest("button, a")) { event.preventDefault(); toggle(); }
  });

  slider.hidden = false;
  play.hidden = false;
  var hash = /^#step-(\d+)$/.exec(location.hash);
  if (hash) show(Number(hash[1]));
  else show(current, true);
})();
