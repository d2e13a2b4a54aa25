// The baseline: a Vite build of a page with no sweep-prune, subtracted from the other two.
void Promise.resolve().then(() => (document.body.textContent = ['none'].join(' ')));
