/** Names shared by the HTML shell, the prerender script and the browser entry. */
export const PUBLIC_ROOT_ID = 'root';
export const PUBLIC_PAGE_ATTRIBUTE = 'data-page';
/** Replaced by the prerender: the page's <title>, meta and Open Graph tags. */
export const HEAD_PLACEHOLDER = '<!--public-head-->';
/** Replaced by the prerender: the root element holding the rendered page. */
export const ROOT_PLACEHOLDER = `<div id="${PUBLIC_ROOT_ID}"><!--public-body--></div>`;
