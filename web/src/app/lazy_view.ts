// A tab whose code is downloaded when it is first opened: the page's first load is the timeline's
// (issue: wasm + JS under 250 kB gzipped, scripts/bundle-size.mjs), and each other tab's view comes
// through a dynamic import(), which Vite emits as a chunk of its own. Until it arrives an empty
// section holds the tab's place (same id, role and labels), saying "loading" with
// data-state="loading", which the browser tests wait on; the view's own section then replaces it.
import { el } from '../base/dom';
import { t } from '../i18n';

export class LazyView<P extends { element: HTMLElement }> {
  private view: P | null = null;
  private asked = false;
  private readonly placeholder: HTMLElement;

  constructor(
    name: string,
    /** Downloads and builds the view (a dynamic import of its module). */
    private readonly build: () => Promise<P>,
    /** Runs once the view is in place: the app draws it if its tab is still the one shown. */
    private readonly arrived: () => void,
  ) {
    this.placeholder = el('section', { class: 'panel', id: `panel-${name}`, role: 'tabpanel', hidden: true, 'data-testid': `loading-${name}` });
  }

  /** The view's section once it has arrived, its placeholder until then. */
  get element(): HTMLElement {
    return this.view?.element ?? this.placeholder;
  }

  /** The view, if it has arrived. */
  get loaded(): P | null {
    return this.view;
  }

  /** The view if it has arrived; else starts downloading it (once) and returns null. */
  ensure(): P | null {
    if (this.view || this.asked) return this.view;
    this.asked = true;
    this.placeholder.dataset.state = 'loading';
    this.placeholder.setAttribute('aria-busy', 'true');
    this.placeholder.replaceChildren(el('p', { class: 'hint', role: 'status', text: t('app.viewLoading') }));
    this.build().then(
      (view) => {
        const section = view.element;
        // The placeholder's place in the tabs: which tab labels it, and whether it is shown.
        const label = this.placeholder.getAttribute('aria-labelledby');
        if (label) section.setAttribute('aria-labelledby', label);
        section.hidden = this.placeholder.hidden;
        this.placeholder.replaceWith(section);
        this.view = view;
        this.arrived();
      },
      (e: unknown) => {
        // A chunk that fails to download (offline, a new deployment): said, and asked again on the next visit.
        this.asked = false;
        this.placeholder.dataset.state = 'failed';
        this.placeholder.removeAttribute('aria-busy');
        this.placeholder.replaceChildren(el('p', { class: 'error', role: 'alert', text: t('app.viewLoadFailed', { reason: (e as Error).message ?? String(e) }) }));
      },
    );
    return null;
  }
}
