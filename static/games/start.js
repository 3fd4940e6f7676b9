// The "start a lesson" form: show only the chosen game's options, the lexicons of its language, and the chosen way
// of seating. The server names each option's language (data-language); it also refuses a lexicon in another language.
const form = document.getElementById("start-form");
const game = form.querySelector("select[name=game]");
const lexicon = form.querySelector("select[name=lexicon]");
const lexiconHelp = lexicon?.closest(".field")?.querySelector(".help");

function showLexiconsOf(language, languageName) {
  if (!lexicon) return;
  for (const option of lexicon.options) {
    const other = Boolean(option.dataset.language) && option.dataset.language !== language;
    option.hidden = other;
    option.disabled = other;
  }
  if (lexicon.selectedOptions[0]?.disabled) {
    // The first lexicon of the game's language (bundled ones come first), or none.
    const first = [...lexicon.options].find((option) => option.value && !option.disabled);
    lexicon.value = first ? first.value : "";
  }
  if (lexiconHelp && languageName) {
    lexiconHelp.textContent = `Lexicons in ${languageName}, the language of the chosen game.`;
  }
}

function update() {
  for (const fieldset of form.querySelectorAll("[data-game-options]")) {
    fieldset.hidden = fieldset.dataset.gameOptions !== game.value;
  }
  const chosen = game.selectedOptions[0];
  if (chosen) showLexiconsOf(chosen.dataset.language, chosen.dataset.languageName);
  const seating = form.querySelector("input[name=seating]:checked")?.value || "auto";
  for (const part of form.querySelectorAll("[data-seating]")) part.hidden = part.dataset.seating !== seating;
}

form.addEventListener("change", update);
update();
