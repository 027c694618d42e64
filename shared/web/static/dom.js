// The pages' elements (docs/web.md, "How it is built"): each module looks up the elements it
// uses once, at its start, by id and type (`byId`), so an id is named once per module and a
// missing or renamed element fails at load rather than at its first use; and `element`, which
// builds the rest, text always as text.

/**
 * The element of the page whose id is ``id``, checked to be a ``type`` (HTMLButtonElement ...).
 * @template {Element} T
 * @param {string} id
 * @param {new (...args: any[]) => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return found;
}

/**
 * The first element of the page that ``selector`` matches, checked to be a ``type``.
 * @template {Element} T
 * @param {string} selector
 * @param {new (...args: any[]) => T} type
 * @returns {T}
 */
export function first(selector, type) {
  const found = document.querySelector(selector);
  if (!(found instanceof type)) throw new Error(`the page has no ${type.name} ${selector}`);
  return found;
}

/**
 * A new element: ``text`` is its textContent, ``on…`` a listener, any other attribute set as
 * given (true: present, false, null or undefined: left out).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attributes]
 * @param {...(Node | string | null | undefined | (Node | string | null | undefined)[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}
