// Every string of the page goes through t(). Dictionaries are complete per language (the type
// checks it); {name} placeholders are filled from params. Text is only ever set as textContent.
import { en, type Key } from './en';

export type { Key };
export type Lang = 'en' | 'pt-BR' | 'zh-CN';
export const LANGS: Lang[] = ['en', 'pt-BR', 'zh-CN'];

const dictionaries: Partial<Record<Lang, Record<Key, string>>> = { en };
const loaders: Record<Lang, () => Promise<Record<Key, string>>> = {
  en: async () => en,
  'pt-BR': async () => (await import('./pt_br')).ptBR,
  'zh-CN': async () => (await import('./zh_cn')).zhCN,
};

let current: Lang = 'en';
const listeners = new Set<() => void>();

export function lang(): Lang {
  return current;
}

export function t(key: Key, params: Record<string, string | number> = {}): string {
  return fill(dictionaries[current]?.[key] ?? en[key] ?? key, params);
}

/** `text` with each {name} replaced by params[name] (left as is without one): for t() and for the
 *  texts that come from the engine's registry already in the page's language. */
export function fill(text: string, params: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** The language asked for by ?lang=, else a saved choice, else the browser's, else English. */
export function detectLang(search: string, saved: string | null, browser: readonly string[]): Lang {
  const pick = (value: string | null | undefined): Lang | undefined => {
    if (!value) return undefined;
    const v = value.toLowerCase();
    if (v.startsWith('pt')) return 'pt-BR';
    if (v.startsWith('zh')) return 'zh-CN';
    if (v.startsWith('en')) return 'en';
    return undefined;
  };
  const fromUrl = pick(new URLSearchParams(search).get('lang'));
  if (fromUrl) return fromUrl;
  const fromSaved = pick(saved);
  if (fromSaved) return fromSaved;
  for (const b of browser) {
    const p = pick(b);
    if (p) return p;
  }
  return 'en';
}

/** Switches every t() to `next`. The page also marks its <html lang> and title; an embedded element
 *  passes updateDocument: false, since the host page's document is not its own. */
export async function setLang(next: Lang, { updateDocument = true } = {}): Promise<void> {
  dictionaries[next] ??= await loaders[next]();
  current = next;
  if (updateDocument) {
    document.documentElement.lang = next;
    if (document.title.startsWith('pipesim')) document.title = t('app.title');
  }
  for (const listener of listeners) listener();
}

/** Loads `next`'s dictionary without switching to it (for inLang()). */
export async function loadLang(next: Lang): Promise<void> {
  dictionaries[next] ??= await loaders[next]();
}

/** Runs `work` with every t() in `next` (loaded first with loadLang()), then restores the language.
 *  Each embedded element speaks its own language although the dictionaries are shared. */
export function inLang<T>(next: Lang, work: () => T): T {
  const saved = swapLang(next);
  try {
    return work();
  } finally {
    current = saved;
  }
}

/** Switches t() to `next` (when loaded) without telling the listeners; returns the language to restore.
 *  An element uses it around the events its views handle, which call t() themselves. */
export function swapLang(next: Lang): Lang {
  const saved = current;
  if (dictionaries[next]) current = next;
  return saved;
}

export function onLangChange(listener: () => void): void {
  listeners.add(listener);
}

/** Fills every [data-i18n] element under root (static text of index.html). */
export function applyTranslations(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('[data-i18n]').forEach((node) => {
    node.textContent = t(node.dataset.i18n as Key);
  });
  root.querySelectorAll<HTMLElement>('[data-i18n-aria-label]').forEach((node) => {
    node.setAttribute('aria-label', t(node.dataset.i18nAriaLabel as Key));
  });
}
