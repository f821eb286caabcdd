// localStorage that never breaks the page: the page's storage adapter (state/storage_adapter.ts).
import { storage } from '../state/storage_adapter';

export function load(key: string): string | null {
  return storage.load(key);
}

export function store(key: string, value: string): void {
  storage.save(key, value);
}
