// The table page, only what htmx cannot do: the action clock countdown, the bet slider and
// quick sizes, keyboard shortcuts and the connection indicator. The server owns the clock.
(function () {
  "use strict";

  // The acting seat's bar runs down over the turn's clock; the time bank is drawn in its own
  // colour: the clock's data-bank says it runs (a page opened since never saw the deadline
  // move), and a deadline that moves later during the same turn is it too.
  var turn = { key: null, deadline: 0, bank: false };

  function tickClock() {
    var clock = document.querySelector(".clock[data-deadline]");
    var bar = document.querySelector(".seat.actor .turn-left");
    if (!clock) return;
    var deadline = Number(clock.dataset.deadline);
    var msLeft = Math.max(0, deadline - Date.now());
    var left = Math.ceil(msLeft / 1000);
    var out = clock.querySelector(".countdown");
    if (out) {
      out.textContent = left + "s";
      out.classList.toggle("low", left <= 5);
    }
    if (!bar) return;
    var seats = document.getElementById("table-seats");
    // One turn: this hand, this seat, this many log lines (the time bank adds none).
    var key = [seats ? seats.dataset.hand : "", bar.closest(".seat").id,
               document.querySelectorAll("#table-log .log li").length].join(":");
    if (key !== turn.key) turn = { key: key, deadline: deadline, bank: false };
    else if (deadline > turn.deadline) { turn.deadline = deadline; turn.bank = true; }
    var full = Number(clock.dataset.turn) || msLeft || 1;
    bar.style.width = Math.min(100, (100 * msLeft) / full) + "%";
    bar.parentNode.classList.toggle("bank", turn.bank || clock.hasAttribute("data-bank"));
    bar.parentNode.classList.toggle("low", left <= 5);
  }
  setInterval(tickClock, 250);

  // A player who left moments ago waits before sitting here again: the sit-down form comes
  // when the wait ends, and the line above it counts the seconds down.
  function tickReseat() {
    var wait = document.querySelector(".reseat-wait[data-until]");
    if (!wait) return;
    var left = Math.ceil((Number(wait.dataset.until) - Date.now()) / 1000);
    if (left > 0) {
      wait.querySelector(".countdown").textContent = left + (left === 1 ? " second" : " seconds");
      return;
    }
    var form = document.querySelector("form.sit-down");
    if (form) form.hidden = false;
    wait.remove();
  }
  setInterval(tickReseat, 250);

  // Screen readers hear when it is the viewer's turn and what it costs, once per turn.
  var announced = null;
  function announceTurn() {
    var actions = document.getElementById("table-actions");
    var live = document.getElementById("turn-announcer");
    if (!actions || !live) return;
    var text = actions.dataset.announce || "";
    var seats = document.getElementById("table-seats");
    var key = text && seats ? seats.dataset.hand + ":" + seats.dataset.street + ":" + text : "";
    if (key !== announced) {
      announced = key;
      live.textContent = text;
    }
  }

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
    // Typing elsewhere (the chat, a form) is never a table key; Enter confirms a bet only
    // from the action bar's own amount field.
    var typing = tag === "input" || tag === "textarea" || tag === "select" || e.target.isContentEditable;
    if (typing && !(e.key === "Enter" && e.target.closest("form.act") === form)) return;
    var key = e.key === "Enter" ? "r" : e.key.toLowerCase();
    var button = form.querySelector('button[data-key="' + key + '"]');
    if (button) { e.preventDefault(); button.click(); }
  });

  // Reconnecting (htmx's websocket extension): a pause that doubles up to 15 s, a random
  // half to all of it, as every client of the project waits (pokerclient/backoff.py), so a
  // room that lost its sockets at once does not come back at once. The extension retries
  // only after the standard closes (1006, 1011-1013); a server may send only 3000-4999, so
  // its "try again" closes (4011 the channel layer failed, 4013 busy: shed in a connect
  // rush) reach the extension as 1013. Other closes (logged out, no such table) stay final.
  // The extension counts its retries from the last open, but the server accepts at once and
  // may shed the socket (or close it) before sending anything: sockets closed in a row
  // before their first message count here, so the pause goes on growing until the table
  // comes.
  var closedUnserved = 0;
  htmx.config.wsReconnectDelay = function (retries) {
    var steps = Math.max(retries, closedUnserved - 1);
    var bound = Math.min(15000, 500 * Math.pow(2, Math.min(steps, 10)));
    return bound / 2 + Math.random() * (bound / 2);
  };
  var RETRY_CLOSES = [4011, 4013];
  htmx.createWebSocket = function (url) {
    var socket = new WebSocket(url, []);
    socket.binaryType = htmx.config.wsBinaryType;
    var served = false;
    socket.addEventListener("message", function () { served = true; closedUnserved = 0; });
    var onclose = null;
    Object.defineProperty(socket, "onclose", {
      get: function () { return onclose; },
      set: function (handler) { onclose = handler; },
    });
    socket.addEventListener("close", function (e) {
      if (!served) closedUnserved += 1;
      if (!onclose) return;
      if (RETRY_CLOSES.indexOf(e.code) < 0) { onclose.call(socket, e); return; }
      onclose.call(socket, new CloseEvent("close", { code: 1013, reason: e.reason, wasClean: e.wasClean }));
    });
    return socket;
  };

  function connState(state, text) {
    var conn = document.getElementById("conn");
    if (conn) { conn.dataset.state = state; conn.textContent = text; }
  }
  // "live" once the table has come (the socket opens before the server has read anything:
  // a busy server sends the state when the socket's turn comes).
  var awaitingState = false;
  document.addEventListener("htmx:wsOpen", function () { awaitingState = true; });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (awaitingState) { awaitingState = false; connState("open", "live"); }
  });
  document.addEventListener("htmx:wsClose", function () { connState("closed", "reconnecting…"); });
  // A frame re-renders whole regions, forms included; what a player is typing there (a
  // buy-in, a top-up, a raise) must survive it. Edited fields hand their value to the same
  // field of the incoming copy (the form's class and the field's name say which), and the
  // field that had the focus gets it back once the frame is in.
  function fieldKey(field) {
    return (field.form ? field.form.className : "") + "|" + (field.name || field.className);
  }
  function edited(field) {
    if (field.tagName === "SELECT") {
      var option = field.selectedOptions[0];
      return option !== undefined && !option.defaultSelected;
    }
    return field.value !== field.defaultValue;
  }
  var refocus = null;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var fresh = e.detail.fragment;
    e.detail.target.querySelectorAll("input, select, textarea").forEach(function (field) {
      var focused = field === document.activeElement;
      if (!focused && !edited(field)) return;
      var key = fieldKey(field);
      var match = null;
      fresh.querySelectorAll("input, select, textarea").forEach(function (candidate) {
        if (match === null && fieldKey(candidate) === key) match = candidate;
      });
      if (match === null) return;
      var known = match.tagName !== "SELECT" ||
        Array.prototype.some.call(match.options, function (o) { return o.value === field.value; });
      if (edited(field) && known) match.value = field.value;  // the property: still "edited"
      if (focused) refocus = key;
    });
  });
  function restoreFocus() {
    if (refocus === null) return;
    var key = refocus;
    refocus = null;
    var fields = document.querySelectorAll("input, select, textarea");
    for (var i = 0; i < fields.length; i++) {
      if (fieldKey(fields[i]) === key) {
        var field = fields[i], value = field.value;
        field.focus();
        field.value = "";  // set again: the caret goes after the text, where typing goes on
        field.value = value;
        return;
      }
    }
  }

  // The page's heading (game, stakes, status) and the site header's bankroll live outside
  // the regions a frame swaps: the controls carry them (data-heading, data-bankroll).
  function syncHeader() {
    var controls = document.getElementById("table-controls");
    if (!controls) return;
    var pairs = [["table-heading", controls.dataset.heading], ["header-bankroll", controls.dataset.bankroll]];
    pairs.forEach(function (pair) {
      var out = document.getElementById(pair[0]);
      if (out && pair[1] !== undefined && out.textContent !== pair[1]) out.textContent = pair[1];
    });
  }

  // A tournament table's banner (the level; the rebuy and add-on buttons, offered between a
  // player's hands) is asked again as a hand ends and as the next is dealt, not only every
  // 10 s: the gap between hands, when those buttons may be pressed, lasts a few seconds.
  var handState = null;
  function bannerFollowsHands() {
    var banner = document.getElementById("tournament-level");
    var board = document.getElementById("table-board");
    if (!banner || !board || typeof htmx === "undefined") return;
    var state = board.dataset.hand + "|" + (board.dataset.street === "over");
    if (handState !== null && state !== handState) htmx.trigger(banner, "hand-changed");
    handState = state;
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    syncHeader();
    bannerFollowsHands();
    restoreFocus();
    var form = document.querySelector("form.act");
    var amount = form && form.querySelector(".amount");
    if (amount && edited(amount)) setAmount(form, amount.value);  // the slider and label follow
    tickClock(); tickReseat(); announceTurn();
  });
  announceTurn();

  // A host control (or a seat request) the server did not answer, an error page or no
  // connection at all, says so where its answer goes instead of leaving the click unanswered.
  // The panel's own refreshes (GET) fail quietly: the next one comes anyway.
  function controlFailed(e) {
    var config = e.detail.requestConfig;
    var answer = document.getElementById("host-answer");
    if (!answer || !config || config.verb === "get") return;
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    var why = e.type === "htmx:sendError" || !status ? "not reachable" : "error " + status;
    var list = document.createElement("ul");
    list.className = "messages host-messages";
    var line = document.createElement("li");
    line.className = "error";
    line.textContent = "No answer from the server (" + why + "): check the table, then try again.";
    list.appendChild(line);
    answer.replaceChildren(list);
  }
  document.addEventListener("htmx:responseError", controlFailed);
  document.addEventListener("htmx:sendError", controlFailed);
})();
