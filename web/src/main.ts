// Entry point of the page: theme and language first (no flash), then the engine, then the app.
import './styles.css';
import { App } from './app/app';
import { loadEngine } from './engine/engine';
import { detectLang, setLang, t } from './i18n';

const html = document.documentElement;
html.dataset.theme = localStorage.getItem('pipesim:theme') ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
html.dataset.palette = localStorage.getItem('pipesim:palette') ?? 'default';

// ?embed=1: the page without its chrome, for an iframe; it reports its height to the parent page.
const embedded = new URLSearchParams(location.search).get('embed') === '1';
if (embedded) html.classList.add('embed');

function reportHeight(): void {
  const post = () => parent.postMessage({ type: 'pipesim:resize', height: document.documentElement.scrollHeight }, '*');
  new ResizeObserver(post).observe(document.body);
  post();
}

async function main(): Promise<void> {
  const root = document.getElementById('app')!;
  await setLang(detectLang(location.search, localStorage.getItem('pipesim:lang'), navigator.languages));
  try {
    const engine = await loadEngine();
    new App(root, engine).start();
    if (embedded && parent !== window) reportHeight();
  } catch (e) {
    root.dataset.state = 'failed';
    const box = document.getElementById('error')!;
    box.hidden = false;
    box.textContent = `${t('error.engineStart')} ${(e as Error).message}`;
    throw e;
  }
}

void main();
