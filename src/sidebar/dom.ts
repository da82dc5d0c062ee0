/** Small DOM helpers. Text goes in through textContent only: store names and API strings are never HTML. */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`Sidebar.html has no #${id}`);
  return element as T;
}

export function setText(id: string, text: string): void {
  byId(id).textContent = text;
}

export function show(id: string, visible: boolean): void {
  byId(id).hidden = !visible;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.textContent = text;
  return node;
}
