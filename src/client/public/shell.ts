/** Names shared by the HTML shell, the prerender script and the browser entry. */
export const PUBLIC_ROOT_ID = 'root';
export const PUBLIC_PAGE_ATTRIBUTE = 'data-page';
/** Replaced by the prerender: the page's <title>, meta and Open Graph tags. */
export const HEAD_PLACEHOLDER = '<!--public-head-->';
/** Replaced by the prerender: the root element holding the rendered page. */
export const ROOT_PLACEHOLDER = `<div id="${PUBLIC_ROOT_ID}"><!--public-body--></div>`;
/** On an island's wrapper (public/island.tsx): its name, and its props as JSON. */
export const ISLAND_ATTRIBUTE = 'data-island';
export const ISLAND_PROPS_ATTRIBUTE = 'data-island-props';
/** Set on an island's wrapper once React has hydrated it (browser tests wait for it). */
export const ISLAND_LIVE_ATTRIBUTE = 'data-island-live';
