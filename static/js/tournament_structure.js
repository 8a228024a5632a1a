// The organise form: choosing "Custom levels" with that field empty copies the structure
// previewed below it (its levels and their unit) into the field, to edit from there. Done at
// once, in the browser, before htmx asks for the new preview: a late answer never overwrites
// what the organiser types next. Without this script the custom field starts empty.
(function () {
  "use strict";

  document.addEventListener(
    "change",
    (event) => {
      const select = event.target;
      if (!select || select.id !== "id_structure" || select.value !== "custom") return;
      const form = select.form;
      const levels = form && form.elements.levels;
      const preview = document.querySelector("#structure-preview [data-levels-text]");
      if (!levels || !preview || levels.value.trim()) return;
      levels.value = preview.dataset.levelsText;
      if (form.elements.level_unit) {
        form.elements.level_unit.value = preview.dataset.levelUnit;
      }
    },
    true // capture: before htmx (listening on the form) sends the form's fields
  );
})();
