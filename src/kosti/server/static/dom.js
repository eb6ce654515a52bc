// Building the page: elements whose text is always set as text, never parsed as HTML.

/** An element with attributes (`text` sets textContent, `on…` keys listen) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") Object.assign(node.style, value); // CSSOM, which the page's CSP allows
    else if (["hidden", "disabled", "checked", "required", "open", "reversed"].includes(key)) node[key] = Boolean(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children (text children become text nodes). */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// pip centres on a 100 × 100 face, for each face 1..6
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[27, 27], [50, 50], [73, 73]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

/**
 * A die drawn as SVG: pips, or the card face of `rank` (9 10 J Q K A, from the catalog) when given.
 * The drawing is decorative (aria-hidden): the element that holds it carries the label.
 */
export function dieFace(face, rank = null) {
  const shape = svg("rect", { x: 3, y: 3, width: 94, height: 94, rx: 18, class: "die-body" });
  const marks = [];
  if (rank !== null) {
    const red = face === 3 || face === 4; // the jack and the queen printed red, as on the real dice
    marks.push(svg("text", { x: 50, y: 52, class: `rank${red ? " red" : ""}`, "text-anchor": "middle", "dominant-baseline": "central" }, rank));
    marks.push(svg("text", { x: 18, y: 22, class: `corner${red ? " red" : ""}`, "text-anchor": "middle", "dominant-baseline": "central" }, rank));
  } else {
    for (const [cx, cy] of PIPS[face] || []) {
      marks.push(svg("circle", { cx, cy, r: face === 1 ? 12 : 9.5, class: `pip${face === 1 ? " one" : ""}` }));
    }
  }
  return svg("svg", { viewBox: "0 0 100 100", class: "face", "aria-hidden": "true", focusable: "false" }, shape, ...marks);
}

/** The little Markdown of kosti's rules texts (## headings, paragraphs, - lists, **bold**) as elements. */
export function markdown(text) {
  const blocks = [];
  for (const block of text.trim().split(/\n\s*\n/)) {
    const lines = block.split("\n");
    if (block.startsWith("## ")) {
      blocks.push(el("h4", {}, inline(block.slice(3))));
    } else if (lines.every((line) => line.startsWith("- "))) {
      blocks.push(el("ul", {}, lines.map((line) => el("li", {}, inline(line.slice(2))))));
    } else {
      blocks.push(el("p", {}, inline(lines.join(" "))));
    }
  }
  return blocks;
}

/** One line of kosti's rules texts, its **bold** parts bold, as nodes. */
export function markdownInline(text) {
  return inline(text);
}

function inline(text) {
  // split on **…**: odd pieces are bold
  return text.split(/\*\*(.+?)\*\*/g).map((piece, i) => (i % 2 ? el("strong", { text: piece }) : piece));
}
