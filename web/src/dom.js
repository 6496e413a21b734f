// The page's one DOM helper: the first element that matches `selector`.

export const $ = (selector) => document.querySelector(selector);
