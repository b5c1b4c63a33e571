/** Read by the Vite plugin and svelte-check: the web is written in runes mode throughout. */
export default {
  compilerOptions: { runes: true },
};
