// localStorage that never breaks the page: sandboxed frames and blocked cookies make it throw.
export function load(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Nothing to keep it in: the setting lasts for this visit only.
  }
}
