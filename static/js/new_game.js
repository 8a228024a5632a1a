// The new-game form shows only the settings that apply to the game and betting chosen
// (stud: a bring-in and bets, no blinds or straddles; fixed limit: its bets; a mixed game:
// its rotation, or dealer's choice's games) and offers
// each game's bettings and seats. Without this script every field shows, each explained by
// its help text, and the server ignores the ones that do not apply.
(function () {
  "use strict";
  const rules = JSON.parse(document.getElementById("game-rules").textContent);
  const form = document.querySelector("form.new-game");
  const game = form.elements.game;
  const betting = form.elements.betting;
  const seats = form.elements.max_seats;
  // Every setting some game or betting hides (the server's rule, Table.settings_not_for).
  const managed = new Set(
    Object.values(rules.hidden).flatMap((byBetting) => Object.values(byBetting).flat())
  );

  function fieldOf(name) {
    const input = form.elements[name];
    // a group of check boxes (dealer's choice's games) is a list of inputs
    const first = input && !input.closest ? input[0] : input;
    return first ? first.closest(".field") : null;
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
    seats.max = most;
    if (Number(seats.value) > most) {
      seats.value = most;
    }
    const hidden = rules.hidden[game.value][betting.value];
    for (const name of managed) {
      const field = fieldOf(name);
      if (field) {
        field.hidden = hidden.includes(name);
      }
    }
  }

  game.addEventListener("change", update);
  betting.addEventListener("change", update);
  update();
})();
