// The drawing of the shoe: the cards left behind the gate, the gate at the mouth, the indicator and the buzzer,
// and the last card out; redrawn from the board's state after each action.

import { cardName, isRed } from "./text.js";

const NS = "http://www.w3.org/2000/svg";
const LAMP = ["#d98b00", "#1e9e3a", "#d11a1a", "#3a5fcd"]; // locked, dealing, alarm, closed
const MAX_DRAWN = 40; // card edges drawn for a full shoe

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** Draws an empty shoe into the svg element; returns the function that redraws it from a state. */
export function shoeDrawing(svg) {
  svg.setAttribute("viewBox", "10 10 440 240");
  el("polygon", { points: "20,200 60,60 330,60 360,200", class: "body" }, svg);
  const stack = el("g", {}, svg);
  const mouth = el("rect", { x: 330, y: 150, width: 40, height: 50, class: "mouth" }, svg);
  const gate = el("rect", { x: 352, y: 140, width: 10, height: 70, class: "gate" }, svg);
  const out = el("g", {}, svg);
  const outCard = el("rect", { x: 385, y: 150, width: 46, height: 66, rx: 5, class: "card" }, out);
  const outName = el("text", { x: 408, y: 190, class: "card-name" }, out);
  const lamp = el("circle", { cx: 105, cy: 38, r: 14, class: "lamp" }, svg);
  const lampText = el("text", { x: 127, y: 43, class: "label" }, svg);
  const buzzer = el("g", { class: "buzzer" }, svg);
  el("path", { d: "M270,30 h10 l12,-10 v36 l-12,-10 h-10 z", class: "speaker" }, buzzer);
  const waves = el("path", { d: "M298,28 q6,10 0,20 M304,22 q10,16 0,32", class: "waves" }, buzzer);
  const buzzText = el("text", { x: 318, y: 43, class: "label" }, svg);
  const left = el("text", { x: 190, y: 228, class: "label center" }, svg);
  const status = el("text", { x: 190, y: 246, class: "label center small" }, svg);
  let sounded = 0;

  return function draw(state, w, lang, lastCard) {
    const drawn = Math.ceil(Math.min(state.left, 417) / 417 * MAX_DRAWN);
    stack.replaceChildren();
    for (let i = 0; i < drawn; i++) {
      el("rect", { x: 70 + i * 6, y: 95 - (i % 2), width: 20, height: 100, rx: 3, class: "stack-card" }, stack);
    }
    gate.setAttribute("class", state.gate ? "gate open" : "gate locked");
    gate.setAttribute("y", state.gate ? 95 : 140);
    mouth.setAttribute("class", state.power ? "mouth" : "mouth off");
    const on = state.power && state.indicator >= 0;
    lamp.setAttribute("fill", on ? LAMP[state.indicator] : "#333");
    lampText.textContent = `${w.indicator} : ${on ? w.indicators[state.indicator] : "—"}`;
    if (state.buzzer !== sounded) {
      sounded = state.buzzer;
      buzzer.classList.remove("ringing");
      void buzzer.getBoundingClientRect(); // restart the animation
      buzzer.classList.add("ringing");
    }
    waves.setAttribute("visibility", state.buzzer ? "visible" : "hidden");
    buzzText.textContent = `${w.buzzer} : ${state.buzzer}`;
    left.textContent = `${state.left} ${w.cards_left}`;
    status.textContent = `${state.gate ? w.gate_open : w.gate_locked} · ${state.power ? w.power_yes : w.power_no}` +
      ` · ${w.clock} ${(state.now / 1000).toFixed(1)} s`;
    out.setAttribute("visibility", lastCard === null ? "hidden" : "visible");
    if (lastCard !== null) {
      outName.textContent = cardName(lastCard, lang);
      outName.setAttribute("class", "card-name" + (isRed(lastCard) ? " red" : "") + (lastCard >= 52 ? " tiny" : ""));
      outCard.setAttribute("class", lastCard === 52 ? "card stop" : "card");
    }
  };
}
