/**
 * Registers a custom element unless its tag is already taken (a host page may load the embed
 * script twice, or the site and the loader may both register). Never throws: an invalid tag or
 * a registry error is reported with console.warn and `false` is returned.
 * @example defineOnce('csai-status', CsaiStatusElement)
 */
export function defineOnce(tag: string, ctor: CustomElementConstructor): boolean {
  const registry = globalThis.customElements;
  if (!registry || registry.get(tag)) return false;
  try {
    registry.define(tag, ctor);
    return true;
  } catch (error) {
    // Another script may have defined the tag between the check and the call, or the tag is invalid.
    console.warn(`[csai] could not define <${tag}>:`, error);
    return false;
  }
}
