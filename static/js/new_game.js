// The new-game form shows only the settings that apply to the game and betting chosen
// (stud: a bring-in and bets, no blinds or straddles; fixed limit: its bets) and offers
// each game's bettings and seats. Without this script every field shows, each explained by
// its help text, and the server ignores the ones that do not apply.
(function () {
  "use strict";
  const rules = JSON.parse(document.getElementById("game-rules").textContent);
  const form = document.querySelector("form.new-game");
  const game = form.elements.game;
  const betting = form.elements.betting;
  const seats = form.elements.max_seats;

  function fieldOf(name) {
    const input = form.elements[name];
    return input ? input.closest(".field") : null;
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
    for (const name of ["small_blind", "big_blind", "ante_mode", "straddle", "straddles",
                        "button_straddle", "small_bet", "big_bet", "bring_in"]) {
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
