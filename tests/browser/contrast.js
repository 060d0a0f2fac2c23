// Every visible text on the page whose contrast with its background is below WCAG AA (4.5:1).
// Backgrounds are composed from the element and its ancestors; text over a gradient or an image,
// inside a disabled control or hidden from view is not judged here.
() => {
  function parse(c) {
    const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  function lum(c) {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  }
  function over(top, bottom) {
    const a = top[3];
    return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
  }
  function background(el) {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage && s.backgroundImage !== "none") return null;  // a gradient: not judged here
      const c = parse(s.backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
    return bg;
  }
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const t = walker.currentNode;
    if (!t.textContent.trim()) continue;
    const el = t.parentElement;
    if (!el || seen.has(el)) continue;
    seen.add(el);
    if (el.closest("template, [hidden], .visually-hidden, [aria-hidden=true] svg")) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || !el.offsetParent && getComputedStyle(el).position !== "fixed") continue;
    const s = getComputedStyle(el);
    if (s.visibility === "hidden" || +s.opacity === 0) continue;
    if (el.closest("button:disabled, [disabled]")) continue;  // WCAG: inactive controls are exempt
    const bg = background(el);
    if (!bg) continue;
    let fg = parse(s.color); fg = over(fg, bg);
    let op = 1; for (let e = el; e; e = e.parentElement) op *= +getComputedStyle(e).opacity;
    if (op < 1) fg = over([fg[0], fg[1], fg[2], op], bg);
    const l1 = lum(fg), l2 = lum(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    if (ratio < 4.5) bad.push({text: t.textContent.trim().slice(0, 40), ratio: +ratio.toFixed(2), cls: el.className && el.className.baseVal === undefined ? el.className : "", fg: s.color});
  }
  return bad;
}
