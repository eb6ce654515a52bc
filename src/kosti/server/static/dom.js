// Building the page: elements whose text is always set as text, never parsed as HTML.

/** An element with attributes (`text` sets textContent, `on…` keys listen) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (["hidden", "disabled", "checked", "required", "open", "reversed"].includes(key)) node[key] = Boolean(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const CARD_FACES = { 1: "9", 2: "10", 3: "J", 4: "Q", 5: "K", 6: "A" };

/** A die face as shown: pips 1..6, or card faces 9 10 J Q K A (option faces = cards). */
export function faceText(face, cards) {
  return cards ? CARD_FACES[face] ?? String(face) : String(face);
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

function inline(text) {
  // split on **…**: odd pieces are bold
  return text.split(/\*\*(.+?)\*\*/g).map((piece, i) => (i % 2 ? el("strong", { text: piece }) : piece));
}
