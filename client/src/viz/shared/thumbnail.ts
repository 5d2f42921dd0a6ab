/** A chart type's gallery thumbnail: a small inline SVG drawing on a 64 × 40 box. */
export const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 40" fill="none" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;
