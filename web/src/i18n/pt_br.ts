// Placeholder until the Portuguese dictionary lands: falls back to English key by key.
import type { Key } from './en';
export const ptBR = {} as Record<Key, string>;
