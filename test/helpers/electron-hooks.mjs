// A module resolve hook (node:module register): `electron` is the stand-in of
// test/helpers/electron-stand-in.ts, so the console's main process and preload load under plain
// Node. The stand-in is resolved by the hooks after this one (tsx), which then also load it.
const standIn = new URL('./electron-stand-in.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  return next(specifier === 'electron' ? standIn : specifier, context);
}
