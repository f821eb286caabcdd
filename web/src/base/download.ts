// Saves text or bytes as a file the browser downloads (no server involved), and the download buttons'
// choices: the engine's table of export formats (core/io/src/export.cpp), plus the page's own PNG.
import { t, type Key } from '../i18n';
import type { ExportFormatInfo } from '../engine/engine';

export function download(name: string, content: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** One download button: `format` is an export format's name, or 'png' for the canvas. */
export interface DownloadChoice {
  format: string;
  label: string;
  extension: string;
  type: string;
}

/** The PNG of the canvas: the one file the page writes itself, so it is not in the engine's table. */
const PNG: DownloadChoice = { format: 'png', label: 'PNG 2×', extension: 'png', type: 'image/png' };

/** An export format's label in the page's language ('timeline.chromeTrace' for chrome-trace), else
 *  the engine's English label (SVG, CSV and JSON read the same in every language). */
function formatLabel(f: ExportFormatInfo): string {
  const key = `timeline.${f.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}` as Key;
  const worded = t(key);
  return worded === key ? f.label : worded;
}

/** The download buttons in order: the engine's formats as its table lists them, PNG right after SVG. */
export function downloadChoices(formats: readonly ExportFormatInfo[]): DownloadChoice[] {
  const out: DownloadChoice[] = [];
  for (const f of formats) {
    out.push({ format: f.name, label: formatLabel(f), extension: f.extension, type: f.mimeType });
    if (f.mimeType === 'image/svg+xml') out.push(PNG);
  }
  return out;
}
