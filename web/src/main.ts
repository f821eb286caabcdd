// Entry point of the page: theme and language first (no flash), then the engine, then the app.
import './styles.css';
import { App } from './app/app';
import { load } from './base/storage';
import { loadEngine } from './engine/engine';
import { detectLang, setLang, t } from './i18n';
import { DEFAULT_INPUTS, DEFAULT_STATE, type PageState } from './state/page_state';
import { storage } from './state/storage_adapter';
import { Store } from './state/store';

// The page's one state: the URL's part is read by the app (url_adapter.ts), the preferences here,
// from localStorage, which keeps them as they change.
const store = new Store<PageState>({
  ...DEFAULT_STATE,
  ...DEFAULT_INPUTS,
  theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  palette: 'default',
});
storage.connect(store, { theme: 'pipesim:theme', palette: 'pipesim:palette' });
const html = document.documentElement;
html.dataset.theme = store.get().theme;
html.dataset.palette = store.get().palette;

// ?embed=1: the page without its chrome, for an iframe; it reports its height to the parent page.
const embedded = new URLSearchParams(location.search).get('embed') === '1';
if (embedded) html.classList.add('embed');

function reportHeight(root: HTMLElement): void {
  // The app's own height, not the document's: that one never drops below the frame, so the frame
  // could grow but never shrink.
  const post = () => parent.postMessage({ type: 'pipesim:resize', height: Math.ceil(root.getBoundingClientRect().height) + 8 }, '*');
  new ResizeObserver(post).observe(root);
  post();
}

async function main(): Promise<void> {
  const root = document.getElementById('app')!;
  await setLang(detectLang(location.search, load('pipesim:lang'), navigator.languages));
  try {
    const engine = await loadEngine();
    new App(root, engine, store).start();
    if (embedded && parent !== window) reportHeight(root);
  } catch (e) {
    root.dataset.state = 'failed';
    const box = document.getElementById('error')!;
    box.hidden = false;
    box.textContent = `${t('error.engineStart')} ${(e as Error).message}`;
    throw e;
  }
}

void main();
