// A game's settings form (the new-game form, the host panel's settings) shows only the
// settings that apply to the game and betting chosen (stud: a bring-in and bets, no blinds or
// straddles; fixed limit: its bets) and offers each game's bettings and seats. Without this
// script every field shows, each explained by its help text, and the server ignores the ones
// that do not apply. The host panel is swapped in by htmx: its form is set up when it comes.
(function () {
  "use strict";

  function setUp(form) {
    const source = document.getElementById("game-rules");
    if (!source || form.dataset.rulesReady) return;
    form.dataset.rulesReady = "1";
    const rules = JSON.parse(source.textContent);
    const game = form.elements.game;
    const betting = form.elements.betting;
    const seats = form.elements.max_seats;
    if (!game || !betting) return;
    // Every setting some game or betting hides (the server's rule, Table.settings_not_for).
    const managed = new Set(
      Object.values(rules.hidden).flatMap((byBetting) => Object.values(byBetting).flat())
    );

    function fieldOf(name) {
      const input = form.elements[name];
      const one = input && input.closest ? input : input && input[0];
      return one ? one.closest(".field, [data-setting]") : null;
    }

    function update() {
      const allowed = rules.bettings[game.value] || [];
      for (const option of betting.options) {
        option.disabled = !allowed.includes(option.value);
      }
      if (!allowed.includes(betting.value)) {
        betting.value = allowed[0];
      }
      const most = rules.seats[game.value];
      if (seats) {
        seats.max = most;
        if (Number(seats.value) > most) {
          seats.value = most;
        }
      }
      const hidden = rules.hidden[game.value][betting.value];
      for (const name of managed) {
        const field = fieldOf(name);
        if (field) {
          field.hidden = hidden.includes(name);
        }
      }
    }

    // Help texts that speak of blinds say what a stud game means instead (data-stud-help).
    const helps = [...form.querySelectorAll("[data-stud-help]")].map((input) => {
      const help = input.closest(".field, [data-setting]").querySelector(".help");
      return help ? { help, stud: input.dataset.studHelp, flop: help.textContent } : null;
    }).filter(Boolean);

    // A stud game chosen with its bets still empty: its defaults, from the stakes typed
    // (the small bet the big blind, the big bet twice it, a bring-in of half the small bet
    // and an ante of a fifth, each at least 1 chip).
    function fromSmallBet(small) {
      return { big_bet: 2 * small, bring_in: Math.max(1, Math.floor(small / 2)),
               ante: Math.max(1, Math.floor(small / 5)) };
    }

    function studDefaults() {
      const big = Number(form.elements.big_blind && form.elements.big_blind.value) || 2;
      const small = Math.max(2, big);
      const fill = { small_bet: small, ...fromSmallBet(small) };
      for (const [name, value] of Object.entries(fill)) {
        const input = form.elements[name];
        if (input && (input.value === "" || Number(input.value) === 0)) {
          input.dataset.before = input.value;
          input.value = input.dataset.filled = value;
        }
      }
    }

    // A small bet typed over the one filled: the values filled from it (and not typed over
    // since) follow it.
    const smallBet = form.elements.small_bet;
    if (smallBet) {
      smallBet.addEventListener("input", () => {
        const small = Number(smallBet.value);
        if (!small) return;
        for (const [name, value] of Object.entries(fromSmallBet(small))) {
          const input = form.elements[name];
          if (input && input.dataset.filled !== undefined && input.value === input.dataset.filled) {
            input.value = input.dataset.filled = value;
          }
        }
      });
    }

    // Back to a flop game: what was filled for stud and left as it was goes back.
    function undoStudDefaults() {
      for (const input of form.querySelectorAll("[data-filled]")) {
        if (input.value === input.dataset.filled) input.value = input.dataset.before;
        delete input.dataset.filled;
      }
    }

    // ``chosen``: the game was just picked (not the form's first look, which keeps its values).
    function followGame(chosen) {
      const stud = rules.stud.includes(game.value);
      for (const item of helps) {
        item.help.textContent = stud ? item.stud : item.flop;
      }
      if (chosen !== true) return;
      if (stud) studDefaults(); else undoStudDefaults();
    }

    game.addEventListener("change", () => followGame(true));
    game.addEventListener("change", update);
    betting.addEventListener("change", update);
    update();
    followGame();
  }

  function setUpAll() {
    document.querySelectorAll("form.game-settings").forEach(setUp);
  }
  document.addEventListener("htmx:afterSettle", setUpAll);
  setUpAll();
})();
